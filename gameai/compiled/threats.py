"""Compiled VCF/VCT threat-space search: :class:`gameai.search.threats.ThreatSolver` in numba.

The same search, step for step and in the same move order, as the readable Python solver
(read its module docstring for the threat space and what a proof means): attacker and
defender nodes, the three defences from the kill sets, counter-fours, the quiet
VCF-threat moves (``QUIET_WIDTH``, most new four-points first), the Allis defence sets of
a quiet move from a VCF after a pass (its own solver and TT, ``THREAT_BUDGET`` nodes),
iterative deepening over the ply limit, and the same counters at the same points, so both
report the same values, lines and node counts. Threat facts come from the line codes of
the compiled board through :mod:`.threats_lines`.

State, per solver: ``c`` counters and limits, ``tt`` its transposition table; a VCT
solver also has the VCF prover's ``c``/``tt`` (for a VCF solver they are its own, unused).
The TT is what the Python dict is: keyed by the full 64-bit key and the node type, at most
``tt_size`` entries, cleared when full before a store (open addressing at load <= 1/2;
a clear bumps a generation number instead of touching the table). Move lists go on one
stack ``buf`` (each node writes from its ``top`` on; no allocation while searching).
The kernel keeps its own copy of the position (``G``) and follows the Python game by
popping and pushing the difference in stones (:meth:`ThreatSolver._bind`).

Limits: the check points are the Python solver's (every ``check_every`` nodes and at
``node_limit``); there a budget (``win_within``) is checked in the kernel and a
``should_stop`` callable (node limit, time, ``stop``) is asked from Python
(``numba.objmode``), so a search stops at the same node as the Python one.
"""
from __future__ import annotations

import weakref
from typing import Callable

import numpy as np

from ..errors import SpecError
from ..games.gomoku_rules import BLACK, EMPTY, WALL
from .gomoku_board import (BNEAR, CLINE, CODES, DIR, EXB, EXW, F_NONE, H, KEY, NCELLS, NCM,
                           NLINES, NPLACED, NWORD, PLACED, RENJU, RULE, WINNER, WSTACK, ZOB,
                           exact_for, forbidden_at, legal, load, maybe_forbidden, pop, push, result)
from .jit import AVAILABLE, jit, numba
from .pages import touch
from .threats_lines import MEMO_BITS, facts, kill, mask_of, popcount

if AVAILABLE:
    from numba.cpython.unsafe.numbers import trailing_zeros
else:
    def trailing_zeros(x: int) -> int:
        return (x & -x).bit_length() - 1

WIN, FAIL = 1, 0                    # as gameai.search.threats (a kernel imports no search module)
EXACT = 0x7FFFF                     # its EXACT: a VCF failure no ply limit cut (the n field's top)
QUIET_WIDTH = 30                    # ThreatSolver.QUIET_WIDTH and THREAT_BUDGET of gameai.search.threats,
THREAT_BUDGET = 2_000               # which imports this module (tests check they are equal)
NONE = -1                           #: no move (None)
NEVER = 1 << 62
# c: counters, then limits and switches
NODES, LEAVES, TERMINALS, INTERIOR, CUTOFFS, PROBES, HITS, TTCUTS, SELDEPTH, NEXT_CHECK, \
    EVERY, LIMIT, ABORT, VCT, POLLING, TT_SIZE, TT_COUNT, TT_GEN, QUIET, BUDGET, WALKED, \
    R0, R1, STOP_AT, TT_MASK, TT_MAX, CUTS, N_C = range(28)
REPLIES, TAIL, NEED_VCF = -1, -2, -3   #: _replies_head: what comes next
PLY_WORDS = 6000                    #: buf words one ply may use (scan, lists, scratch)
MULT = -7046029254386353131

_HOOKS: list = []                   # should_stop of the running solves (innermost last)


def _poll(nodes):
    return 1 if _HOOKS[-1](int(nodes)) else 0


# ------------------------------------------------------------------ limits and the TT
@jit(_nrt=False)
def _count_check(c):
    """Limits and stop (``ThreatSolver._count_check``): set ``c[ABORT]`` when reached."""
    c[NEXT_CHECK] = c[NODES] + c[EVERY]
    if c[LIMIT] >= 0 and c[NODES] < c[LIMIT] < c[NEXT_CHECK]:
        c[NEXT_CHECK] = c[LIMIT]
    if c[STOP_AT] >= 0 and c[NODES] >= c[STOP_AT]:    # a budget (win_within)
        c[ABORT] = 1
    elif c[POLLING]:
        nodes = c[NODES]
        with numba.objmode(s="int64"):
            s = _poll(nodes)
        if s:
            c[ABORT] = 1


@jit(_nrt=False, inline="always")
def _count(c, ply):
    c[NODES] += 1
    if ply > c[SELDEPTH]:
        c[SELDEPTH] = ply
    if c[NODES] >= c[NEXT_CHECK]:
        _count_check(c)


@jit(_nrt=False, inline="always")
def _slot(c, tt, key, att):
    """The slot of (key, att), or of the empty place where it would go."""
    mask = c[TT_MASK]
    h = ((key * MULT + att) >> 21) & mask
    gen = c[TT_GEN]
    while tt[3 * h + 1] >> 1 == gen:   # in use since the last clear
        if tt[3 * h] == key and tt[3 * h + 1] & 1 == att:
            return 3 * h
        h = (h + 1) & mask
    return 3 * h


@jit(_nrt=False, inline="always")
def _found(c, tt, s, att):
    return tt[s + 1] == c[TT_GEN] * 2 + att


@jit(_nrt=False)
def _probe(c, tt, key, att, d):
    """A TT answer usable with ``d`` plies left (win length or 0), else -1."""
    c[PROBES] += 1
    s = _slot(c, tt, key, att)
    if not _found(c, tt, s, att):
        return -1
    c[HITS] += 1
    e = tt[s + 2]
    flag, n = e & 1, (e >> 1) & 0x7FFFF
    if (flag == WIN and n <= d) or (flag == FAIL and n >= d):
        c[TTCUTS] += 1
        if flag == WIN:
            return n
        if n != EXACT:                  # a failure some ply limit bounded
            c[CUTS] += 1
        return 0
    return -1


@jit(_nrt=False, inline="always")
def _fail_depth(c, cuts, d):
    """The solver's ``_fail_depth``: EXACT for a VCF subtree no ply limit cut, else d."""
    return EXACT if c[VCT] == 0 and c[CUTS] == cuts else d


@jit(_nrt=False)
def _grow(c, tt):
    """Twice the slots in use (up to TT_MAX): the entries go to the scratch area after
    the slots, a new generation starts, and they come back at their new places. (A
    table used from a small prefix up touches memory pages as a dict would: a fresh
    solver does not pay a page fault per store.)"""
    gen, old = c[TT_GEN], c[TT_MASK] + 1
    base = 3 * c[TT_MAX]
    k = base
    for i in range(old):
        if tt[3 * i + 1] >> 1 == gen:
            tt[k], tt[k + 1], tt[k + 2] = tt[3 * i], tt[3 * i + 1] & 1, tt[3 * i + 2]
            k += 3
    c[TT_GEN] = gen + 1
    c[TT_MASK] = 2 * old - 1
    for j in range(base, k, 3):
        s = _slot(c, tt, tt[j], tt[j + 1])
        tt[s], tt[s + 1], tt[s + 2] = tt[j], c[TT_GEN] * 2 + tt[j + 1], tt[j + 2]


