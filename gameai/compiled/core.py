"""The compiled negamax core: :mod:`gameai.search.core`'s ONE search, step for step, in numba.

This file is a template, compiled once per game kernel: :func:`gameai.compiled.search.load_core`
loads it as the module ``gameai.compiled._core_<kernel>``, whose global ``game`` is the
kernel module (``gameai.compiled.<kernel>``; the contract is in
:mod:`gameai.compiled`), each with its own numba cache folder. A kernel's capability flags
(``HAS_CHECK``, ...) are compile-time constants, so the parts a game lacks are not compiled.

A node does the steps of the Python core in the same order (read its docstring for why):

1. limits and ``stop``, terminal and draw (``result``, the root move's threat reply check,
   then ``repetition``);
2. check extension, then the horizon: quiescence (with ``evasions``; the TT with
   ``qs_tt``), the threat part's
   VCF (``threats``) or the evaluator;
3. mate-distance pruning;
4. transposition-table probe;
5. reverse futility, null move (adaptive or not; futility marks the node for step 7);
6. move generation and ordering (history sort, threats, killers, MVV-LVA with SEE, TT move,
   root move); at the root only the allowed moves (``root_moves``);
7. the move loop: late and futile quiet moves skipped, leaf children in place, LMR (both
   kinds), NegaScout null windows and re-searches;
8. store: killers, history (gravity's malus too), TT (never after a path-dependent value).

Every counter, every sort (stable, descending) and every table rule is the Python one,
so both backends report the same numbers. Per-search state is ``S = (c, buf, hist, kil,
tt, T)``: ``c`` the counters, switches, null-move flags per ply, allowed root moves and
the root moves' threat reply checks;
``buf`` the move stack, its sort keys and the triangular PV table; the memories that
outlive a search (history, killers, TT) are arrays owned by the searcher (see
:mod:`gameai.compiled.memory`); ``T`` is the threat part's arena (its solvers' counters
and TTs, :mod:`gameai.compiled.threats`), which a kernel with ``HAS_THREATS`` reads
through ``threat_horizon`` and ``threat_order`` (the other kernels get the stubs). Few arrays on purpose: numba passes every array of a
tuple as separate arguments at each recursive call, and 18 of them halved the speed. A limit or ``stop``
sets ``c[ABORT]``: every node then pops its move and returns at once, storing nothing
(the Python core raises :class:`~gameai.search.core.Abort` instead).

Time limits and ``stop`` are read in Python (``numba.objmode``) every ``POLL`` nodes;
the node limit is checked in the kernel at exactly the Python core's check points.
"""
from __future__ import annotations

import importlib
import zlib

import numpy as np

from ..search.pruning import (DELTA_MARGIN, FUTILITY_DEPTH, FUTILITY_MARGIN, LMR_MIN_DEPTH,
                              LMR_MIN_INDEX, NULL_BASE, NULL_DIV, NULL_EVAL_DIV,
                              NULL_PER_DEPTH, NULL_R, RFP_DEPTH, RFP_MARGIN, SEE_BAD,
                              lmr_reduction, lmr_sf_reduction, move_count_limit,
                              null_reduction, see_prune_threshold)
from ..search.ordering import HISTORY_MAX, gravity, stat_bonus
from ..search.stats import INF, MATE, MATE_BOUND
from ..search.tt import EXACT, LOWER, UPPER
from . import stubs
from .jit import jit, numba

if "._core_" in __name__:       # loaded per game by gameai.compiled.search.load_core
    _pkg, _kernel = __name__.rsplit("._core_", 1)
    game = importlib.import_module(f"{_pkg}.{_kernel.split('__')[0]}")
    # ``<kernel>__<hash>``: the core of an own evaluator's function (gameai.compiled.evaluator)
    _game_evaluate = importlib.import_module(f"{_pkg}.evaluator").FUNCTIONS[_kernel] \
        if "__" in _kernel else game.evaluate
else:                           # the plain module is only the template
    game, _kernel, _game_evaluate = None, "template", None
