"""Fault in a table's memory pages before a search's clock starts (:func:`touch`)."""
from __future__ import annotations

import numpy as np


def touch(a: np.ndarray) -> None:
    """Fault in every memory page of ``a``, its values unchanged.

    Why: ``np.zeros`` maps a large array lazily, and on Linux numpy asks for transparent
    huge pages for it, so the first write to each 2 MiB of a fresh table can stall while
    the kernel zeroes, or first compacts, memory. Inside a search that is time on the
    move's clock no node count sees: measured, a 0.5 s threat search on a new searcher
    that ran 0.58-0.67 s and reached depth 2 where the next reached 6. Engines clear their
    hash table before the first search for the same reason (Stockfish at start-up)."""
    if not a.flags.c_contiguous:
        raise ValueError("touch: the array must be contiguous (a copy would be touched)")
    flat = a.reshape(-1)
    step = max(1, 4096 // max(1, a.itemsize))
    pages = flat[::step]
    pages[...] = pages.copy()           # a write to each page, of the value it holds