@jit(_nrt=False)
def _store(c, tt, key, att, flag, n, move):
    """``tt[key, att] = (flag, n, move)``, the table emptied first when it holds tt_size."""
    if c[TT_COUNT] >= c[TT_SIZE]:
        c[TT_GEN] += 1
        c[TT_COUNT] = 0
    s = _slot(c, tt, key, att)
    if not _found(c, tt, s, att):
        if 2 * (c[TT_COUNT] + 1) > c[TT_MASK] + 1 and c[TT_MASK] + 1 < c[TT_MAX]:
            _grow(c, tt)
            s = _slot(c, tt, key, att)
        c[TT_COUNT] += 1
        tt[s] = key
        tt[s + 1] = c[TT_GEN] * 2 + att
    tt[s + 2] = flag | (n << 1) | ((move + 1) << 20)


@jit(_nrt=False)
def _entry(c, tt, key, att):
    """(flag, n, move) of a stored entry, or (-1, 0, NONE)."""
    s = _slot(c, tt, key, att)
    if not _found(c, tt, s, att):
        return -1, 0, NONE
    e = tt[s + 2]
    return e & 1, (e >> 1) & 0x7FFFF, (e >> 20) - 1


# ------------------------------------------------------------------ reading threats
@jit(_nrt=False)
def _pass(g):
    """A null move (``threats._pass``): the side to move changes, no stone."""
    n = g[H + NPLACED]
    g[PLACED + n] = -1
    g[WSTACK + n] = g[H + WINNER]
    g[H + NPLACED] = n + 1
    g[H + KEY] ^= g[ZOB + 2 * g[H + NCELLS]]


@jit(_nrt=False)
def _unpass(g):
    g[H + NPLACED] -= 1
    g[H + KEY] ^= g[ZOB + 2 * g[H + NCELLS]]


@jit(_nrt=False)
def _legal(g, colour, m):
    """Renju: may ``colour`` play ``m``? (Only Black is restricted.)"""
    if g[H + RULE] != RENJU or colour != BLACK:
        return True
    return g[BNEAR + m] < 4 or not maybe_forbidden(g, m) or forbidden_at(g, m) == F_NONE


@jit(_nrt=False)
def _scan(g, memo, cells, buf, top):
    """The lines with a threat fact (``threats.scan``), 5 words each from ``top``:
    line id and its two fact words per colour; returns the end."""
    exb, exw = g[H + EXB], g[H + EXW]
    o = top
    for lid in range(g[H + NLINES]):
        s = facts(memo, g[CODES + lid], exb, exw, cells)
        if memo[s + 1] | memo[s + 2] | memo[s + 3] | memo[s + 4]:
            buf[o] = lid
            buf[o + 1] = memo[s + 1]
            buf[o + 2] = memo[s + 2]
            buf[o + 3] = memo[s + 3]
            buf[o + 4] = memo[s + 4]
            o += 5
    return o


@jit(_nrt=False, inline="always")
def _has(buf, a, b, q):
    for j in range(a, b):
        if buf[j] == q:
            return True
    return False


@jit(_nrt=False)
def _points(buf, s0, s1, lines, colour, kind, out):
    """``_points``: board points of one fact kind, no repeats, written from ``out``."""
    n = out
    for o in range(s0, s1, 5):
        mask = mask_of(buf[o + 1 + 2 * colour], buf[o + 2 + 2 * colour], colour, kind)
        if mask:
            lid = buf[o]
            st, dd = lines[2 * lid], lines[2 * lid + 1]
            while mask:
                q = st + trailing_zeros(mask) * dd
                mask &= mask - 1
                if not _has(buf, out, n, q):
                    buf[n] = q
                    n += 1
    return n


@jit(_nrt=False)
def _three_defences(g, memo, cells, buf, lines, s0, s1, a, out):
    """Points that stop every legal straight-four point of ``a``, ascending, as
    ``(start, end)`` in ``buf``; ``(-1, -1)`` if it has none."""
    nw = g[H + NWORD]
    common, ks = out, out + nw
    have = False
    ex = exact_for(g, a)
    for o in range(s0, s1, 5):
        sts = mask_of(buf[o + 1 + 2 * a], buf[o + 2 + 2 * a], a, 2)
        if not sts:
            continue
        lid = buf[o]
        st, dd = lines[2 * lid], lines[2 * lid + 1]
        code = g[CODES + lid]
        while sts:
            s = trailing_zeros(sts)
            sts &= sts - 1
            if not _legal(g, a, st + s * dd):
                continue
            km = kill(code, a, s, ex, cells)
            for w in range(nw):
                buf[ks + w] = 0
            while km:
                q = st + trailing_zeros(km) * dd
                km &= km - 1
                buf[ks + (q >> 6)] |= np.int64(1) << (q & 63)
            for w in range(nw):
                buf[common + w] = buf[ks + w] if not have else buf[common + w] & buf[ks + w]
            have = True
    if not have:
        return -1, -1
    n0 = n = out + 2 * nw
    for w in range(nw):
        x = buf[common + w]
        while x:
            buf[n] = (w << 6) + trailing_zeros(x)
            x &= x - 1
            n += 1
    return n0, n


@jit(_nrt=False)
def new_four_points(g, memo, cells, colour, p, placed):
    """``ThreatSolver.new_four_points``: new four-points a ``colour`` stone at ``p`` makes."""
    exb, exw = g[H + EXB], g[H + EXW]
    digit = colour + 1
    gain = 0
    for k in range(4):
        lid = g[CLINE + 8 * p + 2 * k]
        if lid < 0:
            continue
        pw = g[CLINE + 8 * p + 2 * k + 1]
        c0 = g[CODES + lid] - digit * pw if placed else g[CODES + lid]
        s = facts(memo, c0, exb, exw, cells)
        n0 = popcount(mask_of(memo[s + 1 + 2 * colour], memo[s + 2 + 2 * colour], colour, 1))
        s = facts(memo, c0 + digit * pw, exb, exw, cells)
        n1 = popcount(mask_of(memo[s + 1 + 2 * colour], memo[s + 2 + 2 * colour], colour, 1))
        if n1 > n0:
            gain += n1 - n0
    return gain


