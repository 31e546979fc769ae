"""``gomoku.pointweight``: the one-shot point weighting of the 002 document (no search).

Source: ``002_5a91ab6e5fec2a2a.txt`` (C# Gomoku, ``int pointWeight(int color, int x,
int y)``). Every empty point gets a weight; the player plays the heaviest point, breaking
ties at random. The two colour ladders and the final weighted sum are reproduced rung by
rung in :func:`point_weight` below.

The document names its counters but not their exact definitions; this module defines
them as follows (per point, per direction, with a virtual stone of the colour on it):

* ``colorLink[k]`` / ``colorLive[k]`` (own colour), ``fcolorLink[k]`` / ``fcolorLive[k]``
  (the opponent's colour on the same point, i.e. what the point blocks): ``k`` is the
  unbroken run through the point. ``k >= 5`` counts in ``Link[5]``. Otherwise a run with
  both ends empty counts in ``Live[k]`` ("活", live), with one end empty in ``Link[k]``
  (dead/rush), and runs that cannot grow to five (fewer than five own-or-empty cells
  through the point on that line) count nowhere.
* ``tempLive3``: the number of directions where an opponent stone on the point makes a
  real open three (one more opponent stone would make a straight four, split threes
  included) - the document's ``breakLiveCount`` ("a live three the other colour cannot
  break").
* ``hasLongLink(x, y)``: a black stone there makes six or more in a row.

Forbidden moves (``exact_rules``): the document's own tests for Black's forbidden
points are ``hasLongLink`` (-2), ``colorLive[3] > 1 || colorLive[4] + colorLink[4] > 1``
(-1), and, on White's ladder, ``isBlackForbiden = tempLive3 > 1 || colorLive[4] > 1 ||
hasLongLink`` (the ``colorLive[4]`` there reads White's counter, evidently a slip).
With ``exact_rules=False`` those expressions are used verbatim. With ``exact_rules=True``
(default) the exact RIF judgement (:mod:`gameai.games.gomoku_rules`) replaces them: Black's
ladder returns -2 for an overline and -1 for a double-four/double-three, checked after
"makes five" (five beats a forbidden shape); White's ladder asks whether the point is
forbidden for Black. Forbidden moves only exist under ``rule=renju``: for freestyle and
standard both ladders are used with every forbidden test false.

As a position evaluator (``state -> int``) the one-shot rule has no native meaning; this
module scores a position as (heaviest point for the side to move) minus (heaviest point
for the opponent, were it to move), over the candidate points.
"""
from __future__ import annotations

from ..games.gomoku_rules import (BLACK, EMPTY, OVERLINE, forbidden_at, is_straight_four,
                                  makes_five, run_length)


def _counts(board: list[int], p: int, d: int, color: int) -> tuple[int, int, int]:
    """(run through p, empty ends, own-or-empty span through p) with ``color`` on ``p``."""
    run = 1
    i = p + d
    while board[i] == color:
        run += 1
        i += d
    end1 = board[i] == EMPTY
    span = run
    while span < 5 and (board[i] == EMPTY or board[i] == color):
        span += 1
        i += d
    i = p - d
    while board[i] == color:
        run += 1
        span += 1
        i -= d
    end2 = board[i] == EMPTY
    while span < 5 and (board[i] == EMPTY or board[i] == color):
        span += 1
        i -= d
    return run, end1 + end2, span


def link_live(board: list[int], p: int, dirs, color: int,
              exact: bool = False) -> tuple[list[int], list[int]]:
    """The document's ``Link[0..5]`` and ``Live[0..5]`` for ``color`` on empty ``p``
    (``exact``: only exactly five counts in ``Link[5]``; a longer run counts nowhere)."""
    link = [0] * 6
    live = [0] * 6
    for d in dirs:
        run, ends, span = _counts(board, p, d, color)
        if run >= 5:
            if run == 5 or not exact:
                link[5] += 1
        elif span < 5:
            continue
        elif ends == 2:
            live[run] += 1
        elif ends == 1:
            link[run] += 1
    return link, live


def live_threes(board: list[int], p: int, dirs, color: int) -> int:
    """Directions where ``color`` on ``p`` makes a real open three (``tempLive3``)."""
    n = 0
    board[p] = color
    try:
        for d in dirs:
            found = False
            for s in (d, -d):
                i = p + s
                for _ in range(3):
                    v = board[i]
                    if v == EMPTY:
                        board[i] = color
                        found = is_straight_four(board, p, d, color, False)
                        board[i] = EMPTY
                        if found:
                            break
                    elif v != color:
                        break
                    i += s
                if found:
                    break
            n += found
    finally:
        board[p] = EMPTY
    return n


