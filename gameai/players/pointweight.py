"""The 002 document's player: one-shot point weighting, no search.

Every point the game offers (``state.legal_moves()``: the empty points within the
game's ``radius`` of a stone, the centre on an empty board, or every empty point with
``full_board=True`` - the document's own whole-board scan) is weighted with
:func:`gameai.evaluators.gomoku_pointweight.point_weight` for the side to move and the
heaviest point is played; equally heavy points are chosen between at random (the
document: "如有多个最大值，则采用随机方式给出") with a generator seeded per game, so games are
reproducible. Under renju, Black's forbidden points are not legal moves, so never chosen.
Restricting the scan to the move generator's points keeps every choice inside
``legal_moves()``, which tournaments check; far points only ever score the smallest
weights.
"""
from __future__ import annotations

import random

from ..errors import GameError
from ..evaluators.gomoku_pointweight import point_weights
from .protocol import Decision


class PointWeightPlayer:
    """Plays the heaviest point by the 002 ladder; seeded random tie-break."""

    def __init__(self, seed: int = 0, exact_rules: bool = True, name: str = "pointweight") -> None:
        self.name = name
        self.exact_rules = bool(exact_rules)
        self._base_seed = seed
        self.rng = random.Random(seed)

    def new_game(self, seed: int) -> None:
        self.rng.seed(f"{self._base_seed}/{seed}")

    def choose(self, state, limits=None) -> Decision:
        if not hasattr(state, "board") or not hasattr(state, "placed"):
            raise GameError(f"pointweight player plays gomoku/renju only, not {getattr(state, 'name', state)!r}")
        weights = point_weights(state, points=state.legal_moves(), exact_rules=self.exact_rules)
        if not weights:
            raise GameError("pointweight player: no legal moves in this position")
        best = max(weights.values())
        ties = sorted(p for p, w in weights.items() if w == best)
        move = ties[0] if len(ties) == 1 else self.rng.choice(ties)
        return Decision(move, float(best), {"weight": best, "ties": len(ties)})

    def close(self) -> None:
        pass
