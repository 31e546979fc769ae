"""The minimal tree and minimal graph of a real position: the cheapest proof of its value.

Knuth & Moore (1975, "An analysis of alpha-beta pruning") showed that any algorithm that
finds the minimax value of a tree must examine at least a *minimal tree*: the value ``v``
is proven by a proof that ``value >= v`` (one move at each of our nodes, every reply at
the opponent's) together with a proof that ``value <= v``. In negamax form, with node
types:

* PV node (value proven exactly ``v``): every child gets a CUT proof (``child >= -v``),
  and one child whose value is exactly ``-v`` is also a PV node;
* CUT node (prove ``value >= b``): ONE child that refutes (``child <= -b``), as an ALL node;
* ALL node (prove ``value <= b``): EVERY child as a CUT node (``child >= -b``).

On uniform trees with distinct values every choice costs the same and the count is
``B^ceil(D/2) + B^floor(D/2) - 1`` leaves. In real trees a CUT node usually has many
refutations whose subtrees differ widely in size, so "expand the best-valued child" (what
a perfectly *value*-ordered alpha-beta does) is not minimal. Here the proof is the
cheapest one: costs are minimised bottom-up, ``ALL = node + sum over children of CUT``,
``CUT = node + min over refuting children of ALL``, ``PV = node + sum over children of
CUT + min over exact children of (PV - CUT)``.

What "minimal" means here (stated so that it is checkable):

* Thresholds are non-strict, as in fail-soft alpha-beta: a child refutes a CUT node
  ``>= b`` when its value is ``<= -b`` (a cutoff at ``v >= beta``), and a child fails low
  at an ALL node when its value equals the bound. Ties therefore never make a proof
  more expensive, and every searcher that returns the exact root value examines a
  superset of some such proof (if it skipped a leaf of every proof, changing the skipped
  leaves would change the value but not what it saw). So no fixed-depth search without a
  TT visits fewer leaves (or nodes) than these minima; tests check it.
* Leaves are horizon positions, finished games (terminals, scored ``MATE - ply`` as the
  search core does) and positions with no moves. A CUT node whose refutation is a
  terminal child costs little; the minimum finds it.
* ``count="leaves"`` and ``count="nodes"`` can pick different proofs; both minima are
  returned (``leaves`` of the leaf-cheapest proof, ``nodes`` of the node-cheapest one).
* The minimal *graph* (Plaat, Schaeffer, Pijls & de Bruin 1996, "Best-first fixed-depth
  minimax algorithms"; they showed that with transpositions the minimal tree is no lower
  bound for searches with a TT) counts *distinct* positions ``(key, remaining depth)`` in
  the cheapest proof, transpositions merged. Finding the smallest proof DAG exactly is a
  harder (set-cover-like) problem; like Plaat et al. we report the distinct positions of
  a cheapest proof, an upper bound on the true minimal graph.

How it is computed (cost: far less than a full-width search). The root value comes from
a memoised alpha-beta with iterative deepening; "does this child refute?" is a memoised
null-window test; the cheapest proof is a depth-first branch and bound (a CUT node stops
costing a refutation as soon as it exceeds the cheapest found so far, an ALL node as
soon as its running sum does), with every result memoised on ``(key, depth, node type,
bound)``. Transpositions share work but each occurrence is counted in the tree.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, cast

from ..errors import SpecError
from ..games.protocol import fast_push
from .backend import compiled
from .stats import INF, MATE

PV, CUT, ALL = 0, 1, 2
_BIG = 1 << 60          # "no proof within budget": larger than any real count


@dataclass(frozen=True)
class MinimalTree:
    """The cheapest proofs of ``state``'s depth-``depth`` negamax value."""

    value: int           # exact negamax value (side to move)
    leaves: int          # leaves of the leaf-cheapest proof (horizon + terminals + no-move)
    terminals: int       # of which finished games
    nodes: int           # nodes (root included) of the node-cheapest proof
    graph_leaves: int    # distinct leaf positions in the leaf-cheapest proof
    graph_nodes: int     # distinct (position, remaining depth) in the node-cheapest proof
    oracle_nodes: int    # positions the computation visited (its cost)


