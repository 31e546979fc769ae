"""The uniformly random player: the weakest baseline and the fastest smoke-test opponent."""
from __future__ import annotations

import random

from .protocol import Decision


class RandomPlayer:
    """Plays a uniformly random legal move; seeded per game so games are reproducible."""

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.name = name
        self._base_seed = seed
        self.rng = random.Random(seed)

    def new_game(self, seed: int) -> None:
        self.rng.seed(f"{self._base_seed}/{seed}")

    def choose(self, state, limits=None) -> Decision:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("random player: no legal moves in this position")
        return Decision(self.rng.choice(moves), None, {})

    def close(self) -> None:
        pass
