"""The forest plot of a family of paired contrasts: per contrast, every position's log
ratio (a dot), the geometric mean with its 95% t interval (a bar), the claimed ratio and
the equivalence band; one panel per Holm family."""
from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

COLOUR = {"holds": "tab:green", "does not hold": "tab:red", "equivalent": "tab:blue",
          "inconclusive": "tab:gray", "not judged": "k"}


def forest_figure(ratios: dict[str, np.ndarray], judged: dict, title: str):
    """``ratios``: contrast key -> per-position ratios; ``judged``: key -> Judged."""
    keys = list(ratios)
    fig, ax = plt.subplots(figsize=(8, 0.42 * len(keys) + 1.4))
    rng = np.random.default_rng(0)
    for y, k in enumerate(reversed(keys)):
        x = np.log2(np.asarray(ratios[k], dtype=float))
        ax.scatter(x, y + rng.uniform(-0.15, 0.15, len(x)), s=6, color="0.6", zorder=1)
        j = judged[k]
        c = COLOUR.get(j.verdict, "k")
        ax.plot([math.log2(j.lo), math.log2(j.hi)], [y, y], color=c, lw=2.5, zorder=2)
        ax.plot([math.log2(j.ratio)], [y], "o", color=c, zorder=3)
        if j.claimed < 1:
            ax.plot([math.log2(j.claimed)], [y], "|", color="k", ms=12, zorder=3)
        band = math.log2(1 + j.margin)
        ax.fill_betweenx([y - 0.35, y + 0.35], -band, band, color="tab:blue", alpha=0.08, lw=0)
    ax.axvline(0, color="k", lw=0.8)
    ax.set_yticks(range(len(keys)))
    ax.set_yticklabels([f"{k} ({judged[k].verdict})" for k in reversed(keys)], fontsize=7)
    ax.set_xlabel("log2 ratio per position (dots); geometric mean, 95% t interval (bar); "
                  "| claimed ratio; shaded: equivalence band", fontsize=7)
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig
