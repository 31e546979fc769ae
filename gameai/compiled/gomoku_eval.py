"""Compiled Gomoku/Renju evaluators: ``gomoku.patterns``, ``gomoku.position`` and
``gomoku.pointweight`` giving exactly the Python values (the Python modules in
:mod:`gameai.evaluators` are the readable definitions ported here step by step).

``E = (kind, e)``: the evaluator id and ONE flat int64 array (one array for the reason
given in :mod:`gameai.compiled.gomoku_board`; one type for every kind, so ``evaluate`` and the
core compile once). Regions of ``e``: ``EW`` the parameters (pattern weights, the
position table, pointweight's exact_rules); ``MEMO`` the pattern memo, an
open-addressing table line code -> (line value, threat counts), what the Python
evaluator memoises in a dict; ``SEEN/SLIN/STHR`` the code and value of every line at the
last evaluation and ``TOT`` their sums, so an evaluation only looks up the lines whose
code changed since (the Python game's incremental ``line_sum``, kept on the evaluator's
side because push/pop do not know the evaluator); ``SCR`` scratch space.
"""
from __future__ import annotations

import numpy as np

from ..games.gomoku_rules import BLACK, EMPTY
from .gomoku_board import (CAND, CODES, DIR, EXB, EXW, F_NONE, F_OVERLINE, GID, H, LOG, LOGN,
                           LOGSIZE, NCELLS, NLINES, NPLACED, PLACED, RENJU, RULE, _emit,
                           exact_for, forbidden_at, is_straight_four, legal, makes_five,
                           run_length)
from .jit import jit

K_ZERO, K_PATTERNS, K_POSITION, K_POINTWEIGHT = range(4)
MEMO_BITS = 18                      # pattern memo: 2**18 line codes, cleared when half full
MAX_LINES = 160                     # >= the lines of a 26x26 board (6n - 18)
EW = 0
TOT = EW + 768                      # fields below
LINES = TOT + 16                    # per line (8 words): code at the last evaluation, its
                                    # value, black and white threat counts; the same for
                                    # the code before (it comes back after every pop)
SCR = LINES + 8 * MAX_LINES         # pointweight: Link/Live counters (24)
SCR_BUF = SCR + 32                  # pointweight: candidate points (<= 680)
SCR_LV = SCR_BUF + 704              # line_value's scratch (256)
MEMO = SCR_LV + 256                 # slot s: code, value, black, white threats at MEMO + 4s
T_LIN, T_TB, T_TW, T_NCELLS, T_FILL, T_SLOTS, T_GID, T_LOGN = range(8)   # TOT fields
M15 = (1 << 15) - 1                 # threat counts: five | open four << 15 | four << 30
                                    # | open three << 45
MULT = -7046029254386353131         # 0x9E3779B97F4A7C15 as int64: Fibonacci hashing


# ------------------------------------------------------------------ Python level
_MADE: dict = {}      # (kind, parameters) -> E


def evaluator(ev, state):
    """The kernel form ``(kind, e)`` of a Python evaluator object, or None when it has none.

    One ``E`` per kind and parameters for the process, like the Python pattern memo
    (module-wide per five rule): every searcher (each makes its own evaluator object)
    starts with the memo warm and allocates nothing. Sharing is safe: an evaluation syncs
    ``e`` with whatever ``G`` it is given (kernels hold the GIL, so calls never overlap).
    """
    made = _make(ev, state)
    if made is None:
        return None
    ident, build = made
    E = _MADE.get(ident)
    if E is None:
        E = _MADE[ident] = build()
    return E


def _make(ev, state):
    """(identity, builder) of the kernel evaluator for ``ev`` on ``state``'s board, or None."""
    from ..evaluators.basic import Zero
    from ..evaluators.gomoku_patterns import Patterns
    from ..evaluators.gomoku_pointweight import PointWeight
    from ..evaluators.gomoku_position import PositionValue, position_table
    kind = {Zero: K_ZERO, Patterns: K_PATTERNS, PositionValue: K_POSITION,
            PointWeight: K_POINTWEIGHT}.get(type(ev))
    if kind is None:
        return None
    slots = 0
    if kind == K_PATTERNS:
        params = (*ev._k, ev.weights.win)
        slots = 1 << MEMO_BITS
    elif kind == K_POSITION:
        params = tuple(position_table(state.geo))
    elif kind == K_POINTWEIGHT:
        params = (int(ev.exact_rules),)
    else:
        params = ()

    def build():
        e = np.zeros(MEMO + 4 * slots, dtype=np.int64)
        e[EW:EW + len(params)] = params
        e[TOT + T_NCELLS] = -1                # nothing synced yet
        e[TOT + T_SLOTS] = slots
        e[MEMO:MEMO + 4 * slots:4] = -1
        return (kind, e)
    return (kind, params), build


