"""The minimal-tree oracle (:mod:`gameai.search.minimal`) on the compiled game kernels.

The Python oracle is the definition; this is the same computation, step for step, in
numba, so that it gives the same numbers (value, leaves, terminals, nodes, graph_leaves,
graph_nodes and even oracle_nodes): the same memoised alpha-beta with iterative deepening
and a history table keyed by move, the same null-window refutation tests, the same
branch-and-bound cheapest proofs with the same memo rules, and the same walk of the chosen
proofs. Every choice between equally cheap proofs depends on the order moves are tried,
so every list is ordered exactly as the Python one (stable sorts, the same "move to the
front" steps), which is why the graph counts agree too, not only the minima.

Like :mod:`gameai.compiled.core`, this file is a template compiled once per game kernel
(:func:`gameai.compiled.search.load_core` loads it as ``gameai.compiled._minimal_<kernel>``,
whose global ``game`` is the kernel module): numba caches a function per module, not per
argument function.

The Python dicts become open-addressing hash tables in int64 arrays, rows
``[key, depth + 1 (0: empty), kind, bound, ...]``: ``P`` (per position and remaining depth:
the leaf value and the alpha-beta bounds), ``M`` (per proof kind and bound: cost,
exactness, chosen move; fresh for each of the two objectives) and ``Q`` (the positions
of the walked proof). Entries are never evicted, as in the dicts: a table that fills
past its load limit stops the run, which starts again with a larger table (and later
calls start at the size that sufficed).
"""
from __future__ import annotations

import importlib
import sys
import zlib

import numpy as np

from ..errors import SpecError
from ..search.stats import INF, MATE
from . import core as _core
from .jit import jit

if "._minimal_" in __name__:    # loaded per game by load_core
    _pkg, _kernel = __name__.rsplit("._minimal_", 1)
    game = importlib.import_module(f"{_pkg}.{_kernel.split('__')[0]}")
    # ``<kernel>__<hash>``: the oracle of an own evaluator's function, as the search core's
    # (gameai.compiled.evaluator.compiled_form)
    _game_evaluate = importlib.import_module(f"{_pkg}.evaluator").FUNCTIONS[_kernel] \
        if "__" in _kernel else game.evaluate
else:                           # the plain module is only the template (and the entry point)
    game, _kernel, _game_evaluate = None, "template", None
PV, CUT, ALL = 0, 1, 2                  #: node types, as the Python oracle's (its module imports
_BIG = 1 << 60                          #: this one, so this one imports no search module but stats)
_FROZEN = (_BIG, ALL, CUT, PV, INF, MATE)
_TAG = f"minimal-{_kernel}-{zlib.crc32(repr(_FROZEN).encode()):08x}"

NO_MOVE = -(1 << 63)            #: "no move" (None)
NOLEAF = -(1 << 62)             #: leaf_value's None: the position is not a leaf
_sort_desc, _to_front = _core._sort_desc, _core._to_front

# c: run state and results
WORK, OVER, DEPTH, MATE_PLY, NODE_COST, SC, AX, NODES, LEAVES, TERMS, GNODES, GLEAVES = range(12)
USED, LIMIT, SHIFT = 12, 15, 18         # three slots each, per table (P, M, Q)
C_SIZE = 21
TP, TM, TQ = range(3)
AB, WALK = 3, 4                         #: the other operations of ``node`` (beside PV, CUT, ALL)
# the same as int64 (not literal) for node's recursive calls: an argument numba must cast
# compiles a second signature, and a recursive function's casts crash once cached (issue 6713)
_AB, _PV, _CUT, _ALL, _WALK, _ZERO, _BIG64 = (np.int64(v) for v in (AB, PV, CUT, ALL, WALK, 0, _BIG))
# table rows: the key columns, then P: leaf value, has bounds, lower, upper, best move;
# M: cost, exact, choice (Q has the key columns only)
K_KEY, K_D1, K_KIND, K_B = range(4)
P_LEAF, P_HASB, P_LO, P_HI, P_BM = range(4, 9)
M_COST, M_EXACT, M_CHOICE = range(4, 7)
WIDTHS = (9, 7, 4)
_MULT = -7046029254386353131    # 0x9E3779B97F4A7C15 as int64: Fibonacci hashing


