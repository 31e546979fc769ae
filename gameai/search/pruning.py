"""Selective-search parameters of the core's pruning parts (see :mod:`gameai.search.core`).

Null move (Beal 1989; Donninger 1993): at a node not in check, let the opponent move
twice (``push_null``); if a search reduced by ``NULL_R`` more plies still fails high,
a real move would too, and the node is cut. Not exact: zugzwang positions fool it, so
it is never tried in check, twice in a row, or with a mate bound. ``null_adaptive`` tries
it as Stockfish 11 does (``search.cpp``, step 9): only on a null window, only when the
static evaluation is at least beta and the side to move has pieces besides pawns and
guards, and with a reduction that grows with depth and with the evaluation's excess over
beta (:func:`null_reduction`).

Late-move reductions (as in Fruit and Stockfish): quiet moves ordered late (index >=
``LMR_MIN_INDEX``) at depth >= ``LMR_MIN_DEPTH`` are first searched ``lmr_reduction``
plies shallower with a null window; a move that beats alpha is searched again at full
depth. Not exact either: a reduced search can miss a deep refutation. ``lmr_sf`` reduces
as Stockfish 11 does (``search.cpp`` step 16): from the second move on (the fourth at the
root), by :func:`lmr_sf_reduction`, 2 plies less on a PV node and 2 more at an expected
cut node (a node that NegaScout searches with a null window below a PV node, and every
second ply below it), never below depth 1.

Futility (Schaeffer 1986; Heinz 1998, "extended futility pruning") and reverse futility
(the "static null move" of Heinz's DarkThought and of Stockfish): near the horizon, on a
null window away from mate scores and not in check, the static evaluation ``se`` decides.
``se - RFP_MARGIN * depth >= beta`` at remaining ``depth <= RFP_DEPTH`` cuts the node
(returning ``se``); ``se + FUTILITY_MARGIN * depth <= alpha`` at ``depth <= FUTILITY_DEPTH``
skips every later quiet move that gives no check, as no such move is expected to lift the
score by a margin's worth. The margins are in the Xiangqi evaluators' units (pawn 100);
both are on only where the game knows check and captures.
"""
from __future__ import annotations

import math

NULL_R = 2            #: null-move depth reduction (besides the ply of the null move itself)
#: null_adaptive: R = (NULL_BASE + NULL_PER_DEPTH * depth) // NULL_DIV + min(excess //
#: NULL_EVAL_DIV, 3) as Stockfish 11 (854, 68, 258; its 192 is 1.5 of its 128-unit pawns,
#: 150 in our 100-unit pawns)
NULL_BASE, NULL_PER_DEPTH, NULL_DIV, NULL_EVAL_DIV = 854, 68, 258, 150
LMR_MIN_INDEX = 3     #: moves before this index are never reduced
LMR_MIN_DEPTH = 3     #: no reductions below this remaining depth
RFP_DEPTH = 3         #: reverse futility only at remaining depth <= this
RFP_MARGIN = 120      #: ... when the static evaluation beats beta by this per ply
FUTILITY_DEPTH = 2    #: futility pruning only at remaining depth <= this
FUTILITY_MARGIN = 200  #: ... of quiet moves when the evaluation is this per ply below alpha


#: ``see``: a capture whose static exchange loses material is ordered after the quiet
#: moves and skipped by quiescence (Stockfish 11 ``qsearch``: "don't search moves with
#: negative SEE values"); its sort key is MVV-LVA's minus this
SEE_BAD = 1 << 30
#: ``delta``: quiescence skips a capture that gives no check when the stand-pat score plus
#: the captured piece plus this margin stays at or below alpha (Stockfish 11's 154 of its
#: 128-unit pawns, about 120 of ours)
DELTA_MARGIN = 120


def see_prune_threshold(depth: int, reduction: int, quiet: bool) -> int:
    """``see_prune``: the static exchange below which a move is skipped at remaining
    ``depth``, as Stockfish 11's step 13 (``search.cpp``, "prune moves with negative SEE"):
    a quiet move that gives no check below ``-(32 - min(l, 18)) l²`` with ``l`` the depth
    left after its late-move ``reduction`` (:func:`lmr_sf_reduction` of its move count),
    any other move below ``-194 d``; Stockfish's 128-unit pawns scaled to our 100."""
    if quiet:
        lmr_depth = max(depth - 1 - reduction, 0)
        return -((32 - min(lmr_depth, 18)) * lmr_depth * lmr_depth) * 100 // 128
    return -194 * depth * 100 // 128


def move_count_limit(depth: int) -> int:
    """``move_count``: at remaining ``depth``, quiet moves that give no check are pruned
    from the ``(5 + depth²) // 2``-th move on (Stockfish 11's ``futility_move_count`` for a
    position not known to be improving): 3 at depth 1, 4 at 2, 7 at 3, 10 at 4."""
    return (5 + depth * depth) // 2


def lmr_sf_reduction(depth: int, count: int) -> int:
    """``lmr_sf``: Stockfish 11's base reduction of the ``count``-th move (1-based) at
    remaining ``depth``: ``(R(depth) * R(count) + 511) // 1024`` with ``R(i) = int(24.8 ln
    i)``, about 1 ply at depth 4 and 3 at depth 10 for a late move; the caller takes 2 off
    on a PV node and adds 2 at an expected cut node."""
    return (int(24.8 * math.log(depth)) * int(24.8 * math.log(count)) + 511) // 1024


def lmr_reduction(depth: int, index: int) -> int:
    """Plies to reduce the ``index``-th move at remaining ``depth`` (>= 1)."""
    return 2 if index >= 6 and depth >= 5 else 1


def null_reduction(depth: int, excess: int) -> int:
    """Plies the adaptive null move reduces at remaining ``depth`` when the static
    evaluation exceeds beta by ``excess`` (>= 0): 3 at depth 1 to 5 at depth 9, plus up
    to 3 more for a large excess."""
    return (NULL_BASE + NULL_PER_DEPTH * depth) // NULL_DIV + min(excess // NULL_EVAL_DIV, 3)
