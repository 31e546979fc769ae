"""``xiangqi.tuned`` in the Xiangqi kernel: :mod:`gameai.evaluators.xiangqi_tuned`'s features
over the kernel's board, weighted by data, so any weights file runs compiled without
compiling again.

:func:`evaluate` is a kernel evaluator (``fn(G, data) -> int``,
:mod:`gameai.compiled.evaluator`): the compiled core is built for it once, and the
weights are an array it reads. ``data = (w, f, scr)``: ``w`` the 21 weights in
``FEATURES`` order, then ``w[PURE]`` (1: only ``pst`` is weighted, the Python evaluator's
shortcut) and ``w[COMP]`` (Python's ``sum`` compensates, :mod:`gameai.compiled.linear`);
``f`` the feature vector and ``scr`` the squares each side attacks (scratch, so an
evaluation allocates nothing). :func:`features` is the Python ``features(state)`` step
for step (same loops, same order); a test compares both on random positions.
"""
from __future__ import annotations

import numpy as np

from ..games.xiangqi_tables import ADVISOR, CANNON, ELEPHANT, HORSE, KING, PAWN, ROOK
from .jit import jit
from .linear import COMPENSATED, linear_sum, round_half_even
from .xiangqi import (B, I_PST, I_SIDE, O_AT, O_ATN, O_ET, O_ETN, O_HT, O_HTN, O_KT, O_KTN,
                      O_PT, O_PTN, O_RAY, O_RAYN, RAY_LEN)

NF = 21                        #: features (gameai.evaluators.xiangqi_tuned.FEATURES)
PURE, COMP = NF, NF + 1        #: flags after the weights in ``w``


def data(weights, pure: bool) -> tuple:
    """The kernel data for weights in feature order (``pure``: only ``pst`` weighted)."""
    w = np.zeros(NF + 2, np.float64)
    w[:NF] = weights
    w[PURE], w[COMP] = float(pure), float(COMPENSATED)
    return (w, np.zeros(NF, np.float64), np.zeros(2 * 90, np.int64))


def form(ev, state) -> tuple | None:
    """``(evaluate, data)`` for an ``xiangqi.tuned`` object with any weights (the exact
    type: a subclass may score differently), else None."""
    from ..evaluators.xiangqi_tuned import XiangqiTuned
    if type(ev) is not XiangqiTuned:
        return None
    return evaluate, data(ev.weights, ev._pure_pst)


@jit(_nrt=False, inline="always")
def _in_palace(sq, c):
    """Is ``sq`` in colour ``c``'s palace?"""
    f, r = sq % 9, sq // 9
    return 3 <= f <= 5 and (r <= 2 if c == 0 else r >= 7)


@jit(_nrt=False, inline="always")
def _next_piece(G, base, i, n):
    """The first index from ``i`` of the ray at ``base`` (``n`` squares) holding a piece,
    or ``n``."""
    while i < n and G[B + G[base + i]] == 0:
        i += 1
    return i


@jit(_nrt=False)
def _targets(G, s, p, att):
    """Count the squares the piece ``p`` on ``s`` hits (either side's pieces) in ``att``;
    return its pseudo-legal moves to empty or enemy squares (Python ``_targets``)."""
    t, c = p & 7, p >> 3
    mob = 0
    if t == ROOK or t == CANNON:
        for d in range(4):
            base = O_RAY + (s * 4 + d) * RAY_LEN
            n = G[O_RAYN + s * 4 + d]
            i = _next_piece(G, base, 0, n)
            mob += i                            # quiet moves up to the first piece
            if t == CANNON:                     # which is a cannon's screen
                i = _next_piece(G, base, i + 1, n)
            if i < n:
                att[G[base + i]] += 1
                mob += (G[B + G[base + i]] >> 3) != c
    elif t == HORSE:
        for i in range(G[O_HTN + s]):
            to, leg = G[O_HT + (s * 8 + i) * 2], G[O_HT + (s * 8 + i) * 2 + 1]
            if not G[B + leg]:
                q = G[B + to]
                if q:
                    att[to] += 1
                    mob += (q >> 3) != c
                else:
                    mob += 1
    elif t == ELEPHANT:
        j = c * 90 + s
        for i in range(G[O_ETN + j]):
            to, eye = G[O_ET + (j * 4 + i) * 2], G[O_ET + (j * 4 + i) * 2 + 1]
            if not G[B + eye] and G[B + to]:
                att[to] += 1
    else:
        j = c * 90 + s
        if t == PAWN:
            for i in range(G[O_PTN + j]):
                if G[B + G[O_PT + j * 3 + i]]:
                    att[G[O_PT + j * 3 + i]] += 1
        else:
            off, offn = (O_AT, O_ATN) if t == ADVISOR else (O_KT, O_KTN)
            for i in range(G[offn + j]):
                if G[B + G[off + j * 4 + i]]:
                    att[G[off + j * 4 + i]] += 1
    return mob


