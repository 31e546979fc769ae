"""Compiled threat facts of one Gomoku/Renju line (:mod:`gameai.games.gomoku_lines`, in numba).

The same facts from the same base-3 line code, step for step as the readable Python
definition (``analyse``, ``kill``): per colour the five-points, four-points, straight-four
points and three-points of a line, each a bit mask of positions in the line (a line has
at most 26 points, so a mask is one int64 word, and reading its bits upward gives the
Python list's order).

The memo (what ``gomoku_lines.memo_for`` keeps in a dict) is an open-addressing table
keyed by the code and the five rule: slot ``s`` holds ``memo[5s]`` = key (0 empty),
``memo[5s + 1 + 2 * colour]`` = fives | fours << 32 and ``memo[5s + 2 + 2 * colour]`` =
straights | threes << 32. It is cleared when half full (the facts are recomputed on a miss,
so a clear changes nothing but speed). One table per arena of solvers
(:class:`gameai.compiled.threats.Arena`).
"""
from __future__ import annotations

import numpy as np

from .jit import jit

MEMO_BITS = 17                      #: slots of the memo (2**17 line codes, cleared when half full)
LOW = (1 << 32) - 1
MULT = -7046029254386353131         # 0x9E3779B97F4A7C15 as int64: Fibonacci hashing


@jit(_nrt=False)
def digits(code, cells):
    """``_digits``: the line's points (0 empty, 1 black, 2 white) into ``cells``; its length."""
    n = 0
    while code >= 3:
        cells[n] = code % 3
        code //= 3
        n += 1
    return n


@jit(_nrt=False)
def five_points(cells, n, own, exact):
    """``_five_points`` as a mask: empty positions where an ``own`` stone completes five."""
    out = 0
    for e in range(n):
        if cells[e]:
            continue
        run = 1
        i = e + 1
        while i < n and cells[i] == own:
            run += 1
            i += 1
        i = e - 1
        while i >= 0 and cells[i] == own:
            run += 1
            i -= 1
        if run == 5 or (run > 5 and not exact):
            out |= np.int64(1) << e
    return out


@jit(_nrt=False, inline="always")
def popcount(x):
    k = 0
    while x:
        x &= x - 1
        k += 1
    return k


@jit(_nrt=False)
def _near(cells, n, e, own):
    """Own stones within four steps of ``e`` on both sides, not past another stone."""
    k = 0
    for step in (1, -1):
        i = e + step
        for _ in range(4):
            if not 0 <= i < n:
                break
            v = cells[i]
            if v == own:
                k += 1
            elif v:
                break
            i += step
    return k


@jit(_nrt=False)
def _straights(cells, n, own, exact, skip):
    out = 0
    for e in range(n):
        if cells[e] or (skip >> e) & 1 or _near(cells, n, e, own) < 3:
            continue
        cells[e] = own
        if popcount(five_points(cells, n, own, exact)) >= 2:
            out |= np.int64(1) << e
        cells[e] = 0
    return out


@jit(_nrt=False)
def _colour(cells, n, own, exact):
    """``_colour``: (fives, fours, straights, threes) masks of one colour."""
    fives = five_points(cells, n, own, exact)
    fours = straights = threes = 0
    base_sf = -1                        # not computed yet (None)
    for e in range(n):
        if cells[e] or (fives >> e) & 1:
            continue
        k = _near(cells, n, e, own)
        if k < 2:
            continue
        cells[e] = own
        if k >= 3:
            nf = popcount(five_points(cells, n, own, exact))
            if nf:
                fours |= np.int64(1) << e
                if nf >= 2:
                    straights |= np.int64(1) << e
                cells[e] = 0
                continue
        after = _straights(cells, n, own, exact, fives)
        cells[e] = 0
        if after:
            if base_sf < 0:
                base_sf = _straights(cells, n, own, exact, fives)
            if after & ~base_sf:
                threes |= np.int64(1) << e
    return fives, fours, straights, threes


@jit(_nrt=False)
def facts(memo, code, exb, exw, cells):
    """The memo slot (its first word's index) holding ``analyse(code, (exb, exw))``."""
    nslots = (memo.shape[0] - 1) // 5
    k = code * 4 + exb * 2 + exw + 1
    h = ((k * MULT) >> 20) & (nslots - 1)
    while True:
        s = 5 * h
        if memo[s] == k:
            return s
        if memo[s] == 0:
            break
        h = (h + 1) & (nslots - 1)
    if memo[-1] * 2 >= nslots:          # half full: start again (a miss recomputes)
        for j in range(nslots):
            memo[5 * j] = 0
        memo[-1] = 0
        h = ((k * MULT) >> 20) & (nslots - 1)
        s = 5 * h
    memo[-1] += 1
    n = digits(code, cells)
    f0, f1, s0, t0 = _colour(cells, n, 1, exb != 0)
    f2, f3, s2, t2 = _colour(cells, n, 2, exw != 0)
    memo[s] = k
    memo[s + 1] = f0 | (f1 << 32)
    memo[s + 2] = s0 | (t0 << 32)
    memo[s + 3] = f2 | (f3 << 32)
    memo[s + 4] = s2 | (t2 << 32)
    return s


@jit(_nrt=False, inline="always")
def mask_of(w1, w2, colour, kind):
    """One fact mask of a slot's words ``w1 = memo[s+1+2c]``, ``w2 = memo[s+2+2c]``
    (0 fives, 1 fours, 2 straights, 3 threes)."""
    w = w1 if kind < 2 else w2
    return (w >> (32 * (kind & 1))) & LOW


@jit(_nrt=False)
def kill(code, colour, s, exact, cells):
    """``kill`` as a mask: positions where an opponent stone stops ``s`` making two
    five-points (``colour`` 0 Black, 1 White; ``s`` one of its straight-four points)."""
    n = digits(code, cells)
    own, opp = colour + 1, 2 - colour
    out = 0
    for q in range(max(0, s - 5), min(n - 1, s + 5) + 1):
        if cells[q]:
            continue
        cells[q] = opp
        if q == s:
            ok = False
        else:
            cells[s] = own
            ok = popcount(five_points(cells, n, own, exact)) >= 2
            cells[s] = 0
        cells[q] = 0
        if not ok:
            out |= np.int64(1) << q
    return out