def minimal_tree(state, depth: int, evaluator: Callable, *, mate_ply: bool = True,
                 backend: str = "python") -> MinimalTree:
    """Cheapest Knuth-Moore proofs of ``state`` to ``depth`` (``state`` is left unchanged).

    ``evaluator(state)`` scores horizon positions for the side to move, as the search core
    does; ``mate_ply`` must match the searcher's (``MATE - ply`` for a win at ``ply``).
    ``backend="compiled"`` runs the same computation on the game's numba kernel
    (:mod:`gameai.compiled.minimal`, the same numbers, far faster; without numba, one
    warning and this Python code).
    """
    if backend not in ("python", "compiled"):
        raise SpecError(f"minimal_tree: backend must be 'python' or 'compiled', got {backend!r}")
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 0:
        raise SpecError(f"minimal_tree: depth must be an integer >= 0, got {depth!r}")
    fast = compiled("minimal_tree backend=compiled") if backend == "compiled" else None
    if fast is not None:
        return MinimalTree(**fast.minimal_tree(state, depth, evaluator, mate_ply=mate_ply))
    push, pop, result, legal = fast_push(state), state.pop, state.result, state.legal_moves
    work = [0]
    leafval: dict[tuple, int | None] = {}    # (key, d) -> static value if a leaf, else None
    bounds: dict[tuple, list] = {}           # (key, d) -> [lower, upper, best move]
    history: dict = {}                       # move -> score, orders the alpha-beta passes

    def leaf_value(d: int) -> int | None:
        """The value if the current position is a leaf at remaining depth ``d``, else None."""
        k = (state.key, d)
        if k in leafval:
            return leafval[k]
        work[0] += 1
        r = result()
        if r is not None:
            v = 0 if r.winner is None else (MATE - (depth - d) if mate_ply else MATE)
            v = v if r.winner is None or r.winner == state.to_move else -v
        elif d <= 0 or not legal():
            v = evaluator(state)
        else:
            v = None
        leafval[k] = v
        return v

    def ab(d: int, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta, memoised with bounds; the exact value when alpha < v < beta."""
        v = leaf_value(d)
        if v is not None:
            return v
        k = (state.key, d)
        e = bounds.get(k)
        if e is None:
            e = bounds[k] = [-INF, INF, None]
            hint = bounds.get((state.key, d - 1))
            e[2] = hint[2] if hint is not None else None
        lo, hi, bm = e
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        moves = legal()
        moves.sort(key=lambda m: history.get(m, 0), reverse=True)
        if bm is not None and bm in moves:
            moves.remove(bm)
            moves.insert(0, bm)
        a, best = alpha, -INF
        for m in moves:
            push(m)
            c = -ab(d - 1, -beta, -a)
            pop()
            if c > best:
                best, bm = c, m
                if c > a:
                    a = c
                    if c >= beta:
                        break
        if best > alpha:                              # the history heuristic orders ab
            history[bm] = history.get(bm, 0) + (1 << d)
        if best >= beta:
            e[0], e[2] = max(lo, best), bm
        elif best <= alpha:
            e[1] = min(hi, best)
        else:
            e[0] = e[1] = best
            e[2] = bm
        return best

    def at_least(d: int, b: int) -> bool:
        return ab(d, b - 1, b) >= b

    def solve(node_cost: int):
        """Cost functions for one objective (node_cost 1: nodes, 0: leaves)."""
        memo: dict[tuple, tuple[int, bool, object]] = {}   # -> (cost, exact, choice)

        def cut(d: int, b: int, budget: int) -> int:
            """Cheapest proof that value >= b (exact if < budget, else a lower bound)."""
            v = leaf_value(d)
            if v is not None:
                return 1 if v >= b else _BIG
            k = (state.key, d, CUT, b)
            e = memo.get(k)
            if e is not None and (e[1] or e[0] >= budget):
                return e[0]
            if d == 1:                          # children are leaves: the first refuter wins
                hint = bounds.get((state.key, 1))
                moves = legal()
                if hint is not None and hint[2] in moves:
                    moves.remove(hint[2])
                    moves.insert(0, hint[2])
                for m in moves:
                    push(m)
                    v = cast(int, leaf_value(0))    # depth 0: always a leaf
                    pop()
                    if v <= -b:
                        memo[k] = (node_cost + 1, True, m)
                        return node_cost + 1
                memo[k] = (_BIG, True, None)
                return _BIG
            bounded = []                    # (lower bound of the child's ALL proof, move)
            for m in legal():
                push(m)
                n = len(legal()) if leaf_value(d - 1) is None else 0
                pop()
                bounded.append((node_cost + (node_cost + n if n else 1), m))
            bounded.sort(key=lambda t: t[0])    # fewest replies first: one per reply at least
            best, choice = budget, None
            for lb, m in bounded:
                if lb >= best:
                    break
                push(m)
                if not at_least(d - 1, -b + 1):   # child <= -b: it refutes
                    c = node_cost + all_(d - 1, -b, best - node_cost)
                    if c < best:
                        best, choice = c, m
                pop()
            memo[k] = (best, choice is not None, choice)
            return best

        def all_(d: int, b: int, budget: int) -> int:
            """Cheapest proof that value <= b (exact if < budget, else a lower bound)."""
            v = leaf_value(d)
            if v is not None:
                return 1 if v <= b else _BIG
            k = (state.key, d, ALL, b)
            e = memo.get(k)
            if e is not None and (e[1] or e[0] >= budget):
                return e[0]
            moves = legal()
            rest = len(moves)
            acc = node_cost
            for m in moves:
                rest -= 1
                if acc + rest + 1 >= budget:
                    break
                push(m)
                acc += cut(d - 1, -b, budget - acc - rest)
                pop()
            else:
                memo[k] = (acc, acc < budget, None)
                return acc
            memo[k] = (acc + rest + 1, False, None)
            return acc + rest + 1

        def pv(d: int, v: int, budget: int) -> int:
            """Cheapest proof that value == v (the node's exact value)."""
            if leaf_value(d) is not None:
                return 1
            k = (state.key, d, PV, v)
            e = memo.get(k)
            if e is not None and (e[1] or e[0] >= budget):
                return e[0]
            base, cand = node_cost, []
            for m in legal():
                push(m)
                c = cut(d - 1, -v, _BIG)
                if not at_least(d - 1, -v + 1):             # child == -v: can carry the PV
                    cand.append((c, m))
                pop()
                base += c
            hint = bounds[(state.key, d)][2]
            cand.sort(key=lambda t: t[1] != hint)           # the alpha-beta PV move first
            extra, choice = budget - base, None
            for c, m in cand:
                if extra <= 0:
                    break
                push(m)
                x = pv(d - 1, -v, c + extra) - c
                pop()
                if x < extra:
                    extra, choice = x, m
            cost = base + extra if choice is not None else max(base, budget)
            memo[k] = (cost, choice is not None, choice)
            return cost

        return cut, all_, pv, memo

    def walk(memo, d: int, kind: int, b: int, seen: set, count: list) -> None:
        """Count the chosen proof: count = [nodes, leaves, terminals]; seen gets positions."""
        count[0] += 1
        seen.add((state.key, d))
        if leaf_value(d) is not None:
            count[1] += 1
            if result() is not None:
                count[2] += 1
            return
        if kind == ALL:
            plan = [(m, CUT) for m in legal()]
        else:
            choice = memo[(state.key, d, kind, b)][2]
            plan = [(choice, ALL)] if kind == CUT else \
                [(m, PV if m == choice else CUT) for m in legal()]
        for m, k in plan:
            push(m)
            walk(memo, d - 1, k, -b, seen, count)
            pop()

    d = depth
    for i in range(1, d + 1):                               # iterative deepening fills hints
        value = ab(i, -INF, INF)
    value = ab(d, -INF, INF)
    out = {}
    for name, node_cost in (("leaves", 0), ("nodes", 1)):
        _, _, pv, memo = solve(node_cost)
        pv(d, value, _BIG)
        seen: set = set()
        count = [0, 0, 0]
        walk(memo, d, PV, value, seen, count)
        leaves_seen = {p for p in seen if leafval.get(p) is not None}
        out[name] = (count, seen, leaves_seen)
    (_, leaves, terminals), _, graph_leaves = out["leaves"]
    (nodes, _, _), graph_nodes, _ = out["nodes"]
    return MinimalTree(value, leaves, terminals, nodes, len(graph_leaves), len(graph_nodes), work[0])

