"""Evaluator for synthetic trees: the node's exact negamax value (leaf value at leaves).

The tree's values are built so that every node's value is known in closed form (see
:mod:`gameai.games.synthetic`), so this is a perfect evaluator: searches to the full
tree depth only ever call it at leaves; shallower searches get exact interior values.
"""
from __future__ import annotations


class SyntheticExact:
    """Side-to-move value of a synthetic-tree node."""

    name = "synthetic.exact"
    games = ("synthetic",)  # the games it can score (checked by make_evaluator)

    def __call__(self, state) -> int:
        return state.value()