@jit(_nrt=False)
def _quiet_threats(G, c, memo, cells, buf, a, f0, f1, t0, t1, out):
    """``_quiet_threats`` then the legality filter: up to QUIET moves that are neither
    fours nor threes but make new four-points (most first, then by point), appended from
    ``out``; returns the end."""
    g = G[0]
    width = c[QUIET]
    l0 = out + width
    l1 = legal(g, buf, l0)
    k0 = l1                          # the best so far: keys -gain * 4096 + point, ascending
    k = 0
    for j in range(l0, l1):
        p = buf[j]
        if _has(buf, f0, f1, p) or _has(buf, t0, t1, p):
            continue
        gain = new_four_points(g, memo, cells, a, p, False)
        if not gain:
            continue
        key = -gain * 4096 + p
        if k == width and key >= buf[k0 + k - 1]:
            continue
        i = k if k < width else width - 1
        while i > 0 and buf[k0 + i - 1] > key:
            buf[k0 + i] = buf[k0 + i - 1]
            i -= 1
        buf[k0 + i] = key
        if k < width:
            k += 1
    n = out
    for i in range(k):
        p = buf[k0 + i] & 4095
        if _legal(g, a, p):
            buf[n] = p
            n += 1
    return n


@jit(_nrt=False)
def _sword_eyes(g, p, colour, buf, out):
    """Empty points of every five-window through ``p`` holding three ``colour`` stones and
    no other (one more stone there makes a four), appended from ``out``."""
    nc = g[H + NCELLS]
    for k in range(4):
        d = g[H + DIR + k]
        for kk in range(-4, 1):
            start = p + kk * d
            end = start + 4 * d
            if not (0 <= start < nc and 0 <= end < nc):
                continue
            own = 0
            ne = 0
            bad = False
            for j in range(5):
                v = g[start + j * d]
                if v == colour:
                    own += 1
                elif v == EMPTY:
                    buf[out + ne] = start + j * d
                    ne += 1
                else:
                    bad = True
                    break
            if not bad and own == 3:
                out += ne
    return out


@jit(_nrt=False)
def _along(g, p, steps, buf, out):
    """Board points up to ``steps`` away from ``p`` along the four lines."""
    nc = g[H + NCELLS]
    for k in range(4):
        d = g[H + DIR + k]
        for sign in (1, -1):
            q = p
            for _ in range(steps):
                q += sign * d
                if not 0 <= q < nc or g[q] == WALL:
                    break
                buf[out] = q
                out += 1
    return out


# ------------------------------------------------------------------ the search
@jit(_nrt=False, inline="always")
def _attacks(G, S, d, top):
    """The attacker's side of ``_attack`` with ``d`` plies left: ``(value, start, end)``;
    value 1: a five now (its point ``buf[start]``), 0: the attack fails here, -1: the
    moves to try are ``buf[start:end]`` (fours, then threes and quiet threats in a VCT)."""
    c, memo, buf, lines, cells = S[0], S[2], S[3], S[4], S[5]
    g = G[0]
    a = g[H + NPLACED] & 1
    s1 = _scan(g, memo, cells, buf, top)
    f1 = _points(buf, top, s1, lines, a, 0, s1)
    if f1 > s1:
        c[TERMINALS] += 1
        return 1, s1, s1
    b1 = _points(buf, top, s1, lines, 1 - a, 0, s1)
    nb = b1 - s1
    if nb > 1 or d < 3:
        if nb > 1:
            c[TERMINALS] += 1
        else:
            c[LEAVES] += 1
            c[CUTS] += 1                # the ply limit
        return 0, 0, 0
    if nb == 1:
        m0 = m1 = b1
        if _legal(g, a, buf[s1]):
            buf[m1] = buf[s1]
            m1 += 1
    else:
        x1 = _points(buf, top, s1, lines, a, 1, s1)         # fours [s1, x1)
        x2 = _points(buf, top, s1, lines, a, 2, x1)         # straights [x1, x2)
        m0 = m1 = x2
        for j in range(x1, x2):
            if _legal(g, a, buf[j]):
                buf[m1] = buf[j]
                m1 += 1
        for j in range(s1, x1):
            m = buf[j]
            if not _has(buf, x1, x2, m) and _legal(g, a, m):
                buf[m1] = m
                m1 += 1
        if c[VCT] and d >= 5:
            t0 = m1
            r1 = _points(buf, top, s1, lines, a, 3, t0)     # threes, filtered in place
            for j in range(t0, r1):
                m = buf[j]
                if not _has(buf, s1, x1, m) and _legal(g, a, m):
                    buf[m1] = m
                    m1 += 1
            m1 = _quiet_threats(G, c, memo, cells, buf, a, s1, x1, t0, m1, m1)
    if m1 == m0:
        c[LEAVES] += 1
        return 0, 0, 0
    return -1, m0, m1


@jit(_nrt=False)
def node(G, S, d, ply, top, att):
    """``_attack`` (``att`` 1) or ``_defend`` (``att`` 0) with ``d`` plies left: plies to
    the attacker's forced win, or 0. ``att`` 2: only the defender's ``_replies`` (for
    ``proof_points``): their value, the list's bounds left in ``c[R0]``, ``c[R1]``.
    One function, because numba compiles self-recursion but not a cycle of functions."""
    c, tt, buf = S[0], S[1], S[3]
    key = G[0][H + KEY]
    if att != 2:
        v = _probe(c, tt, key, att, d)
        if v >= 0:
            return v
    cuts = c[CUTS]
    if att == 1:
        val, m0, m1 = _attacks(G, S, d, top)
        if val == 1:
            _store(c, tt, key, 1, WIN, 1, buf[m0])
            return 1
        if val == 0:
            _store(c, tt, key, 1, FAIL, _fail_depth(c, cuts, d), NONE)
            return 0
    else:                               # the defender's replies (_replies)
        val, m0, m1 = _replies(G, S, d, ply, top)
        if c[ABORT]:
            return 0
        if att == 2:
            c[R0], c[R1] = m0, m1
            return val
        if val >= 0:                    # decided here: 0 failed, else plies to the win
            _store(c, tt, key, 0, WIN if val else FAIL, val if val else _fail_depth(c, cuts, d), NONE)
            return val
    # the moves (attacker: one win is enough; defender: every reply must lose)
    c[INTERIOR] += 1
    worst, worst_move = 0, NONE
    for j in range(m0, m1):
        m = buf[j]
        push(G, m)
        _count(c, ply + 1)
        if c[ABORT]:
            pop(G)
            return 0
        n = node(G, S, d - 1, ply + 1, m1, 1 - att)
        pop(G)
        if c[ABORT]:
            return 0
        if att:
            if n:
                c[CUTOFFS] += 1
                _store(c, tt, key, 1, WIN, n + 1, m)
                return n + 1
        elif not n:
            c[CUTOFFS] += 1
            _store(c, tt, key, 0, FAIL, _fail_depth(c, cuts, d), NONE)
            return 0
        elif n > worst:
            worst, worst_move = n, m
    if att:
        _store(c, tt, key, 1, FAIL, _fail_depth(c, cuts, d), NONE)
        return 0
    _store(c, tt, key, 0, WIN, worst + 1, worst_move)
    return worst + 1


