"""Compiled Gomoku/Renju evaluators: ``gomoku.patterns``, ``gomoku.position`` and
``gomoku.pointweight`` giving exactly the Python values (the Python modules in
:mod:`gameai.evaluators` are the readable definitions ported here step by step).

``E`` is one tuple type for every kind (so ``evaluate`` and the core compile once):
``(kind, W, MK, ML, MT, SEEN, SLIN, STHR, TOT, SCR)`` - ``kind`` the evaluator id,
``W`` its parameters (pattern weights, the position table, pointweight's exact_rules);
``MK/ML/MT`` the pattern memo (an open-addressing table: line code -> line value and
threat counts, what the Python evaluator memoises in a dict); ``SEEN/SLIN/STHR`` the code
and value of every line at the last evaluation and ``TOT`` their sums, so an evaluation
only looks up the lines whose code changed since (the Python game's incremental
``line_sum``, kept on the evaluator side because push/pop do not know the evaluator);
``SCR`` scratch space (no allocation per node).
"""
from __future__ import annotations

import numpy as np

from ..games.gomoku_rules import BLACK, EMPTY
from .gomoku import (BOARD, CELLS, CODES, F_NONE, F_OVERLINE, NEAR, P_DIR, P_EXB, P_EXW,
                     P_NCELLS, P_NLINES, P_RULE, PAR, PLACED, S_NPLACED, ST, exact_for,
                     forbidden_at, gen_moves, is_straight_four, makes_five, run_length)
from .jit import jit

K_ZERO, K_PATTERNS, K_POSITION, K_POINTWEIGHT = range(4)
MEMO_BITS = 18                      # pattern memo: 2**18 line codes, cleared when half full
MAX_LINES = 6 * 26                  # more than the lines of a 26x26 board (6n - 18)
# TOT fields: linear sum, the six threat counts, ncells synced with, memo fill
T_LIN, T_THR, T_NCELLS, T_FILL = 0, 1, 7, 8
# SCR offsets
SC_DIG, SC_CELLS, SC_MA, SC_MB, SC_O3, SC_T3, SC_F, SC_LL, SC_BUF = (
    0, 32, 64, 96, 128, 160, 192, 208, 256)
SCR_SIZE = SC_BUF + 26 * 26 + 8


# ------------------------------------------------------------------ Python level
def evaluator(ev, state):
    """The kernel form of a Python evaluator object, or None when it has none here."""
    from ..evaluators.basic import Zero
    from ..evaluators.gomoku_patterns import Patterns
    from ..evaluators.gomoku_pointweight import PointWeight
    from ..evaluators.gomoku_position import PositionValue, position_table
    kind = {Zero: K_ZERO, Patterns: K_PATTERNS, PositionValue: K_POSITION,
            PointWeight: K_POINTWEIGHT}.get(type(ev))
    if kind is None:
        return None
    memo = 1
    if kind == K_PATTERNS:
        w = ev.weights
        params = [*ev._k, w.win]
        memo = 1 << MEMO_BITS
    elif kind == K_POSITION:
        params = position_table(state.geo)
    elif kind == K_POINTWEIGHT:
        params = [int(ev.exact_rules)]
    else:
        params = [0]
    tot = np.zeros(9, dtype=np.int64)
    return (kind, np.array(params, dtype=np.int64), np.full(memo, -1, dtype=np.int64),
            np.zeros(memo, dtype=np.int64), np.zeros(memo, dtype=np.int64),
            np.full(MAX_LINES, -1, dtype=np.int64), np.zeros(MAX_LINES, dtype=np.int64),
            np.zeros(MAX_LINES * 6, dtype=np.int64), tot, np.zeros(SCR_SIZE, dtype=np.int64))


# ------------------------------------------------------------------ patterns (gomoku_patterns)
@jit
def _fp_stats(c, L, exact, mark):
    """Five-points of own (1) stones on line cells ``c`` (marked in ``mark``) and how many
    open fours (five-points a, a+5 with four own stones between) they hold."""
    nfp = 0
    for e in range(L):
        mark[e] = 0
        if c[e] == 0:
            n = 1
            i = e + 1
            while i < L and c[i] == 1:
                n += 1
                i += 1
            i = e - 1
            while i >= 0 and c[i] == 1:
                n += 1
                i -= 1
            if n == 5 or (n > 5 and not exact):
                mark[e] = 1
                nfp += 1
    o4 = 0
    for a in range(L - 5):
        if mark[a] and mark[a + 5] and c[a + 1] == 1 and c[a + 2] == 1 and c[a + 3] == 1 \
                and c[a + 4] == 1:
            o4 += 1
    return nfp, o4


