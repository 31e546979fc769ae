"""``gomoku.tuned`` in the Gomoku/Renju kernel: :mod:`gameai.evaluators.gomoku_tuned`'s
pattern counts, combinations and weights, the weights as data, so any weights file runs
compiled without compiling again.

:func:`evaluate` is a kernel evaluator (``fn(G, data) -> int``,
:mod:`gameai.compiled.evaluator`). ``data = (w, f, e)``: ``w`` the 23 weights in
``FEATURES`` order, then ``w[WIN]`` and ``w[COMP]`` (Python's ``sum`` compensates,
:mod:`gameai.compiled.linear`); ``f`` the feature vector (scratch); ``e`` a memo, line
code -> both players' seven counts (:func:`gameai.compiled.gomoku_eval.line_counts`,
the compiled ``gomoku.patterns`` counts), 9 bits a count (a line of at most 26 cells holds
fewer than 512 of each), and scratch. The counts do not depend on the weights, so one memo
serves every ``gomoku.tuned`` of the process. An evaluation sums every line's counts
through the memo (the Python ``features(state)``), then follows
``GomokuTuned.__call__``: the decided cases as rules, else the rounded weighted sum,
clipped to ``±win``.
"""
from __future__ import annotations

import numpy as np

from .gomoku_board import CODES, EXB, EXW, H, NLINES, NPLACED, RULE
from .gomoku_eval import MULT, line_counts
from .jit import jit
from .linear import COMPENSATED, linear_sum, round_half_even

NP = 7                          #: patterns per side (gomoku_patterns.FEATURES)
NF = 2 * NP + 5 + 1             #: gomoku_tuned.FEATURES: me_*, op_*, 5 combinations, tempo
WIN, COMP = NF, NF + 1          #: after the weights in ``w``
O3, T3, F4 = 3, 4, 2            #: open three, three, four in a side's counts
MEMO_BITS = 16                  #: memo slots (cleared when half full)
SCR = 0                         #: e: line_features' scratch (256), then the count totals (16)
TOT = SCR + 256
FILL = TOT + 16                 #: slots in use
MEMO = FILL + 1                 #: slot s: code, black counts, white counts at MEMO + 3s

_MEMO: list = []                # the process's one memo


def data(weights, win: int) -> tuple:
    """The kernel data for weights in feature order and the win value."""
    w = np.zeros(NF + 2, np.float64)
    w[:NF] = weights
    w[WIN], w[COMP] = float(win), float(COMPENSATED)
    return (w, np.zeros(NF, np.float64), memo())


def memo() -> np.ndarray:
    """The process's one memo of line counts (made on first use)."""
    if not _MEMO:
        e = np.zeros(MEMO + 3 * (1 << MEMO_BITS), np.int64)
        e[MEMO::3] = -1
        _MEMO.append(e)
    return _MEMO[0]


def form(ev, state) -> tuple | None:
    """``(evaluate, data)`` for a ``gomoku.tuned`` object with any weights (the exact
    type), else None."""
    from ..evaluators.gomoku_tuned import GomokuTuned
    if type(ev) is not GomokuTuned:
        return None
    return evaluate, data(ev.weights, ev.win)


@jit(_nrt=False)
def _line_counts(code, exb, exw, e):
    """Black's and white's seven counts on line ``code`` (no marker), packed 9 bits each."""
    scr = e[SCR:SCR + 256]
    line_counts(code, exb, exw, scr)
    pb = pw = 0
    for k in range(NP):
        pb |= scr[64 + k] << (9 * k)
        pw |= scr[72 + k] << (9 * k)
    return pb, pw


@jit(_nrt=False)
def _counts(e, code, exb, exw):
    """:func:`_line_counts` through the memo."""
    mask = (1 << MEMO_BITS) - 1
    s = ((code * MULT) >> 40) & mask
    while True:
        k = e[MEMO + 3 * s]
        if k == code:
            return e[MEMO + 3 * s + 1], e[MEMO + 3 * s + 2]
        if k < 0:
            break
        s = (s + 1) & mask
    pb, pw = _line_counts(code // 3, exb, exw, e)
    if e[FILL] * 2 >= mask + 1:
        e[MEMO::3] = -1
        e[FILL] = 0
        s = ((code * MULT) >> 40) & mask
    b = MEMO + 3 * s
    e[b], e[b + 1], e[b + 2] = code, pb, pw
    e[FILL] += 1
    return pb, pw


@jit(_nrt=False)
def line_totals(g, e):
    """Both players' seven counts summed over every line (black, then white), through the
    memo, into ``e[TOT:TOT + 2 * NP]`` (the Python ``features(state)``)."""
    rule, exb, exw = g[H + RULE], g[H + EXB], g[H + EXW]
    tot = e[TOT:TOT + 2 * NP]
    for k in range(2 * NP):
        tot[k] = 0
    for lid in range(g[H + NLINES]):
        pb, pw = _counts(e, g[CODES + lid] * 3 + rule, exb, exw)
        for k in range(NP):
            tot[k] += (pb >> (9 * k)) & 511
            tot[NP + k] += (pw >> (9 * k)) & 511


@jit(_nrt=False)
def tuned_features(f, tot, me, op):
    """``counts_features``: ``f[:NF]`` from the totals, ``me``/``op`` their offsets."""
    for k in range(NP):
        f[k], f[NP + k] = tot[me + k], tot[op + k]
    f[2 * NP] = 1.0 if tot[me + O3] >= 2 else 0.0
    f[2 * NP + 1] = 1.0 if tot[me + O3] >= 1 and tot[me + T3] >= 1 else 0.0
    f[2 * NP + 2] = 1.0 if tot[op + O3] >= 2 else 0.0
    f[2 * NP + 3] = 1.0 if tot[op + F4] >= 1 and tot[op + O3] >= 1 else 0.0
    f[2 * NP + 4] = 1.0 if tot[op + O3] >= 1 and tot[op + T3] >= 1 else 0.0
    f[NF - 1] = 1.0


@jit(_nrt=False)
def evaluate(G, E):
    """``gomoku.tuned`` for the side to move (``GomokuTuned.__call__``)."""
    w, f, e = E
    g = G[0]
    line_totals(g, e)
    tot = e[TOT:TOT + 2 * NP]
    me, op = (NP, 0) if g[H + NPLACED] & 1 else (0, NP)    # white to move: white is "me"
    win = np.int64(w[WIN])
    if tot[me]:
        return win
    if tot[op]:
        return -win
    if tot[me + 1] or tot[me + 2]:
        return win - 1
    if tot[op + 1] or tot[op + 2] >= 2:
        return -(win // 2)
    tuned_features(f, tot, me, op)
    v = round_half_even(linear_sum(w, f, NF, w[COMP] != 0.0))
    return max(-win, min(win, v))
