"""The 001 document's fixed two-ply max-min search, written as the document does it.

``getBestMove``: for each of our moves, play it, score = ``getMinScore()``, take it back,
keep the maximum. ``getMinScore``: for each opponent reply, play it, evaluate, take it
back, keep the minimum. Here the evaluation at ply 2 is the evaluator (side to move is
our side again, so no sign change); finished games are scored as the negamax core does,
and counters follow :mod:`gameai.search.stats`. It must agree with ``minimax(depth=2)``.
"""
from __future__ import annotations

import time
from typing import Literal

from ..errors import SpecError
from ..games.protocol import fast_push
from ..spec import EvalSpec
from .negamax import Searcher
from .stats import INF, MATE, Limits, SearchResult, SearchStats


class MaxMin2:
    """Two-ply max-min (001 document); ``eval`` names the evaluator."""

    def __init__(self, eval: EvalSpec = None, depth: Literal[2] = 2) -> None:
        if depth != 2:
            raise SpecError(f"minimax2 is a fixed two-ply search; depth must be 2, got {depth!r}")
        self._evals = Searcher(eval=eval)  # only for its evaluator cache
        self.name = "minimax2"

    def new_game(self) -> None:
        pass

    def evaluator(self, state):
        """The evaluator of the second ply on ``state``'s game."""
        return self._evals.evaluator(state)

    def search(self, state, limits: Limits | dict | None = None, **_callbacks) -> SearchResult:
        """Return the max over our moves of the min over replies of the static score."""
        lim = Limits.coerce(limits)
        if lim.depth not in (None, 2):
            raise SpecError(f"minimax2 searches exactly 2 plies; limits.depth={lim.depth}")
        t0 = time.perf_counter()
        ev = self._evals.evaluator(state)
        st = SearchStats(nodes=1)
        me = state.to_move

        def score_for_me(ply: int) -> int:
            """Static score of the current position from the root player's view."""
            r = state.result()
            if r is not None:
                st.terminals += 1
                return 0 if r.winner is None else (MATE - ply if r.winner == me else ply - MATE)
            st.leaves += 1
            v = ev(state)
            return v if state.to_move == me else -v

        if state.result() is not None or not state.legal_moves():
            v = score_for_me(0)
            st.time_s = time.perf_counter() - t0
            return SearchResult(None, v, [], st)
        st.interior += 1
        best, best_move, best_reply = -INF, None, None
        push = fast_push(state)
        for m in state.legal_moves():
            push(m)
            st.nodes += 1
            replies = [] if state.result() is not None else state.legal_moves()
            if not replies:
                score, reply = score_for_me(1), None
            else:
                st.interior += 1
                score, reply = INF, None
                for r in replies:
                    push(r)
                    st.nodes += 1
                    s = score_for_me(2)
                    state.pop()
                    if s < score:
                        score, reply = s, r
            state.pop()
            if score > best:
                best, best_move, best_reply = score, m, reply
        st.depth, st.seldepth = 2, 2
        st.time_s = time.perf_counter() - t0
        pv = [best_move] + ([best_reply] if best_reply is not None else [])
        st.iterations.append({"depth": 2, "value": best, "move": best_move, "pv": pv,
                              "time_s": st.time_s, **{k: getattr(st, k) for k in st.COUNTERS}})
        return SearchResult(best_move, best, pv, st, state=state)
