"""Equal effort for the 001 document's two-ply max-min: a per-move node budget.

Why an equal *mean* budget misled: with the budget fixed at the max-min's mean nodes per
move (about a thousand), a deepening search whose ordering is poor (NegaScout with only a
TT) does not finish depth 2 on some positions and plays its depth-1 move there, while the
max-min always completes its two plies; on other moves the max-min spends less than the
mean. The comparison then measured where the budget fell, not the algorithms.

Measured on the first 20 positions of the Xiangqi pool (middle games; Python backend, the
same counts): the max-min spends a median 1,912 nodes there (1,065 to 2,556), more than the
mean of 1,051 the old calibration measured over whole games from the opening; with 1,051
nodes NegaScout with a TT finished depth 2 on 13 of the 20 (mean completed depth 1.65),
alpha-beta with history on all 20; with the max-min's own count on each position both
finished depth 2 on all 20.

The design here: on every move, the deepening searcher gets exactly the nodes the max-min
spends on that same position (:class:`EqualEffort` runs ``minimax2`` on the position
first, reads its node count, and searches with that limit). When the limit stops an
iteration, the searcher keeps the best root move of that iteration if a move was searched
in full and beat every move before it (the previous best first), as engines do; else the
last finished iteration's move (the driver's rule, :mod:`gameai.search.driver`). Node
counts do not depend on machine load, so the games are the same on every run.
"""
from __future__ import annotations

from gameai import make_searcher
from gameai.players.search import SearchPlayer

#: the deepening searchers of the claims, without a node limit (set per move)
ALPHABETA_HISTORY = "alphabeta(depth=30,id=true,history=true,backend=compiled)"
NEGASCOUT_TT = "negascout(depth=30,id=true,tt=true,backend=compiled)"


class EqualEffort:
    """A deepening searcher held, move by move, to the max-min's own node count there."""

    searcher = ALPHABETA_HISTORY

    def __init__(self, seed: int = 0) -> None:
        self.inner = SearchPlayer(self.searcher)
        self.maxmin = make_searcher("minimax2")
        self.name = f"{type(self).__name__}"

    def new_game(self, seed: int) -> None:
        self.inner.new_game(seed)

    def prepare(self, state) -> None:
        self.inner.prepare(state)

    def choose(self, state, limits=None):
        budget = self.maxmin.search(state).stats.nodes
        d = self.inner.choose(state, {"nodes": max(1, budget)})
        d.info["budget"] = budget
        return d

    def close(self) -> None:
        self.inner.close()


class AlphaBetaHistory(EqualEffort):
    """Alpha-beta with the history heuristic in iterative deepening (the 000 document)."""

    searcher = ALPHABETA_HISTORY


class NegaScoutTT(EqualEffort):
    """NegaScout with a transposition table in iterative deepening (the 003 document)."""

    searcher = NEGASCOUT_TT


def spec(cls: type) -> str:
    """The player reference a tournament takes (the installed or checkout module name)."""
    return f"{__name__}:{cls.__name__}"
