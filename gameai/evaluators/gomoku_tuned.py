"""``gomoku.tuned``: the ``gomoku.patterns`` table split by side to move, plus the
pattern combinations real programs score, as linear features ``gameai tune`` fits.

Features (side to move ``me`` against ``op``), from the per-line counts of
:mod:`gameai.evaluators.gomoku_patterns`:

* ``me_<p>`` and ``op_<p>`` for each pattern ``p`` of its table (five, open four, four,
  open three, three, open two, two): the side to move's and the opponent's counts, with
  their own weights, because a pattern is worth more to the side about to move;
* combinations: ``me_double_three``/``op_double_three`` (two or more open threes),
  ``me_three_three`` (an open three and a closed three: a four-three next move),
  ``op_four_three`` (a four to answer and an open three behind it), ``op_two_threes``
  (an open three and a closed three for the opponent);
* ``tempo``: the constant 1, the side-to-move term (it replaces the deleted ``tempo``
  parameter of ``gomoku.patterns``, now fitted like any other weight).

The decisive cases stay rules, as in ``gomoku.patterns``: a five wins, a four for the
side to move wins next move, an open four or two fours for the opponent cannot both be
stopped; only the rest (where the score is a linear sum) is fitted. With no weights file
``me_p = K_p``, ``op_p = -K_p`` (the ``gomoku.patterns`` defaults) and 0 for the rest, so
it equals ``gomoku.patterns`` on every position (tested). ``backend=compiled`` runs the
same values with any weights (:mod:`gameai.compiled.gomoku_tuned`, the weights as data).
"""
from __future__ import annotations

from .gomoku_patterns import FEATURES as PATTERNS, PatternWeights, features as pattern_counts
from .linear import LinearEvaluator

COMBOS = ("me_double_three", "me_three_three", "op_double_three", "op_four_three",
          "op_two_threes")
FEATURES = tuple(f"me_{p}" for p in PATTERNS) + tuple(f"op_{p}" for p in PATTERNS) \
    + COMBOS + ("tempo",)
_K = PatternWeights()
DEFAULTS = {**{f"me_{p}": float(getattr(_K, p)) for p in PATTERNS},
            **{f"op_{p}": -float(getattr(_K, p)) for p in PATTERNS}}
_N = len(PATTERNS)
_O3, _T3, _F4 = PATTERNS.index("open_three"), PATTERNS.index("three"), PATTERNS.index("four")


def counts_features(me: list[int], op: list[int]) -> list[float]:
    """The feature vector from the pattern counts of the side to move and the opponent."""
    combos = [float(me[_O3] >= 2), float(me[_O3] >= 1 and me[_T3] >= 1),
              float(op[_O3] >= 2), float(op[_F4] >= 1 and op[_O3] >= 1),
              float(op[_O3] >= 1 and op[_T3] >= 1)]
    return [float(x) for x in me] + [float(x) for x in op] + combos + [1.0]


class GomokuTuned(LinearEvaluator):
    """Pattern counts per side to move and their combinations, weighted by a weights file
    (``weights=FILE`` from ``gameai tune``) or the defaults (= ``gomoku.patterns``)."""

    name = "gomoku.tuned"
    games = ("gomoku", "renju")  # the games it can score (checked by make_evaluator)
    FEATURES = FEATURES
    DEFAULTS = DEFAULTS
    #: no single pattern is worth more than a won position (``gomoku.patterns``' win)
    MAX_WEIGHT = float(_K.win)

    def __init__(self, weights: str | None = None) -> None:
        super().__init__(weights)
        self.win = _K.win

    def counts(self, state) -> tuple[list[int], list[int]]:
        """Pattern counts ``(me, op)`` of the side to move and the opponent."""
        black, white = pattern_counts(state)
        return (white, black) if len(state.placed) & 1 else (black, white)

    def decided(self, me: list[int], op: list[int]) -> int | None:
        """The rule value of a decided position (as ``gomoku.patterns``), else None."""
        win = self.win
        if me[0]:
            return win
        if op[0]:
            return -win
        if me[1] or me[2]:
            return win - 1
        if op[1] or op[2] >= 2:
            return -(win // 2)
        return None

    def tunable(self, state) -> bool:
        """Positions worth fitting on: those the rules above do not decide."""
        return self.decided(*self.counts(state)) is None

    def features(self, state) -> list[float]:
        """The feature vector from the side to move's view (what tuning fits)."""
        return counts_features(*self.counts(state))

    def __call__(self, state) -> int:
        me, op = self.counts(state)
        v = self.decided(me, op)
        if v is not None:
            return v
        lin = sum(w * f for w, f in zip(self.weights, counts_features(me, op)) if w)
        return max(-self.win, min(self.win, int(round(lin))))