@jit(_nrt=False)
def _palace_moves(G, s, p):
    """Pseudo-moves of a rook, cannon, horse or pawn landing in the enemy palace."""
    t, c = p & 7, p >> 3
    e = c ^ 1
    n = 0
    if t == PAWN:
        j = c * 90 + s
        for i in range(G[O_PTN + j]):
            to = G[O_PT + j * 3 + i]
            q = G[B + to]
            if _in_palace(to, e) and (not q or (q >> 3) != c):
                n += 1
        return n
    if t == HORSE:
        for i in range(G[O_HTN + s]):
            to, leg = G[O_HT + (s * 8 + i) * 2], G[O_HT + (s * 8 + i) * 2 + 1]
            q = G[B + to]
            if _in_palace(to, e) and not G[B + leg] and (not q or (q >> 3) != c):
                n += 1
        return n
    for d in range(4):
        base = O_RAY + (s * 4 + d) * RAY_LEN
        screen = False
        for i in range(G[O_RAYN + s * 4 + d]):
            to = G[base + i]
            q = G[B + to]
            if t == ROOK:
                if q:
                    n += _in_palace(to, e) and (q >> 3) != c
                    break
                n += _in_palace(to, e)
            elif screen:
                if q:
                    n += _in_palace(to, e) and (q >> 3) != c
                    break
            elif q:
                screen = True
            else:
                n += _in_palace(to, e)
    return n


@jit(_nrt=False)
def features(G, f, att):
    """The features from the side to move's view into ``f`` (Python ``features``)."""
    for i in range(NF):
        f[i] = 0.0
    for i in range(180):
        att[i] = 0
    f[0] = G[I_PST]
    k0 = k1 = -1
    g0 = g1 = 0                          # advisors and elephants per colour
    a0 = a1 = 0                          # rooks, horses, cannons and pawns per colour
    ph0 = ph1 = 0                        # their moves into the enemy palace
    for s in range(90):
        p = G[B + s]
        if not p:
            continue
        t, c = p & 7, p >> 3
        sign = 1 if c == 0 else -1
        if t == KING:
            if c == 0:
                k0 = s
            else:
                k1 = s
        if t == ROOK:
            f[1] += sign
        elif t == HORSE:
            f[2] += sign
        elif t == CANNON:
            f[3] += sign
        elif t == ADVISOR:
            f[4] += sign
        elif t == ELEPHANT:
            f[5] += sign
        elif t == PAWN:
            f[6] += sign
        if t == ADVISOR or t == ELEPHANT:
            if c == 0:
                g0 += 1
            else:
                g1 += 1
        mob = _targets(G, s, p, att[c * 90:c * 90 + 90])
        if t == ROOK:
            f[7] += sign * mob
        elif t == HORSE:
            f[8] += sign * mob
        elif t == CANNON:
            f[9] += sign * mob
        if t == ROOK or t == HORSE or t == CANNON or t == PAWN:
            if c == 0:
                a0 += 1
                ph0 += _palace_moves(G, s, p)
            else:
                a1 += 1
                ph1 += _palace_moves(G, s, p)
        if t == PAWN and ((s // 9) >= 5 if c == 0 else (s // 9) <= 4):
            f[18] += sign
            if s % 9 < 8 and G[B + s + 1] == p:
                f[19] += sign
        if t == ROOK:
            for d in range(4):
                base = O_RAY + (s * 4 + d) * RAY_LEN
                for i in range(G[O_RAYN + s * 4 + d]):
                    to = G[base + i]
                    if G[B + to]:
                        if G[B + to] == p and to > s:
                            f[15] += sign
                        break
    f[10] = ph0 - ph1
    for c in range(2):
        sign = 1 if c == 0 else -1
        k = k0 if c == 0 else k1
        if k < 0:
            continue
        up = c                           # towards the enemy: ray 0 up for Red, 1 down for Black
        empty = True
        for i in range(G[O_RAYN + k * 4 + up]):
            if G[B + G[O_RAY + (k * 4 + up) * RAY_LEN + i]]:
                empty = False
                break
        if empty:
            f[11] -= sign
        enemy_cannon = CANNON | ((c ^ 1) << 3)
        for d in range(4):
            seen = 0
            base = O_RAY + (k * 4 + d) * RAY_LEN
            for i in range(G[O_RAYN + k * 4 + d]):
                q = G[B + G[base + i]]
                if q:
                    if seen == 2 and q == enemy_cannon:
                        f[12] -= sign
                    seen += 1
                    if seen == 3:
                        break
        guards = g0 if c == 0 else g1
        if (a1 if c == 0 else a0) and guards < 4:
            f[13] -= sign * (4 - guards)
    h0 = h1 = 0
    for s in range(90):
        p = G[B + s]
        if not p or (p & 7) == KING:
            continue
        c = p >> 3
        if att[c * 90 + s]:
            f[14] += 1 if c == 0 else -1
        elif att[(c ^ 1) * 90 + s]:
            if c == 0:
                h0 += 1
            else:
                h1 += 1
    if G[I_SIDE]:                        # the side to move's view (stm_features)
        for i in range(NF):
            f[i] = -f[i]
        f[16], f[17] = h1, h0
    else:
        f[16], f[17] = h0, h1
    f[20] = 1.0


@jit(_nrt=False)
def evaluate(G, E):
    """``xiangqi.tuned`` for the side to move: ``int(round(Σ w_i φ_i))``."""
    w, f, att = E
    if w[PURE] != 0.0:                   # only pst weighted: the Python shortcut
        v = w[0] * G[I_PST]
        return round_half_even(-v if G[I_SIDE] else v)
    features(G, f, att)
    return round_half_even(linear_sum(w, f, NF, w[COMP] != 0.0))