@jit(_nrt=False, inline="always")
def _replies(G, S, d, ply, top):
    """``_replies``: ``(value, start, end)``, value >= 0 when decided without replies
    (0 the attack failed, else plies to the win), else the replies are ``buf[start:end]``.
    Inlined into ``node``: it calls ``node`` for the VCF a quiet move threatens."""
    c, memo, buf, lines, cells = S[0], S[2], S[3], S[4], S[5]
    g = G[0]
    val, r0, r1, s1 = _replies_head(G, S, d, top)
    if val == NEED_VCF:                 # a quiet move: does it threaten a VCF?
        c2 = S[6]                       # _vcf_threat_defences(a, d - 1, ply)
        S2 = (c2, S[7], memo, buf, lines, cells, c2, S[7])
        b0, b1, b2, b3 = c2[NODES], c2[LEAVES], c2[TERMINALS], c2[INTERIOR]
        b4, b5, b6 = c2[PROBES], c2[HITS], c2[TTCUTS]
        a = 1 - (g[H + NPLACED] & 1)
        _pass(g)
        budget = c2[BUDGET]             # sub.win_within(state, plies, ply, THREAT_BUDGET),
        if c[LIMIT] >= 0:               # within what is left of a node limit
            budget = max(1, min(budget, c[LIMIT] - c[NODES]))
        c2[EVERY] = budget
        c2[LIMIT] = c2[NEXT_CHECK] = c2[STOP_AT] = c2[NODES] + budget
        c2[POLLING] = 0
        n = node(G, S2, d - 1, ply, s1, np.int64(1))
        if c2[ABORT]:
            c2[ABORT] = 0
            n = 0
        r0 = r1 = -1
        if n:
            l1 = _line(G, S2, n, s1)
            if l1 > s1:
                r0, r1 = _replay_threat(G, S, a, s1, l1)
        _unpass(g)
        c[NODES] += c2[NODES] - b0
        c[LEAVES] += c2[LEAVES] - b1
        c[TERMINALS] += c2[TERMINALS] - b2
        c[INTERIOR] += c2[INTERIOR] - b3
        c[PROBES] += c2[PROBES] - b4
        c[HITS] += c2[HITS] - b5
        c[TTCUTS] += c2[TTCUTS] - b6
        if c[NODES] >= c[NEXT_CHECK]:
            _count_check(c)
        if c[ABORT]:
            return 0, 0, 0
        val = TAIL
    if val == TAIL:
        val, r0, r1 = _replies_tail(G, S, d, r0, r1, s1, top)
    return val, r0, r1


@jit(_nrt=False)
def _replies_head(G, S, d, top):
    """``_replies`` up to the threat a quiet move makes: ``(value, start, end, scan end)``.
    value >= 0: decided (0 the attack failed, else plies to the win); REPLIES: the
    replies are ``buf[start:end]``; TAIL: go on with the defences ``buf[start:end]``
    (start -1: none); NEED_VCF: the defences come from a VCF after a pass."""
    c, memo, buf, lines, cells = S[0], S[2], S[3], S[4], S[5]
    g = G[0]
    dfd = g[H + NPLACED] & 1
    a = 1 - dfd
    s1 = _scan(g, memo, cells, buf, top)
    if _points(buf, top, s1, lines, dfd, 0, s1) > s1:     # the defender makes five
        c[TERMINALS] += 1
        return 0, 0, 0, s1
    f1 = _points(buf, top, s1, lines, a, 0, s1)
    if f1 > s1:
        r1 = f1
        for j in range(s1, f1):
            if _legal(g, dfd, buf[j]):
                buf[r1] = buf[j]
                r1 += 1
        if r1 == f1:                    # unstoppable (two fours, or forbidden block)
            c[TERMINALS] += 1
            return 2, 0, 0, s1
        return REPLIES, f1, r1, s1
    d0 = d1 = -1
    if c[VCT]:
        d0, d1 = _three_defences(g, memo, cells, buf, lines, top, s1, a, s1)
    if d0 < 0 and c[VCT] and d >= 4:
        return NEED_VCF, -1, -1, s1
    return TAIL, d0, d1, s1


@jit(_nrt=False)
def _replies_tail(G, S, d, d0, d1, s1, top):
    """The rest of ``_replies`` given the defences ``buf[d0:d1]`` (d0 -1: none): the
    defender's fours first, then the defences; ``(value, start, end)`` as above."""
    c, buf, lines = S[0], S[3], S[4]
    g = G[0]
    dfd = g[H + NPLACED] & 1
    if d0 < 0 or d < 4:
        c[LEAVES] += 1
        return 0, 0, 0
    k1 = _points(buf, top, s1, lines, dfd, 1, d1)         # the defender's fours
    r0 = rc = k1
    for j in range(d1, k1):
        if _legal(g, dfd, buf[j]):
            buf[rc] = buf[j]
            rc += 1
    r1 = rc
    for j in range(d0, d1):
        m = buf[j]
        if not _has(buf, r0, rc, m) and _legal(g, dfd, m):
            buf[r1] = m
            r1 += 1
    if r1 == r0:                        # nothing stops the straight four (or the VCF)
        c[TERMINALS] += 1
        return 4, 0, 0
    return REPLIES, r0, r1


@jit(_nrt=False)
def _line(G, S, n, out):
    """``_line``: the proven line read from the TT into buf from ``out``; returns its end."""
    c, tt, buf = S[0], S[1], S[3]
    attacker = G[0][H + NPLACED] & 1
    k = out
    while k - out < n:
        att = 1 if (G[0][H + NPLACED] & 1) == attacker else 0
        flag, _n, move = _entry(c, tt, G[0][H + KEY], att)
        if flag != WIN or move == NONE:
            break
        buf[k] = move
        k += 1
        push(G, move)
    for _ in range(k - out):
        pop(G)
    return k


@jit(_nrt=False)
def _replay_threat(G, S, a, l0, l1):
    """``_replay_threat``: play the line (after the pass) and collect its defence points,
    as ``(start, end)`` in buf; ``(-1, -1)`` if it does not end in a win for ``a``."""
    memo, buf, lines, cells = S[2], S[3], S[4], S[5]
    g = G[0]
    dfd = 1 - a
    p0 = l1
    p1 = p0
    for j in range(l0, l1):
        buf[p1] = buf[j]
        p1 += 1
    pushed = 0
    won = False
    broke = False
    for i in range(l1 - l0):
        m = buf[l0 + i]
        if g[m] != EMPTY or result(G) >= 0:
            broke = True
            break
        push(G, m)
        pushed += 1
        if i % 2:                        # a defender reply: its counter-four eyes
            p1 = _sword_eyes(g, m, dfd, buf, p1)
    if not broke:
        r = result(G)
        if r >= 0:                       # it ends on the five: its points are in it
            won = r == a
        elif (g[H + NPLACED] & 1) == dfd:
            s1 = _scan(g, memo, cells, buf, p1)
            f1 = _points(buf, p1, s1, lines, a, 0, s1)
            if _points(buf, p1, s1, lines, dfd, 0, f1) == f1 and f1 > s1:
                if f1 - s1 >= 2:
                    for j in range(s1, f1):
                        buf[p1] = buf[j]
                        p1 += 1
                    won = True
                elif not _legal(g, dfd, buf[s1]):   # the forbidden-point trap
                    q = buf[s1]
                    buf[p1] = q
                    p1 = _along(g, q, 5, buf, p1 + 1)
                    won = True
    for _ in range(pushed):
        pop(G)
    if not won:
        return -1, -1
    w = p0
    for j in range(p0, p1):
        p = buf[j]
        if g[p] == EMPTY and not _has(buf, p0, w, p):
            buf[w] = p
            w += 1
    return p0, w