# the threat part: compiled only for a kernel that has it (stubs for the others)
HAS_THREATS = bool(getattr(game, "HAS_THREATS", False))
_threat_horizon = getattr(game, "threat_horizon", stubs.threat_horizon)
_threat_order = getattr(game, "threat_order", stubs.threat_order)
_threat_forced = getattr(game, "threat_forced", stubs.threat_forced)
# the pruning parts' check probes (stubs for a kernel without checks)
_gives_check = getattr(game, "gives_check", stubs.gives_check)
_has_attackers = getattr(game, "has_attackers", stubs.has_attackers)
_see = getattr(game, "see", stubs.see)
_capture_value = getattr(game, "capture_value", stubs.capture_value)
# the cache folder: per kernel, and per value of the constants frozen into the code
_FROZEN = (LMR_MIN_DEPTH, LMR_MIN_INDEX, NULL_R, RFP_DEPTH, RFP_MARGIN, FUTILITY_DEPTH,
           FUTILITY_MARGIN, INF, MATE, MATE_BOUND, EXACT, LOWER, UPPER, NULL_BASE,
           NULL_PER_DEPTH, NULL_DIV, NULL_EVAL_DIV, SEE_BAD, DELTA_MARGIN, HISTORY_MAX)
_TAG = f"{_kernel}-{zlib.crc32(repr(_FROZEN).encode()):08x}"

NO_MOVE = -(1 << 63)            #: "no move" (None) in move arrays
NEVER = 1 << 62                 #: a node count no search reaches
POLL = 1024                     #: nodes between two reads of the clock / ``stop`` flag

# S, the core's argument: (c, buf, the memories' arrays, T). The memories come in the order
# gameai.search.memories.MEMORIES declares them (CompiledSearch builds S from it); the
# core's local name of each (tests/compiled/test_memories.py compares the two):
MEMORY_ARGS = {"history": "hist", "killers": "kil", "tt": "tt"}
S_TT = 2 + list(MEMORY_ARGS).index("tt")     #: S[S_TT]: the TT, read alone by qsearch

# c: counters and search state, then the switches (read once per search), then
# null_at[ply] (the move into ply was a null move) and the allowed root moves
# (a counter's slot is its SearchStats name in upper case; a switch's slot is named in its
# row of gameai.search.switches, which packs it; tests/compiled/test_switch_table.py checks both)
NODES, LEAVES, TERMINALS, INTERIOR, CUTOFFS, FIRST_MOVE_CUTOFFS, TT_PROBES, TT_HITS, \
    TT_CUTOFFS, RESEARCHES, PRUNED, GHI, SELDEPTH, NEXT_CHECK, ABORT, ROOT_BEST, ROOT_FIRST, \
    NODE_LIMIT, NEXT_POLL, SCORES, PVS, PV_W, ALLOWED, N_ALLOWED, \
    PRUNING, SCOUT, EXACT_DEPTH, MATE_PLY, QDEPTH, USE_TT, USE_HIST, WITH_PIECE, SQUARE, \
    KILLERS, NOISY, EVASIONS, CHECK_EXT, NULLMOVE, LMR, IS_CAP, MVV, REPEAT, MDP, NEED_CHECK, \
    INLINE, ORDERING, MAX_PLY, ON_ROOT, POLLING, RESTRICT, \
    THREATS, THREAT_ORDER, THREAT_NODES, ROOT_REPLY, REPLIES, N_REPLIES, THREAT_FORCED, \
    GRAIN, TT_ALWAYS, FUTILITY, RFP, NULL_TRIES, NULL_CUTOFFS, REDUCTIONS, \
    REDUCTION_RESEARCHES, FUTILITY_SKIPS, QNODES, ROOT_PARTIAL, NULL_ADAPTIVE, SEE_SKIPS, \
    DELTA_SKIPS, SEE, DELTA, LMR_SF, MOVE_COUNT_SKIPS, MOVE_COUNT, GRAVITY, QS_TT, SEE_PRUNE = range(79)
NULL_AT = N_FIXED = 79          #: c[NULL_AT + ply]: null_at[ply]
# buf: moves [0, SCORES), their sort keys [SCORES, PVS), PV rows of PV_W: [length, moves...]
# tt (gameai.compiled.memory.CompiledTT): rows [key, depth, generation + flag + 1, value,
# move, age]; the last row holds the table's age, slots in use, index mask and generation
# (a slot whose third column is not above the generation is empty)
T_KEY, T_DEPTH, T_FLAG, T_VALUE, T_MOVE, T_EAGE = range(6)
T_AGE, T_USED, T_MASK, T_GEN = range(4)

