"""Monte Carlo tree search with UCT (UCB1 applied to trees), as a contrast to alpha-beta.

Each simulation walks down the tree by UCB1 (``c`` the exploration constant), expands
one untried move, then plays uniformly random moves (seeded) until the game ends or
``rollout_depth`` plies have been played; a cut-off rollout is scored by the evaluator
as ``0.5 + 0.5 * tanh(value / scale)`` for the side to move. Rewards are in [0, 1] for
the player who moved into a node. The chosen move is the most visited root child.

The reported value is in the evaluator's units, like every other searcher's: the chosen
child's mean reward ``m`` mapped back through the rollout scoring,
``scale * atanh(2m - 1)`` (so a value ``v`` stands for the winning expectation a static
evaluation ``v`` is scored with), bounded at ``+-scale * atanh(1 - 1e-6)`` (7.25 scale):
all-won rollouts are no proof, so MCTS never reports a mate score except at a finished
root, where it reports the game's result as the negamax searchers do.

Counters (see :mod:`gameai.search.stats`): each simulation visits the root, the tree
positions it descends through, the expanded child and its rollout positions; every one
counts as a node. The last position of a simulation is a terminal (game over) or a leaf
(scored by the evaluator); every other position was moved on from and counts as
interior, so ``nodes == leaves + terminals + interior`` and
``leaves + terminals == simulations``.
"""
from __future__ import annotations

import math
import random
import time
from typing import Annotated, Any

from ..errors import SpecError
from ..games.protocol import fast_push
from ..spec import EvalSpec, Nodes, Range, Seconds
from .driver import allowed_root_moves
from .negamax import Searcher
from .stats import MATE, Limits, SearchResult, SearchStats

_EDGE = 1.0 - 1e-6  # |2m - 1| bound: atanh stays finite (7.25)


class _Node:
    __slots__ = ("move", "parent", "children", "untried", "visits", "reward")

    def __init__(self, move, parent, untried):
        self.move, self.parent, self.untried = move, parent, untried
        self.children: list[_Node] = []
        self.visits = 0
        self.reward = 0.0