@jit(_nrt=False)
def solve_iteration(G, S, d, top):
    """One iteration of ``solve``: the root visit, then the attack with ``d`` plies."""
    _count(S[0], np.int64(0))
    if S[0][ABORT]:
        return 0
    return node(G, S, d, np.int64(0), top, np.int64(1))


@jit(_nrt=False)
def attack(G, S, d, ply, top):
    """``_attack(d, ply)`` (for ``win_within``)."""
    return node(G, S, d, ply, top, np.int64(1))


@jit(_nrt=False)
def line(G, S, n, top):
    return _line(G, S, n, top)


# ------------------------------------------------------------------ proof points
@jit(_nrt=False, inline="always")
def _mark(pts, q):
    pts[q >> 6] |= np.int64(1) << (q & 63)


@jit(_nrt=False)
def _threat_cells(g, memo, cells, lines, m, a, pts):
    """``_threat_cells``: empty points up to five steps from ``m`` on its lines where ``a``
    has a five-point or a straight-four point, marked in ``pts``."""
    exb, exw = g[H + EXB], g[H + EXW]
    nc = g[H + NCELLS]
    for k in range(4):
        lid = g[CLINE + 8 * m + 2 * k]
        if lid < 0:
            continue
        s = facts(memo, g[CODES + lid], exb, exw, cells)
        w1, w2 = memo[s + 1 + 2 * a], memo[s + 2 + 2 * a]
        if not (mask_of(w1, w2, a, 0) or mask_of(w1, w2, a, 2)):
            continue
        d = lines[2 * lid + 1]
        for sign in (1, -1):
            q = m
            for _ in range(5):
                q += sign * d
                if not 0 <= q < nc or g[q] == WALL:
                    break
                if g[q] == EMPTY:
                    _mark(pts, q)


@jit(_nrt=False)
def _proof(G, S, pts, att, d, top, max_nodes):
    """``proof_points``' walk (attacker or defender node): False when part of the proof
    is missing or it has more than ``max_nodes`` defender nodes."""
    c, tt, memo, buf, lines, cells = S[0], S[1], S[2], S[3], S[4], S[5]
    g = G[0]
    if att:
        flag, n, move = _entry(c, tt, g[H + KEY], 1)
        if flag != WIN or move == NONE or g[move] != EMPTY:
            return False
        _mark(pts, move)
        push(G, move)
        ok = True
        if result(G) < 0:
            _threat_cells(g, memo, cells, lines, move, 1 - (g[H + NPLACED] & 1), pts)
            ok = _proof(G, S, pts, np.int64(0), n - 1, top, max_nodes)
        pop(G)
        return ok
    c[WALKED] += 1
    if c[WALKED] > max_nodes:
        return False
    val = node(G, S, d, np.int64(0), top, np.int64(2))
    r0, r1 = c[R0], c[R1]
    if val >= 0:
        if not val:
            return False
        s1 = _scan(g, memo, cells, buf, top)
        f1 = _points(buf, top, s1, lines, 1 - (g[H + NPLACED] & 1), 0, s1)
        for j in range(s1, f1):
            _mark(pts, buf[j])
        return True
    for j in range(r0, r1):
        m = buf[j]
        _mark(pts, m)
        push(G, m)
        e1 = _sword_eyes(g, m, 1 - (g[H + NPLACED] & 1), buf, r1)
        for i in range(r1, e1):
            _mark(pts, buf[i])
        ok = _proof(G, S, pts, np.int64(1), np.int64(0), r1, max_nodes)
        pop(G)
        if not ok:
            return False
    return True


@jit(_nrt=False)
def proof(G, S, pts, max_nodes, top):
    return _proof(G, S, pts, np.int64(1), np.int64(0), top, max_nodes)


# ------------------------------------------------------------------ following the Python game
@jit(_nrt=False)
def sync(G, placed, n, base):
    """Make the kernel's stones ``placed[:n]`` (-1 a pass) by popping and pushing the
    difference; False when that would pop below ``base`` (then reload)."""
    g = G[0]
    have = g[H + NPLACED]
    k = 0
    while k < have and k < n and g[PLACED + k] == placed[k]:
        k += 1
    if k < base:
        return False
    for i in range(have - 1, k - 1, -1):
        if g[PLACED + i] < 0:
            _unpass(g)
        else:
            pop(G)
    for i in range(k, n):
        if placed[i] < 0:
            _pass(g)
        else:
            push(G, placed[i])
    return True


@jit(_nrt=False)
def four_points(G, S, colour, kind, top):
    """``_points(_scan(), colour, kind)`` as ``(start, end)`` in buf."""
    s1 = _scan(G[0], S[2], S[5], S[3], top)
    return s1, _points(S[3], top, s1, S[4], colour, kind, s1)


@jit(_nrt=False)
def new_fours(G, S, colour, p, placed):
    return new_four_points(G[0], S[2], S[5], colour, p, placed)


# ------------------------------------------------------------------ the arena (solvers in one array)
# T: a header, then the regions below; a solver's c and tt are views of T, so that the
# compiled negamax core gets every threat solver of a searcher as ONE array argument
A_MEMO, A_MEMO_LEN, A_LINES, A_CELLS, A_HBUF, A_HBUF_LEN, A_SCORE, A_NH, A_H = range(9)
HDR = 32
H_WORDS = 7                         #: per horizon solver: c, tt, tt length, c2, tt2, plies, budget
A_DEFEND = HDR - 1                  #: ThreatPart.defend: facing a four, the opponent's VCF after the block
LINE_WORDS = 2 * 160                #: >= 2 * lines of the largest board
HBUF_PLIES = 40                     #: the horizon's threat searches: plies the stack holds


@jit
def _views(T, base):
    """The solver tuple ``S`` of horizon solver ``base`` (a header entry) in the arena."""
    co, to, tl, co2, to2 = T[base], T[base + 1], T[base + 2], T[base + 3], T[base + 4]
    mo, ml, hb, hl = T[A_MEMO], T[A_MEMO_LEN], T[A_HBUF], T[A_HBUF_LEN]
    li, ce = T[A_LINES], T[A_CELLS]
    return (T[co:co + N_C], T[to:to + tl], T[mo:mo + ml], T[hb:hb + hl], T[li:li + LINE_WORDS],
            T[ce:ce + 32], T[co2:co2 + N_C], T[to2:to2 + tl])


