"""Intervals, tests and the verdict rules the node-count claims use, fixed before the data.

**Pre-registered contrasts** (:func:`contrast`, :func:`holm`). A claim "enhancement A
searches fewer nodes than B" is one paired contrast: per position, the ratio
``nodes(A) / nodes(B)`` at the same completed depth. Ratios are compared on the log
scale, where they are close to normal and symmetric: the summary is the geometric mean
with a Student-t 95% interval on the mean log ratio, and the test is a two-sided one-sample
t-test of "mean log ratio = 0". Over the family of contrasts of one experiment the
p-values are Holm-corrected (Holm 1979), so the family-wise error rate is at most 5%. A
contrast **holds** when its Holm-adjusted p is below 0.05 and its geometric mean is below
1, **does not hold** when the adjusted p is below 0.05 and the mean lies above 1, and is
**inconclusive** otherwise.

**Power** (:func:`positions_for_power`). How many positions a contrast needs to detect a
true ratio ``1 - effect`` at 80% power, from the standard deviation of the log ratios in
a pilot, at the Holm level of the family's first step (0.05 / m, the strictest); and its
inverse (:func:`detectable_effect`), the smallest effect a given number of positions detects.

**Shares of a reduction** (:func:`shapley_shares`). Schaeffer (1989) reported how much of
alpha-beta's reduction each enhancement gives. With k switches and all 2^k combinations
measured, each switch's share is its Shapley value (Shapley 1953): its marginal effect on
log nodes averaged over every order of switching the enhancements on, divided by the total
log reduction from none to all. The shares sum to 1 and do not depend on an arbitrary
order. Intervals: percentile bootstrap over positions.

The older helpers (:func:`geo_ci`, :func:`below_one`, :func:`describe`) summarise the
secondary enhancement measurements.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as st

REPS = 2000
LEVEL = 0.95
ALPHA = 0.05
POWER = 0.80


@dataclass(frozen=True)
class Contrast:
    """One paired contrast over positions: geometric mean ratio, its t interval, the raw and
    Holm-adjusted p-values (filled by :func:`holm`), the sample and the standard deviation
    of the log ratios."""

    ratio: float
    lo: float
    hi: float
    p: float
    n: int
    sd_log: float
    p_holm: float = math.nan

    def verdict(self) -> bool | None:
        """The rule of this module: True holds, False does not hold, None inconclusive."""
        if not self.p_holm < ALPHA:
            return None
        return self.ratio < 1

    def text(self) -> str:
        return (f"{self.ratio:.3f} [{self.lo:.3f}, {self.hi:.3f}] (95% t interval on log ratios, "
                f"n={self.n}; p={self.p:.2g}, Holm-adjusted {self.p_holm:.2g})")


def contrast(ratios) -> Contrast:
    """The paired contrast of positive per-position ratios (see the module docstring)."""
    x = np.log(np.asarray(ratios, dtype=float))
    n = len(x)
    if n < 2:
        raise ValueError(f"a contrast needs at least 2 positions, got {n}")
    m, sd = float(x.mean()), float(x.std(ddof=1))
    if sd == 0:
        return Contrast(math.exp(m), math.exp(m), math.exp(m), 0.0 if m else 1.0, n, 0.0)
    half = st.t.ppf((1 + LEVEL) / 2, n - 1) * sd / math.sqrt(n)
    p = float(2 * st.t.sf(abs(m) / (sd / math.sqrt(n)), n - 1))
    return Contrast(math.exp(m), math.exp(m - half), math.exp(m + half), p, n, sd)


def holm(contrasts: dict[str, Contrast]) -> dict[str, Contrast]:
    """The same contrasts with Holm-adjusted p-values over the whole family."""
    keys = sorted(contrasts, key=lambda k: contrasts[k].p)
    m = len(keys)
    out, running = {}, 0.0
    for i, k in enumerate(keys):
        running = max(running, min(1.0, (m - i) * contrasts[k].p))
        c = contrasts[k]
        out[k] = Contrast(c.ratio, c.lo, c.hi, c.p, c.n, c.sd_log, running)
    return {k: out[k] for k in contrasts}


def positions_for_power(sd_log: float, effect: float = 0.05, family: int = 1,
                        power: float = POWER) -> int:
    """Positions a paired t-test needs to detect a true ratio ``1 - effect`` with ``power``
    at the two-sided level ``ALPHA / family``, for log ratios of standard deviation
    ``sd_log`` (iterated on the t distribution's degrees of freedom)."""
    delta = -math.log(1 - effect)
    a = ALPHA / family
    n = 2
    while n < 100_000:
        df = n - 1
        ncp = delta / (sd_log / math.sqrt(n))
        crit = st.t.ppf(1 - a / 2, df)
        if st.nct.sf(crit, df, ncp) >= power:
            return n
        n += 1
    return n


def detectable_effect(sd_log: float, n: int, family: int = 1, power: float = POWER) -> float:
    """The smallest true reduction ``effect`` (ratio ``1 - effect``) that ``n`` positions
    detect with ``power`` at the level ``ALPHA / family``: the inverse of
    :func:`positions_for_power`."""
    if n < 2:
        return math.nan
    df, a = n - 1, ALPHA / family
    crit = st.t.ppf(1 - a / 2, df)
    lo, hi = 0.0, 20.0                       # bisection on the log effect
    for _ in range(60):
        mid = (lo + hi) / 2
        if st.nct.sf(crit, df, mid / (sd_log / math.sqrt(n))) >= power:
            hi = mid
        else:
            lo = mid
    return 1 - math.exp(-hi)


def shapley_shares(log_nodes: dict[tuple[bool, ...], np.ndarray]) -> np.ndarray:
    """Per position, each switch's Shapley value: its part of the log reduction from all-off
    to all-on (the parts sum to the position's reduction). ``log_nodes`` maps a tuple of k
    switch states to per-position log node counts. Returns an array (positions, k)."""
    k = len(next(iter(log_nodes)))
    phi = np.zeros((len(next(iter(log_nodes.values()))), k))
    for order in itertools.permutations(range(k)):
        state = [False] * k
        for j in order:
            before = log_nodes[tuple(state)]
            state[j] = True
            phi[:, j] += before - log_nodes[tuple(state)]
    return phi / math.factorial(k)


def share_ci(phi: np.ndarray, seed: int = 0, reps: int = REPS) -> list[tuple[float, float, float]]:
    """Each switch's share of the mean log reduction (mean part / mean total, so positions
    that barely change do not blow up) with a 95% percentile bootstrap interval over
    positions; nan when the grid reduces nothing."""
    def shares(x: np.ndarray) -> np.ndarray:
        total = x.sum(axis=-1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(total != 0, x / total, np.nan)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(phi), size=(reps, len(phi)))
    boots = shares(phi[idx].mean(axis=1))
    lo, hi = np.quantile(boots, [(1 - LEVEL) / 2, (1 + LEVEL) / 2], axis=0)
    return [(float(m), float(a), float(b)) for m, a, b in zip(shares(phi.mean(axis=0)), lo, hi)]


def geo_ci(values, seed: int = 0, reps: int = REPS) -> tuple[float, float, float]:
    """Geometric mean of positive ``values`` and its 95% percentile bootstrap interval."""
    x = np.log(np.asarray(values, dtype=float))
    if len(x) == 0:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    boots = x[rng.integers(0, len(x), size=(reps, len(x)))].mean(axis=1)
    lo, hi = np.quantile(boots, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
    return float(np.exp(x.mean())), float(np.exp(lo)), float(np.exp(hi))


def mean_ci(values, seed: int = 0, reps: int = REPS) -> tuple[float, float, float]:
    """Arithmetic mean and its 95% percentile bootstrap interval (for rates)."""
    x = np.asarray(values, dtype=float)
    if len(x) == 0:
        return float("nan"), float("nan"), float("nan")
    rng = np.random.default_rng(seed)
    boots = x[rng.integers(0, len(x), size=(reps, len(x)))].mean(axis=1)
    lo, hi = np.quantile(boots, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
    return float(x.mean()), float(lo), float(hi)


def below_one(intervals: list[tuple[float, float]]) -> bool | None:
    """Secondary measurements: holds when every setting's interval lies below 1, fails when
    any lies above 1, else inconclusive."""
    if not intervals:
        return None
    if any(lo > 1 for lo, _ in intervals):
        return False
    if all(hi < 1 for _, hi in intervals):
        return True
    return None


def describe(intervals: dict[str, tuple[float, float, float]]) -> str:
    """``n below / n above / n straddling 1`` plus the extreme settings, for the claims table."""
    below = sum(hi < 1 for _, _, hi in intervals.values())
    above = sum(lo > 1 for _, lo, _ in intervals.values())
    parts = [f"{below} of {len(intervals)} settings below 1, {above} above, "
             f"{len(intervals) - below - above} straddle"]
    if intervals:
        lo_k = min(intervals, key=lambda k: intervals[k][0])      # smallest geometric mean
        hi_k = max(intervals, key=lambda k: intervals[k][0])      # largest
        for k in dict.fromkeys((lo_k, hi_k)):
            g, lo, hi = intervals[k]
            parts.append(f"{k}: {g:.2f} [{lo:.2f}, {hi:.2f}]")
    return "; ".join(parts)


# ---------------------------------------------------------------------------------------
# Verdicts a referee signs: four classes, the claimed effect, equivalence, robust methods.
# Written before the data they judge (the full run that follows this code).
# ---------------------------------------------------------------------------------------

HOLDS, FAILS, EQUIVALENT, INCONCLUSIVE, NOT_JUDGED = (
    "holds", "does not hold", "equivalent", "inconclusive", "not judged")
#: every verdict a claim can carry, in the order the results page lists them
VERDICTS = (HOLDS, FAILS, EQUIVALENT, INCONCLUSIVE, NOT_JUDGED)
#: the equivalence margin of a node-count contrast, fixed before any data: two
#: configurations whose nodes differ by less than 3% either way are "equivalent" (a
#: searcher gains less than a hundredth of a ply from 3% at an effective branching factor
#: of 3 or more; no source claims an effect that small)
EQUIV_MARGIN = 0.03
#: paired bootstrap resamples (BCa intervals, scipy.stats.bootstrap)
BOOT_REPS = 4000


@dataclass(frozen=True)
class Rule:
    """What a node-count claim says, fixed before the data: the ratio it claims (at most
    ``claimed``: 1.0 for "fewer", 0.95 for "at least 5% fewer") and the equivalence margin
    (a ratio within ``[1/(1+margin), 1+margin]`` is no difference worth the name)."""

    claimed: float = 1.0
    margin: float = EQUIV_MARGIN


@dataclass(frozen=True)
class Judged:
    """One judged paired contrast (see :func:`judge`). Ratios are geometric means; the
    ``*_lo``/``*_hi`` pairs are 95% intervals (t and BCa paired bootstrap) for reading,
    ``level`` is the confidence at which the verdict was taken (Holm's step level)."""

    key: str
    ratio: float
    lo: float
    hi: float
    boot_lo: float
    boot_hi: float
    n: int
    sd_log: float
    skew: float
    p: float            # two-sided t-test of ratio = 1
    p_wilcoxon: float   # Wilcoxon signed-rank test of median log ratio = 0
    p_holm: float
    level: float
    step: int
    family_size: int
    claimed: float
    margin: float
    detectable: float   # smallest reduction n detects at 80% power, observed spread, strictest level
    verdict_t: str
    verdict_boot: str
    verdict: str
    family: str = ""

    def text(self) -> str:
        claim = (f"claimed ratio <= {self.claimed:.2f}" if self.claimed < 1 else "claimed ratio < 1")
        note = "" if self.verdict_t == self.verdict_boot else \
            f" (t says {self.verdict_t}, bootstrap says {self.verdict_boot}: inconclusive)"
        return (f"{self.ratio:.3f} [{self.lo:.3f}, {self.hi:.3f}] (95% t interval on log ratios, n={self.n}; "
                f"paired bootstrap [{self.boot_lo:.3f}, {self.boot_hi:.3f}]; p={self.p:.2g}, Wilcoxon "
                f"p={self.p_wilcoxon:.2g}, Holm-adjusted {self.p_holm:.2g}, step {self.step} of "
                f"{self.family_size} in family '{self.family}', judged at {self.level:.2%}); {claim}, "
                f"equivalence margin +-{self.margin:.0%}; observed sd of log ratios {self.sd_log:.3f} "
                f"(skew {self.skew:.1f}): {self.n} positions detect a true {self.detectable:.1%} "
                f"reduction at 80% power at the strictest Holm level{note}")

    def interval_text(self) -> str:
        return f"{self.ratio:.3f} [{self.lo:.3f}, {self.hi:.3f}]"


def classify(lo: float, hi: float, lo2: float, hi2: float, rule: Rule) -> str:
    """The verdict of one interval on the log ratio, by the pre-registered rule:

    * **equivalent** when the interval at twice the error rate (``lo2``, ``hi2``: TOST,
      two one-sided tests at the judging level) lies within the margin;
    * **holds** when the interval lies wholly below 0 (a reduction is shown) and does not
      exclude the claimed ratio (its lower end at or below ``log(claimed)``);
    * **does not hold** when the interval lies wholly above ``log(claimed)``: the claimed
      effect is excluded (for "fewer", the interval is wholly above 1; for "at least 5%
      fewer", the reduction is smaller than 5% if there is one);
    * **inconclusive** otherwise.
    """
    band = math.log1p(rule.margin)
    if -band < lo2 and hi2 < band:
        return EQUIVALENT
    claim = math.log(rule.claimed)
    if lo > claim:
        return FAILS
    if hi < 0:
        return HOLDS
    return INCONCLUSIVE


def _t_interval(x: np.ndarray, level: float) -> tuple[float, float]:
    m, se = float(x.mean()), float(x.std(ddof=1)) / math.sqrt(len(x))
    if se == 0:
        return m, m
    half = st.t.ppf((1 + level) / 2, len(x) - 1) * se
    return m - half, m + half


def _boot_interval(x: np.ndarray, level: float, seed: int) -> tuple[float, float]:
    """BCa interval of the mean log ratio, resampling positions (the pairs stay together);
    the percentile interval when BCa is undefined (all resamples alike)."""
    if float(x.std()) == 0:
        return float(x.mean()), float(x.mean())
    rng = np.random.default_rng(seed)
    for method in ("BCa", "percentile"):
        with np.errstate(all="ignore"):
            r = st.bootstrap((x,), np.mean, confidence_level=level, n_resamples=BOOT_REPS,
                             method=method, random_state=rng)
        lo, hi = float(r.confidence_interval.low), float(r.confidence_interval.high)
        if math.isfinite(lo) and math.isfinite(hi):
            return lo, hi
    return math.nan, math.nan


def judge(family: str, ratios: dict[str, tuple], seed: int = 0) -> dict[str, Judged]:
    """Judge a family of paired contrasts together. ``ratios`` maps each contrast's key to
    ``(per-position ratios, Rule)``. The rule, fixed before the data:

    1. per contrast, the log ratios' mean, a two-sided t-test against 0 and a Wilcoxon
       signed-rank test (reported beside it);
    2. Holm (1979) over the family orders the contrasts by their t p-value; the contrast
       at step ``k`` of ``m`` is judged at the level ``1 - 0.05 / (m - k + 1)``;
    3. at that level a t interval and a BCa paired bootstrap interval of the mean log ratio
       are each classified by :func:`classify` (the TOST intervals at twice the error);
    4. the verdict is their common class; when t and bootstrap disagree it is
       **inconclusive** (a skewed spread must not decide a verdict through the t
       interval alone).
    """
    prepared = {}
    for key, (values, rule) in ratios.items():
        x = np.log(np.asarray(values, dtype=float))
        if len(x) < 3:
            raise ValueError(f"{key}: a contrast needs at least 3 positions, got {len(x)}")
        sd = float(x.std(ddof=1))
        if sd == 0:
            p = 0.0 if x.mean() else 1.0
            pw = p
        else:
            p = float(st.ttest_1samp(x, 0.0).pvalue)
            pw = float(st.wilcoxon(x).pvalue) if np.any(x != 0) else 1.0
        prepared[key] = (x, rule, sd, p, pw)
    m = len(prepared)
    order = sorted(prepared, key=lambda k: prepared[k][3])
    out, running = {}, 0.0
    for i, key in enumerate(order):
        x, rule, sd, p, pw = prepared[key]
        running = max(running, min(1.0, (m - i) * p))
        alpha = ALPHA / (m - i)
        level = 1 - alpha
        t = _t_interval(x, level), _t_interval(x, 1 - 2 * alpha)
        b = (_boot_interval(x, level, seed + i), _boot_interval(x, 1 - 2 * alpha, seed + i))
        vt = classify(*t[0], *t[1], rule)
        vb = classify(*b[0], *b[1], rule) if all(map(math.isfinite, (*b[0], *b[1]))) else INCONCLUSIVE
        lo95, hi95 = _t_interval(x, LEVEL)
        blo, bhi = _boot_interval(x, LEVEL, seed + i)
        out[key] = Judged(
            key=key, ratio=math.exp(x.mean()), lo=math.exp(lo95), hi=math.exp(hi95),
            boot_lo=math.exp(blo), boot_hi=math.exp(bhi), n=len(x), sd_log=sd,
            skew=float(st.skew(x)) if sd else 0.0, p=p, p_wilcoxon=pw, p_holm=running,
            level=level, step=i + 1, family_size=m, claimed=rule.claimed, margin=rule.margin,
            detectable=detectable_effect(max(sd, 1e-9), len(x), m), verdict_t=vt, verdict_boot=vb,
            verdict=vt if vt == vb else INCONCLUSIVE, family=family)
    return {k: out[k] for k in ratios}


def holds_of(verdict: str) -> bool | None:
    """The old three-valued field of a claim (True holds, False does not hold or is
    equivalent where a difference was claimed, None otherwise)."""
    return {HOLDS: True, FAILS: False, EQUIVALENT: False}.get(verdict)


#: Schaeffer's "almost all": history and TT together give at least this fraction of the
#: reduction of all enhancements together (fixed before the data)
ALMOST_ALL = 0.9


def schaeffer_fractions(n_none, n_ht, n_all) -> tuple[np.ndarray, np.ndarray, int]:
    """Schaeffer's (1989) own measure per position: the reduction history + TT give divided
    by the reduction all enhancements give, in nodes ``(N0 - Nht) / (N0 - Nall)`` and in
    log nodes ``(log N0 - log Nht) / (log N0 - log Nall)``. Positions where all the
    enhancements together reduce nothing are dropped (counted)."""
    n0, nh, na = (np.asarray(v, dtype=float) for v in (n_none, n_ht, n_all))
    keep = n0 > na
    nodes = (n0[keep] - nh[keep]) / (n0[keep] - na[keep])
    logs = (np.log(n0[keep]) - np.log(nh[keep])) / (np.log(n0[keep]) - np.log(na[keep]))
    return nodes, logs, int((~keep).sum())


@dataclass(frozen=True)
class Fraction:
    """A mean fraction with its 95% t and bootstrap intervals and the intervals at the
    judging level."""

    mean: float
    lo: float
    hi: float
    boot_lo: float
    boot_hi: float
    judge_lo: float
    judge_hi: float
    level: float
    n: int

    def text(self, pct: bool = False) -> str:
        f = (lambda v: f"{v:.1%}") if pct else (lambda v: f"{v:.3f}")
        return (f"{f(self.mean)} [{f(self.lo)}, {f(self.hi)}] (95% t; bootstrap [{f(self.boot_lo)}, "
                f"{f(self.boot_hi)}]; n={self.n})")


def fraction(values, level: float, seed: int = 0) -> Fraction:
    """Mean of per-position fractions with 95% intervals and, for the verdict, the more
    conservative of the t and BCa bootstrap intervals at ``level``."""
    x = np.asarray(values, dtype=float)
    if len(x) < 3:
        nan = math.nan
        return Fraction(float(x.mean()) if len(x) else nan, nan, nan, nan, nan, nan, nan, level, len(x))
    lo, hi = _t_interval(x, LEVEL)
    blo, bhi = _boot_interval(x, LEVEL, seed)
    jt, jb = _t_interval(x, level), _boot_interval(x, level, seed)
    return Fraction(float(x.mean()), lo, hi, blo, bhi, min(jt[0], jb[0]), max(jt[1], jb[1]), level, len(x))


def schaeffer_verdict(f: Fraction, threshold: float = ALMOST_ALL) -> str:
    """Holds when the judging interval (the union of t and bootstrap at Bonferroni's level
    over the games) lies wholly at or above ``threshold``, does not hold when wholly
    below it, else inconclusive; not judged below 3 positions."""
    if f.n < 3:
        return NOT_JUDGED
    if f.judge_lo >= threshold:
        return HOLDS
    if f.judge_hi < threshold:
        return FAILS
    return INCONCLUSIVE
