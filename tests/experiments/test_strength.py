"""The strength experiment's statistics: Wilson intervals against published figures, the
pentanomial interval against the tournament's, p-values that agree with the intervals,
Holm's procedure against a worked example, the power statement against the textbook
sample-size formula, and the cost estimate against the time box."""
import os

import pandas as pd
import pytest

from gameai.commands.reproduce import experiments_package
from gameai.tournament.stats import elo_pentanomial, elo_to_score, score_to_elo

strength = __import__(f"{experiments_package().__name__}.strength", fromlist=["wilson"])


@pytest.mark.parametrize("x, n, lo, hi", [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I, method 3
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombe(x, n, lo, hi):
    got = strength.wilson(x, n)
    assert got == pytest.approx((lo, hi), abs=6e-5)


def test_elo_text_never_prints_inf_or_nan():
    for points, n in ((0, 4), (4, 4), (2, 4), (0.5, 1), (12, 12)):
        text = strength.elo_text(*strength.wilson(points, n))
        assert "inf" not in text and "nan" not in text
    assert "no upper bound" in strength.elo_text(*strength.wilson(8, 8))


def test_interval_is_the_union_of_wilson_and_the_tournaments_pentanomial():
    pairs = [3, 10, 40, 30, 17]  # 100 pairs, 200 games
    points = sum(c * k / 2 for k, c in enumerate(pairs))
    lo, hi = strength.score_interval(points, 200, pairs)
    w = strength.wilson(points, 200)
    pent = elo_pentanomial(pairs)
    assert lo == pytest.approx(min(w[0], elo_to_score(pent.low)))
    assert hi == pytest.approx(max(w[1], elo_to_score(pent.high)))
    # a near-sweep: the pentanomial variance collapses, Wilson keeps the interval open
    lo, hi = strength.score_interval(199.5, 200, [0, 0, 0, 1, 99])
    assert lo == pytest.approx(strength.wilson(199.5, 200)[0]) and lo < 0.99


@pytest.mark.parametrize("points, pairs", [(120, [5, 15, 40, 20, 20]), (100, [0, 0, 100, 0, 0]),
                                           (200, [0, 0, 0, 0, 100]), (88, [10, 20, 40, 20, 10]),
                                           (60, None)])
def test_p_value_agrees_with_the_interval(points, pairs):
    n = 200
    p = strength.p_value(points, n, pairs)
    for level in (0.9, 0.95, 0.99, 0.995, 0.999):
        lo, hi = strength.score_interval(points, n, pairs, level)
        assert (p < 1 - level) == (lo > 0.5 or hi < 0.5)


def test_holm_matches_a_worked_example():
    # four p-values at 5%: 0.005 < 0.05/4 and 0.01 < 0.05/3 are rejected; 0.03 > 0.05/2
    # stops the procedure, so 0.04 (< 0.05 alone) is not rejected either
    got = strength.holm_levels([0.01, 0.04, 0.03, 0.005])
    assert [r for _, _, r in got] == [True, False, False, True]
    assert [s for s, _, _ in got] == [2, 4, 3, 1]
    assert got[3][1] == pytest.approx(1 - 0.05 / 4) and got[1][1] == pytest.approx(0.95)


def test_verdict_rule():
    O = strength.Outcome
    strong, weak, lost, even = (O(150, 200, (0, 5, 20, 45, 30)), O(112, 200, (5, 20, 40, 20, 15)),
                                O(40, 200, (40, 30, 20, 10, 0)), O(100, 200, (10, 20, 40, 20, 10)))
    (v1, why1, iv1), (v2, why2, _), (v3, why3, _), (v4, _, _) = strength.verdicts([strong, weak, lost, even])
    assert v1 is True and "holds" in why1 and "Holm step" in why1 and iv1[0] > 0.5
    assert v2 is None and "inconclusive" in why2
    assert v3 is False and "does not hold" in why3
    assert v4 is None
    # alone, a modest edge holds at 5%; as the last of a family of ten with nothing else
    # rejected it is judged at 0.5%, and is inconclusive
    modest = O(118, 200, (4, 18, 40, 22, 16))
    assert 0.005 < strength.p_value(modest.points, 200, list(modest.pairs)) < 0.05
    assert strength.verdicts([modest])[0][0] is True
    v, why, _ = strength.verdicts([even] * 9 + [modest])[9]
    assert v is None and "step 1 of 10" in why
    assert score_to_elo(0.5) == 0


def test_power_statement_agrees_with_the_textbook_sample_size():
    # one-sample proportion, p0 = 0.5 against p1 = 0.7, two-sided 5%, power 80%:
    # n = ((1.96*0.5 + 0.8416*sqrt(0.21)) / 0.2)^2 = 46.6, so 47 games (the usual normal-approximation formula)
    assert elo_to_score(strength.detectable_elo(47)) == pytest.approx(0.70, abs=0.003)
    assert strength.detectable_elo(40) > strength.detectable_elo(200) > 0
    assert strength.detectable_elo(200, alpha=0.005) > strength.detectable_elo(200)
    assert 60 < strength.detectable_elo(strength.GAMES[True]) < 80


def test_outcome_counts_pairs_from_the_sides_view():
    games = pd.DataFrame({"player0": ["a", "b", "a", "b", "a"], "score0": [1.0, 1.0, 0.5, 0.0, 1.0],
                          "pair": [0, 0, 1, 1, 2]})
    o, wdl = strength._outcome(games, "a")
    assert o.points == 1 + 0 + 0.5 + 1 + 1 and o.games == 5
    assert wdl == {"wins": 3, "draws": 1, "losses": 1}
    assert o.pairs == (0, 0, 1, 1, 0)  # pair 0: 1 + 0, pair 1: 0.5 + 1; pair 2 incomplete


def test_the_full_run_fits_its_time_box_and_quick_stays_small():
    assert strength.GAMES[True] >= 200
    cpu = {full: strength.GAMES[full] * sum(strength.GAME_CPU_S.values()) for full in (True, False)}
    assert strength.START_S + cpu[True] / 2 <= 60 * 60  # on 2 cores, within the 2-hour reproduce
    assert strength.START_S + cpu[False] / 2 < 90
    assert strength.estimate(True) == pytest.approx(strength.START_S + cpu[True] / (os.cpu_count() or 1))
