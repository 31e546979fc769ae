"""Position transport shared by the protocol servers and the external-engine player.

A game object only knows its current position; protocols send "start position + moves"
(UCI/UCCI) or stone lists (Gomocup). These helpers recover the move history by popping a
copy, and map Gomoku moves to the protocol's 0-based ``x,y`` coordinates.
"""
from __future__ import annotations

import re

from ..errors import IllegalMoveError

_POINT = re.compile(r"^([a-z])(\d+)$")


def root_and_moves(state) -> tuple[object, list]:
    """The starting position (a copy) and the moves played from it to reach ``state``."""
    root = state.copy()
    moves = []
    if hasattr(root, "ply"):
        while root.ply > 0:
            moves.append(root.pop())
    else:
        while True:
            try:
                moves.append(root.pop())
            except (IndexError, AttributeError):
                break
    moves.reverse()
    return root, moves


def fen_of(state) -> str | None:
    """The position's FEN when the game has one (``fen()`` method or attribute)."""
    fen = getattr(state, "fen", None)
    if callable(fen):
        fen = fen()
    return fen if isinstance(fen, str) else None


def board_size(state) -> int:
    """Board width of a square-board game (15 by default, the Gomocup standard)."""
    for attr in ("size", "board_size", "n"):
        v = getattr(state, attr, None)
        if isinstance(v, int) and v > 0:
            return v
    return 15


def to_xy(state, move) -> tuple[int, int]:
    """Gomocup ``x,y`` (0-based column, row) of a point move."""
    f = getattr(state, "point", None)  # the gomoku game's (col, row) of a move
    if callable(f):
        return tuple(f(move))
    m = _POINT.match(state.move_str(move).strip().lower())
    if not m:
        raise IllegalMoveError(f"cannot map move {state.move_str(move)!r} to Gomocup x,y")
    return ord(m.group(1)) - ord("a"), int(m.group(2)) - 1


def from_xy(state, x: int, y: int):
    """The move at Gomocup ``x,y``, validated by the game's ``parse_move``."""
    if not (0 <= x < 26 and y >= 0):
        raise IllegalMoveError(f"point {x},{y} is off the board")
    return state.parse_move(f"{chr(ord('a') + x)}{y + 1}")
