"""``gomoku.patterns``: the 003 document's evaluation ``Σ K_i · F_i(P)`` over line patterns.

Source: ``003_0e015e2797335d1b.txt`` ("EvaluationScore = Σ K_i F_i(P), K_i feature
weights, F_i feature functions; an open four returns an extreme value"). The document
gives the form, not the features or weights, so this module defines them:

Features, counted per player on every row, column and diagonal of length >= 5:

* ``five``: a run of five (exactly five where the rule demands it: standard for both,
  renju for Black);
* ``open_four``: a straight four - two empty points, five apart, each completing five;
* ``four``: any other empty point that completes five (``X.XXX.X`` counts two);
* ``open_three``: a group of empty points (nearby points merged, gap <= 4) where one more
  stone makes a new straight four (``..XXX..``, ``.X.XX.``);
* ``three``: a group of empty points, not near an open-three point, where one more stone
  makes a new four (a closed three such as ``OXXX..``);
* ``open_two``: 6-cell windows ``.????.`` holding exactly two own stones and no opponent;
* ``two``: 5-cell windows holding exactly two own stones and no opponent.

The value for the side to move ``me`` against ``op``: a four for ``me`` wins next move
(``+win``); an open four or two fours for ``op`` (when ``me`` has no four) cannot both be
stopped (``-win // 2``); otherwise ``Σ K_i (F_i(me) − F_i(op))``, clipped to ``±win``.
Renju subtlety not modelled: a black three/four whose key point is forbidden still counts.

Speed (why it is built this way): the game keeps one base-3 code per line, updated on
push/pop (four additions per move). Each line's features depend only on its code, so
they are computed once and memoised, packed as 12-bit fields of one int; an evaluation
is a sum of ~72 dictionary look-ups plus an unpack.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

FEATURES = ("five", "open_four", "four", "open_three", "three", "open_two", "two")
_NF = len(FEATURES)
_BITS = 12
_MASK = (1 << _BITS) - 1


@dataclass(frozen=True)
class PatternWeights:
    """The K_i of Σ K_i·F_i (one parameter object) plus the win value (< 10**8)."""

    five: int = 1_000_000
    open_four: int = 100_000
    four: int = 2_500
    open_three: int = 3_000
    three: int = 500
    open_two: int = 120
    two: int = 20
    win: int = 10_000_000


def _runs_five(cells: list[int], exact: bool) -> int:
    n = 0
    run = 0
    for v in cells + [2]:
        if v == 1:
            run += 1
        else:
            if run == 5 or (run > 5 and not exact):
                n += 1
            run = 0
    return n


def _run_through(cells: list[int], e: int) -> int:
    L = len(cells)
    n = 1
    i = e + 1
    while i < L and cells[i] == 1:
        n += 1
        i += 1
    i = e - 1
    while i >= 0 and cells[i] == 1:
        n += 1
        i -= 1
    return n


def _five_points(cells: list[int], exact: bool) -> list[int]:
    out = []
    for e, v in enumerate(cells):
        if v == 0:
            n = _run_through(cells, e)
            if n == 5 or (n > 5 and not exact):
                out.append(e)
    return out


def _open_fours(cells: list[int], fp: list[int]) -> int:
    s = set(fp)
    return sum(1 for a in fp if a + 5 in s and all(cells[a + k] == 1 for k in range(1, 5)))


def _groups(points: list[int]) -> int:
    n, last = 0, None
    for p in points:
        if last is None or p - last > 4:
            n += 1
        last = p
    return n


def line_features(cells: list[int], exact: bool) -> list[int]:
    """Feature counts for one player on one line: cells 0 empty, 1 own, 2 blocked."""
    five = _runs_five(cells, exact)
    fp = _five_points(cells, exact)
    o4 = _open_fours(cells, fp)
    four = len(fp) - 2 * o4
    fps = set(fp)
    open3_pts, three_pts = [], []
    for e, v in enumerate(cells):
        if v != 0 or e in fps:
            continue
        cells[e] = 1
        fp2 = _five_points(cells, exact)
        o4b = _open_fours(cells, fp2)
        cells[e] = 0
        if o4b > o4:
            open3_pts.append(e)
        elif len(fp2) > len(fp):
            three_pts.append(e)
    three_pts = [p for p in three_pts if all(abs(p - q) > 4 for q in open3_pts)]
    L = len(cells)
    open2 = 0
    for a in range(L - 5):
        if cells[a] == 0 and cells[a + 5] == 0:
            mid = cells[a + 1:a + 5]
            if 2 not in mid and mid.count(1) == 2:
                open2 += 1
    two = 0
    for a in range(L - 4):
        w = cells[a:a + 5]
        if 2 not in w and w.count(1) == 2:
            two += 1
    return [five, o4, four, _groups(open3_pts), _groups(three_pts), open2, two]


def decode_line(code: int) -> list[int]:
    """Digits of a game line code: 0 empty, 1 black, 2 white (leading marker dropped)."""
    out = []
    while code >= 3:
        out.append(code % 3)
        code //= 3
    return out


def packed_features(code: int, exact: tuple[bool, bool]) -> int:
    """Both players' features for one line code, packed 12 bits per field."""
    digits = decode_line(code)
    packed = 0
    for player in (0, 1):
        own = player + 1
        cells = [0 if d == 0 else (1 if d == own else 2) for d in digits]
        for k, v in enumerate(line_features(cells, exact[player])):
            packed |= v << (_BITS * (player * _NF + k))
    return packed


_MEMO: dict[tuple[bool, bool], dict[int, int]] = {}


def _exactness(rule: str) -> tuple[bool, bool]:
    return {"freestyle": (False, False), "standard": (True, True), "renju": (True, False)}[rule]


def features(state) -> tuple[list[int], list[int]]:
    """Feature totals ``(black, white)`` over every line of ``state``."""
    exact = _exactness(state.rule)
    memo = _MEMO.setdefault(exact, {})
    codes = state.line_codes
    try:
        total = sum(map(memo.__getitem__, codes))
    except KeyError:
        for c in codes:
            if c not in memo:
                memo[c] = packed_features(c, exact)
        total = sum(map(memo.__getitem__, codes))
    f = [(total >> (_BITS * j)) & _MASK for j in range(2 * _NF)]
    return f[:_NF], f[_NF:]


class Patterns:
    """Σ K_i·F_i line-pattern evaluator from the side to move's view (see module doc)."""

    name = "gomoku.patterns"

    def __init__(self, **weights: int) -> None:
        known = {f.name for f in fields(PatternWeights)}
        bad = sorted(set(weights) - known)
        if bad:
            from ..errors import SpecError
            raise SpecError(f"gomoku.patterns has no weight(s) {bad}; known: {', '.join(sorted(known))}")
        self.weights = PatternWeights(**weights)
        w = self.weights
        self._k = (w.five, w.open_four, w.four, w.open_three, w.three, w.open_two, w.two)

    def __call__(self, state) -> int:
        fb, fw = features(state)
        me = len(state.placed) & 1
        fm, fo = (fb, fw) if me == 0 else (fw, fb)
        win = self.weights.win
        if fm[0]:
            return win
        if fo[0]:
            return -win
        if fm[1] or fm[2]:
            return win - 1
        if fo[1] or fo[2] >= 2:
            return -(win // 2)
        v = 0
        for k, a, b in zip(self._k, fm, fo):
            v += k * (a - b)
        return max(-win, min(win, v))
