"""Xiangqi evaluators: material, and material + position-value tables (PST).

Both read a score the game state keeps incrementally in ``push``/``pop``
(``state.material_score`` / ``state.pst_score``, Red minus Black, from the tables in
:mod:`gameai.games.xiangqi_tables`), so an evaluation costs one attribute read instead of a
90-square scan. Values are from the side to move's point of view (negamax), far inside
+-10**8. :func:`pst_from_scratch` recomputes the same score by scanning the board; tests use
it to check the incremental bookkeeping.
"""
from __future__ import annotations

from ..games.xiangqi_tables import MAT, PST


class Material:
    """Material balance for the side to move (rook 900, cannon 450, horse 400, advisor and
    elephant 200, pawn 100)."""

    name = "xiangqi.material"
    games = ("xiangqi",)  # the games it can score (checked by make_evaluator)

    def __call__(self, state) -> int:
        v = state.material_score
        return -v if state.to_move else v


class Pst:
    """Material plus piece-square placement (crossed pawns, central horses and cannons,
    advanced rooks, the king at home) for the side to move."""

    name = "xiangqi.pst"
    games = ("xiangqi",)  # the games it can score (checked by make_evaluator)

    def __call__(self, state) -> int:
        v = state.pst_score
        return -v if state.to_move else v


def pst_from_scratch(state) -> int:
    """Red-minus-Black material + placement, recomputed from the board (for checks)."""
    return sum(PST[p][s] for s, p in enumerate(state.board))


def material_from_scratch(state) -> int:
    """Red-minus-Black material recomputed from the board (for checks)."""
    return sum(MAT[p] for p in state.board)
