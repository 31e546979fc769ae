"""The minimal tree of a real position: how many nodes alpha-beta needs with perfect ordering.

Schaeffer-style ablations report each searcher's nodes as a ratio to the minimal tree.
We obtain it in two passes:

1. *Oracle*: the exact depth-``d`` negamax value of every node below the root, by a
   full-width search memoised on ``(key, remaining depth)`` (transpositions share work).
2. *Count*: walk the tree as alpha-beta would with perfect ordering, using Knuth & Moore's
   node types: a PV node expands its best child as PV and the others as CUT nodes; a CUT
   node expands only its best child, as an ALL node; an ALL node expands every child as a
   CUT node. Leaves are horizon evaluations and finished games, counted as the search
   core counts them (a finished game is a terminal, not a leaf).

With distinct values this is exactly the tree that alpha-beta visits under perfect
ordering (on synthetic trees it reproduces ``B^ceil(D/2) + B^floor(D/2) - 1``, which a
test checks). With ties (common in real evaluations) a CUT node may be refuted by several
children; we expand the best one, so the count is that of one perfectly ordered tree, not
necessarily the smallest proof. Cost: one full-width search to depth ``d`` (the oracle).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..games.protocol import fast_push
from .stats import MATE

PV, CUT, ALL = 0, 1, 2


@dataclass(frozen=True)
class MinimalTree:
    nodes: int
    leaves: int
    terminals: int
    value: int
    oracle_nodes: int  # positions the exact pass evaluated (its cost)


def minimal_tree(state, depth: int, evaluator) -> MinimalTree:
    """Count the perfectly ordered alpha-beta tree of ``state`` to ``depth`` (state unchanged)."""
    memo: dict[tuple[int, int], int] = {}
    push, pop, result, legal = fast_push(state), state.pop, state.result, state.legal_moves
    cost = [0]

    def terminal_value(r) -> int:
        if r.winner is None:
            return 0
        return MATE if r.winner == state.to_move else -MATE

    def exact(d: int) -> int:
        k = (state.key, d)
        v = memo.get(k)
        if v is not None:
            return v
        cost[0] += 1
        r = result()
        if r is not None:
            v = terminal_value(r)
        else:
            moves = legal() if d > 0 else ()
            if not moves:
                v = evaluator(state)
            else:
                v = -MATE - 1
                for m in moves:
                    push(m)
                    c = -exact(d - 1)
                    pop()
                    if c > v:
                        v = c
        memo[k] = v
        return v

    counts = [0, 0, 0]  # nodes, leaves, terminals

    def walk(d: int, kind: int) -> None:
        counts[0] += 1
        if result() is not None:
            counts[2] += 1
            return
        moves = legal() if d > 0 else ()
        if not moves:
            counts[1] += 1
            return
        scored = []
        for m in moves:
            push(m)
            scored.append((-exact(d - 1), m))
            pop()
        scored.sort(key=lambda t: -t[0])  # stable: ties keep generation order
        if kind == CUT:
            plan = [(scored[0][1], ALL)]
        else:
            child = CUT
            plan = [(m, PV if (kind == PV and i == 0) else child) for i, (_, m) in enumerate(scored)]
        for m, k in plan:
            push(m)
            walk(d - 1, k)
            pop()

    value = exact(depth)
    walk(depth, PV)
    return MinimalTree(counts[0], counts[1], counts[2], value, cost[0])