class MCTS:
    """UCT search; ``iterations`` simulations unless ``nodes``/``time`` stop it first."""

    def __init__(self, iterations: Annotated[int, Range(1, 10 ** 9)] = 1000,
                 c: Annotated[float, Range(0, 100)] = 1.4,
                 rollout_depth: Annotated[int, Range(0, 100_000)] = 60,
                 scale: Annotated[float, Range(0, 1e12, lo_open=True)] = 400.0, seed: int = 0,
                 nodes: Nodes | None = None, time: Seconds | None = None,
                 eval: EvalSpec = None) -> None:
        if not isinstance(iterations, int) or iterations < 1:
            raise SpecError(f"mcts iterations must be a positive integer, got {iterations!r}")
        if not isinstance(rollout_depth, int) or rollout_depth < 0:
            raise SpecError(f"mcts rollout_depth must be >= 0, got {rollout_depth!r}")
        self.iterations, self.c, self.rollout_depth, self.scale = iterations, float(c), rollout_depth, scale
        self.seed, self.nodes, self.time = seed, nodes, time
        self._evals = Searcher(eval=eval)
        self.rng = random.Random(seed)
        self.name = f"mcts(iterations={iterations})"

    def evaluator(self, state):
        """The evaluator that scores cut-off rollouts on ``state``'s game."""
        return self._evals.evaluator(state)

    def _value(self, mean: float) -> int:
        """Mean reward in [0, 1] -> evaluator units (inverse of the rollout scoring)."""
        v = min(max(2.0 * mean - 1.0, -_EDGE), _EDGE)
        return round(self.scale * math.atanh(v))

    def new_game(self, seed: int | None = None) -> None:
        self.rng = random.Random(self.seed if seed is None else seed)

    def search(self, state, limits: Limits | dict | None = None, *, on_iteration=None,
               on_root_move=None, stop: Any = None, root_moves: Any = None) -> SearchResult:
        """Run simulations from ``state`` (left unchanged); return the most visited move.

        ``stop`` is anything with ``is_set()`` (a ``threading.Event``), read before every
        simulation like the limits: when set, the most visited move so far is returned
        (after at least one simulation, so there always is one). ``root_moves``: only
        these moves are tried at the root (as :meth:`Searcher.search`).
        """
        lim = Limits.coerce(limits)
        allowed = allowed_root_moves(state, root_moves)
        node_limit = lim.nodes if lim.nodes is not None else self.nodes
        time_limit = lim.time if lim.time is not None else self.time
        t0 = time.perf_counter()
        deadline = t0 + time_limit if time_limit else None
        st = SearchStats()
        ev = self._evals.evaluator(state)
        rng, log, sqrt, c = self.rng, math.log, math.sqrt, self.c
        push = fast_push(state)
        res = state.result()
        if res is not None or not state.legal_moves():
            st.nodes = 1
            if res is not None:
                st.terminals = 1
                value = 0 if res.winner is None else MATE if res.winner == state.to_move else -MATE
            else:
                st.leaves = 1
                value = ev(state)
            st.time_s = time.perf_counter() - t0
            return SearchResult(None, value, [], st, state=state)
        root = _Node(None, None, list(allowed) if allowed is not None else state.legal_moves())
        rng.shuffle(root.untried)
        for it in range(self.iterations):
            if it and ((node_limit is not None and st.nodes >= node_limit) or
                       (deadline is not None and time.perf_counter() >= deadline) or
                       (stop is not None and stop.is_set())):
                break                  # at least one simulation, so there is a move
            node, pushed = root, 0
            # selection
            while not node.untried and node.children:
                lv = log(node.visits)
                node = max(node.children,
                           key=lambda ch: ch.reward / ch.visits + c * sqrt(lv / ch.visits))
                push(node.move)
                pushed += 1
            # expansion
            if node.untried and state.result() is None:
                m = node.untried.pop()
                push(m)
                pushed += 1
                moves = state.legal_moves() if state.result() is None else []
                rng.shuffle(moves)
                child = _Node(m, node, moves)
                node.children.append(child)
                node = child
            # rollout: reward for the player who moved into ``node``
            mover = 1 - state.to_move
            ro = 0
            r = state.result()
            while r is None and ro < self.rollout_depth:
                moves = state.legal_moves()
                if not moves:
                    break
                push(moves[rng.randrange(len(moves))])
                ro += 1
                r = state.result()
            if r is not None:
                st.terminals += 1
                reward = 0.5 if r.winner is None else (1.0 if r.winner == mover else 0.0)
            else:
                st.leaves += 1
                v = math.tanh(ev(state) / self.scale)
                mine = state.to_move == mover
                reward = 0.5 + 0.5 * (v if mine else -v)
            st.simulations += 1
            st.nodes += pushed + ro + 1         # the root and every position pushed
            st.interior += pushed + ro          # all but the last were moved on from
            st.seldepth = max(st.seldepth, pushed + ro)
            for _ in range(pushed + ro):
                state.pop()
            # backpropagation (the reward flips sides at every level)
            while node is not None:
                node.visits += 1
                node.reward += reward
                reward = 1.0 - reward
                node = node.parent
            if on_root_move is not None:
                on_root_move(it, self.iterations, None, None)
        best = max(root.children, key=lambda ch: ch.visits)
        pv, node = [], root
        while node.children:
            node = max(node.children, key=lambda ch: ch.visits)
            pv.append(node.move)
        value = self._value(best.reward / best.visits)
        st.depth = len(pv)
        st.time_s = time.perf_counter() - t0
        row = {"depth": st.depth, "value": value, "move": best.move, "pv": list(pv),
               "time_s": st.time_s, "simulations": st.simulations,
               **{k: getattr(st, k) for k in st.COUNTERS}}
        st.iterations.append(row)
        if on_iteration is not None:
            on_iteration(row)
        return SearchResult(best.move, value, pv, st, state=state)