#: the Python core's reduction formula itself, compiled (written once, in search.pruning)
_lmr_reduction = jit(lmr_reduction, tag=_TAG, _nrt=False, inline="always")
_null_reduction = jit(null_reduction, tag=_TAG, _nrt=False, inline="always")
_lmr_sf_reduction = jit(lmr_sf_reduction, tag=_TAG, _nrt=False, inline="always")
_move_count_limit = jit(move_count_limit, tag=_TAG, _nrt=False, inline="always")
_see_prune_threshold = jit(see_prune_threshold, tag=_TAG, _nrt=False, inline="always")
_stat_bonus = jit(stat_bonus, tag=_TAG, _nrt=False, inline="always")
_gravity = jit(gravity, tag=_TAG, _nrt=False, inline="always")

_HOOKS: list = []               # (stop_check, on_root_move) of the running searches


def _poll(nodes):
    """``stop_check(nodes)`` of the innermost running search (called from objmode)."""
    return 1 if _HOOKS[-1][0](int(nodes)) else 0


def _root_move(i, n, m, v):
    """``on_root_move(index, count, move, value)`` of the innermost running search."""
    _HOOKS[-1][1](int(i), int(n), int(m), int(v))


@jit(tag=_TAG, _nrt=False)
def _stopped(c):
    """Limits and ``stop`` at a check point: set ``c[ABORT]`` when one is reached.

    The node limit aborts at the first check point with ``nodes >= limit``, as the
    Python core's ``check``; the clock and ``stop`` are read every ``POLL`` nodes."""
    nodes = c[NODES]
    lim = c[NODE_LIMIT]
    if lim > 0 and nodes >= lim:
        c[ABORT] = 1
        return True
    if c[POLLING] and nodes >= c[NEXT_POLL]:
        c[NEXT_POLL] = nodes + POLL
        with numba.objmode(s="int64"):
            s = _poll(nodes)
        if s:
            c[ABORT] = 1
            return True
    nxt = c[NEXT_POLL] if c[POLLING] else NEVER
    if lim > 0 and lim < nxt:
        nxt = lim
    c[NEXT_CHECK] = nxt
    return False


@jit(tag=_TAG, _nrt=False)
def _term_value(G, c, r, ply):
    """A finished game (``r`` = winner 0/1, 2 a draw) scored for the side to move."""
    if r == 2:
        return 0
    v = MATE - ply if c[MATE_PLY] else MATE
    return v if r == game.side(G) else -v


@jit(tag=_TAG, _nrt=False)
def _from_tt(v, ply):
    if v >= MATE_BOUND:
        return v - ply
    if v <= -MATE_BOUND:
        return v + ply
    return v


@jit(tag=_TAG, _nrt=False)
def _tt_store(tt, key, depth, flag, value, move, ply, always):
    """gameai.search.tt.TranspositionTable.store: depth-preferred with ageing, or
    (``always``, ``tt_replace=always``) every store overwrites its slot."""
    meta = tt[-1]
    e = tt[key & meta[T_MASK]]
    if e[T_FLAG] <= meta[T_GEN]:
        meta[T_USED] += 1
    elif not always and e[T_EAGE] == meta[T_AGE] and e[T_DEPTH] > depth:
        return
    if value >= MATE_BOUND:
        value += ply
    elif value <= -MATE_BOUND:
        value -= ply
    e[T_KEY], e[T_DEPTH], e[T_FLAG], e[T_VALUE], e[T_MOVE], e[T_EAGE] = \
        key, depth, meta[T_GEN] + flag + 1, value, move, meta[T_AGE]


