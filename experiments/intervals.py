"""Geometric means with bootstrap intervals, and the verdict rule the node-count claims use.

The rule is fixed here, before any data is seen:

* a per-position quantity that should be *below 1* (a paired ratio of nodes, say
  "NegaScout / alpha-beta" on the same position, depth and other switches) is summarised
  by its geometric mean over the suite with a 95% percentile bootstrap interval
  (positions resampled with replacement, ``REPS`` resamples, seeded);
* a claim checked over several settings **holds** only if the interval lies entirely
  below 1 in *every* setting, **does not hold** if it lies entirely above 1 in *any*
  setting, and is **inconclusive** (``None``) otherwise.
"""
from __future__ import annotations

import numpy as np

REPS = 2000
LEVEL = 0.95


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
    """The verdict rule above, on ``(low, high)`` intervals of ratios, one per setting."""
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
