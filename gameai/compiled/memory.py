"""The searcher's memories for ``backend=compiled``: TT, history and killers as numpy arrays.

Each class is named by its declaration in :data:`gameai.search.memories.MEMORIES` and has
the interface of its Python counterpart (:class:`~gameai.search.tt.TranspositionTable`,
:class:`~gameai.search.ordering.History`, :class:`~gameai.search.ordering.Killers`) for the
searcher and its driver (``new_game``, ``new_search``, ``probe``, ...), and the same
rules inside the kernel (replacement and ageing, increments, two killers per ply), so a
compiled search's tables hold what the Python search's would. :class:`CompiledMemory`
adds what the compiled search needs of each: the array the core reads, a placeholder
when the memory is off, and a throwaway twin to warm the core up on.
"""
from __future__ import annotations

import copy
import sys
import threading
import weakref

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


class CompiledMemory:
    """What :class:`gameai.compiled.search.CompiledSearch` calls on every memory."""

    def new_game(self) -> None:
        """Forget everything."""

    def new_search(self) -> None:
        """A ``search`` call starts."""

    def core_array(self, kernel, G) -> np.ndarray:
        """The array the compiled core reads and writes (for the game kernel's board ``G``)."""
        raise NotImplementedError

    @staticmethod
    def off_array() -> np.ndarray:
        """The array the core gets when the memory is off (its switch slot says so)."""
        raise NotImplementedError

    def scratch(self) -> "CompiledMemory":
        """A small throwaway of the same configuration (the warm-up's one-node search)."""
        raise NotImplementedError

    def written(self) -> None:
        """The core is about to run (and may write the array)."""

    def prefault(self) -> None:
        """Fault in the array's pages before a timed search's clock (large tables only)."""


class CompiledTT(CompiledMemory):
    """``size`` slots: rows ``[key, depth, generation + flag + 1, value, move, age]`` of one
    int64 array, and a last row ``[age, slots in use, index mask, generation]``.

    A slot holds an entry only when its third column is above the table's generation (a
    multiple of 4): :meth:`clear` empties the table by raising the generation, without
    writing its slots. The array is taken on first use from the process's free tables
    (:func:`_take`) and given back when this object is collected, so a fresh searcher
    neither zeroes nor faults in a table: its search costs what its nodes cost.
    """

    def __init__(self, size: int = 1 << 20, always: bool = False) -> None:
        limit = max_slots()
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= limit:
            raise SpecError(f"tt_size must be an integer in [1, {limit}], got {size!r}")
        self.size = 1 << max(0, (size - 1).bit_length())
        self.mask = self.size - 1
        self._slab: list | None = None         # [array, resident], taken on first use
        self.touched = False
        self.always = bool(always)             # (the core reads it from its switch slot)

    @property
    def table(self) -> np.ndarray:
        slab = self._slab
        if slab is None:
            slab = self._slab = _take(self, (self.size + 1, 6))[0]
            _empty(slab[0], self.mask)
        return slab[0]

    def clear(self) -> None:
        """Empty the table (a new generation: no slot is written)."""
        if self._slab is not None:
            _empty(self._slab[0], self.mask)

    new_game = clear

    def core_array(self, kernel, G) -> np.ndarray:
        return self.table

    @staticmethod
    def off_array() -> np.ndarray:
        return CompiledTT(1).table

    def scratch(self) -> "CompiledTT":
        return CompiledTT(1, self.always)

    def prefault(self) -> None:
        """:func:`touch` the table once (a timed search's warm-up, before its clock); a
        table this process has faulted in already is not touched again."""
        if not self.touched:
            table = self.table
            if not self._slab[1]:
                touch(table)
                self._slab[1] = True
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
        table = self.table
        k, depth, flag, value, move, age = (int(x) for x in table[key & self.mask])
        flag -= int(table[-1, 3])
        if flag <= 0 or k != to_int64(key):
            return None
        return (key, depth, flag - 1, value, None if move == NO_MOVE else move, age)

    def hashfull(self) -> float:
        """Fraction of slots in use."""
        return self.used / self.size


FREE_BYTES = 256 << 20   #: free tables kept for reuse, at most this many bytes in all
_FREE: list[list] = []   # slabs [array, resident] given back, oldest first
_FREE_LOCK = threading.RLock()   # (a collection inside may give a slab back)


