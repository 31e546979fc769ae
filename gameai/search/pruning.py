"""Selective-search parameters of the core's pruning parts (see :mod:`gameai.search.core`).

Null move (Beal 1989; Donninger 1993): at a node not in check, let the opponent move
twice (``push_null``); if a search reduced by ``NULL_R`` more plies still fails high,
a real move would too, and the node is cut. Not exact: zugzwang positions fool it, so
it is never tried in check, twice in a row, or with a mate bound. With ``null_verify``
(Tabibi & Netanyahu 2002, in Stockfish's form), a fail-high at remaining depth
``>= VERIFY_DEPTH`` is verified first: the node is searched again, ``NULL_R`` + 1 plies
shallower, with null moves off in that subtree; only if it too fails high is the node
cut, so a zugzwang that fooled the null move is searched in full.

Late-move reductions (as in Fruit and Stockfish): quiet moves ordered late (index >=
``LMR_MIN_INDEX``) at depth >= ``LMR_MIN_DEPTH`` are first searched ``lmr_reduction``
plies shallower with a null window; a move that beats alpha is searched again at full
depth. Not exact either: a reduced search can miss a deep refutation. With ``lmr_log``
the reduction grows with both the depth and the move's index, ``LMR_LOG_BASE +
ln(depth) * ln(index + 1) / LMR_LOG_DIVISOR`` plies (the logarithmic table of Stockfish
and of Ethereal), read from one integer table so both backends reduce alike.

Futility (Schaeffer 1986; Heinz 1998, "extended futility pruning") and reverse futility
(the "static null move" of Heinz's DarkThought and of Stockfish): near the horizon, on a
null window away from mate scores and not in check, the static evaluation ``se`` decides.
``se - RFP_MARGIN * depth >= beta`` at remaining ``depth <= RFP_DEPTH`` cuts the node
(returning ``se``); ``se + FUTILITY_MARGIN * depth <= alpha`` at ``depth <= FUTILITY_DEPTH``
skips every later quiet move that gives no check, as no such move is expected to lift the
score by a margin's worth. The margins are in the Xiangqi evaluators' units (pawn 100);
both are on only where the game knows check and captures.

Razoring (Birmingham & Kent 1977; Heinz 1999, "limited razoring"; as in Stockfish): on
the same null windows, at remaining ``depth <= RAZOR_DEPTH``, a static evaluation
``RAZOR_MARGIN * depth`` or more below alpha asks the quiescence search first; if the
captures cannot lift the score above alpha either, its value answers the node. Otherwise
the node is searched as usual (a second visit, counted as a re-search).
"""
from __future__ import annotations

import math

import numpy as np

NULL_R = 2            #: null-move depth reduction (besides the ply of the null move itself)
VERIFY_DEPTH = 6      #: null_verify: fail-highs verified at remaining depth >= this
LMR_MIN_INDEX = 3     #: moves before this index are never reduced
LMR_MIN_DEPTH = 3     #: no reductions below this remaining depth
RFP_DEPTH = 3         #: reverse futility only at remaining depth <= this
RFP_MARGIN = 120      #: ... when the static evaluation beats beta by this per ply
FUTILITY_DEPTH = 2    #: futility pruning only at remaining depth <= this
FUTILITY_MARGIN = 200  #: ... of quiet moves when the evaluation is this per ply below alpha
RAZOR_DEPTH = 3       #: razoring only at remaining depth <= this
RAZOR_MARGIN = 240    #: ... when the evaluation is this per ply below alpha
LMR_LOG_BASE = 0.75   #: the logarithmic reduction table's constant term (Ethereal's)
LMR_LOG_DIVISOR = 2.25  #: ... and the divisor of its ln(depth) * ln(moves) term
LMR_LOG_SIZE = 64     #: table rows (depth) and columns (move index); larger ones are clamped


def lmr_reduction(depth: int, index: int) -> int:
    """Plies to reduce the ``index``-th move at remaining ``depth`` (>= 1)."""
    return 2 if index >= 6 and depth >= 5 else 1


#: the logarithmic table: plies by [depth, index], before the clamp of lmr_log_reduction
LMR_LOG = np.array([[int(LMR_LOG_BASE + math.log(max(d, 1)) * math.log(i + 1) / LMR_LOG_DIVISOR)
                     for i in range(LMR_LOG_SIZE)] for d in range(LMR_LOG_SIZE)], dtype=np.int64)


def lmr_log_reduction(depth: int, index: int) -> int:
    """Plies to reduce the ``index``-th move at remaining ``depth`` by the logarithmic
    table: at least 1, and never so many that the probe falls below depth 1."""
    r = LMR_LOG[min(depth, LMR_LOG_SIZE - 1), min(index, LMR_LOG_SIZE - 1)]
    return int(max(1, min(r, depth - 2)))