@jit(tag=_TAG, _nrt=False)
def _find(T, c, t, key, d1, kind, b):
    """The row holding ``(key, d1, kind, b)`` in table ``t``, or the empty row it would take."""
    h = (key ^ (d1 * 0x2545F4914F6CDD1D) ^ (kind << 40) ^ (b * 0x5851F42D4C957F2D)) * _MULT
    mask = T.shape[0] - 1
    i = (h >> c[SHIFT + t]) & mask
    while T[i, K_D1] != 0:
        if T[i, K_KEY] == key and T[i, K_D1] == d1 and T[i, K_KIND] == kind and T[i, K_B] == b:
            return i
        i = (i + 1) & mask
    return i


@jit(tag=_TAG, _nrt=False)
def _claim(T, c, t, i, key, d1, kind, b):
    """Fill the empty row ``i``; past the load limit, flag the run to stop (``c[OVER]``).
    A stopping run claims nothing more (False), so no probe ever meets a full table."""
    if c[OVER]:
        return False
    T[i, K_KEY], T[i, K_D1], T[i, K_KIND], T[i, K_B] = key, d1, kind, b
    c[USED + t] += 1
    if c[USED + t] > c[LIMIT + t]:
        c[OVER] = 1
    return True


@jit(tag=_TAG, _nrt=False)
def _memo_put(S, key, d, kind, b, cost, exact, choice):
    """``memo[(key, d, kind, b)] = (cost, exact, choice)``."""
    c, M = S[0], S[4]
    i = _find(M, c, TM, key, d + 1, kind, b)
    if M[i, K_D1] != 0 or _claim(M, c, TM, i, key, d + 1, kind, b):
        M[i, M_COST], M[i, M_EXACT], M[i, M_CHOICE] = cost, exact, choice


@jit(tag=_TAG, _nrt=False)
def leaf_value(G, E, S, d, top):
    """The value if the position is a leaf at remaining depth ``d``, else NOLEAF (memoised)."""
    c, buf, P = S[0], S[1], S[3]
    key = game.key(G)
    i = _find(P, c, TP, key, d + 1, 0, 0)
    if P[i, K_D1] != 0:
        return P[i, P_LEAF]
    c[WORK] += 1
    r = game.result(G)
    if r >= 0:
        v = 0
        if r != 2:
            v = MATE - (c[DEPTH] - d) if c[MATE_PLY] else MATE
            if r != game.side(G):
                v = -v
    elif d <= 0 or game.gen_moves(G, buf, top) == top:
        v = _game_evaluate(G, E)
    else:
        v = NOLEAF
    if _claim(P, c, TP, i, key, d + 1, 0, 0):
        P[i, P_LEAF] = v
    return v


