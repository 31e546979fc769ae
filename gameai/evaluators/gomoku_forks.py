"""``gomoku.forks``: ``gomoku.tuned`` plus what one stone on one point would make.

A line-pattern sum sees each line alone, so it cannot tell a position where an open
three and a four meet on one empty point (a four-three: a win in two moves) from one
where they lie apart. Strong programs score each empty point by the combination of the
four lines through it (Rapfi's ``Pattern4``, ``Rapfi/core/types.h``). Here, per colour
and per empty point, the line facts of :mod:`gameai.games.gomoku_lines` (five-points,
four-points, straight-four points and three-points) are read in the four directions and combined into one kind. On a line
where a colour already has a five-point only that point counts for it (the opponent must
block there; ``gomoku_lines`` counts every point near such a four as a four-point).

* ``double_four_point``: a straight four on one line, or fours on two lines;
* ``four_three_point``: a four on one line and an open three on another;
* ``double_three_point``: open threes on two lines (and no four);
* ``four_point``: a four on one line only;
* ``three_point``: an open three on one line only.

Features (side to move ``me`` against ``op``): ``gomoku.tuned``'s, then the number of
points of each kind for ``me`` and for ``op``. A point Renju forbids Black (judged by
:func:`gameai.games.gomoku_rules.forbidden_at`) counts as nothing. The decided cases are
rules: a five on the board wins or loses; a point where ``me`` makes five wins next
move; two distinct points where ``op`` makes five cannot both be stopped (two fours
completed on one point are one threat). With no weights file the new weights are 0, so
it equals ``gomoku.patterns`` (tested). ``backend=compiled`` runs the same values
(:mod:`gameai.compiled.gomoku_forks`).
"""
from __future__ import annotations

from ..games.gomoku_lines import RULE_EXACT, analyse, memo_for
from ..games.gomoku_rules import BLACK, forbidden_at
from .gomoku_tuned import FEATURES as TUNED, GomokuTuned, counts_features

KINDS = ("double_four_point", "four_three_point", "double_three_point", "four_point",
         "three_point")
FEATURES = TUNED + tuple(f"me_{k}" for k in KINDS) + tuple(f"op_{k}" for k in KINDS)
FIVE = -1                                 # a point's kind when it completes five
_MISSING = object()


def point_kind(fives: int, straights: int, fours: int, threes: int) -> int | None:
    """The kind (index into KINDS, or FIVE) of one point from how many of its four lines
    make each fact there (``fours`` counts fours that are not straight fours)."""
    if fives:
        return FIVE
    if straights or fours >= 2:
        return 0
    if fours:
        return 1 if threes else 3
    if threes >= 2:
        return 2
    return 4 if threes else None


def point_kinds(state) -> tuple[list[int], list[int], list[int]]:
    """Per colour (Black, White) the number of points of each kind, and per colour the
    number of distinct five-points."""
    exact = RULE_EXACT[state.rule]
    memo = memo_for(exact)
    lines = state.geo.lines
    tally: tuple[dict[int, list[int]], dict[int, list[int]]] = ({}, {})
    for lid, code in enumerate(state.line_codes):
        facts = memo.get(code, _MISSING)
        if facts is _MISSING:
            facts = memo[code] = analyse(code, exact)
        if facts is None:
            continue
        line = lines[lid]
        for colour in (0, 1):
            fives, fours, straights, threes = facts[colour]
            if fives:                   # a line with a four: only its five-point counts
                facts_here: tuple = ((0, fives),)
            elif fours or threes:
                facts_here = ((1, straights), (2, fours), (3, threes))
            else:
                continue
            t = tally[colour]
            for k, positions in facts_here:
                for pos in positions:
                    c = t.get(line[pos])
                    if c is None:
                        c = t[line[pos]] = [0, 0, 0, 0]
                    c[k] += 1
    counts = ([0] * len(KINDS), [0] * len(KINDS))
    five_points = [0, 0]
    renju = state.rule == "renju"
    for colour in (0, 1):
        for p, (f, s, b, t) in tally[colour].items():
            kind = point_kind(f, s, b - s, t)      # ``fours`` holds the straight fours too
            if kind is None:
                continue
            if kind == FIVE:
                five_points[colour] += 1
                continue
            if (renju and colour == BLACK
                    and forbidden_at(state.board, p, state.geo.dirs) is not None):
                continue
            counts[colour][kind] += 1
    return counts[0], counts[1], five_points


class GomokuForks(GomokuTuned):
    """``gomoku.tuned`` with the kinds of the points (see the module doc); weights from
    ``gameai tune --eval gomoku.forks`` or the defaults (= ``gomoku.patterns``)."""

    name = "gomoku.forks"
    FEATURES = FEATURES

    def _all(self, state):
        me, op = self.counts(state)
        kb, kw, fives = point_kinds(state)
        if len(state.placed) & 1:
            return me, op, kw, kb, fives[1], fives[0]
        return me, op, kb, kw, fives[0], fives[1]

    def _decided(self, me, op, fives_me: int, fives_op: int) -> int | None:
        win = self.win
        if me[0]:
            return win
        if op[0]:
            return -win
        if fives_me:
            return win - 1
        if fives_op >= 2:
            return -(win // 2)
        return None

    def tunable(self, state) -> bool:
        me, op, _, _, fm, fo = self._all(state)
        return self._decided(me, op, fm, fo) is None

    def features(self, state) -> list[float]:
        me, op, km, ko, _, _ = self._all(state)
        return counts_features(me, op) + [float(x) for x in km] + [float(x) for x in ko]

    def __call__(self, state) -> int:
        me, op, km, ko, fm, fo = self._all(state)
        v = self._decided(me, op, fm, fo)
        if v is not None:
            return v
        f = counts_features(me, op) + km + ko
        lin = sum(w * x for w, x in zip(self.weights, f) if w)
        return max(-self.win, min(self.win, int(round(lin))))
