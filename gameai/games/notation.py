"""Position transport and move text for the engine protocols (UCI, UCCI, Gomocup).

A game object only knows its current position; protocols send "start position + moves"
(UCI/UCCI) or stone lists (Gomocup). These helpers recover the move history by popping a
copy, map Gomoku moves to the protocol's 0-based ``x,y`` coordinates, and translate
Xiangqi move text between ICCS (ranks 0-9, what UCCI engines and this package speak) and
the UCI Xiangqi convention of Fairy-Stockfish (ranks 1-10, ``b3b10``).

They live in the games layer because they are notation, nothing more: both the engine
servers (:mod:`gameai.engine`) and the engine player (:mod:`gameai.players.engine`) use
them without importing each other.
"""
from __future__ import annotations

import re

from ..errors import IllegalMoveError

_POINT = re.compile(r"^([a-z])(\d+)$")
_XQ_MOVE = re.compile(r"^([a-i])(\d{1,2})([a-i])(\d{1,2})$")

#: Xiangqi move notations: first rank number of each (ICCS counts 0-9, UCI as
#: Fairy-Stockfish writes it counts 1-10).
XIANGQI_RANK_BASE = {"iccs": 0, "uci": 1}


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
            except (IndexError, AttributeError, ValueError):  # ValueError: GameError on empty
                break
    moves.reverse()
    return root, moves


def fen_of(state) -> str | None:
    """The position's FEN when the game has one (``fen()`` method or attribute)."""
    fen = getattr(state, "fen", None)
    if callable(fen):
        fen = fen()
    return fen if isinstance(fen, str) else None


def variant_of(state) -> str:
    """The game's name as engines know it (``xiangqi``, ``gomoku``, ...): UCI_Variant."""
    return type(state).__name__.lower()


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


def xiangqi_convert(text: str, src: str, dst: str) -> str:
    """Rewrite Xiangqi move text from notation ``src`` to ``dst`` (``iccs`` or ``uci``).

    ``xiangqi_convert("h2e2", "iccs", "uci") == "h3e3"``; ranks outside the source
    notation's ten raise :class:`IllegalMoveError` naming the move.
    """
    try:
        shift = XIANGQI_RANK_BASE[dst] - XIANGQI_RANK_BASE[src]
    except KeyError:
        raise IllegalMoveError(f"xiangqi notation {src!r}/{dst!r}: expected "
                               f"{' or '.join(XIANGQI_RANK_BASE)}") from None
    m = _XQ_MOVE.match(text.strip())
    lo = XIANGQI_RANK_BASE[src]
    if not m or not all(lo <= int(r) <= lo + 9 and r == str(int(r))
                        for r in (m.group(2), m.group(4))):
        raise IllegalMoveError(f"xiangqi move {text!r} is not {src.upper()} text "
                               f"(file a-i, rank {lo}-{lo + 9}, twice)")
    f1, r1, f2, r2 = m.groups()
    return f"{f1}{int(r1) + shift}{f2}{int(r2) + shift}"


def detect_xiangqi_notation(start, text: str) -> str:
    """Which notation an engine's ``bestmove`` on the Xiangqi start position ``start`` uses.

    Red's pieces stand on ICCS ranks 0, 2 and 3 (1, 3 and 4 counted from 1), and the two
    readings never name the same occupied square, so exactly one of them is a legal move;
    anything else raises :class:`IllegalMoveError`.
    """
    legal = {start.move_str(m) for m in start.legal_moves()}
    found = []
    for name in XIANGQI_RANK_BASE:
        try:
            if xiangqi_convert(text, name, "iccs") in legal:
                found.append(name)
        except IllegalMoveError:
            pass
    if len(found) != 1:
        raise IllegalMoveError(f"cannot tell the engine's Xiangqi notation from its move "
                               f"{text!r} on the start position")
    return found[0]