@jit
def _groups(pts, n):
    g = 0
    for k in range(n):
        if k == 0 or pts[k] - pts[k - 1] > 4:
            g += 1
    return g


@jit
def line_features(c, L, exact, scr, f):
    """gomoku_patterns.line_features: one player's counts on line cells ``c`` (0 empty,
    1 own, 2 blocked) into ``f[0:7]`` (five, open four, four, open three, three, open two, two)."""
    five = 0
    run = 0
    for i in range(L + 1):
        if i < L and c[i] == 1:
            run += 1
        else:
            if run == 5 or (run > 5 and not exact):
                five += 1
            run = 0
    ma, mb = scr[SC_MA:SC_MA + 32], scr[SC_MB:SC_MB + 32]
    o3, t3 = scr[SC_O3:SC_O3 + 32], scr[SC_T3:SC_T3 + 32]
    nfp, o4 = _fp_stats(c, L, exact, ma)
    n3 = nt = 0
    for e in range(L):
        if c[e] != 0 or ma[e]:
            continue
        own = 0               # fewer than 3 own stones within 4 cells: no new five-point
        for i in range(max(0, e - 4), min(L, e + 5)):
            if c[i] == 1:
                own += 1
        if own < 3:
            continue
        c[e] = 1
        nfp2, o4b = _fp_stats(c, L, exact, mb)
        c[e] = 0
        if o4b > o4:
            o3[n3] = e
            n3 += 1
        elif nfp2 > nfp:
            t3[nt] = e
            nt += 1
    kept = 0                  # closed-three points not near an open-three point
    for k in range(nt):
        p = t3[k]
        ok = True
        for j in range(n3):
            if abs(p - o3[j]) <= 4:
                ok = False
                break
        if ok:
            t3[kept] = p
            kept += 1
    open2 = 0
    for a in range(L - 5):
        if c[a] == 0 and c[a + 5] == 0:
            k1 = 0
            blocked = False
            for i in range(a + 1, a + 5):
                if c[i] == 2:
                    blocked = True
                elif c[i] == 1:
                    k1 += 1
            if not blocked and k1 == 2:
                open2 += 1
    two = 0
    for a in range(L - 4):
        k1 = 0
        blocked = False
        for i in range(a, a + 5):
            if c[i] == 2:
                blocked = True
            elif c[i] == 1:
                k1 += 1
        if not blocked and k1 == 2:
            two += 1
    f[0], f[1], f[2], f[3] = five, o4, nfp - 2 * o4, _groups(o3, n3)
    f[4], f[5], f[6] = _groups(t3, kept), open2, two


@jit
def line_value(code, exb, exw, w, scr):
    """One line's Σ K_i (F_i(black) - F_i(white)) and its threat counts (five, open four,
    four for black, then white) packed 8 bits each."""
    dig = scr[SC_DIG:SC_DIG + 32]
    L = 0
    while code >= 3:
        dig[L] = code % 3
        code //= 3
        L += 1
    c = scr[SC_CELLS:SC_CELLS + 32]
    f = scr[SC_F:SC_F + 16]
    lin = 0
    thr = 0
    for player in range(2):
        own = player + 1
        for i in range(L):
            c[i] = 0 if dig[i] == 0 else (1 if dig[i] == own else 2)
        line_features(c, L, (exb if player == 0 else exw) != 0, scr, f)
        sign = 1 if player == 0 else -1
        for k in range(7):
            lin += sign * w[k] * f[k]
        thr |= (f[0] | (f[1] << 8) | (f[2] << 16)) << (24 * player)
    return lin, thr


