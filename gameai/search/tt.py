"""Transposition table: a fixed-size array of entries indexed by the low bits of the key.

Entry: ``(key, depth, flag, value, move, age)`` with flag EXACT (value is the node's
value), LOWER (the search failed high: value <= true value, i.e. value >= beta) or
UPPER (failed low: true value <= value). Mate values are stored relative to the node
(``to_tt``/``from_tt``) so that they stay correct when found at another ply.

Replacement scheme (one slot per index, "depth-preferred with ageing"): a new entry
replaces the slot's entry unless that entry was written by the current ``search`` call
with a greater depth (whatever position it holds). So the deepest results of the
current search survive, and entries of earlier searches are recycled first. The
searchers' ``tt_replace=always`` switches to the simplest scheme, where every store
overwrites its slot (Breuker, Uiterwijk & van den Herik 1994 compare the two).
"""
from __future__ import annotations

import os

from .stats import MATE_BOUND

EXACT, LOWER, UPPER = 0, 1, 2
ENTRY_BYTES = 200     #: measured upper bound of one filled slot (tuple, key int, list pointer)


def max_slots() -> int:
    """Largest ``tt_size`` accepted: a full table must fit in half the physical memory."""
    try:
        phys = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):   # not POSIX: assume 4 GiB
        phys = 4 << 30
    return 1 << max(10, (phys // 2 // ENTRY_BYTES).bit_length() - 1)


def to_tt(value: int, ply: int) -> int:
    """Make a mate value relative to the node at ``ply`` before storing it."""
    if value >= MATE_BOUND:
        return value + ply
    if value <= -MATE_BOUND:
        return value - ply
    return value


def from_tt(value: int, ply: int) -> int:
    """Inverse of :func:`to_tt` for a node found at ``ply``."""
    if value >= MATE_BOUND:
        return value - ply
    if value <= -MATE_BOUND:
        return value + ply
    return value


class TranspositionTable:
    """``size`` slots (rounded up to a power of two); see the module docstring."""

    def __init__(self, size: int = 1 << 20, always: bool = False) -> None:
        limit = max_slots()
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= limit:
            from ..errors import SpecError
            raise SpecError(f"tt_size must be an integer in [1, {limit}] (slots; the upper bound "
                            f"keeps a full table within half of this machine's memory), got {size!r}")
        bits = max(0, (size - 1).bit_length())
        self.size = 1 << bits
        self.mask = self.size - 1
        self.slots: list = [None] * self.size
        self.age = 0
        self.used = 0
        self.always = bool(always)         # always-replace instead of depth-preferred

    def clear(self) -> None:
        self.slots = [None] * self.size
        self.age = 0
        self.used = 0

    new_game = clear      #: a new game forgets every entry

    def new_search(self) -> None:
        """Called at the start of each ``search``: older entries become replaceable."""
        self.age += 1

    def probe(self, key: int):
        """The entry for ``key`` or None."""
        e = self.slots[key & self.mask]
        if e is not None and e[0] == key:
            return e
        return None

    def store(self, key: int, depth: int, flag: int, value: int, move, ply: int) -> None:
        i = key & self.mask
        old = self.slots[i]
        if old is None:
            self.used += 1
        elif not self.always and old[5] == self.age and old[1] > depth:
            return
        self.slots[i] = (key, depth, flag, to_tt(value, ply), move, self.age)

    def hashfull(self) -> float:
        """Fraction of slots in use."""
        return self.used / self.size
