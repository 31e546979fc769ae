"""Depth-first proof-number search (df-pn) over the threat space.

The depth-first solver of :mod:`.threats` deepens its ply limit and tries the attacker's
moves in a fixed order. Proof-number search (Allis, van der Meulen & van den Herik 1994)
grows the same AND/OR tree best first instead: each node keeps the number of leaves
still to prove (``pn``) or to disprove (``dn``), and the next leaf expanded is the
most-proving one, reached by following the smallest ``pn`` under the attacker's nodes
and the smallest ``dn`` under the defender's. df-pn (Nagai 2002) does the same depth
first, with thresholds, and keeps the numbers in a transposition table, so its memory is
a table, not a tree, and transpositions (threats played in another order) are one node.
The child's threshold uses the 1 + epsilon trick (Pawlewicz & Lew 2007).

The tree is the depth-first solver's: the attacker's moves are :func:`.threats._attacks`,
the defender's replies :func:`.threats._replies` (a quiet move's replies come from the
VCF it threatens, proven by the solver's own VCF sub-solver), with the same ply limit, so
within the limit it decides what that solver decides; only the cost and the line found
differ (df-pn's proof need not be the shortest). A child not in the table starts at
pn = dn = 1 (its moves wait for its first visit). Nodes are counted as the depth-first
solver counts them: one per move played on the board (every descent into a child, so a
child visited again counts again), plus the VCF sub-solver's. A node's moves are cached (``mc``, ``pool``), so a node entered
again does not generate them again. Table entries hold the plies left when they were
computed: a proof is used where it fits in the plies left, a disproof where at most as
many plies are left, unfinished numbers only where exactly as many are left.
"""
from __future__ import annotations

import numpy as np

from .gomoku_board import H, KEY, NCELLS, NPLACED, ZOB, pop, push
from ..errors import SpecError
from .jit import jit
from .threats import _HOOKS, ABORT, NONE, POLLING, _attacks, _count, _replies

INF = np.int64(1) << 40
EPS_NUM, EPS_DEN = 5, 4             #: the 1 + epsilon trick's factor (Pawlewicz & Lew 2007)
# the table: 5 words a slot (key, generation * 2 + attacker?, pn, dn, d | plies << 8 |
# (move + 1) << 16); its header p: generation, slot mask, entries in use
P_GEN, P_MASK, P_COUNT, P_MGEN, P_MMASK, P_MCOUNT, P_POOL, N_P = range(8)
# the move cache: 4 words a slot (key, generation * 2 + attacker?, offset in the pool,
# moves), so that a node entered again does not generate its moves again (a defender's
# replies to a quiet move come from a VCF search of their own)


@jit(_nrt=False, inline="always")
def _moves(G, S, att, d, ply, top):
    """The node's moves (``att`` 1: the attacker's, else the defender's replies) with
    ``d`` plies left: ``(value, start, end)`` as :func:`.threats._attacks` gives them
    (value >= 0: decided without a move)."""
    if att:
        return _attacks(G, S, d, top)
    return _replies(G, S, d, ply, top)


@jit(_nrt=False, inline="always")
def _decided(val):
    """``(pn, dn, plies)`` of a node decided without a move: ``val`` 0 a failed attack,
    else the plies to the attacker's win (a five is 1)."""
    if val == 0:
        return INF, np.int64(0), np.int64(0)
    return np.int64(0), INF, np.int64(val)


@jit(_nrt=False, inline="always")
def _slot(p, tt, key, att):
    h = ((key * -7046029254386353131 + att) >> 21) & p[P_MASK]
    gen = p[P_GEN]
    while tt[5 * h + 1] >> 1 == gen:
        if tt[5 * h] == key and tt[5 * h + 1] & 1 == att:
            return 5 * h
        h = (h + 1) & p[P_MASK]
    return 5 * h


