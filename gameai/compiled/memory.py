"""The searcher's memories for ``backend=compiled``: TT, history and killers as numpy arrays.

Each class has the interface of its Python counterpart (:class:`~gameai.search.tt.TranspositionTable`,
:class:`~gameai.search.ordering.History`, :class:`~gameai.search.ordering.Killers`) for the
searcher's driver (``new_search``, ``probe``, ``new_decision``, ``clear``, ...), and the same
rules inside the kernel (replacement and ageing, increments, two killers per ply), so a
compiled search's tables hold what the Python search's would.
"""
from __future__ import annotations

import numpy as np

from ..errors import SpecError
from ..search.tt import max_slots
from .pages import touch

NO_MOVE = -(1 << 63)     #: "no move" in the arrays (gameai.compiled.core.NO_MOVE)
KILLER_PLIES = 600       #: killer rows: deeper than any search line (spec.Depth + extensions)
_SIGN = 1 << 63


def to_int64(key: int) -> int:
    """A Python 64-bit key (0 <= key < 2**64) as the kernels' int64 (two's complement)."""
    return key - (1 << 64) if key >= _SIGN else key


class CompiledTT:
    """``size`` slots: rows ``[key, depth, flag + 1 (0 = empty), value, move, age]`` of one
    int64 array, and a last row ``[age, slots in use, index mask]``."""

    def __init__(self, size: int = 1 << 20) -> None:
        limit = max_slots()
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= limit:
            raise SpecError(f"tt_size must be an integer in [1, {limit}], got {size!r}")
        self.size = 1 << max(0, (size - 1).bit_length())
        self.mask = self.size - 1
        self.clear()

    def clear(self) -> None:
        self.table = np.zeros((self.size + 1, 6), np.int64)    # zero pages: allocated lazily
        self.table[-1, 2] = self.mask
        self.touched = False

    def prefault(self) -> None:
        """:func:`touch` the table once (a timed search's warm-up, before its clock)."""
        if not self.touched:
            touch(self.table)
            self.touched = True

    @property
    def age(self) -> int:
        return int(self.table[-1, 0])

    @property
    def used(self) -> int:
        return int(self.table[-1, 1])

    def new_search(self) -> None:
        """Called at the start of each ``search``: older entries become replaceable."""
        self.table[-1, 0] += 1

    def probe(self, key: int):
        """The entry for ``key`` (a Python key) or None, as the Python table's tuple."""
        k, depth, flag, value, move, age = (int(x) for x in self.table[key & self.mask])
        if not flag or k != to_int64(key):
            return None
        return (key, depth, flag - 1, value, None if move == NO_MOVE else move, age)

    def hashfull(self) -> float:
        """Fraction of slots in use."""
        return self.used / self.size


class CompiledHistory:
    """History scores in an array of the kernel's ``HISTORY_SIZE``; cleared per decision
    unless ``keep`` (see :class:`gameai.search.ordering.History`)."""

    def __init__(self, key: str = "piece", inc: str = "pow2", keep: bool = False) -> None:
        if key not in ("piece", "fromto"):
            raise SpecError(f"history_key must be 'piece' or 'fromto', got {key!r}")
        if inc not in ("pow2", "square"):
            raise SpecError(f"history_inc must be 'pow2' or 'square', got {inc!r}")
        self.with_piece, self.square, self.keep = key == "piece", inc == "square", keep
        self.table = np.zeros(0, np.int64)

    def sized(self, n: int) -> np.ndarray:
        """The table, made anew (zero) when a game with another key range is searched."""
        if len(self.table) != n:
            self.table = np.zeros(n, np.int64)
        return self.table

    def new_decision(self) -> None:
        if not self.keep:
            self.table[:] = 0

    def new_game(self) -> None:
        self.table[:] = 0


class CompiledKillers:
    """Two most recent cut-off moves per ply (slot 0 the newest), NO_MOVE when empty."""

    def __init__(self) -> None:
        self.table = np.full((KILLER_PLIES, 2), NO_MOVE, np.int64)

    def at(self, ply: int) -> list[int]:
        return [int(m) for m in self.table[ply] if m != NO_MOVE]

    def clear(self) -> None:
        self.table[:] = NO_MOVE