@jit(tag=_TAG, _nrt=False, inline="always")
def _evaluate(G, E, c):
    """The evaluation, coarsened to ``c[GRAIN]`` (:func:`gameai.search.core.coarse`)."""
    v = _game_evaluate(G, E)
    g = c[GRAIN]
    if g > 1:
        v = (v + g // 2) // g * g
    return v


@jit(tag=_TAG, _nrt=False)
def _sort_desc(buf, sc, n0, n1):
    """Stable sort of ``buf[n0:n1]`` by decreasing key ``buf[sc + j]`` (Python's
    ``sort(reverse=True)``)."""
    for i in range(n0 + 1, n1):
        m, s = buf[i], buf[sc + i]
        j = i
        while j > n0 and buf[sc + j - 1] < s:
            buf[j], buf[sc + j] = buf[j - 1], buf[sc + j - 1]
            j -= 1
        buf[j], buf[sc + j] = m, s


@jit(tag=_TAG, _nrt=False)
def _to_front(buf, n0, n1, m):
    """``if m in moves: moves.remove(m); moves.insert(0, m)``."""
    for j in range(n0, n1):
        if buf[j] == m:
            for k in range(j, n0, -1):
                buf[k] = buf[k - 1]
            buf[n0] = m
            return


@jit(tag=_TAG, _nrt=False)
def _keep_allowed(buf, n0, n1, c):
    """``[m for m in moves if m in allowed]`` (``allowed`` sorted, in ``c``): the new end."""
    a0, a1 = c[ALLOWED], c[ALLOWED] + c[N_ALLOWED]
    n = n0
    for j in range(n0, n1):
        lo, hi = a0, a1                 # binary search
        while lo < hi:
            mid = (lo + hi) // 2
            if c[mid] < buf[j]:
                lo = mid + 1
            else:
                hi = mid
        if lo < a1 and c[lo] == buf[j]:
            buf[n] = buf[j]
            n += 1
    return n


@jit(tag=_TAG, _nrt=False)
def _reply_of(c, m):
    """The threat reply check of root move ``m`` (moves sorted in ``c``, values after them)."""
    a0, n = c[REPLIES], c[N_REPLIES]
    lo, hi = a0, a0 + n
    while lo < hi:
        mid = (lo + hi) // 2
        if c[mid] < m:
            lo = mid + 1
        else:
            hi = mid
    return c[lo + n] if lo < a0 + n and c[lo] == m else 0


@jit(tag=_TAG, _nrt=False)
def _pv_set(buf, c, ply, m):
    """``pvt[ply] = (m,) + pvt[ply + 1]``."""
    w = c[PV_W]
    row, sub = c[PVS] + ply * w, c[PVS] + (ply + 1) * w
    k = buf[sub]
    buf[row] = k + 1
    buf[row + 1] = m
    for j in range(k):
        buf[row + 2 + j] = buf[sub + 1 + j]


@jit(tag=_TAG, _nrt=False)
def qsearch(G, E, S, alpha, beta, ply, qd, top):
    """Captures only (``gen_noisy``), standing pat on the evaluation; in check with
    ``evasions``, every legal move and no stand pat."""
    c, buf, tt = S[0], S[1], S[S_TT]
    c[QNODES] += 1
    if c[NODES] >= c[NEXT_CHECK] and _stopped(c):
        return 0
    r = game.result(G)
    if r >= 0:
        c[TERMINALS] += 1
        return _term_value(G, c, r, ply)
    q_move = NO_MOVE
    key = 0
    if c[QS_TT]:                        # the TT at depth 0: any entry's bound decides
        key = game.key(G)
        c[TT_PROBES] += 1
        meta = tt[-1]
        e = tt[key & meta[T_MASK]]
        f = e[T_FLAG] - meta[T_GEN] - 1
        if f >= 0 and e[T_KEY] == key:
            c[TT_HITS] += 1
            q_move = e[T_MOVE]
            if e[T_DEPTH] == 0 or not c[EXACT_DEPTH]:
                v = _from_tt(e[T_VALUE], ply)
                if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                    c[TT_CUTOFFS] += 1
                    return v
    a0 = alpha
    evading = game.HAS_CHECK and c[EVASIONS] and qd > 0 and game.in_check(G)
    if evading:
        c[INTERIOR] += 1
        best = -INF
        n1 = game.gen_moves(G, buf, top)
    else:
        c[LEAVES] += 1
        best = _evaluate(G, E, c)
        if best >= beta or qd <= 0:
            return best
        if best > alpha:
            alpha = best
        n1 = game.gen_noisy(G, buf, top)
        if game.HAS_CAPTURE and c[MVV]:
            sc = c[SCORES]
            for j in range(top, n1):
                buf[sc + j] = game.mvv_lva(G, buf[j])
            _sort_desc(buf, sc, top, n1)
    if q_move != NO_MOVE:
        _to_front(buf, top, n1, q_move)
    if ply + 1 > c[SELDEPTH]:
        c[SELDEPTH] = ply + 1
    best_move = NO_MOVE
    use_delta = c[DELTA] and -MATE_BOUND < alpha and not evading
    base = best + DELTA_MARGIN
    for j in range(top, n1):
        if not evading:
            if use_delta and base + _capture_value(G, buf[j]) <= alpha \
                    and not _gives_check(G, buf[j]):
                c[DELTA_SKIPS] += 1     # delta pruning: the capture cannot reach alpha
                if base + _capture_value(G, buf[j]) > best:
                    best = base + _capture_value(G, buf[j])
                continue
            if c[SEE] and _see(G, buf[j]) < 0:
                c[SEE_SKIPS] += 1       # a capture that loses material
                continue
        game.push(G, buf[j])
        c[NODES] += 1
        v = -qsearch(G, E, S, -beta, -alpha, ply + 1, qd - 1, n1)
        game.pop(G)
        if c[ABORT]:
            return 0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                best_move = buf[j]
                if v >= beta:
                    break
    if c[QS_TT]:
        flag = UPPER if best <= a0 else LOWER if best >= beta else EXACT
        _tt_store(tt, key, 0, flag, best, best_move, ply, c[TT_ALWAYS])
    return best


@jit(tag=_TAG, _nrt=False)
def negamax(G, E, S, depth, alpha, beta, ply, top, cut):
    """The node (see the module docstring); moves go to ``buf`` from ``top`` on; ``cut``:
    1 at an expected cut node (``lmr_sf``), else 0 (an int64: a bool argument of this
    recursive function broke numba's disk cache, segfaulting once loaded)."""
    c, buf, hist, kil, tt, T = S
    zero = cut - cut                    # int64 constants, typed as ``cut``
    one = zero + 1
    buf[c[PVS] + ply * c[PV_W]] = 0
    # 1. limits, terminal and draw
    if c[NODES] >= c[NEXT_CHECK] and _stopped(c):
        return 0
    r = game.result(G)
    if r >= 0:
        c[TERMINALS] += 1
        return _term_value(G, c, r, ply)
    if HAS_THREATS and c[THREATS] and ply == 1:   # does the root move allow a VCT? (checked
        n = c[ROOT_REPLY]                          # before the search: check_root_moves)
        if n:
            c[TERMINALS] += 1
            return MATE - (ply + n)
    if game.HAS_REPEAT and c[REPEAT] and ply:
        r = game.repetition(G)          # a repetition in the line, judged by the game's
        if r >= 0:                      # rule (perpetual check loses): path-dependent
            c[TERMINALS] += 1
            c[GHI] += 1
            return _term_value(G, c, r, ply)
    # 2. check extension, horizon
    checked = False
    if game.HAS_CHECK and c[NEED_CHECK]:
        checked = game.in_check(G)
    if c[CHECK_EXT] and checked and ply < c[MAX_PLY]:
        depth += 1
    if depth <= 0:
        if game.HAS_NOISY and c[NOISY]:
            return qsearch(G, E, S, alpha, beta, ply, c[QDEPTH], top)
        if HAS_THREATS and c[THREATS]:      # a proven VCF beyond the horizon
            n, used, block = _threat_horizon(G, T, ply)
            c[NODES] += used                # its nodes count against the node limit
            c[THREAT_NODES] += used
            if n:                           # won (n > 0) or lost (n < 0) in |n| plies
                return MATE - (ply + n) if n > 0 else ply - n - MATE
            if block >= 0:                  # facing a four: the value after the block
                game.push(G, block)
                c[LEAVES] += 1
                v = -_evaluate(G, E, c)
                game.pop(G)
                return v
        c[LEAVES] += 1
        return _evaluate(G, E, c)
    # 3. mate-distance pruning: no line from here can beat a mate found nearer the root
    if c[MDP] and ply:
        if alpha < ply - MATE:
            alpha = ply - MATE
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
        if alpha >= beta:
            c[PRUNED] += 1
            return alpha
    a0 = alpha
    ghi0 = c[GHI]
    # 4. transposition table
    tt_move = NO_MOVE
    key = 0
    if c[USE_TT]:
        key = game.key(G)
        c[TT_PROBES] += 1
        meta = tt[-1]
        e = tt[key & meta[T_MASK]]
        f = e[T_FLAG] - meta[T_GEN] - 1             # the flag, -1 or less for an empty slot
        if f >= 0 and e[T_KEY] == key:
            c[TT_HITS] += 1
            tt_move = e[T_MOVE]
            if ply and (e[T_DEPTH] == depth if c[EXACT_DEPTH] else e[T_DEPTH] >= depth):
                v = _from_tt(e[T_VALUE], ply)
                if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                    c[TT_CUTOFFS] += 1
                    if tt_move != NO_MOVE:
                        row = c[PVS] + ply * c[PV_W]
                        buf[row], buf[row + 1] = 1, tt_move
                    return v
    # 5. pruning before the moves. Near the horizon, on a null window away from mates
    # and not in check, the static evaluation decides: far above beta cuts the node
    # (reverse futility), far below alpha makes later quiet moves futile (futility).
    # Step 7 skips the quiet moves after the first when the node is futile.
    futile = False
    fv = -INF
    se = 0
    have_se = False
    if game.HAS_CHECK and (c[FUTILITY] or c[RFP]) and ply and not checked \
            and beta - alpha == 1 and -MATE_BOUND < alpha and beta < MATE_BOUND \
            and depth <= max(FUTILITY_DEPTH if c[FUTILITY] else 0, RFP_DEPTH if c[RFP] else 0):
        se = _evaluate(G, E, c)
        have_se = True
        if c[RFP] and depth <= RFP_DEPTH and se - RFP_MARGIN * depth >= beta:
            c[PRUNED] += 1
            return se
        if c[FUTILITY] and depth <= FUTILITY_DEPTH and se + FUTILITY_MARGIN * depth <= alpha:
            futile = True
            fv = se + FUTILITY_MARGIN * depth
    # null move: passing still fails high, so a real move would too (adaptive: on a
    # null window with the evaluation at least beta, reduced by depth and excess)
    if game.HAS_NULL and c[NULLMOVE] and ply and not checked and not c[NULL_AT + ply] \
            and depth > NULL_R and -MATE_BOUND < beta < MATE_BOUND:
        r_null = NULL_R
        if c[NULL_ADAPTIVE]:
            if beta - alpha != 1 or not _has_attackers(G):
                r_null = -1
            else:
                if not have_se:
                    se = _evaluate(G, E, c)
                r_null = _null_reduction(depth, se - beta) if se >= beta else -1
        if r_null >= 0:
            game.push_null(G)
            c[NODES] += 1
            c[NULL_TRIES] += 1
            c[NULL_AT + ply + 1] = 1
            v = -negamax(G, E, S, depth - 1 - r_null, -beta, 1 - beta, ply + 1, top, 1 - cut)
            c[NULL_AT + ply + 1] = 0
            game.pop_null(G)
            if c[ABORT]:
                return 0
            if v >= beta:
                c[PRUNED] += 1
                c[NULL_CUTOFFS] += 1
                return beta if v >= MATE_BOUND else v   # a mate after passing proves nothing
    # 6. moves and their order
    n0 = top
    n1 = game.gen_moves(G, buf, n0)
    if n1 == n0:                        # not over, but nothing to play: a horizon
        c[LEAVES] += 1
        return _evaluate(G, E, c)
    marked = False                      # the threat facts are in T's scratch already
    if HAS_THREATS and c[THREAT_FORCED] and (ply or not c[RESTRICT]):
        n1 = _threat_forced(G, T, buf, n0, n1)     # only the replies the threats force
        marked = True
    c[INTERIOR] += 1
    if ply >= c[SELDEPTH]:
        c[SELDEPTH] = ply + 1
    if c[ORDERING]:
        sc = c[SCORES]
        if c[USE_HIST]:
            wp = c[WITH_PIECE] != 0
            for j in range(n0, n1):
                buf[sc + j] = hist[game.history_key(G, buf[j], wp)]
            _sort_desc(buf, sc, n0, n1)
        if HAS_THREATS and c[THREAT_ORDER]:  # threats first, history breaks ties (stable)
            _threat_order(G, T, buf, sc, n0, n1, marked)
            _sort_desc(buf, sc, n0, n1)
        if c[KILLERS]:
            for s in (1, 0):
                if kil[ply, s] != NO_MOVE:
                    _to_front(buf, n0, n1, kil[ply, s])
        if game.HAS_CAPTURE and c[MVV]:     # captures first, by MVV-LVA (stable)
            for j in range(n0, n1):
                buf[sc + j] = game.mvv_lva(G, buf[j])
                if c[SEE] and game.is_capture(G, buf[j]) and _see(G, buf[j]) < 0:
                    buf[sc + j] -= SEE_BAD  # losing captures after the quiet moves
            _sort_desc(buf, sc, n0, n1)
        if tt_move != NO_MOVE:
            _to_front(buf, n0, n1, tt_move)
    on_root = False
    if not ply:
        if c[RESTRICT]:                 # the root moves a GUI allows (order kept)
            n1 = _keep_allowed(buf, n0, n1, c)
        if c[ROOT_FIRST] != NO_MOVE:
            _to_front(buf, n0, n1, c[ROOT_FIRST])
        on_root = c[ON_ROOT] != 0
    # 7. the move loop
    best = -INF
    best_move = NO_MOVE
    leaf_children = depth == 1 and c[INLINE]
    if leaf_children:
        buf[c[PVS] + (ply + 1) * c[PV_W]] = 0
    n = n1 - n0
    scout = c[SCOUT]
    # move-count pruning: late quiet moves near the horizon, not at the root or in
    # check, and not where only pawns and guards are left
    mc_from = n + 1                     # (off: beyond the last move)
    if game.HAS_CHECK and game.HAS_CAPTURE and c[MOVE_COUNT] and ply and not checked \
            and _has_attackers(G):
        mc_from = _move_count_limit(depth)
    sp = game.HAS_CHECK and game.HAS_CAPTURE and c[SEE_PRUNE] and ply and _has_attackers(G)
    last = 0                            # the last move looked at
    for i in range(n):
        m = buf[n0 + i]
        last = i
        if c[GRAVITY]:                  # searched quiet moves marked 1 in their sort keys
            buf[c[SCORES] + n0 + i] = 0
        if HAS_THREATS and c[THREATS] and not ply:
            c[ROOT_REPLY] = _reply_of(c, m)
        if i + 1 >= mc_from and best > -MATE_BOUND and not game.is_capture(G, m) \
                and not _gives_check(G, m):
            c[MOVE_COUNT_SKIPS] += 1    # not made, not counted
            continue
        if game.HAS_CHECK and game.HAS_CAPTURE and futile and i and not game.is_capture(G, m) \
                and not _gives_check(G, m):
            c[FUTILITY_SKIPS] += 1      # a futile quiet move that gives no check: not
            if fv > best:               # made, answered by the margin's bound
                best = fv               # (fail soft)
            continue
        if sp and best > -MATE_BOUND and _see(G, m) < _see_prune_threshold(
                depth, _lmr_sf_reduction(depth, i + 1),
                not game.is_capture(G, m) and not _gives_check(G, m)):
            c[SEE_SKIPS] += 1           # it loses too much: not made, not counted
            continue
        if c[GRAVITY] and not (game.HAS_CAPTURE and c[IS_CAP] and game.is_capture(G, m)):
            buf[c[SCORES] + n0 + i] = 1
        if leaf_children:               # the child is a leaf or a terminal: no recursion
            game.push(G, m)
            c[NODES] += 1
            r = game.result(G)
            if c[NODES] >= c[NEXT_CHECK] and _stopped(c):
                v = 0                   # checked once counted, as the Python core (popped below)
            elif r < 0:
                c[LEAVES] += 1
                v = -_evaluate(G, E, c)
            else:
                c[TERMINALS] += 1
                v = -_term_value(G, c, r, ply + 1)
        else:
            d1 = depth - 1
            red = 0
            if c[LMR_SF]:               # Stockfish 11's reductions
                if i >= (1 if ply else 3) and depth >= LMR_MIN_DEPTH and not checked \
                        and not (game.HAS_CAPTURE and c[IS_CAP] and game.is_capture(G, m)):
                    r = _lmr_sf_reduction(depth, i + 1)
                    if beta - alpha > 1:
                        r -= 2
                    if cut:
                        r += 2
                    red = min(max(r, 0), d1 - 1)
            elif c[LMR] and i >= LMR_MIN_INDEX and depth >= LMR_MIN_DEPTH and not checked \
                    and not (game.HAS_CAPTURE and c[IS_CAP] and game.is_capture(G, m)):
                red = _lmr_reduction(depth, i)
            game.push(G, m)
            c[NODES] += 1
            if red:                     # a late quiet move: reduced null-window probe
                c[REDUCTIONS] += 1
                v = -negamax(G, E, S, d1 - red, -alpha - 1, -alpha, ply + 1, n1, one)
                if not c[ABORT] and v > alpha:  # it beat alpha: search it at full depth
                    c[RESEARCHES] += 1
                    c[REDUCTION_RESEARCHES] += 1
                    c[NODES] += 1
                    v = -negamax(G, E, S, d1, -alpha - 1 if scout else -beta, -alpha,
                                 ply + 1, n1, 1 - cut)
                    if not c[ABORT] and scout and alpha < v < beta:
                        c[RESEARCHES] += 1
                        c[NODES] += 1
                        v = -negamax(G, E, S, d1, -beta, -v, ply + 1, n1, zero)
            elif scout and i:
                v = -negamax(G, E, S, d1, -alpha - 1, -alpha, ply + 1, n1, 1 - cut)
                if not c[ABORT] and alpha < v < beta and (d1 > 0 or c[NOISY]):
                    c[RESEARCHES] += 1
                    c[NODES] += 1       # the child is visited again
                    v = -negamax(G, E, S, d1, -beta, -v, ply + 1, n1, zero)
            else:                       # an expected cut node's first child is an all node
                v = -negamax(G, E, S, d1, -beta, -alpha, ply + 1, n1,
                             1 - cut if beta - alpha == 1 else zero)
        game.pop(G)
        if c[ABORT]:
            return 0
        if on_root:
            with numba.objmode():
                _root_move(i, n, m, v)
        if v > best:
            best = v
            best_move = m
            if v > alpha:
                if not ply:             # proven better than the moves before it
                    c[ROOT_PARTIAL] = m
                alpha = v
                _pv_set(buf, c, ply, m)
                if v >= beta and c[PRUNING]:
                    c[CUTOFFS] += 1
                    if not i:
                        c[FIRST_MOVE_CUTOFFS] += 1
                    break
    # 8. store what was learnt (killers: with captures first by MVV-LVA, quiet moves
    # only, as Stockfish; without that order, any move that cut off)
    if best >= beta and c[PRUNING] and c[KILLERS] and kil[ply, 0] != best_move \
            and not (game.HAS_CAPTURE and c[MVV] and c[IS_CAP] and game.is_capture(G, best_move)):
        kil[ply, 1] = kil[ply, 0]
        kil[ply, 0] = best_move
    if c[USE_HIST] and best > a0 and c[GRAVITY]:
        if not (game.HAS_CAPTURE and c[IS_CAP] and game.is_capture(G, best_move)):
            bonus = _stat_bonus(depth)  # a quiet best move: bonus; the quiet moves
            wp = c[WITH_PIECE] != 0     # searched before it (or beside it): malus
            k = game.history_key(G, best_move, wp)
            hist[k] = _gravity(hist[k], bonus)
            for j in range(n0, n0 + last + 1):
                if buf[c[SCORES] + j] == 1 and buf[j] != best_move:
                    k = game.history_key(G, buf[j], wp)
                    hist[k] = _gravity(hist[k], -bonus)
    elif c[USE_HIST] and best > a0:
        k = game.history_key(G, best_move, c[WITH_PIECE] != 0)
        inc = depth * depth if c[SQUARE] else np.int64(1) << min(max(depth, 0), 62)
        h = hist[k] + inc
        hist[k] = h if h >= hist[k] else np.iinfo(np.int64).max   # saturate, never wrap
    if c[USE_TT] and c[GHI] == ghi0 and (ply or not c[RESTRICT]):
        # never a value that depends on the path (or on a root restriction)
        flag = UPPER if best <= a0 else LOWER if best >= beta else EXACT
        _tt_store(tt, key, depth, flag, best, best_move, ply, c[TT_ALWAYS])
    if not ply:
        c[ROOT_BEST] = best_move
    return best