def _take(owner, shape: tuple) -> tuple[list, bool]:
    """A ``[array, resident]`` slab of ``shape`` for ``owner``, given back to the free
    tables when ``owner`` is collected, and whether it was free before: a free one (its
    contents stale) or a new one of zero pages (mapped lazily: the slots a search writes
    are faulted in then)."""
    slab = None
    with _FREE_LOCK:
        for i in range(len(_FREE) - 1, -1, -1):
            if _FREE[i][0].shape == shape:
                found = _FREE.pop(i)
                if sys.getrefcount(found[0]) == 2:    # nobody else holds it (the slab, the call)
                    slab = found
                    break
    reused = slab is not None
    if slab is None:
        slab = [np.zeros(shape, np.int64), False]
    weakref.finalize(owner, _give_back, slab)
    return slab, reused


def _give_back(slab: list) -> None:
    """Keep a collected owner's slab for the next :func:`_take` (the newest within
    :data:`FREE_BYTES`)."""
    with _FREE_LOCK:
        _FREE.append(slab)
        total = sum(s[0].nbytes for s in _FREE)
        while _FREE and total > FREE_BYTES:
            total -= _FREE.pop(0)[0].nbytes


def _empty(table: np.ndarray, mask: int) -> None:
    """A new generation above every entry in ``table``; age and use count zero."""
    meta = table[-1]
    meta[0], meta[1], meta[2], meta[3] = 0, 0, mask, meta[3] + 4


class CompiledHistory(CompiledMemory):
    """History scores in an array of the kernel's ``HISTORY_SIZE``; cleared per decision
    unless ``keep`` (see :class:`gameai.search.ordering.History`). The array comes from
    the process's free tables, as the TT's, and is zeroed only when a search has
    written it (``dirty``), so a fresh searcher pays no page faults for it."""

    def __init__(self, key: str = "piece", inc: str = "pow2", keep: bool = False) -> None:
        if key not in ("piece", "fromto"):
            raise SpecError(f"history_key must be 'piece' or 'fromto', got {key!r}")
        if inc not in ("pow2", "square", "gravity"):
            raise SpecError(f"history_inc must be 'pow2', 'square' or 'gravity', got {inc!r}")
        self.with_piece, self.square, self.keep = key == "piece", inc == "square", keep
        self.gravity = inc == "gravity"
        self.table = np.zeros(0, np.int64)
        self.dirty = False                     # a search may have written the table

    def sized(self, n: int) -> np.ndarray:
        """The table, made anew (zero) when a game with another key range is searched."""
        if len(self.table) != n:
            (table, _resident), reused = _take(self, (n,))
            if reused:
                table[:] = 0
            self.table, self.dirty = table, False
        return self.table

    def new_search(self) -> None:
        """A new decision: the table is cleared unless ``keep``."""
        if not self.keep:
            self.new_game()

    def new_game(self) -> None:
        if self.dirty:
            self.table[:] = 0
            self.dirty = False

    def core_array(self, kernel, G) -> np.ndarray:
        """The table, sized to the kernel's history keys for board ``G``."""
        n = kernel.HISTORY_SIZE(G) if callable(kernel.HISTORY_SIZE) else kernel.HISTORY_SIZE
        return self.sized(int(n))

    @staticmethod
    def off_array() -> np.ndarray:
        return np.zeros(1, np.int64)

    def scratch(self) -> "CompiledHistory":
        twin = copy.copy(self)
        twin.table, twin.dirty = np.zeros(0, np.int64), False
        return twin

    def written(self) -> None:
        self.dirty = True


class CompiledKillers(CompiledMemory):
    """Two most recent cut-off moves per ply (slot 0 the newest), NO_MOVE when empty."""

    def __init__(self) -> None:
        self.table = np.full((KILLER_PLIES, 2), NO_MOVE, np.int64)

    def at(self, ply: int) -> list[int]:
        return [int(m) for m in self.table[ply] if m != NO_MOVE]

    def clear(self) -> None:
        self.table[:] = NO_MOVE

    new_game = clear

    def core_array(self, kernel, G) -> np.ndarray:
        return self.table

    @staticmethod
    def off_array() -> np.ndarray:
        return CompiledKillers().table

    def scratch(self) -> "CompiledKillers":
        return CompiledKillers()
