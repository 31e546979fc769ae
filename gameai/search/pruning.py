"""Selective-search parameters of the core's pruning parts (see :mod:`gameai.search.core`).

Null move (Beal 1989; Donninger 1993): at a node not in check, let the opponent move
twice (``push_null``); if a search reduced by ``NULL_R`` more plies still fails high,
a real move would too, and the node is cut. Not exact: zugzwang positions fool it, so
it is never tried in check, twice in a row, or with a mate bound.

Late-move reductions (as in Fruit and Stockfish): quiet moves ordered late (index >=
``LMR_MIN_INDEX``) at depth >= ``LMR_MIN_DEPTH`` are first searched ``lmr_reduction``
plies shallower with a null window; a move that beats alpha is searched again at full
depth. Not exact either: a reduced search can miss a deep refutation.
"""
from __future__ import annotations

NULL_R = 2            #: null-move depth reduction (besides the ply of the null move itself)
LMR_MIN_INDEX = 3     #: moves before this index are never reduced
LMR_MIN_DEPTH = 3     #: no reductions below this remaining depth


def lmr_reduction(depth: int, index: int) -> int:
    """Plies to reduce the ``index``-th move at remaining ``depth`` (>= 1)."""
    return 2 if index >= 6 and depth >= 5 else 1