# ------------------------------------------------------------------ patterns (gomoku_patterns)
@jit(_nrt=False)
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


@jit(_nrt=False)
def _groups(pts, n):
    g = 0
    for k in range(n):
        if k == 0 or pts[k] - pts[k - 1] > 4:
            g += 1
    return g


@jit(_nrt=False)
def line_features(c, L, exact, scr, f):
    """gomoku_patterns.line_features: one player's counts on line cells ``c`` (0 empty,
    1 own, 2 blocked) into ``f[0:7]`` (five, open four, four, open three, three, open two,
    two); ``scr`` scratch for 4 x 32 cells."""
    five = 0
    run = 0
    for i in range(L + 1):
        if i < L and c[i] == 1:
            run += 1
        else:
            if run == 5 or (run > 5 and not exact):
                five += 1
            run = 0
    ma, mb = scr[0:32], scr[32:64]
    o3, t3 = scr[64:96], scr[96:128]
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
        if c[a] == 0 and c[a + 5] == 0 and _two_in(c, a + 1, a + 5):
            open2 += 1
    two = 0
    for a in range(L - 4):
        if _two_in(c, a, a + 5):
            two += 1
    f[0], f[1], f[2], f[3] = five, o4, nfp - 2 * o4, _groups(o3, n3)
    f[4], f[5], f[6] = _groups(t3, kept), open2, two


@jit(_nrt=False, inline="always")
def _two_in(c, lo, hi):
    """Do cells ``c[lo:hi]`` hold exactly two own stones and no opponent's?"""
    k = 0
    for i in range(lo, hi):
        if c[i] == 2:
            return False
        if c[i] == 1:
            k += 1
    return k == 2


@jit(_nrt=False)
def line_counts(code, exb, exw, scr):
    """Both players' :func:`line_features` on line ``code`` (without its marker): black's
    into ``scr[64:71]``, white's into ``scr[72:79]`` (``scr``: 256 words of scratch)."""
    dig, c = scr[0:32], scr[32:64]
    L = 0
    while code >= 3:
        dig[L] = code % 3
        code //= 3
        L += 1
    for player in range(2):
        own = player + 1
        for i in range(L):
            c[i] = 0 if dig[i] == 0 else (1 if dig[i] == own else 2)
        line_features(c, L, (exb if player == 0 else exw) != 0, scr[128:256],
                      scr[64 + 8 * player:72 + 8 * player])


@jit(_nrt=False)
def line_value(code, exb, exw, e):
    """One line's Σ K_i (F_i(black) - F_i(white)) and the threat counts (five | open four
    << 15 | four << 30 | open three << 45) of black and of white. Computed once per code
    (memo)."""
    scr = e[SCR_LV:SCR_LV + 256]
    line_counts(code, exb, exw, scr)
    lin = 0
    tb = tw = 0
    for player in range(2):
        f = scr[64 + 8 * player:72 + 8 * player]
        sign = 1 if player == 0 else -1
        for k in range(7):
            lin += sign * e[EW + k] * f[k]
        t = f[0] | (f[1] << 15) | (f[2] << 30) | (f[3] << 45)
        if player == 0:
            tb = t
        else:
            tw = t
    return lin, tb, tw


