"""``gomoku.forks`` in the Gomoku/Renju kernel: :mod:`gameai.evaluators.gomoku_forks`
step for step, the weights as data (any weights file runs without compiling again).

``data = (w, f, e, lm, t)``: ``w`` the 30 weights in ``FEATURES`` order, then ``w[WIN]``
and ``w[COMP]`` (as :mod:`gameai.compiled.gomoku_tuned`); ``f`` the feature vector
(scratch); ``e`` ``gomoku.tuned``'s memo of line pattern counts (shared); ``lm`` the
threat facts' memo (:func:`gameai.compiled.threats_lines.facts`, the Python
``gomoku_lines.memo_for``); ``t`` the per-point tallies (below) and the line geometry.
An evaluation sums the lines' pattern counts, then reads every line's facts into per
point, per colour tallies of five-points, straight fours, fours and threes (only the
points a line names are touched, and reset after), and combines each point's four lines
into its kind (:func:`gameai.evaluators.gomoku_forks.point_kind`).
"""
from __future__ import annotations

import numpy as np

from ..games.gomoku_rules import BLACK
from .gomoku_board import (CODES, EXB, EXW, F_NONE, H, NCM, NLINES, NPLACED, RENJU, RULE,
                           forbidden_at, trailing_zeros)
from .gomoku_tuned import NF as NT, NP, TOT, line_totals, memo, tuned_features
from .jit import jit
from .linear import COMPENSATED, linear_sum, round_half_even
from .threats_lines import MEMO_BITS, facts, mask_of

NK = 5                          #: gomoku_forks.KINDS
NF = NT + 2 * NK                #: gomoku_forks.FEATURES
WIN, COMP = NF, NF + 1          #: after the weights in ``w``
# t: per colour and point 4 tallies (five, straight, four, three) at 4 * (colour * NCM + p),
# then the touched points per colour, their numbers, the line geometry, scratch
T_TOUCH = 8 * NCM
T_NTOUCH = T_TOUCH + 2 * NCM
T_LINES = T_NTOUCH + 2
LINE_MAX = 26
T_CELLS = T_LINES + 160 * LINE_MAX
T_SIZE = T_CELLS + 32

_FACTS: list = []               # the process's memo of line facts


def data(weights, win: int, state) -> tuple:
    """The kernel data for weights in feature order, the win value and ``state``'s board."""
    w = np.zeros(NF + 2, np.float64)
    w[:NF] = weights
    w[WIN], w[COMP] = float(win), float(COMPENSATED)
    if not _FACTS:
        _FACTS.append(np.zeros(5 * (1 << MEMO_BITS) + 1, np.int64))
    t = np.zeros(T_SIZE, np.int64)
    for lid, line in enumerate(state.geo.lines):
        t[T_LINES + LINE_MAX * lid:T_LINES + LINE_MAX * lid + len(line)] = line
    return (w, np.zeros(NF, np.float64), memo(), _FACTS[0], t)


def form(ev, state) -> tuple | None:
    """``(evaluate, data)`` for a ``gomoku.forks`` object with any weights, else None."""
    from ..evaluators.gomoku_forks import GomokuForks
    if type(ev) is not GomokuForks:
        return None
    return evaluate, data(ev.weights, ev.win, state)


@jit(_nrt=False)
def point_kind(f, s, b, th):
    """``gomoku_forks.point_kind``: -1 five, 0..4 the kinds, 5 none."""
    if f:
        return -1
    if s or b >= 2:
        return 0
    if b:
        return 1 if th else 3
    if th >= 2:
        return 2
    return 4 if th else 5


@jit(_nrt=False)
def _tally(g, lm, t):
    """Every line's facts into the per point tallies (``point_kinds``' first loop)."""
    exb, exw = g[H + EXB], g[H + EXW]
    cells = t[T_CELLS:T_SIZE]
    for lid in range(g[H + NLINES]):
        s = facts(lm, g[CODES + lid], exb, exw, cells)
        for colour in range(2):
            w1, w2 = lm[s + 1 + 2 * colour], lm[s + 2 + 2 * colour]
            fives = mask_of(w1, w2, colour, 0)
            if fives:
                first, last = 0, 1
            elif w1 or w2:
                first, last = 1, 4
            else:
                continue
            for k in range(first, last):       # fives, fours, straights, threes
                m = mask_of(w1, w2, colour, k)
                slot = 3 - k if k == 1 or k == 2 else k   # tallies: five, straight, four, three
                while m:
                    p = t[T_LINES + LINE_MAX * lid + trailing_zeros(m)]
                    m &= m - 1
                    base = 4 * (colour * NCM + p)
                    if t[base] == 0 and t[base + 1] == 0 and t[base + 2] == 0 \
                            and t[base + 3] == 0:
                        t[T_TOUCH + colour * NCM + t[T_NTOUCH + colour]] = p
                        t[T_NTOUCH + colour] += 1
                    t[base + slot] += 1


@jit(_nrt=False)
def _kinds(g, t, f, at, colour):
    """One colour's kind counts into ``f[at:at + NK]`` (reset its tallies); its five-points."""
    for k in range(NK):
        f[at + k] = 0.0
    fives = 0
    renju_black = g[H + RULE] == RENJU and colour == BLACK
    for j in range(t[T_NTOUCH + colour]):
        p = t[T_TOUCH + colour * NCM + j]
        base = 4 * (colour * NCM + p)
        a, s, b, th = t[base], t[base + 1], t[base + 2], t[base + 3]
        t[base] = t[base + 1] = t[base + 2] = t[base + 3] = 0
        kind = point_kind(a, s, b - s, th)
        if kind == 5:
            continue
        if kind < 0:
            fives += 1
            continue
        if renju_black and forbidden_at(g, np.int64(p)) != F_NONE:
            continue
        f[at + kind] += 1.0
    t[T_NTOUCH + colour] = 0
    return fives


@jit(_nrt=False)
def evaluate(G, E):
    """``gomoku.forks`` for the side to move (``GomokuForks.__call__``)."""
    w, f, e, lm, t = E
    g = G[0]
    line_totals(g, e)
    tot = e[TOT:TOT + 2 * NP]
    white = g[H + NPLACED] & 1
    me, op = (NP, 0) if white else (0, NP)    # white to move: white is "me"
    _tally(g, lm, t)
    fives_me = _kinds(g, t, f, NT, white)
    fives_op = _kinds(g, t, f, NT + NK, 1 - white)
    win = np.int64(w[WIN])
    if tot[me]:
        return win
    if tot[op]:
        return -win
    if fives_me:
        return win - 1
    if fives_op >= 2:
        return -(win // 2)
    tuned_features(f, tot, me, op)
    v = round_half_even(linear_sum(w, f, NF, w[COMP] != 0.0))
    return max(-win, min(win, v))
