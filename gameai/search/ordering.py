"""Move ordering: the history heuristic (000 document), killer moves and MVV-LVA.

History (000): after a node whose best move raised alpha, that move's key gets
``+= 2**depth`` (``inc="pow2"``, the document's ``1 << depth``) or ``+= depth**2``
(``inc="square"``); moves are then tried in decreasing history score. ``inc="gravity"``
is Stockfish 11's butterfly history: the best move, when quiet, gets a bonus that grows
with depth (:func:`stat_bonus`) and every quiet move searched before it at that node the
same as a malus, each entry moving by ``bonus - entry * |bonus| / HISTORY_MAX`` so that it
stays within ``HISTORY_MAX`` and old entries fade: a table that can be kept from move to
move (``keep``). The key is the
game's ``history_key(move, with_piece)``: ``with_piece=False`` is the textbook
(from, to) key, ``True`` adds the moving piece as the 000 author argues. Games without
``history_key`` use the move itself. The table is cleared before every decision unless
``keep`` is set (000 clears it for Xiangqi, keeps it for the whole Gomoku game).
"""
from __future__ import annotations

from typing import Any, Callable

from ..errors import SpecError

HISTORY_MAX = 10692      #: gravity history's bound (Stockfish 11's butterfly history)


def stat_bonus(depth: int) -> int:
    """Stockfish 11's history bonus at remaining ``depth``: ``29 d² + 138 d - 134`` up to
    depth 17, then 0 (33 at depth 1, 4,146 at depth 10)."""
    return 0 if depth > 17 else 29 * depth * depth + 138 * depth - 134


def gravity(entry: int, bonus: int) -> int:
    """``entry`` moved by ``bonus`` (negative: a malus) with the pull towards 0 that keeps
    it within ``HISTORY_MAX`` (integer arithmetic, the same in the compiled core)."""
    return entry + bonus - entry * abs(bonus) // HISTORY_MAX


class History:
    """Score table ``key -> int``; see the module docstring."""

    def __init__(self, key: str = "piece", inc: str = "pow2", keep: bool = False) -> None:
        if key not in ("piece", "fromto"):
            raise SpecError(f"history_key must be 'piece' or 'fromto', got {key!r}")
        if inc not in ("pow2", "square", "gravity"):
            raise SpecError(f"history_inc must be 'pow2', 'square' or 'gravity', got {inc!r}")
        self.with_piece = key == "piece"
        self.square = inc == "square"
        self.gravity = inc == "gravity"
        self.keep = keep
        self.table: dict[Any, int] = {}

    def key_function(self, state) -> Callable[[Any], Any]:
        """A one-argument move -> key function bound to ``state``."""
        hk = getattr(state, "history_key", None)
        if hk is None:
            return lambda m: m
        wp = self.with_piece
        return lambda m: hk(m, wp)

    def increment(self, depth: int) -> int:
        if self.gravity:
            return stat_bonus(depth)
        return depth * depth if self.square else 1 << max(depth, 0)

    def new_search(self) -> None:
        """A new decision: the table is cleared unless ``keep``."""
        if not self.keep:
            self.table.clear()

    def new_game(self) -> None:
        self.table.clear()


class Killers:
    """Two most recent cutoff moves per ply, tried right after the TT move."""

    def __init__(self) -> None:
        self.slots: list[list[Any]] = []

    def at(self, ply: int) -> list[Any]:
        while len(self.slots) <= ply:
            self.slots.append([])
        return self.slots[ply]

    def add(self, ply: int, move: Any) -> None:
        s = self.at(ply)
        if s and s[0] == move:
            return
        s.insert(0, move)
        del s[2:]

    def clear(self) -> None:
        self.slots = []

    new_game = clear      #: a new game forgets them

    def new_search(self) -> None:
        """Nothing: a search starts from the killers the last one left."""


def mvv_lva_key(state) -> Callable[[Any], int] | None:
    """The game's MVV-LVA capture score ``mvv_lva(move)`` (most valuable victim first,
    least valuable attacker breaking ties; 0 for a quiet move), or None when the game
    has no captures. Sorting by it (stable, decreasing) puts captures first."""
    return getattr(state, "mvv_lva", None)