@jit(tag=_TAG, _nrt=False)
def node(G, E, S, op, d, x, y, z, top):
    """One call of the Python oracle's ``op`` at the current position, remaining depth ``d``:

    * AB: ``ab(d, alpha=x, beta=y)``, fail-soft alpha-beta memoised with bounds, ordered by
      history and the best move of the shallower pass (exact when alpha < v < beta);
    * CUT / ALL: the cheapest proof that value >= y (CUT) or <= y (ALL) within budget
      ``z`` (exact if < z, else a lower bound): the Python ``cut`` and ``all_``;
    * PV: the cheapest proof that value == x (the node's exact value), budget ``y``;
    * WALK: count the chosen proof of kind ``x`` and bound ``y`` (``c[NODES]``, ...) and
      its distinct positions (``Q``).

    One function, not four: numba's disk cache breaks (issue 6061: unresolved symbols,
    crashes) when a cached function calls another function that is recursive."""
    c, buf, hist, P, M, Q = S
    key = game.key(G)
    nc = c[NODE_COST]
    new = False
    if op == WALK:
        c[NODES] += 1
        i = _find(Q, c, TQ, key, d + 1, 0, 0)
        new = Q[i, K_D1] == 0 and _claim(Q, c, TQ, i, key, d + 1, 0, 0)
        c[GNODES] += new
    v = leaf_value(G, E, S, d, top)
    if v != NOLEAF:
        if op == AB:
            return v
        if op == CUT:
            return 1 if v >= y else _BIG
        if op == ALL:
            return 1 if v <= y else _BIG
        if op == WALK:
            c[LEAVES] += 1
            c[GLEAVES] += new
            if game.result(G) >= 0:
                c[TERMS] += 1
        return 1
    if op == AB:
        alpha, beta = x, y
        i = _find(P, c, TP, key, d + 1, 0, 0)
        if P[i, K_D1] == 0:                 # not stored: the run is stopping
            return 0
        if not P[i, P_HASB]:
            P[i, P_HASB], P[i, P_LO], P[i, P_HI] = 1, -INF, INF
            j = _find(P, c, TP, key, d, 0, 0)      # the hint: (key, d - 1)'s best move
            P[i, P_BM] = P[j, P_BM] if P[j, K_D1] != 0 and P[j, P_HASB] else NO_MOVE
        lo, hi, bm = P[i, P_LO], P[i, P_HI], P[i, P_BM]
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        n1 = game.gen_moves(G, buf, top)
        sc = c[SC]
        for j in range(top, n1):
            buf[sc + j] = hist[game.history_key(G, buf[j], False)]
        _sort_desc(buf, sc, top, n1)
        if bm != NO_MOVE:
            _to_front(buf, top, n1, bm)
        a, best = alpha, -INF
        for j in range(top, n1):
            m = buf[j]
            game.push(G, m)
            v = -node(G, E, S, _AB, d - 1, -beta, -a, _ZERO, n1)
            game.pop(G)
            if c[OVER]:
                return 0
            if v > best:
                best, bm = v, m
                if v > a:
                    a = v
                    if v >= beta:
                        break
        if best > alpha:
            hist[game.history_key(G, bm, False)] += np.int64(1) << d
        if best >= beta:
            P[i, P_LO], P[i, P_BM] = max(lo, best), bm
        elif best <= alpha:
            P[i, P_HI] = min(hi, best)
        else:
            P[i, P_LO], P[i, P_HI], P[i, P_BM] = best, best, bm
        return best
    if op == WALK:
        choice = NO_MOVE
        if x != ALL:
            r = _find(M, c, TM, key, d + 1, x, y)
            if M[r, K_D1] == 0 or (x == CUT and M[r, M_CHOICE] == NO_MOVE):
                if not c[OVER]:             # no proof was chosen here: the Python one fails too
                    c[OVER] = 2
                return 0
            choice = M[r, M_CHOICE]
        if x == CUT:
            game.push(G, choice)
            node(G, E, S, _WALK, d - 1, _ALL, -y, _ZERO, top)
            game.pop(G)
            return 0
        n1 = game.gen_moves(G, buf, top)
        for j in range(top, n1):
            m = buf[j]
            game.push(G, m)
            node(G, E, S, _WALK, d - 1, _PV if m == choice else _CUT, -y, _ZERO, n1)
            game.pop(G)
            if c[OVER]:
                return 0
        return 0
    # the cheapest proofs: memoised on (key, d, kind, bound)
    b, budget = (x, y) if op == PV else (y, z)
    i = _find(M, c, TM, key, d + 1, op, b)
    if M[i, K_D1] != 0 and (M[i, M_EXACT] or M[i, M_COST] >= budget):
        return M[i, M_COST]
    n1 = game.gen_moves(G, buf, top)
    if op == ALL:
        rest, acc = n1 - top, nc
        for j in range(top, n1):
            rest -= 1
            if acc + rest + 1 >= budget:
                _memo_put(S, key, d, ALL, b, acc + rest + 1, 0, NO_MOVE)
                return acc + rest + 1
            game.push(G, buf[j])
            acc += node(G, E, S, _CUT, d - 1, _ZERO, -b, budget - acc - rest, n1)
            game.pop(G)
            if c[OVER]:
                return 0
        _memo_put(S, key, d, ALL, b, acc, acc < budget, NO_MOVE)
        return acc
    if op == PV:
        ax = c[AX]
        base, k = nc, top                   # the exact children go to buf[top:k], costs at ax
        for j in range(top, n1):
            m = buf[j]
            game.push(G, m)
            v = node(G, E, S, _CUT, d - 1, _ZERO, -b, _BIG64, n1)
            if not c[OVER] and node(G, E, S, _AB, d - 1, -b, -b + 1, _ZERO, n1) < -b + 1:
                buf[k], buf[ax + k] = m, v  # child == -b: it can carry the PV
                k += 1
            game.pop(G)
            if c[OVER]:
                return 0
            base += v
        hint = P[_find(P, c, TP, key, d + 1, 0, 0), P_BM]
        for j in range(top, k):             # the alpha-beta PV move first
            if buf[j] == hint:
                v = buf[ax + j]
                for q in range(j, top, -1):
                    buf[q], buf[ax + q] = buf[q - 1], buf[ax + q - 1]
                buf[top], buf[ax + top] = hint, v
                break
        extra, choice = budget - base, NO_MOVE
        for j in range(top, k):
            if extra <= 0:
                break
            m, v = buf[j], buf[ax + j]
            game.push(G, m)
            w = node(G, E, S, _PV, d - 1, -b, v + extra, _ZERO, n1) - v
            game.pop(G)
            if c[OVER]:
                return 0
            if w < extra:
                extra, choice = w, m
        cost = base + extra if choice != NO_MOVE else max(base, budget)
        _memo_put(S, key, d, PV, b, cost, choice != NO_MOVE, choice)
        return cost
    if d == 1:                              # CUT, children are leaves: the first refuter wins
        j = _find(P, c, TP, key, 2, 0, 0)
        if P[j, K_D1] != 0 and P[j, P_HASB] and P[j, P_BM] != NO_MOVE:
            _to_front(buf, top, n1, P[j, P_BM])
        for j in range(top, n1):
            m = buf[j]
            game.push(G, m)
            v = leaf_value(G, E, S, 0, n1)
            game.pop(G)
            if v <= -b:
                _memo_put(S, key, d, CUT, b, nc + 1, 1, m)
                return nc + 1
        _memo_put(S, key, d, CUT, b, _BIG, 1, NO_MOVE)
        return _BIG
    sc = c[SC]
    for j in range(top, n1):                # a lower bound of each child's ALL proof
        game.push(G, buf[j])
        n = 0
        if leaf_value(G, E, S, d - 1, n1) == NOLEAF:
            n = game.gen_moves(G, buf, n1) - n1
        game.pop(G)
        buf[sc + j] = -(nc + (nc + n if n else 1))
    _sort_desc(buf, sc, top, n1)            # fewest replies first (stable, ascending)
    best, choice = budget, NO_MOVE
    for j in range(top, n1):
        if -buf[sc + j] >= best:
            break
        m = buf[j]
        game.push(G, m)                     # does the child refute (value <= -b)?
        if node(G, E, S, _AB, d - 1, -b, -b + 1, _ZERO, n1) < -b + 1 and not c[OVER]:
            v = nc + node(G, E, S, _ALL, d - 1, _ZERO, -b, best - nc, n1)
            if v < best:
                best, choice = v, m
        game.pop(G)
        if c[OVER]:
            return 0
    _memo_put(S, key, d, CUT, b, best, choice != NO_MOVE, choice)
    return best