@jit
def threat_horizon(G, T, ply):
    """``ThreatPart.horizon``: plies to a proven VCF (or VCT) win for the side to move
    (with the defence, minus the plies to a loss), or 0, the threat nodes it took and the
    forced block (``ThreatPart.block``; NONE: none): ``win_within(state, plies, ply)`` of each
    horizon solver in turn (the arena's header lists them) until one proves a win."""
    n = 0
    used = 0
    for j in range(T[A_NH]):
        base = A_H + H_WORDS * j
        S = _views(T, base)
        c = S[0]
        before = c[NODES]
        plies, budget = T[base + 5], T[base + 6]
        c[POLLING], c[ABORT] = 0, 0
        if budget <= 0:                 # win_within(state, plies, ply)
            c[EVERY], c[LIMIT], c[NEXT_CHECK], c[STOP_AT] = NEVER, -1, NEVER, -1
            n = node(G, S, plies, ply, np.int64(0), np.int64(1))
        else:                           # win_within(state, plies, ply, budget, deepen=True)
            stop_at = c[NODES] + budget
            c[EVERY], c[LIMIT], c[NEXT_CHECK], c[STOP_AT] = budget, stop_at, stop_at, stop_at
            for d in range(1 if plies % 2 else 2, plies + 1, 2):
                cuts = c[CUTS]
                n = node(G, S, np.int64(d), ply, np.int64(0), np.int64(1))
                if c[ABORT]:
                    c[ABORT] = 0
                    n = 0
                    break
                if n or (c[VCT] == 0 and c[CUTS] == cuts):
                    break
        used += c[NODES] - before
        if n:
            return n, used, NONE
    if T[A_DEFEND]:                     # ThreatPart._defended, with the first (VCF) solver
        S = _views(T, A_H)
        c = S[0]
        g = G[0]
        me = g[H + NPLACED] & 1
        s1, f1 = four_points(G, S, 1 - me, np.int64(0), np.int64(0))
        if f1 > s1:
            block = S[3][s1]
            if f1 - s1 > 1 or not _legal(g, me, block):
                return -2, used, NONE
            before = c[NODES]
            c[POLLING], c[ABORT] = 0, 0
            c[EVERY], c[LIMIT], c[NEXT_CHECK], c[STOP_AT] = NEVER, -1, NEVER, -1
            push(G, block)
            k = node(G, S, T[A_H + 5], ply + 1, f1, np.int64(1))
            pop(G)
            used += 1 + c[NODES] - before
            if k:
                return -(k + 1), used, NONE
            return 0, used, block
    return 0, used, NONE


#: threat_scores' weights: (the side to move's?, fact kind) as in gameai.search.threats._ORDER
_W_OWN = (1 << 20, 1 << 14, 1 << 17, 1 << 11)
_W_OPP = (1 << 19, 1 << 9, 1 << 15, 1 << 7)
#: forced_replies' marks: own five-point, the opponent's five-point, a four-point of either
#: colour, and (on no point: it only sets the returned flags) an opponent's three
F_OWN5, F_OPP5, F_FOUR, F_THREE = 1, 2, 4, 8
_F_OWN = (F_OWN5, F_FOUR, 0, 0)
_F_OPP = (F_OPP5, F_FOUR, F_THREE, 0)
#: a cell's scratch word: the ordering weights' sum below this bit (at most 4 lines x 2
#: colours x 4 kinds x 2**20 < 2**26), the forced marks (or-ed) from it up
MARK_SHIFT = 40
_LOW = (1 << MARK_SHIFT) - 1


@jit
def _mark_facts(G, T):
    """One scan of the lines for both threat switches: every threat fact's point gets, in
    the arena's per-cell scratch (``T[A_SCORE]``), its ordering weight added (the
    ``threat_scores`` sum, low bits) and its forced mark or-ed in (from ``MARK_SHIFT``
    up). Returns the or of every forced mark given out."""
    g = G[0]
    me = g[H + NPLACED] & 1
    so, mo, ml, li = T[A_SCORE], T[A_MEMO], T[A_MEMO_LEN], T[A_LINES]
    memo = T[mo:mo + ml]
    cells = T[T[A_CELLS]:T[A_CELLS] + 32]
    for q in range(NCM):
        T[so + q] = 0
    seen = 0
    exb, exw = g[H + EXB], g[H + EXW]
    for lid in range(g[H + NLINES]):
        s = facts(memo, g[CODES + lid], exb, exw, cells)
        if not (memo[s + 1] | memo[s + 2] | memo[s + 3] | memo[s + 4]):
            continue
        st, dd = T[li + 2 * lid], T[li + 2 * lid + 1]
        for colour in range(2):
            w1, w2 = memo[s + 1 + 2 * colour], memo[s + 2 + 2 * colour]
            for kind in range(4):
                if colour == me:
                    w, f = _W_OWN[kind], _F_OWN[kind]
                else:
                    w, f = _W_OPP[kind], _F_OPP[kind]
                mask = mask_of(w1, w2, colour, kind)
                if mask:
                    seen |= f
                f <<= MARK_SHIFT
                while mask:
                    x = so + st + trailing_zeros(mask) * dd
                    T[x] = (T[x] + w) | f
                    mask &= mask - 1
    return seen


@jit
def threat_order(G, T, buf, sc, n0, n1, marked):
    """``threat_scores`` of the moves ``buf[n0:n1]`` into ``buf[sc + j]`` (the core sorts
    them, stable and descending, as ``order_by_threat`` does). ``marked``: this node's
    :func:`threat_forced` has just scanned the lines, so the scratch is read as it is."""
    if not marked:
        _mark_facts(G, T)
    so = T[A_SCORE]
    for j in range(n0, n1):
        buf[sc + j] = T[so + buf[j]] & _LOW


@jit
def threat_forced(G, T, buf, n0, n1):
    """``forced_replies``: keep (in order) only the moves ``buf[n0:n1]`` the threats
    force and return the new end; all of them when none is kept. Leaves the scan in the
    scratch for :func:`threat_order` at the same node."""
    seen = _mark_facts(G, T)
    want = F_OWN5 if seen & F_OWN5 else F_OPP5 if seen & F_OPP5 else \
        F_FOUR if seen & F_THREE else 0
    if not want:
        return n1
    so = T[A_SCORE]
    want <<= MARK_SHIFT
    k = n0
    for j in range(n0, n1):
        if T[so + buf[j]] & want:
            buf[k] = buf[j]
            k += 1
    return k if k > n0 else n1


_LAST: list = []       # a weak reference to the newest arena


