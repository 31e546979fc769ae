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

import inspect
from dataclasses import dataclass, fields
from typing import Annotated

from ..spec import Range

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
_EXACT = {"freestyle": (False, False), "standard": (True, True), "renju": (True, False)}


def _features_memo(exact: tuple[bool, bool]) -> dict[int, int]:
    memo = _MEMO.get(exact)
    if memo is None:
        memo = _MEMO[exact] = {}
    return memo


def line_packed(code: int, exact: tuple[bool, bool]) -> int:
    """Memoised :func:`packed_features`."""
    memo = _features_memo(exact)
    v = memo.get(code)
    if v is None:
        v = memo[code] = packed_features(code, exact)
    return v


def _memo_sum(memo: dict, codes, compute, exact: bool) -> int:
    """Sum of ``memo[c]`` over the line codes, computing (once) the codes not seen yet."""
    try:
        return sum(map(memo.__getitem__, codes))
    except KeyError:
        for c in codes:
            if c not in memo:
                memo[c] = compute(c, exact)
        return sum(map(memo.__getitem__, codes))


def features(state) -> tuple[list[int], list[int]]:
    """Feature totals ``(black, white)`` over every line of ``state``."""
    exact = _EXACT[state.rule]
    memo = _features_memo(exact)
    total = _memo_sum(memo, state.line_codes, packed_features, exact)
    f = [(total >> (_BITS * j)) & _MASK for j in range(2 * _NF)]
    return f[:_NF], f[_NF:]


class LineMemo(dict):
    """Line code -> packed value, computed on first use (``__missing__``), so that the
    game can look codes up while it keeps its incremental line sum."""

    __slots__ = ("compute", "exact")

    def __init__(self, compute, exact: tuple[bool, bool]) -> None:
        super().__init__()
        self.compute, self.exact = compute, exact

    def __missing__(self, code: int) -> int:
        v = self[code] = self.compute(code, self.exact)
        return v


_OFF = 1 << 40        # keeps each line's (possibly negative) linear score non-negative
_TBITS = 8 * _BITS    # threat fields: five, open four, four, open three for black, then white
_WHITE = 4 * _BITS    # where white's threat fields start


class Patterns:
    """Σ K_i·F_i line-pattern evaluator from the side to move's view (see module doc).

    Per line code it memoises one int: the threat counts (five, open four, four, open
    three, both players) in the low bits and ``Σ K_i (F_i(black) − F_i(white)) + 2**40``
    above them, so one evaluation is a single ``sum`` over the line codes plus a few shifts.
    """

    name = "gomoku.patterns"
    games = ("gomoku", "renju")  # the games it can score (checked by make_evaluator)

    def __init__(self, **weights: Annotated[int, Range(-10 ** 12, 10 ** 12)]) -> None:
        known = {f.name for f in fields(PatternWeights)}
        bad = sorted(set(weights) - known)
        if bad:
            from ..errors import SpecError
            raise SpecError(f"gomoku.patterns has no weight(s) {bad}; known: {', '.join(sorted(known))}")
        self.weights = PatternWeights(**weights)
        w = self.weights
        self._k = (w.five, w.open_four, w.four, w.open_three, w.three, w.open_two, w.two)
        self._memo: dict[tuple[bool, bool], LineMemo] = {}

    def _line_value(self, code: int, exact: tuple[bool, bool]) -> int:
        packed = line_packed(code, exact)
        f = [(packed >> (_BITS * j)) & _MASK for j in range(2 * _NF)]
        lin = sum(k * (a - b) for k, a, b in zip(self._k, f[:_NF], f[_NF:]))
        threats = 0
        for j, v in enumerate(f[0:4] + f[_NF:_NF + 4]):
            threats |= v << (_BITS * j)
        return ((lin + _OFF) << _TBITS) | threats

    def full_total(self, state) -> int:
        """The packed line sum computed from every line (what the incremental sum must equal)."""
        exact = _EXACT[state.rule]
        return _memo_sum(self._line_memo(exact), state.line_codes, self._line_value, exact)

    def _line_memo(self, exact: tuple[bool, bool]) -> LineMemo:
        memo = self._memo.get(exact)
        if memo is None:
            memo = self._memo[exact] = LineMemo(self._line_value, exact)
        return memo

    def _total(self, state) -> int:
        """The packed line sum: kept by the game on push/pop once this memo is attached."""
        memo = self._line_memo(_EXACT[state.rule])
        if state.line_table is not memo:
            state.attach_line_table(memo)
        return state.line_sum

    def __call__(self, state) -> int:
        codes = state.line_codes
        total = self._total(state)
        lin = (total >> _TBITS) - len(codes) * _OFF
        if len(state.placed) & 1:   # white to move: white's threat fields are "me"
            lin = -lin
            m, o = total >> _WHITE, total
        else:
            m, o = total, total >> _WHITE
        five_m, o4_m, four_m = m & _MASK, (m >> 12) & _MASK, (m >> 24) & _MASK
        five_o, o4_o, four_o = o & _MASK, (o >> 12) & _MASK, (o >> 24) & _MASK
        win = self.weights.win
        if five_m:
            return win
        if five_o:
            return -win
        if o4_m or four_m:
            return win - 1
        if o4_o or four_o >= 2:
            return -(win // 2)
        return max(-win, min(win, lin))


# Spec parameters are exactly the weights: gameai list shows them and the registry checks them.
Patterns.__signature__ = inspect.signature(PatternWeights)