# ---------------------------------------------------------------- Python level
#: table sizes (log2 rows) P, M, Q, grown as runs need (untouched zero pages cost nothing)
_BITS = [20, 20, 18]
_LOAD = 0.6                 #: load factor that stops a run (linear probing stays short)


def _table(c: np.ndarray, t: int, bits: int) -> np.ndarray:
    """A fresh, empty table ``t`` of ``2**bits`` rows (``c`` gets its limit and hash shift)."""
    c[USED + t], c[LIMIT + t], c[SHIFT + t] = 0, int(_LOAD * (1 << bits)), 64 - bits
    return np.zeros((1 << bits, WIDTHS[t]), np.int64)


def minimal_tree(state, depth: int, evaluator, *, mate_ply: bool = True) -> dict[str, int]:
    """:func:`gameai.search.minimal.minimal_tree` on the game's compiled kernel: the same
    numbers (the fields of its ``MinimalTree``), ``state`` left unchanged. An evaluator the
    kernel does not know runs through its compiled form (an own numba evaluator, the tuned
    ones: :func:`~gameai.compiled.evaluator.compiled_form`), in an oracle of its own.
    SpecError for a game without a kernel or an evaluator without a compiled form."""
    from .evaluator import compiled_form
    from .search import kernel_for, load_core
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        raise SpecError(f"minimal_tree: depth must be an integer >= 0, got {depth!r}")
    kernel = kernel_for(state)
    name, E = compiled_form(evaluator, state, kernel)
    mod = load_core(name, sys.modules[__name__], "_minimal")
    width = (depth + 3) * kernel.MAX_MOVES         # moves of the deepest line, and scratch
    while True:
        G = kernel.load(state)
        hs = kernel.HISTORY_SIZE(G) if callable(kernel.HISTORY_SIZE) else kernel.HISTORY_SIZE
        c = np.zeros(C_SIZE, np.int64)
        c[DEPTH], c[MATE_PLY], c[SC], c[AX] = depth, int(mate_ply), width, 2 * width
        buf = np.zeros(3 * width, np.int64)
        hist = np.zeros(int(hs), np.int64)
        P = _table(c, TP, _BITS[TP])
        S = (c, buf, hist, P, _table(c, TM, _BITS[TM]), _table(c, TQ, _BITS[TQ]))
        value = 0
        for d in [*range(1, depth + 1), depth]:   # iterative deepening fills the hints
            value = int(mod.node(G, E, S, AB, d, -INF, INF, 0, 0))
        out = []
        for node_cost in (0, 1):                  # the leaf-cheapest, then the node-cheapest proof
            if c[OVER]:
                break
            S = (c, buf, hist, P, _table(c, TM, _BITS[TM]), _table(c, TQ, _BITS[TQ]))
            c[NODE_COST] = node_cost
            mod.node(G, E, S, PV, depth, value, _BIG, 0, 0)
            if not c[OVER]:
                c[[NODES, LEAVES, TERMS, GNODES, GLEAVES]] = 0
                mod.node(G, E, S, WALK, depth, PV, value, 0, 0)
            out.append([int(x) for x in c[[NODES, LEAVES, TERMS, GNODES, GLEAVES]]])
        if c[OVER] == 2:
            raise RuntimeError("minimal_tree backend=compiled: a proof without a chosen move")
        if not c[OVER]:
            break
        for t in (TP, TM, TQ):                     # the full table grows, fourfold
            if c[USED + t] > c[LIMIT + t]:
                _BITS[t] += 2
    (_, leaves, terminals, _, graph_leaves), (nodes, _, _, graph_nodes, _) = out
    return {"value": value, "leaves": leaves, "terminals": terminals, "nodes": nodes,
            "graph_leaves": graph_leaves, "graph_nodes": graph_nodes, "oracle_nodes": int(c[WORK])}