class Arena:
    """One flat array holding the state of one or more solvers (their counters and TTs
    as views), the line-fact memo, the board's line table and the horizon's move stack.
    ``T`` is what the compiled core gets; :meth:`horizon` writes which solvers (and ply
    limits) its horizon runs. A new arena copies the line memo of the newest one alive
    (what the Python memo, one per process, gives a new solver for free)."""

    def __init__(self, tt_size: int, solvers: int) -> None:
        cap = 1
        while cap < 2 * tt_size:
            cap *= 2
        self.tt_size, self.cap = tt_size, cap
        self.tt_len = 3 * cap + 3 * (tt_size + 1)       # slots, then the scratch for growing
        memo_len = 5 * (1 << MEMO_BITS) + 1
        hbuf_len = (2 * HBUF_PLIES + 16) * PLY_WORDS
        size = HDR + memo_len + LINE_WORDS + 32 + hbuf_len + NCM + solvers * (N_C + self.tt_len)
        self.T = np.zeros(size, dtype=np.int64)         # pages are touched only when used
        self.touched = False                            # (or by prefault)
        self._next = HDR
        T = self.T
        T[A_MEMO], T[A_MEMO_LEN] = self._take(memo_len), memo_len
        T[A_LINES], T[A_CELLS] = self._take(LINE_WORDS), self._take(32)
        T[A_HBUF], T[A_HBUF_LEN] = self._take(hbuf_len), hbuf_len
        T[A_SCORE] = self._take(NCM)
        self.memo = self.view(A_MEMO, memo_len)
        self.cells = self.view(A_CELLS, 32)
        self.lines = self.view(A_LINES, LINE_WORDS)
        self._size = None                               # board size of the line table
        last = _LAST[0]() if _LAST else None            # start with the line facts known
        if last is not None and len(last.memo) == memo_len:
            src, dst = last.memo[:-1].reshape(-1, 5), self.memo[:-1].reshape(-1, 5)
            used = src[:, 0] != 0
            dst[used] = src[used]
            self.memo[-1] = last.memo[-1]
        _LAST[:] = [weakref.ref(self)]

    def prefault(self) -> None:
        """:func:`~gameai.compiled.pages.touch` the arena once (a timed search's
        warm-up, before its clock): its solvers' tables are most of a threat searcher's
        memory, allocated lazily (``np.zeros``)."""
        if not self.touched:
            touch(self.T)
            self.touched = True

    def _take(self, n: int) -> int:
        off = self._next
        self._next += n
        if self._next > len(self.T):
            raise SpecError("threat arena: no room for another solver")
        return off

    def view(self, field: int, n: int) -> np.ndarray:
        off = int(self.T[field])
        return self.T[off:off + n]

    def solver_memory(self, vct: bool) -> tuple[int, int]:
        """Offsets of a new solver's ``c`` and ``tt``."""
        co, to = self._take(N_C), self._take(self.tt_len)
        c = self.T[co:co + N_C]
        c[TT_SIZE], c[TT_GEN], c[VCT] = self.tt_size, 1, int(vct)
        c[TT_MAX], c[TT_MASK] = self.cap, min(self.cap, 1024) - 1
        c[QUIET], c[BUDGET] = QUIET_WIDTH, THREAT_BUDGET
        c[LIMIT] = c[STOP_AT] = -1
        c[NEXT_CHECK] = c[EVERY] = NEVER
        return co, to

    def bind(self, geo) -> np.ndarray:
        """The line table (first point and step per line id) for ``geo``'s board size."""
        if self._size != geo.size:
            self.lines[:] = 0
            for lid, ln in enumerate(geo.lines):
                self.lines[2 * lid], self.lines[2 * lid + 1] = ln[0], ln[1] - ln[0]
            self._size = geo.size
        return self.lines

    def horizon(self, solvers, defend: bool = False) -> None:
        """Run ``solvers`` (``(solver, plies, node budget)``, solvers of this arena; budget 0:
        none) at the horizon; ``defend``: then the first one's defence against a four."""
        T = self.T
        T[A_NH] = len(solvers)
        T[A_DEFEND] = int(defend)
        for j, (sv, plies, budget) in enumerate(solvers):
            if sv.arena is not self:
                raise SpecError("threat horizon: the solvers must share one arena")
            if plies > HBUF_PLIES:
                raise SpecError(f"threat horizon: at most {HBUF_PLIES} plies, got {plies}")
            co, to, co2, to2 = sv.offsets
            T[A_H + H_WORDS * j:A_H + H_WORDS * (j + 1)] = (co, to, self.tt_len, co2, to2, plies,
                                                            budget)


def part_solvers(tt_size: int = 1 << 20):
    """A solver factory for :class:`gameai.search.threats.ThreatPart`: its VCF and VCT
    solvers share one arena (``factory.arena``), which the compiled core gets."""
    arena = Arena(tt_size, 3)

    def make(vct: bool = False) -> "ThreatSolver":
        return ThreatSolver(vct=vct, tt_size=tt_size, arena=arena)
    make.arena = arena
    return make


class _Counter:
    """A counter of ``c`` as a read/write attribute (``solver.nodes``, ...)."""

    def __init__(self, i: int) -> None:
        self.i = i

    def __get__(self, obj, owner=None):
        return self if obj is None else int(obj._c[self.i])

    def __set__(self, obj, v) -> None:
        obj._c[self.i] = v


