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