@jit(_nrt=False)
def _memo_value(e, code, exb, exw):
    """``line_value`` through the memo table (cleared when half full)."""
    slots = e[TOT + T_SLOTS]
    mask = slots - 1
    s = ((code * MULT) >> 40) & mask
    while True:
        k = e[MEMO + 4 * s]
        if k == code:
            return e[MEMO + 4 * s + 1], e[MEMO + 4 * s + 2], e[MEMO + 4 * s + 3]
        if k < 0:
            break
        s = (s + 1) & mask
    lin, tb, tw = line_value(code // 3, exb, exw, e)
    if e[TOT + T_FILL] * 2 >= slots:
        e[MEMO:MEMO + 4 * slots:4] = -1
        e[TOT + T_FILL] = 0
        s = ((code * MULT) >> 40) & mask
    b = MEMO + 4 * s
    e[b], e[b + 1], e[b + 2], e[b + 3] = code, lin, tb, tw
    e[TOT + T_FILL] += 1
    return lin, tb, tw


@jit(_nrt=False, inline="always")
def _sync_line(g, e, lid, rule, exb, exw):
    """Bring line ``lid``'s entry and the sums in ``e`` up to its code in ``g``."""
    code = g[CODES + lid] * 3 + rule      # the memo is per five rule, like Python's
    b = LINES + 8 * lid
    if code == e[b]:
        return
    if code == e[b + 4]:
        lin, tb, tw = e[b + 5], e[b + 6], e[b + 7]
    else:
        lin, tb, tw = _memo_value(e, code, exb, exw)
    e[TOT + T_LIN] += lin - e[b + 1]
    e[TOT + T_TB] += tb - e[b + 2]
    e[TOT + T_TW] += tw - e[b + 3]
    e[b + 4], e[b + 5], e[b + 6], e[b + 7] = e[b], e[b + 1], e[b + 2], e[b + 3]
    e[b], e[b + 1], e[b + 2], e[b + 3] = code, lin, tb, tw


@jit(_nrt=False)
def patterns(g, e):
    """gomoku_patterns.Patterns.__call__, from the side to move's view."""
    if e[TOT + T_NCELLS] != g[H + NCELLS]:   # another board: start the sums afresh
        e[LINES:SCR] = 0
        e[LINES:SCR:4] = -1                  # no code seen (nor before)
        e[TOT + T_LIN] = e[TOT + T_TB] = e[TOT + T_TW] = 0
        e[TOT + T_NCELLS] = g[H + NCELLS]
        e[TOT + T_GID] = -1
    rule, exb, exw = g[H + RULE], g[H + EXB], g[H + EXW]
    gid, logn = g[H + GID], g[H + LOGN]
    if e[TOT + T_GID] == gid and logn - e[TOT + T_LOGN] <= LOGSIZE:
        for t in range(e[TOT + T_LOGN], logn):   # only the lines changed since the last call
            _sync_line(g, e, g[LOG + (t & (LOGSIZE - 1))], rule, exb, exw)
    else:                                        # another state (or a long way): every line
        for lid in range(g[H + NLINES]):
            _sync_line(g, e, lid, rule, exb, exw)
    e[TOT + T_GID], e[TOT + T_LOGN] = gid, logn
    lin = e[TOT + T_LIN]
    tb, tw = e[TOT + T_TB], e[TOT + T_TW]
    if g[H + NPLACED] & 1:   # white to move
        tm, to = tw, tb
        lin = -lin
    else:
        tm, to = tb, tw
    five_m, o4_m, four_m = tm & M15, (tm >> 15) & M15, (tm >> 30) & M15
    five_o, o4_o, four_o = to & M15, (to >> 15) & M15, (to >> 30) & M15
    win = e[EW + 7]
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
@jit(_nrt=False)
def position(g, e):
    """Σ g_arrPosValue over own stones − Σ over the opponent's, side to move's view."""
    n = g[H + NPLACED]
    me = n & 1
    v = 0
    for k in range(n):
        i = g[PLACED + k]
        v += e[EW + i] if g[i] == me else -e[EW + i]
    return v


# ------------------------------------------------------------------ pointweight (gomoku_pointweight)
@jit(_nrt=False, inline="always")
def _counts(g, p, d, color):
    """(run through p, empty ends, own-or-empty span through p) with ``color`` on ``p``."""
    run = 1
    i = p + d
    while g[i] == color:
        run += 1
        i += d
    end1 = 1 if g[i] == EMPTY else 0
    span = run
    while span < 5 and (g[i] == EMPTY or g[i] == color):
        span += 1
        i += d
    i = p - d
    while g[i] == color:
        run += 1
        span += 1
        i -= d
    end2 = 1 if g[i] == EMPTY else 0
    while span < 5 and (g[i] == EMPTY or g[i] == color):
        span += 1
        i -= d
    return run, end1 + end2, span


@jit(_nrt=False)
def _link_live(g, p, color, exact, out, o):
    """``Link[0..5]`` into ``out[o:o+6]`` and ``Live[0..5]`` into ``out[o+6:o+12]``."""
    for k in range(12):
        out[o + k] = 0
    for k in range(4):
        run, ends, span = _counts(g, p, g[H + DIR + k], color)
        if run >= 5:
            if run == 5 or not exact:
                out[o + 5] += 1
        elif span < 5:
            continue
        elif ends == 2:
            out[o + 6 + run] += 1
        elif ends == 1:
            out[o + run] += 1


@jit(_nrt=False)
def _live_threes(g, p, color):
    """Directions where ``color`` on ``p`` makes a real open three (``tempLive3``)."""
    n = 0
    g[p] = color
    for k in range(4):
        d = g[H + DIR + k]
        found = False
        for s in (d, -d):
            i = p + s
            for _ in range(3):
                v = g[i]
                if v == EMPTY:
                    g[i] = color
                    found = is_straight_four(g, p, d, color, False)
                    g[i] = EMPTY
                    if found:
                        break
                elif v != color:
                    break
                i += s
            if found:
                break
        if found:
            n += 1
    g[p] = EMPTY
    return n


@jit(_nrt=False)
def _has_long_link(g, p):
    for k in range(4):
        if run_length(g, p, g[H + DIR + k], BLACK) >= 6:
            return True
    return False


@jit(_nrt=False)
def _total(x):
    """The document's weighted sum over cl = x[0:6], cv = x[6:12], fl = x[12:18], fv = x[18:24]."""
    return ((x[4] + x[9]) * 6250 + (x[3] + x[8] + x[16] + x[21]) * 1250
            + (x[2] + x[15] + x[20]) * 250 + x[7] * 50 + (x[1] + x[14] + x[19]) * 10
            + x[13] * 2)


@jit(_nrt=False)
def point_weight(g, p, color, exact_rules, x):
    """The 002 document's ``pointWeight(color, x, y)`` for empty point ``p`` (scratch ``x``)."""
    renju = g[H + RULE] == RENJU
    _link_live(g, p, color, exact_for(g, color), x, 0)
    _link_live(g, p, 1 - color, exact_for(g, 1 - color), x, 12)
    cl5, cl4, cl3 = x[5], x[4], x[3]
    cv4, cv3 = x[10], x[9]
    fl5, fl4, fl3 = x[17], x[16], x[15]
    fv4, fv3 = x[22], x[21]
    temp_live3 = _live_threes(g, p, 1 - color)
    if color == BLACK:  # black: attack first, and mind its own forbidden points
        if renju and exact_rules:
            if cl5 > 0 and makes_five(g, p, BLACK, True):
                return 150000
            why = forbidden_at(g, p)
            if why != F_NONE:
                return -2 if why == F_OVERLINE else -1
        elif renju:
            if _has_long_link(g, p):
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
        why = forbidden_at(g, p)
        black_forbidden = why != F_NONE
        black_long = why == F_OVERLINE
    else:
        black_long = _has_long_link(g, p)
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


@jit(_nrt=False)
def pointweight(g, e):
    """Best own point weight − best opponent point weight over the candidate points (or
    the legal moves when there is no candidate)."""
    buf = e[SCR_BUF:SCR_BUF + 704]
    n = _emit(g, CAND, buf, 0)
    if n == 0:
        n = legal(g, buf, 0)
        if n == 0:
            return 0
    exact_rules = e[EW] != 0
    me = g[H + NPLACED] & 1
    x = e[SCR:SCR + 24]
    mine = theirs = 0
    for j in range(n):
        a = point_weight(g, buf[j], me, exact_rules, x)
        b = point_weight(g, buf[j], 1 - me, exact_rules, x)
        if j == 0 or a > mine:
            mine = a
        if j == 0 or b > theirs:
            theirs = b
    return mine - theirs


# ------------------------------------------------------------------ dispatch
@jit(_nrt=False)
def evaluate(G, E):
    """Exactly the Python evaluator's value for the side to move."""
    kind, e = E
    g = G[0]
    if kind == K_PATTERNS:
        return patterns(g, e)
    if kind == K_POSITION:
        return position(g, e)
    if kind == K_POINTWEIGHT:
        return pointweight(g, e)
    return 0
