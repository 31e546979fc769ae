"""The strength experiment's statistics: Wilson intervals against published figures, the
power statement against the textbook sample-size formula, and the verdict rule."""
import pytest

from gameai.commands.reproduce import experiments_package
from gameai.tournament.stats import elo_to_score, score_to_elo

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


def test_power_statement_agrees_with_the_textbook_sample_size():
    # one-sample proportion, p0 = 0.5 against p1 = 0.7, two-sided 5%, power 80%:
    # n = ((1.96*0.5 + 0.8416*sqrt(0.21)) / 0.2)^2 = 46.6, so 47 games (the usual normal-approximation formula)
    assert elo_to_score(strength.detectable_elo(47)) == pytest.approx(0.70, abs=0.003)
    assert strength.detectable_elo(40) > strength.detectable_elo(120) > 0


def test_verdict_rule():
    assert strength.verdict((0.55, 0.8), [0.6, 0.7, 0.65])[0] is True
    assert strength.verdict((0.2, 0.45), [0.3, 0.2, 0.4])[0] is False
    v, why = strength.verdict((0.55, 0.8), [0.6, 0.45, 0.9])
    assert v is None and "unstable" in why
    assert strength.verdict((0.4, 0.7), [0.6, 0.6, 0.6])[0] is None
    assert score_to_elo(0.5) == 0