def _has_long_link(board: list[int], p: int, dirs) -> bool:
    return any(run_length(board, p, d, BLACK) >= 6 for d in dirs)


def _total(cl, cv, fl, fv) -> int:
    return ((cl[4] + cv[3]) * 6250 + (cl[3] + cv[2] + fl[4] + fv[3]) * 1250
            + (cl[2] + fl[3] + fv[2]) * 250 + cv[1] * 50 + (cl[1] + fl[2] + fv[1]) * 10
            + fl[1] * 2)


def point_weight(state, p: int, color: int, exact_rules: bool = True) -> int:
    """The 002 document's ``pointWeight(color, x, y)`` for empty point ``p``."""
    board, dirs = state.board, state.dirs
    renju = state.rule == "renju"
    exact = state._exact  # (white, black): must five be exactly five?
    cl, cv = link_live(board, p, dirs, color, exact[color == BLACK])
    fl, fv = link_live(board, p, dirs, 1 - color, exact[color != BLACK])
    temp_live3 = live_threes(board, p, dirs, 1 - color)
    if color == BLACK:  # black: attack first, and mind its own forbidden points
        if renju and exact_rules:
            if cl[5] > 0 and makes_five(board, p, dirs, BLACK, True):
                return 150000
            why = forbidden_at(board, p, dirs)
            if why:
                return -2 if why == OVERLINE else -1
        elif renju:
            if _has_long_link(board, p, dirs):
                return -2
        if cl[5] > 0:
            return 150000
        if renju and not exact_rules and (cv[3] > 1 or cv[4] + cl[4] > 1):
            return -1
        if fl[5] > 0:
            return 140000
        if cv[4] == 1:
            return 130000
        if cl[4] == 1 and cv[3] == 1:
            return 120000
        if cl[4] == 1 and cl[3] > 0:
            return 110000
        if fv[4] > 0 or fl[4] > 1:
            return 100000
        if fl[4] == 1 and temp_live3 == 1:
            return 90000
        if fv[3] > 1:
            return 80000
        if fl[4] == 1 and fl[3] > 0:
            return 70000
        return _total(cl, cv, fl, fv)
    # white: defend first, and ask whether black's threat point is forbidden for black
    if not renju:
        black_forbidden = black_long = False
    elif exact_rules:
        why = forbidden_at(board, p, dirs)
        black_forbidden = why is not None
        black_long = why == OVERLINE
    else:
        black_long = _has_long_link(board, p, dirs)
        black_forbidden = temp_live3 > 1 or cv[4] > 1 or black_long
    if cl[5] > 0:
        return 150000
    if fl[5] > 0 and not black_long:
        return 140000
    if cv[4] > 0 or fl[4] > 1:
        return 130000
    if cl[4] == 1 and fv[3] > 0:
        return 120000
    if (fv[4] == 1 and not black_forbidden) or (cl[4] > 1 and not black_forbidden):
        return 110000
    if cl[4] == 1 and fl[3] > 0:
        return 100000
    if fl[4] > 0 and temp_live3 == 1 and not black_forbidden:
        return 90000
    if cv[3] > 1:
        return 80000
    if fl[4] > 0 and cl[3] > 0 and not black_forbidden:
        return 70000
    return _total(cl, cv, fl, fv)


def point_weights(state, color: int | None = None, points=None,
                  exact_rules: bool = True) -> dict[int, int]:
    """``{point: weight}`` for ``color`` (default: side to move) over ``points``
    (default: every empty point, as the document scans the whole board)."""
    if color is None:
        color = len(state.placed) & 1
    if points is None:
        b = state.board
        points = [i for i in state.geo.cells if b[i] == EMPTY]
    return {p: point_weight(state, p, color, exact_rules) for p in points}


class PointWeight:
    """Position value = best own point weight − best opponent point weight (see module doc)."""

    name = "gomoku.pointweight"
    games = ("gomoku", "renju")  # the games it can score (checked by make_evaluator)

    def __init__(self, exact_rules: bool = True) -> None:
        self.exact_rules = bool(exact_rules)

    def __call__(self, state) -> int:
        me = len(state.placed) & 1
        b = state.board
        pts = [m for m in state._cand if b[m] == EMPTY] or state.legal_moves()
        if not pts:
            return 0
        mine = max(point_weight(state, p, me, self.exact_rules) for p in pts)
        theirs = max(point_weight(state, p, 1 - me, self.exact_rules) for p in pts)
        return mine - theirs