@jit
def _memo_value(E, code, exb, exw):
    """``line_value`` through the memo table (cleared when half full)."""
    mk, ml, mt, tot = E[2], E[3], E[4], E[8]
    mask = mk.shape[0] - 1
    s = ((code * -7046029254386353131) >> 40) & mask
    while True:
        k = mk[s]
        if k == code:
            return ml[s], mt[s]
        if k < 0:
            break
        s = (s + 1) & mask
    lin, thr = line_value(code // 3, exb, exw, E[1], E[9])
    if tot[T_FILL] * 2 >= mask:
        mk[:] = -1
        tot[T_FILL] = 0
        s = ((code * -7046029254386353131) >> 40) & mask
    mk[s], ml[s], mt[s] = code, lin, thr
    tot[T_FILL] += 1
    return lin, thr


@jit
def patterns(G, E):
    """gomoku_patterns.Patterns.__call__, from the side to move's view."""
    par, codes, tot = G[PAR], G[CODES], E[8]
    seen, slin, sthr = E[5], E[6], E[7]
    nl = par[P_NLINES]
    if tot[T_NCELLS] != par[P_NCELLS]:        # another board: start the sums afresh
        seen[:] = -1
        slin[:] = 0
        sthr[:] = 0
        tot[:T_NCELLS] = 0
        tot[T_NCELLS] = par[P_NCELLS]
    rule, exb, exw = par[P_RULE], par[P_EXB], par[P_EXW]
    for lid in range(nl):
        code = codes[lid] * 3 + rule          # the memo is per five rule, like Python's
        if code != seen[lid]:
            lin, thr = _memo_value(E, code, exb, exw)
            tot[T_LIN] += lin - slin[lid]
            for j in range(6):
                v = (thr >> (8 * j)) & 255
                tot[T_THR + j] += v - sthr[6 * lid + j]
                sthr[6 * lid + j] = v
            seen[lid], slin[lid] = code, lin
    lin = tot[T_LIN]
    five_b, o4_b, four_b = tot[T_THR], tot[T_THR + 1], tot[T_THR + 2]
    five_w, o4_w, four_w = tot[T_THR + 3], tot[T_THR + 4], tot[T_THR + 5]
    if G[ST][S_NPLACED] & 1:   # white to move
        five_m, o4_m, four_m, five_o, o4_o, four_o = five_w, o4_w, four_w, five_b, o4_b, four_b
        lin = -lin
    else:
        five_m, o4_m, four_m, five_o, o4_o, four_o = five_b, o4_b, four_b, five_w, o4_w, four_w
    win = E[1][7]
    if five_m:
        return win
    if five_o:
        return -win
    if o4_m or four_m:
        return win - 1
    if o4_o or four_o >= 2:
        return -(win // 2)
    return max(-win, min(win, lin))


# ------------------------------------------------------------------ position (gomoku_position)
@jit
def position(G, E):
    """Σ g_arrPosValue over own stones − Σ over the opponent's, side to move's view."""
    t, board, placed = E[1], G[BOARD], G[PLACED]
    n = G[ST][S_NPLACED]
    me = n & 1
    v = 0
    for k in range(n):
        i = placed[k]
        v += t[i] if board[i] == me else -t[i]
    return v


# ------------------------------------------------------------------ pointweight (gomoku_pointweight)
@jit
def _counts(board, p, d, color):
    """(run through p, empty ends, own-or-empty span through p) with ``color`` on ``p``."""
    run = 1
    i = p + d
    while board[i] == color:
        run += 1
        i += d
    end1 = 1 if board[i] == EMPTY else 0
    span = run
    while span < 5 and (board[i] == EMPTY or board[i] == color):
        span += 1
        i += d
    i = p - d
    while board[i] == color:
        run += 1
        span += 1
        i -= d
    end2 = 1 if board[i] == EMPTY else 0
    while span < 5 and (board[i] == EMPTY or board[i] == color):
        span += 1
        i -= d
    return run, end1 + end2, span


@jit
def _link_live(board, p, par, color, exact, out, o):
    """``Link[0..5]`` into ``out[o:o+6]`` and ``Live[0..5]`` into ``out[o+6:o+12]``."""
    for k in range(12):
        out[o + k] = 0
    for k in range(4):
        run, ends, span = _counts(board, p, par[P_DIR + k], color)
        if run >= 5:
            if run == 5 or not exact:
                out[o + 5] += 1
        elif span < 5:
            continue
        elif ends == 2:
            out[o + 6 + run] += 1
        elif ends == 1:
            out[o + run] += 1


@jit
def _live_threes(board, p, par, color):
    """Directions where ``color`` on ``p`` makes a real open three (``tempLive3``)."""
    n = 0
    board[p] = color
    for k in range(4):
        d = par[P_DIR + k]
        found = False
        for s in (d, -d):
            i = p + s
            for _ in range(3):
                v = board[i]
                if v == EMPTY:
                    board[i] = color
                    found = is_straight_four(board, p, d, color, False)
                    board[i] = EMPTY
                    if found:
                        break
                elif v != color:
                    break
                i += s
            if found:
                break
        if found:
            n += 1
    board[p] = EMPTY
    return n


@jit
def _has_long_link(board, p, par):
    for k in range(4):
        if run_length(board, p, par[P_DIR + k], BLACK) >= 6:
            return True
    return False


@jit
def _total(x):
    """The document's weighted sum over cl = x[0:6], cv = x[6:12], fl = x[12:18], fv = x[18:24]."""
    return ((x[4] + x[9]) * 6250 + (x[3] + x[8] + x[16] + x[21]) * 1250
            + (x[2] + x[15] + x[20]) * 250 + x[7] * 50 + (x[1] + x[14] + x[19]) * 10
            + x[13] * 2)


@jit
def point_weight(board, p, par, color, exact_rules, x):
    """The 002 document's ``pointWeight(color, x, y)`` for empty point ``p`` (scratch ``x``)."""
    renju = par[P_RULE] == 2
    _link_live(board, p, par, color, exact_for(par, color), x, 0)
    _link_live(board, p, par, 1 - color, exact_for(par, 1 - color), x, 12)
    cl5, cl4, cl3 = x[5], x[4], x[3]
    cv4, cv3 = x[10], x[9]
    fl5, fl4, fl3 = x[17], x[16], x[15]
    fv4, fv3 = x[22], x[21]
    temp_live3 = _live_threes(board, p, par, 1 - color)
    if color == BLACK:  # black: attack first, and mind its own forbidden points
        if renju and exact_rules:
            if cl5 > 0 and makes_five(board, p, par, BLACK, True):
                return 150000
            why = forbidden_at(board, p, par)
            if why != F_NONE:
                return -2 if why == F_OVERLINE else -1
        elif renju:
            if _has_long_link(board, p, par):
                return -2
        if cl5 > 0:
            return 150000
        if renju and not exact_rules and (cv3 > 1 or cv4 + cl4 > 1):
            return -1
        if fl5 > 0:
            return 140000
        if cv4 == 1:
            return 130000
        if cl4 == 1 and cv3 == 1:
            return 120000
        if cl4 == 1 and cl3 > 0:
            return 110000
        if fv4 > 0 or fl4 > 1:
            return 100000
        if fl4 == 1 and temp_live3 == 1:
            return 90000
        if fv3 > 1:
            return 80000
        if fl4 == 1 and fl3 > 0:
            return 70000
        return _total(x)
    # white: defend first, and ask whether black's threat point is forbidden for black
    if not renju:
        black_forbidden = black_long = False
    elif exact_rules:
        why = forbidden_at(board, p, par)
        black_forbidden = why != F_NONE
        black_long = why == F_OVERLINE
    else:
        black_long = _has_long_link(board, p, par)
        black_forbidden = temp_live3 > 1 or cv4 > 1 or black_long
    if cl5 > 0:
        return 150000
    if fl5 > 0 and not black_long:
        return 140000
    if cv4 > 0 or fl4 > 1:
        return 130000
    if cl4 == 1 and fv3 > 0:
        return 120000
    if (fv4 == 1 and not black_forbidden) or (cl4 > 1 and not black_forbidden):
        return 110000
    if cl4 == 1 and fl3 > 0:
        return 100000
    if fl4 > 0 and temp_live3 == 1 and not black_forbidden:
        return 90000
    if cv3 > 1:
        return 80000
    if fl4 > 0 and cl3 > 0 and not black_forbidden:
        return 70000
    return _total(x)


@jit
def pointweight(G, E):
    """Best own point weight − best opponent point weight over the candidate points (or
    the legal moves when there is no candidate)."""
    board, near, par = G[BOARD], G[NEAR], G[PAR]
    scr = E[9]
    buf = scr[SC_BUF:]
    n = 0
    for i in G[CELLS]:
        if near[i] > 0 and board[i] == EMPTY:
            buf[n] = i
            n += 1
    if n == 0:
        n = gen_moves(G, buf, 0)
        if n == 0:
            return 0
    exact_rules = E[1][0] != 0
    me = G[ST][S_NPLACED] & 1
    x = scr[SC_LL:SC_LL + 24]
    mine = theirs = 0
    for j in range(n):
        a = point_weight(board, buf[j], par, me, exact_rules, x)
        b = point_weight(board, buf[j], par, 1 - me, exact_rules, x)
        if j == 0 or a > mine:
            mine = a
        if j == 0 or b > theirs:
            theirs = b
    return mine - theirs


# ------------------------------------------------------------------ dispatch
@jit
def evaluate(G, E):
    """Exactly the Python evaluator's value for the side to move."""
    kind = E[0]
    if kind == K_PATTERNS:
        return patterns(G, E)
    if kind == K_POSITION:
        return position(G, E)
    if kind == K_POINTWEIGHT:
        return pointweight(G, E)
    return 0
