"""Threat facts of one Gomoku/Renju line, read from the game's base-3 line code.

The game keeps one code per row, column and diagonal (``state.line_codes``: digit 0
empty, 1 black, 2 white, a leading ``3**len`` marker), updated on push/pop. Everything a
threat search asks about a line depends on that code alone, so it is computed once per
distinct code and memoised (per five rule), and a position is read as a few dozen
dictionary look-ups instead of board walks.

Per line and colour (positions are indices into the line, ``geometry.lines[lid]``):

``fives``
    empty points where a stone of the colour makes five (exactly five when the rule says
    so: standard for both colours, renju for Black) - the colour "has a four" here;
``fours``
    empty points, not five-points, where a stone makes at least one five-point: the
    moves that make a four (straight fours included);
``straights``
    those of ``fours`` that make two or more five-points on this line at once (a
    straight four ``.XXXX.``, or ``X.X.X.X``-like shapes): the opponent can block only
    one of them. A colour with such a point "has a three" on the line;
``threes``
    empty points, neither five-points nor fours, where a stone makes a new
    ``straights`` point: the moves that make a three (split threes included).

``kill(code, colour, s, exact)`` gives the empty points where an opponent stone stops
``s`` being a ``straights`` point: the complete set of line-local defences of a three.

Renju's forbidden points are not line-local and are not judged here: a search filters
Black's moves with :func:`gameai.games.gomoku_rules.forbidden_at`.
"""
from __future__ import annotations

from functools import lru_cache

NONE = ((), (), (), ())


def _digits(code: int) -> list[int]:
    out = []
    while code >= 3:
        out.append(code % 3)
        code //= 3
    return out


def _five_points(cells: list[int], own: int, exact: bool) -> list[int]:
    """Empty positions where an ``own`` stone completes five (a run through it)."""
    n = len(cells)
    out = []
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
            out.append(e)
    return out


def _near(cells: list[int], e: int, own: int) -> int:
    """Own stones within four steps of ``e`` on both sides, not past another stone."""
    n = len(cells)
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


def _straights(cells: list[int], own: int, exact: bool, skip: set[int]) -> list[int]:
    out = []
    for e in range(len(cells)):
        if cells[e] or e in skip or _near(cells, e, own) < 3:
            continue
        cells[e] = own
        if len(_five_points(cells, own, exact)) >= 2:
            out.append(e)
        cells[e] = 0
    return out


def _colour(cells: list[int], own: int, exact: bool):
    fives = _five_points(cells, own, exact)
    fset = set(fives)
    fours, straights, threes = [], [], []
    base_sf = None
    for e in range(len(cells)):
        if cells[e] or e in fset:
            continue
        k = _near(cells, e, own)
        if k < 2:
            continue
        cells[e] = own
        if k >= 3:
            nf = len(_five_points(cells, own, exact))
            if nf:
                fours.append(e)
                if nf >= 2:
                    straights.append(e)
                cells[e] = 0
                continue
        after = _straights(cells, own, exact, fset)
        cells[e] = 0
        if after:
            if base_sf is None:
                base_sf = set(_straights(cells, own, exact, fset))
            if any(s not in base_sf for s in after):
                threes.append(e)
    if not (fives or fours or threes):
        return NONE
    return tuple(fives), tuple(fours), tuple(straights), tuple(threes)


def analyse(code: int, exact: tuple[bool, bool]):
    """``(black, white)`` threat facts of one line code, or None when both are empty.

    ``exact`` is ``(black_exact, white_exact)``: whether only exactly five wins.
    """
    cells = _digits(code)
    b = _colour(cells, 1, exact[0])
    w = _colour(cells, 2, exact[1])
    if b is NONE and w is NONE:
        return None
    return b, w


@lru_cache(maxsize=1 << 18)
def kill(code: int, colour: int, s: int, exact: bool) -> tuple[int, ...]:
    """Empty positions where an opponent stone stops ``s`` making two five-points.

    ``colour`` is 0 (Black) or 1 (White); ``s`` is one of the line's ``straights``.
    """
    cells = _digits(code)
    own, opp = colour + 1, 2 - colour
    out = []
    lo, hi = max(0, s - 5), min(len(cells) - 1, s + 5)
    for q in range(lo, hi + 1):
        if cells[q]:
            continue
        cells[q] = opp
        if q == s:
            ok = False
        else:
            cells[s] = own
            ok = len(_five_points(cells, own, exact)) >= 2
            cells[s] = 0
        cells[q] = 0
        if not ok:
            out.append(q)
    return tuple(out)


_MEMO: dict[tuple[bool, bool], dict[int, object]] = {}


def memo_for(exact: tuple[bool, bool]) -> dict:
    """The shared code -> :func:`analyse` table for one five rule (filled lazily)."""
    m = _MEMO.get(exact)
    if m is None:
        m = _MEMO[exact] = {}
    return m


RULE_EXACT = {"freestyle": (False, False), "standard": (True, True), "renju": (True, False)}