@jit(_nrt=False)
def _look(p, tt, key, att, d):
    """``(pn, dn, plies, found)`` of (key, att) usable with ``d`` plies left: a proof
    no longer than ``d``, a disproof with at least ``d`` plies, or work at ``d``."""
    s = _slot(p, tt, key, att)
    if tt[s + 1] != p[P_GEN] * 2 + att:
        return np.int64(1), np.int64(1), np.int64(0), False
    pn, dn, info = tt[s + 2], tt[s + 3], tt[s + 4]
    sd, pl = info & 255, (info >> 8) & 255
    if (pn == 0 and pl <= d) or (dn == 0 and sd >= d) or (pn and dn and sd == d):
        return pn, dn, pl, True
    return np.int64(1), np.int64(1), np.int64(0), False


@jit(_nrt=False)
def _put(p, tt, key, att, d, pn, dn, pl, move):
    """Store (key, att); a table half full is emptied first (a new generation)."""
    s = _slot(p, tt, key, att)
    if tt[s + 1] != p[P_GEN] * 2 + att:
        if 2 * (p[P_COUNT] + 1) > p[P_MASK] + 1:
            p[P_GEN] += 1
            p[P_COUNT] = 0
            s = _slot(p, tt, key, att)
        p[P_COUNT] += 1
        tt[s] = key
        tt[s + 1] = p[P_GEN] * 2 + att
    tt[s + 2], tt[s + 3] = pn, dn
    tt[s + 4] = d | (pl << 8) | ((move + 1) << 16)


@jit(_nrt=False)
def _move_of(p, tt, key, att):
    s = _slot(p, tt, key, att)
    if tt[s + 1] != p[P_GEN] * 2 + att:
        return NONE
    return (tt[s + 4] >> 16) - 1


@jit(_nrt=False)
def _cached_moves(G, S, p, mc, pool, att, d, ply, top):
    """:func:`_moves`, from the move cache when this node's list is there (copied to
    ``buf`` at ``top``); a new list is added (the cache and its pool emptied when full)."""
    buf = S[3]
    key = G[0][H + KEY]
    mask = p[P_MMASK]
    h = ((key * -7046029254386353131 + att) >> 21) & mask
    while mc[4 * h + 1] >> 1 == p[P_MGEN]:
        if mc[4 * h] == key and mc[4 * h + 1] & 1 == att:
            o, n = mc[4 * h + 2], mc[4 * h + 3]
            for j in range(n):
                buf[top + j] = pool[o + j]
            return np.int64(-1), top, top + n
        h = (h + 1) & mask
    val, m0, m1 = _moves(G, S, att, d, ply, top)
    if val >= 0 or S[0][ABORT]:
        return val, m0, m1
    n = m1 - m0
    if 2 * (p[P_MCOUNT] + 1) > mask + 1 or p[P_POOL] + n > len(pool):
        p[P_MGEN] += 1
        p[P_MCOUNT], p[P_POOL] = 0, 0
        h = ((key * -7046029254386353131 + att) >> 21) & mask
    o = p[P_POOL]
    for j in range(n):
        pool[o + j] = buf[m0 + j]
    mc[4 * h], mc[4 * h + 1], mc[4 * h + 2], mc[4 * h + 3] = key, p[P_MGEN] * 2 + att, o, n
    p[P_POOL] = o + n
    p[P_MCOUNT] += 1
    return val, m0, m1


