"""The verdict rules of experiments.intervals: four classes and "not judged", the claimed
effect, equivalence (TOST), robust methods beside t, Holm's levels, Schaeffer's measure."""
import math

import numpy as np
import pytest
from scipy import stats

from experiments import intervals as iv


def _ratios(mean_log, sd, n, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, n)
    x = (x - x.mean()) / x.std(ddof=1) * sd + mean_log       # exactly this mean and sd
    return np.exp(x)


def test_judge_reports_scipys_t_wilcoxon_and_a_bootstrap_of_the_mean_log_ratio():
    r = _ratios(-0.1, 0.2, 30, seed=1)
    j = iv.judge("f", {"a": (r, iv.Rule())})["a"]
    x = np.log(r)
    assert j.p == pytest.approx(stats.ttest_1samp(x, 0).pvalue)
    assert j.p_wilcoxon == pytest.approx(stats.wilcoxon(x).pvalue)
    lo, hi = stats.ttest_1samp(x, 0).confidence_interval(0.95)
    assert (j.lo, j.hi) == pytest.approx((math.exp(lo), math.exp(hi)))
    assert j.boot_lo < j.ratio < j.boot_hi
    assert j.sd_log == pytest.approx(0.2) and j.n == 30 and j.family == "f"
    # the detectable effect comes from the observed spread, not from a pilot's
    assert j.detectable == pytest.approx(iv.detectable_effect(0.2, 30, 1))


@pytest.mark.parametrize("mean_log, sd, claimed, expected", [
    (math.log(0.80), 0.10, 1.00, iv.HOLDS),          # a clear reduction
    (math.log(0.90), 0.05, 0.95, iv.HOLDS),          # as large as claimed
    (math.log(0.965), 0.01, 0.95, iv.FAILS),         # real but smaller than the claimed 5%
    (math.log(1.20), 0.10, 1.00, iv.FAILS),          # the other way
    (math.log(1.00), 0.01, 1.00, iv.EQUIVALENT),     # within +-3% for sure
    (math.log(0.97), 0.40, 1.00, iv.INCONCLUSIVE),   # too noisy to say
])
def test_the_four_classes(mean_log, sd, claimed, expected):
    j = iv.judge("f", {"a": (_ratios(mean_log, sd, 40), iv.Rule(claimed))})["a"]
    assert j.verdict == expected, j.text()


def test_equivalence_is_tost_at_twice_the_error_and_needs_the_whole_interval_in_the_margin():
    band = math.log1p(iv.EQUIV_MARGIN)
    rule = iv.Rule()
    assert iv.classify(-0.5, 0.5, -band / 2, band / 2, rule) == iv.EQUIVALENT
    assert iv.classify(-0.5, 0.5, -band / 2, band * 1.01, rule) == iv.INCONCLUSIVE


def test_holm_judges_step_k_of_m_at_one_minus_alpha_over_m_minus_k_plus_one():
    fam = {k: (_ratios(m, 0.2, 20, seed=i), iv.Rule()) for i, (k, m) in
           enumerate({"a": -0.3, "b": -0.2, "c": -0.01, "d": 0.4}.items())}
    js = iv.judge("f", fam)
    steps = sorted(js.values(), key=lambda j: j.step)
    assert [j.step for j in steps] == [1, 2, 3, 4]
    assert [j.level for j in steps] == pytest.approx([1 - 0.05 / 4, 1 - 0.05 / 3, 1 - 0.05 / 2, 0.95])
    assert [j.p for j in steps] == sorted(j.p for j in steps)
    assert all(j.family_size == 4 for j in steps)


def test_a_skewed_sample_that_t_and_bootstrap_judge_apart_is_inconclusive():
    # one huge outlier: the t interval is wide, the bootstrap is not
    found = None
    for k in range(1, 40):
        r = np.exp(np.r_[np.full(11, -0.05) + np.linspace(-0.01, 0.01, 11), [k * 0.1]])
        j = iv.judge("f", {"a": (r, iv.Rule())})["a"]
        if j.verdict_t != j.verdict_boot:
            found = j
            break
    assert found is not None
    assert found.verdict == iv.INCONCLUSIVE and "inconclusive" in found.text()


def test_holds_of_keeps_the_old_three_valued_field():
    assert iv.holds_of(iv.HOLDS) is True
    assert iv.holds_of(iv.FAILS) is False and iv.holds_of(iv.EQUIVALENT) is False
    assert iv.holds_of(iv.INCONCLUSIVE) is None and iv.holds_of(iv.NOT_JUDGED) is None


def test_schaeffers_measure_in_nodes_and_in_log_nodes():
    nodes, logs, dropped = iv.schaeffer_fractions([1000, 50, 100], [100, 60, 10], [10, 60, 1])
    # position 1: 900 / 990 of the node reduction, log 10 / log 100 = half the log reduction
    assert nodes[0] == pytest.approx(900 / 990) and logs[0] == pytest.approx(0.5)
    assert dropped == 1                        # all the enhancements together reduce nothing
    assert nodes[1] == pytest.approx(90 / 99) and logs[1] == pytest.approx(0.5)


def test_the_schaeffer_rule_judges_the_interval_against_almost_all():
    high = iv.fraction(np.full(10, 0.98) + np.linspace(-0.01, 0.01, 10), 1 - 0.05 / 3)
    low = iv.fraction(np.full(10, 0.6) + np.linspace(-0.01, 0.01, 10), 1 - 0.05 / 3)
    wide = iv.fraction(np.linspace(0.5, 1.3, 10), 1 - 0.05 / 3)
    assert iv.schaeffer_verdict(high) == iv.HOLDS
    assert iv.schaeffer_verdict(low) == iv.FAILS
    assert iv.schaeffer_verdict(wide) == iv.INCONCLUSIVE
    assert high.judge_lo <= min(high.lo, high.boot_lo) + 1e-9 or high.level > 0.95
