"""The player protocol: what a tournament asks of anything that picks moves."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass
class Decision:
    """A chosen move plus what the player reports about it (search statistics etc.)."""

    move: Any
    value: float | None = None
    info: dict[str, Any] = field(default_factory=dict)


class Player(Protocol):
    name: str

    def new_game(self, seed: int) -> None:
        """Reset per-game state (history tables kept for the game, RNG seeded)."""

    def choose(self, state) -> Decision:
        """Pick a move for the side to move; ``state`` must be unchanged afterwards."""

    # Optional: ``prepare(state)``, called once a game after ``new_game`` and before the
    # first timed move, does what would otherwise fall on that move's clock (compiling a
    # kernel, starting an engine and waiting for its ``readyok``). Players without it
    # need no preparation.

    def close(self) -> None:
        """Release resources (external processes)."""