@jit(_nrt=False)
def _mid(G, S, p, tt, mc, pool, att, d, ply, top, thpn, thdn):
    """Nagai's (2002) multiple iterative deepening at the node on the board, the
    attacker to move when ``att``: search below it until its pn reaches ``thpn`` or its
    dn ``thdn`` (or it is decided); its ``(pn, dn, plies)`` are stored and returned.
    The children's moves, keys and values sit in ``buf`` from ``top`` on."""
    c, buf = S[0], S[3]
    key = G[0][H + KEY]
    # 1. the node's moves: decided without one (a five, a failed attack, a forced win)?
    val, m0, m1 = _cached_moves(G, S, p, mc, pool, att, d, np.int64(ply), top)
    if c[ABORT]:
        return np.int64(1), np.int64(1), np.int64(0)
    if val >= 0:                        # (an attacker's five: its point is buf[m0])
        pn, dn, pl = _decided(val)
        _put(p, tt, key, att, d, pn, dn, pl, buf[m0] if att and val == 1 else NONE)
        return pn, dn, pl
    k = m1 - m0
    K, P, D, L = m1, m1 + k, m1 + 2 * k, m1 + 3 * k      # keys, pn, dn, plies per child
    ctop = m1 + 4 * k
    # 2. the children's keys (the node's key xor the stone's and the side to move's);
    #    a child not in the table starts at pn = dn = 1 (its moves wait for a visit)
    g = G[0]
    flip = g[ZOB + 2 * g[H + NCELLS]]
    me = g[H + NPLACED] & 1
    for j in range(k):
        buf[K + j] = key ^ g[ZOB + 2 * buf[m0 + j] + me] ^ flip
        buf[P + j], buf[D + j], buf[L + j] = 1, 1, 0
    # 3. the loop: into the most-proving child while this node is under its thresholds
    while True:
        pn, dn, pl, best, second = INF, np.int64(0), np.int64(0), -1, INF
        if not att:
            pn, dn = np.int64(0), INF
        for j in range(k):
            cpn, cdn, cpl, found = _look(p, tt, buf[K + j], 1 - att, d - 1)
            if found:
                buf[P + j], buf[D + j], buf[L + j] = cpn, cdn, cpl
            cpn, cdn, cpl = buf[P + j], buf[D + j], buf[L + j]
            x = cpn if att else cdn                         # what this node minimises
            if best < 0 or x < (buf[P + best] if att else buf[D + best]):
                if best >= 0:
                    second = min(second, buf[P + best] if att else buf[D + best])
                best = j
            elif x < second:
                second = x
            if att:
                pn = min(pn, cpn)
                dn = min(dn + cdn, INF)
                if cpn == 0 and (pl == 0 or cpl + 1 < pl):
                    pl = cpl + 1
            else:
                dn = min(dn, cdn)
                pn = min(pn + cpn, INF)
                pl = max(pl, cpl + 1)
        if att and pn == 0:                                 # the proving move: shortest
            for j in range(k):
                if buf[P + j] == 0 and buf[L + j] + 1 == pl:
                    best = j
                    break
        if not att and pn == 0:                             # the longest resistance
            for j in range(k):
                if buf[L + j] + 1 == pl:
                    best = j
                    break
        if pn:
            pl = 0
        if pn == 0 or dn == 0 or pn >= thpn or dn >= thdn:
            _put(p, tt, key, att, d, pn, dn, pl, buf[m0 + best])
            return pn, dn, pl
        lift = min(INF, (second * EPS_NUM + EPS_DEN - 1) // EPS_DEN)
        if att:
            cth_pn = min(thpn, lift)
            cth_dn = min(INF, thdn - dn + buf[D + best])
        else:
            cth_dn = min(thdn, lift)
            cth_pn = min(INF, thpn - pn + buf[P + best])
        push(G, buf[m0 + best])
        _count(c, np.int64(ply + 1))
        if c[ABORT]:
            pop(G)
            return np.int64(1), np.int64(1), np.int64(0)
        cpn, cdn, cpl = _mid(G, S, p, tt, mc, pool, 1 - att, d - 1, ply + 1, ctop, cth_pn, cth_dn)
        pop(G)
        if c[ABORT]:
            return np.int64(1), np.int64(1), np.int64(0)
        buf[P + best], buf[D + best], buf[L + best] = cpn, cdn, cpl


@jit(_nrt=False)
def dfpn(G, S, p, tt, mc, pool, D, top):
    """Prove a win for the side to move within ``D`` plies: plies to the win, 0 when
    disproven, -1 when the solver's limits stopped it."""
    c = S[0]
    _count(c, np.int64(0))
    if c[ABORT]:
        return -1
    pn, dn, pl = _mid(G, S, p, tt, mc, pool, np.int64(1), D, np.int64(0), top, INF, INF)
    if c[ABORT]:
        return -1
    return pl if pn == 0 else 0


@jit(_nrt=False)
def dfpn_line(G, p, tt, buf, n, top):
    """The proven line (the table's moves: the attacker's shortest win, the defender's
    longest resistance) into ``buf`` from ``top``; returns its end."""
    attacker = G[0][H + NPLACED] & 1
    k = top
    while k - top < n:
        att = 1 if (G[0][H + NPLACED] & 1) == attacker else 0
        m = _move_of(p, tt, G[0][H + KEY], att)
        if m == NONE:
            break
        buf[k] = m
        k += 1
        push(G, m)
    for _ in range(k - top):
        pop(G)
    return k


class Memory:
    """A solver's df-pn table and move cache. The table lasts until :meth:`clear` (the
    solver's ``clear``: a new game, another rule or board), as the depth-first table
    does: its proofs and disproofs hold for the position whatever the search that found
    them. The move cache is emptied at each search (a node's moves depend on the plies
    left, which differ between searches)."""

    def __init__(self, budget: int | None) -> None:
        slots = 1 << 12
        while slots < self.need(budget):
            slots *= 2
        self.tt = np.zeros(5 * slots, dtype=np.int64)
        self.mc = np.zeros(4 * slots, dtype=np.int64)
        self.pool = np.zeros(4 * slots, dtype=np.int64)
        self.p = np.zeros(N_P, dtype=np.int64)
        self.p[P_MASK], self.p[P_MMASK] = slots - 1, slots - 1
        self.p[P_GEN] = self.p[P_MGEN] = 1

    @staticmethod
    def need(budget: int | None) -> int:
        """Slots for a search of ``budget`` nodes: 2 a node, at most 2**20."""
        return min(2 * (budget or 1 << 20), 1 << 20)

    def fits(self, budget: int | None) -> bool:
        return len(self.tt) // 5 >= self.need(budget)

    def clear(self) -> None:
        self.p[P_GEN] += 1
        self.p[P_COUNT] = 0

    def new_search(self) -> None:
        self.p[P_MGEN] += 1
        self.p[P_MCOUNT] = self.p[P_POOL] = 0


def prove(solver, state, max_plies: int, budget: int | None = None,
          should_stop=None) -> tuple[int, list[int]]:
    """A df-pn search on ``solver`` (a compiled VCF or VCT solver: its counters, its
    sub-solver for quiet threats, its :class:`Memory`) for the side to move of ``state``
    within ``max_plies``: ``(plies, line)``; plies 0 when disproven, -1 when stopped by
    ``budget`` nodes or ``should_stop`` (asked every 256 nodes; the table keeps what the
    search found, so a later call goes on from there)."""
    if not 1 <= max_plies <= 200:           # (a table entry keeps plies in 8 bits)
        raise SpecError(f"df-pn threat search: 1 to 200 plies, got {max_plies}")
    solver._bind(state, max_plies)
    mem = solver.dfpn
    if mem is None or not mem.fits(budget):
        mem = solver.dfpn = Memory(budget)
    mem.new_search()
    c = solver._c
    solver._limits(budget, should_stop)
    _HOOKS.append(should_stop)
    try:
        n = int(dfpn(solver.G, solver._S, mem.p, mem.tt, mem.mc, mem.pool, np.int64(max_plies),
                     np.int64(0)))
    finally:
        _HOOKS.pop()
        c[ABORT] = c[POLLING] = 0
    if n <= 0:
        return n, []
    end = int(dfpn_line(solver.G, mem.p, mem.tt, solver._buf, np.int64(n), np.int64(0)))
    return n, [int(m) for m in solver._buf[:end]]


def warm_up() -> None:
    """Compile (or load from the disk cache) df-pn before a search's clock starts: a tiny
    VCT, with its line, on a scratch solver."""
    if dfpn.signatures and dfpn_line.signatures:
        return
    from ..games.gomoku import Gomoku
    from .threats import ThreatSolver, warm_up as threats_warm_up
    threats_warm_up()
    s = Gomoku(size=9, rule="renju", black="e5 f5 g5", white="a1 a9 i9")
    assert prove(ThreatSolver(vct=True, tt_size=64), s, 5)[0]