class ThreatSolver:
    """The compiled drop-in for :class:`gameai.search.threats.ThreatSolver` (same public
    interface, same results and counters): ``solve``, ``win_within``, ``proof_points``,
    ``points``, ``new_four_points``, ``reset_counters``, ``clear``."""

    backend = "compiled"
    nodes, leaves, terminals, interior = (_Counter(i) for i in (NODES, LEAVES, TERMINALS, INTERIOR))
    cutoffs, probes, hits, ttcuts = (_Counter(i) for i in (CUTOFFS, PROBES, HITS, TTCUTS))
    seldepth = _Counter(SELDEPTH)

    def __init__(self, vct: bool = False, tt_size: int = 1 << 20, arena: Arena | None = None) -> None:
        self.vct = vct
        self.tt_size = tt_size
        self.aborted = False                     # did the last win_within give up?
        if arena is None:
            arena = Arena(tt_size, 2 if vct else 1)
        elif arena.tt_size != tt_size:
            raise SpecError("threat solver: tt_size differs from its arena's")
        self.arena = arena
        co, to = arena.solver_memory(vct)
        # VCT only: the VCF prover of a quiet move's threat (its own counters and TT)
        co2, to2 = arena.solver_memory(False) if vct else (co, to)
        self.offsets = (co, to, co2, to2)
        T, n = arena.T, arena.tt_len
        self._c, self._tt, self._c2, self._tt2 = T[co:co + N_C], T[to:to + n], T[co2:co2 + N_C], T[to2:to2 + n]
        self._memo, self._cells = arena.memo, arena.cells
        self._buf = np.zeros(0, dtype=np.int64)
        self._kind = None
        self._game = None                 # (rule, size, radius, full_board) of G
        self.G = None
        self.state = None

    def clear(self) -> None:
        for c in (self._c, self._c2):
            c[TT_GEN] += 1
            c[TT_COUNT] = 0

    def reset_counters(self) -> None:
        self._c[:SELDEPTH + 1] = 0

    # ------------------------------------------------------------------ the position
    def _bind(self, state, plies: int = 0) -> None:
        if not hasattr(state, "line_codes"):
            raise SpecError(f"threat search needs a gomoku/renju game, got {getattr(state, 'name', state)!r}")
        self.state = state
        kind = (state.rule, state.size)
        if kind != self._kind:             # keys are only unique within one rule and size
            self._kind = kind
            self.clear()
        game = (state.rule, state.size, state.radius, state.full_board)
        placed = np.asarray(state.placed, dtype=np.int64)
        if game != self._game or not sync(self.G, placed, len(placed), self._base):
            self._load(state)
            self._game = game
        need = (2 * plies + 16) * PLY_WORDS
        if len(self._buf) < need:
            self._buf = np.zeros(need, dtype=np.int64)
        self._S = (self._c, self._tt, self._memo, self._buf, self.arena.bind(state.geo), self._cells,
                   self._c2, self._tt2)

    def _load(self, state) -> None:
        """``load(state)``, with the winner-before of every move of the game (a pass may
        sit in ``placed`` and shift them) so that sync can pop back to the setup stones."""
        G = load(state)
        g = G[0]
        placed = state.placed
        base = len(placed) - len(state.move_stack) - placed.count(-1)
        k = 0
        for i in range(base, len(placed)):
            if placed[i] >= 0 and k < len(state._undo):
                w = state._undo[k][2]
                g[WSTACK + i] = -1 if w is None else w
                k += 1
        self.G, self._base = G, base

    # ------------------------------------------------------------------ driving it
    def solve(self, state, max_plies: int, should_stop: Callable[[int], bool] | None = None,
              on_iteration: Callable[[int, int], None] | None = None,
              check_every: int = 256, node_limit: int | None = None) -> tuple[int, list[int], int]:
        """As the Python solver's ``solve``: ``(plies, line, last depth)``."""
        self._bind(state, max_plies)
        c = self._c
        nodes = int(c[NODES])
        c[EVERY], c[LIMIT] = check_every, -1 if node_limit is None else node_limit
        c[NEXT_CHECK] = nodes + check_every if node_limit is None else \
            min(nodes + check_every, node_limit)
        c[POLLING], c[STOP_AT], c[ABORT] = int(should_stop is not None), -1, 0
        _HOOKS.append(should_stop)
        done = 0
        try:
            for d in range(1, max_plies + 1, 2):
                cuts = int(c[CUTS])
                n = int(solve_iteration(self.G, self._S, np.int64(d), np.int64(0)))
                if c[ABORT]:
                    break
                done = d
                if on_iteration is not None:
                    on_iteration(d, n)
                if n:
                    return n, self._line(n), done
                if not self.vct and c[CUTS] == cuts:
                    return 0, [], max_plies     # no deeper limit can win
        finally:
            _HOOKS.pop()
            c[ABORT] = 0
        return 0, [], done

    def win_within(self, state, max_plies: int, ply: int = 0, budget: int | None = None,
                   deepen: bool = False, should_stop: Callable[[int], bool] | None = None) -> int:
        """As the Python solver's ``win_within``: win length or 0 (:attr:`aborted`)."""
        self._bind(state, max_plies)
        c = self._c
        self.aborted = False
        limits = range(1 if max_plies % 2 else 2, max_plies + 1, 2) if deepen else (max_plies,)
        self._limits(budget, should_stop)
        if should_stop is not None:
            _HOOKS.append(should_stop)
        try:
            for d in limits:
                cuts = int(c[CUTS])
                n = int(attack(self.G, self._S, np.int64(d), np.int64(ply), np.int64(0)))
                if c[ABORT]:
                    c[ABORT] = 0
                    self.aborted = True
                    return 0
                if n or (not self.vct and c[CUTS] == cuts):
                    return n
            return 0
        finally:
            if should_stop is not None:
                _HOOKS.pop()
                c[POLLING] = 0

    def _limits(self, budget: int | None, should_stop: Callable[[int], bool] | None) -> None:
        """A search's stops from here on: at ``budget`` more nodes (None: none), and when
        given, ``should_stop`` asked every 256 nodes (the caller pushes it on _HOOKS)."""
        c = self._c
        c[POLLING], c[ABORT] = int(should_stop is not None), 0
        nodes = int(c[NODES])
        stop_at = -1 if budget is None else nodes + budget
        if should_stop is not None:             # the clock every 256 nodes, and the budget
            c[EVERY], c[LIMIT], c[STOP_AT] = 256, stop_at, stop_at
            c[NEXT_CHECK] = nodes + 256 if stop_at < 0 else min(nodes + 256, stop_at)
        elif budget is None:
            c[EVERY], c[LIMIT], c[NEXT_CHECK], c[STOP_AT] = NEVER, -1, NEVER, -1
        else:
            c[EVERY], c[LIMIT], c[NEXT_CHECK], c[STOP_AT] = budget, stop_at, stop_at, stop_at

    def _line(self, n: int) -> list[int]:
        end = int(line(self.G, self._S, np.int64(n), np.int64(0)))
        return [int(m) for m in self._buf[:end]]

    def proof_points(self, state, max_nodes: int = 5_000) -> set[int] | None:
        """As the Python solver's ``proof_points``: every point of the proof tree just
        proven for the side to move, or None."""
        self._bind(state, 64)
        c = self._c
        c[EVERY], c[LIMIT], c[NEXT_CHECK], c[POLLING], c[STOP_AT] = NEVER, -1, NEVER, 0, -1
        c[WALKED] = 0
        pts = np.zeros(16, dtype=np.int64)
        if not proof(self.G, self._S, pts, np.int64(max_nodes), np.int64(0)):
            return None
        out = set()
        for w, x in enumerate(pts.view(np.uint64).tolist()):   # unsigned: bit 63 is a point
            while x:
                low = x & -x
                out.add(64 * w + low.bit_length() - 1)
                x ^= low
        return out

    def points(self, state, colour: int, kind: int) -> list[int]:
        """Board points of one threat-fact kind of ``colour`` (0 fives, 1 fours, 2 straight
        fours, 3 threes), no repeats, in the Python solver's order."""
        self._bind(state)
        s1, end = four_points(self.G, self._S, np.int64(colour), np.int64(kind), np.int64(0))
        return [int(m) for m in self._buf[s1:end]]

    def new_four_points(self, colour: int, p: int, placed: bool = False) -> int:
        """As the Python solver's: new four-points of a ``colour`` stone at ``p``, on the
        position last searched (the game object follows its pushes)."""
        self._bind(self.state)
        return int(new_fours(self.G, self._S, np.int64(colour), np.int64(p), placed))


def warm_up() -> None:
    """Compile (or load from the disk cache) every entry point before a search's clock
    starts: a tiny VCT with its proof points on a scratch solver."""
    entries = (solve_iteration, attack, line, proof, four_points, new_fours, sync)
    if all(f.signatures for f in entries):
        return
    from ..games.gomoku import Gomoku
    s = Gomoku(size=9, rule="renju", black="e5 f5 g5", white="a1 a9 i9")
    sv = ThreatSolver(vct=True, tt_size=64)
    assert sv.solve(s, 5, lambda n: False, None, 1)[0]  # a win: its line is read too
    sv.win_within(s, 5, 0, 100, True)
    sv.proof_points(s)
    sv.points(s, 0, 1)
    sv.new_four_points(0, s.parse_move("h5"))
