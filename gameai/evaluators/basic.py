"""Game-independent evaluators."""
from __future__ import annotations


class Zero:
    """Scores every position 0: with a search that reaches the end this gives exact values."""

    name = "zero"

    def __call__(self, state) -> int:
        return 0
