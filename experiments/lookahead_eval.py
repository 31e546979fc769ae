"""An evaluation with which a depth-1 search IS the 002 document's one-shot player.

The one-shot player weighs every candidate point with the document's ladder
(:func:`gameai.evaluators.gomoku_pointweight.point_weight`) and plays the heaviest. To
measure look-ahead alone, the searcher must value positions so that looking one ply ahead
reproduces that choice, and looking further only adds the replies. :class:`LineSum` does
it: a position's value is the alternating sum, along the line of play that reached it, of
each placed stone's point weight at the moment it was placed (its own stones counted
plus, the opponent's minus, from the side to move's view). A depth-1 search then scores
each move ``m`` as ``weight(m) + constant`` and picks from exactly the one-shot player's
best set (``tests/experiments/test_lookahead_eval.py`` checks it on many positions);
deeper searches subtract the best reply's weight, add the next own weight, and so on.

The value depends on the order the stones were placed in, not only on the position, so it
must not be shared between transpositions: the searchers that use it have no
transposition table. Each prefix of the line is weighed once and remembered (a bounded
memo keyed by the move sequence), so a leaf costs one point weight.
"""
from __future__ import annotations

from gameai.evaluators.gomoku_pointweight import point_weight
from gameai.games.gomoku_rules import BLACK

MEMO_LIMIT = 200_000         #: remembered prefixes before the memo starts afresh (about 100 MB)


class LineSum:
    """Position value = alternating sum of the placed stones' point weights along the line
    (see the module docstring), from the side to move's point of view."""

    name = "line-sum point weighting"
    games = ("gomoku", "renju")

    def __init__(self, exact_rules: bool = True) -> None:
        self.exact_rules = bool(exact_rules)
        self.memo: dict[tuple, int] = {}

    def black_sum(self, state) -> int:
        """The sum from Black's point of view: Black's weights plus, White's minus."""
        line = tuple(state.move_stack)
        got = self.memo.get(line)
        if got is not None:
            return got
        if not line:
            return 0
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        m = state.pop()
        try:
            before = self.black_sum(state)
            mover = len(state.placed) & 1
            w = point_weight(state, m, mover, self.exact_rules)
        finally:
            state.push_unchecked(m)
        value = before + (w if mover == BLACK else -w)
        self.memo[line] = value
        return value

    def __call__(self, state) -> int:
        s = self.black_sum(state)
        return s if (len(state.placed) & 1) == BLACK else -s


def spec() -> str:
    """This evaluator as a searcher's ``eval=`` reference (the installed or checkout name)."""
    return f"{__name__}:LineSum"
