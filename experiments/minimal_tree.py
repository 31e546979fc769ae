"""Minimal tree: alpha-beta and NegaScout leaf counts on synthetic uniform trees.

The counts with perfect and with worst ordering are identities of these trees (Knuth &
Moore's ``B^ceil(D/2) + B^floor(D/2) - 1`` leaves, and ``B^D``): tests/test_minimal_tree.py
asserts them against the formulas, and claims.json carries them as one summary line, not as
findings. The finding is random ordering against Pearl's asymptotic branching factor
``R = xi/(1-xi)``, ``xi`` the positive root of ``x^B + x - 1 = 0`` (proved for independent
leaf values; these trees have nested ones), reported as a finding without a verdict.

**Pearl on Pearl's trees.** R is a limit as depth grows, proved for independent,
identically distributed leaf values. :func:`iid_leaves` searches uniform trees whose
leaves are i.i.d. uniform (so any fixed order is a random one) as deep as the budget
allows (:data:`PEARL_IID`), and :func:`per_ply` follows the local per-ply factor
over the last six plies (the slope of log leaves against depth over D-6, ..., D) in depth,
with 95% intervals over independent trees. The rule,
fixed before the data (:func:`pearl_verdict`): holds when the deepest factor's interval
lies within a factor 1.05 of R, does not hold when it lies outside and moves away from R,
and is otherwise "not judged" (not testable here: the limit is not reached at feasible
depths), with the trend shown in ``pearl_iid.png``.

Quick: B in 2..40 and D in 1..8 wherever the tree has at most ~250k leaves for the
searched ordering. ``--full``: up to ~6M leaves per cell (B=40, D=8 included).
"""
from __future__ import annotations

import math
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator
import pandas as pd

import gameai

from ._common import Claim, Results, cli, command_for, source
from .check import MAX_NODES, Recount
from .parallel import pmap

NAME = "minimal_tree"
BRANCHING = (2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 40)
DEPTHS = range(1, 9)


def minimal_leaves(b: int, d: int) -> int:
    """Knuth & Moore: leaves of the minimal tree of a uniform (b, d) tree."""
    return b ** math.ceil(d / 2) + b ** (d // 2) - 1


def pearl_xi(b: int) -> float:
    """Positive root of x^b + x - 1 = 0 (bisection: the function is increasing on [0, 1])."""
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if mid ** b + mid - 1 > 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def pearl_r(b: int) -> float:
    """Pearl's asymptotic branching factor of alpha-beta on uniform trees of branching b."""
    xi = pearl_xi(b)
    return xi / (1 - xi)


# The verdict rule of the Pearl row, fixed before the data: the tolerance of
# branching_factor's "about 40", a factor 1.25 either way.
PEARL_TOLERANCE = 1.25


def near_pearl(bf: float, b: int) -> bool:
    """Whether a measured per-ply factor agrees with Pearl's R for branching b: within a
    factor PEARL_TOLERANCE of it. The row holds when every B's factor at its deepest
    searched depth does, and does not hold otherwise."""
    r = pearl_r(b)
    return r / PEARL_TOLERANCE <= bf <= r * PEARL_TOLERANCE


def identities_hold(df: pd.DataFrame) -> dict[str, tuple[int, int]]:
    """Per identity, (cells that meet it, cells where it applies): best order gives the
    Knuth-Moore count to alpha-beta and to NegaScout, worst order gives B^D."""
    worst = df.dropna(subset=["ab_worst"]) if "ab_worst" in df else df.iloc[0:0]
    return {"alpha-beta best order = Knuth-Moore": (int((df.ab_best == df.minimal_formula).sum()), len(df)),
            "NegaScout best order = Knuth-Moore": (int((df.ns_best == df.minimal_formula).sum()), len(df)),
            "alpha-beta worst order = B^D": (int((worst.ab_worst == worst.full_tree).sum()), len(worst))}


def _leaves(searcher: str, b: int, d: int, ordering, seed: int) -> tuple[int, int]:
    state = gameai.load_game(f"synthetic(branching={b},depth={d},seed={seed},ordering={ordering})")
    r = gameai.make_searcher(f"{searcher}(depth={d})").search(state)
    return r.stats.leaves, r.stats.nodes


def _cell(b: int, d: int, seed: int, cap: int, random_seeds: tuple[int, ...]) -> dict:
    """One (B, D) row: best, worst and random orderings (worst and random only where the
    full tree fits under ``cap``). A pure function of its arguments: one parallel job."""
    row = {"branching": b, "depth": d, "minimal_formula": minimal_leaves(b, d),
           "full_tree": b ** d, "pearl_R": pearl_r(b)}
    row["ab_best"], row["ab_best_nodes"] = _leaves("alphabeta", b, d, "best", seed)
    row["ns_best"], _ = _leaves("negascout", b, d, "best", seed)
    if b ** d <= cap:
        row["ab_worst"], _ = _leaves("alphabeta", b, d, "worst", seed)
        ab, ns = [], []
        for s in random_seeds:
            ab.append(_leaves("alphabeta", b, d, "random", s)[0])
            ns.append(_leaves("negascout", b, d, "random", s)[0])
        row["ab_random"] = float(np.mean(ab))
        row["ns_random"] = float(np.mean(ns))
        row["ab_random_bf"] = row["ab_random"] ** (1 / d)
        row["ab_random_bf_min"] = min(ab) ** (1 / d)     # the spread over random trees
        row["ab_random_bf_max"] = max(ab) ** (1 / d)
        row["random_trees"] = len(ab)
    return row


# --- Pearl (1982) on Pearl's trees: independent, identically distributed leaf values -------

_MASK = (1 << 64) - 1


def _uniform(seed: int, index: int) -> float:
    """A leaf value in [0, 1): splitmix64 of (seed, leaf index), independent across leaves."""
    z = (seed * 0x9E3779B97F4A7C15 + index + 1) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return ((z ^ (z >> 31)) >> 11) / float(1 << 53)


def iid_leaves(b: int, d: int, seed: int) -> tuple[float, int]:
    """Alpha-beta (negamax, fail-hard, the algorithm Pearl analysed) on the uniform tree of
    branching ``b`` and depth ``d`` whose leaf values are i.i.d. uniform on [0, 1) from the
    first player's side: (root value, leaves evaluated). Children are searched in index
    order; with i.i.d. values that is a random order. Written here, apart from the library's
    synthetic game, whose values are nested (correlated) so that best and worst orderings
    can be made exactly."""
    count = 0

    def negamax(depth: int, index: int, alpha: float, beta: float, sign: int) -> float:
        nonlocal count
        if depth == 0:
            count += 1
            return sign * _uniform(seed, index)
        for i in range(b):
            v = -negamax(depth - 1, index * b + i, -beta, -alpha, -sign)
            if v >= beta:
                return beta
            if v > alpha:
                alpha = v
        return alpha

    v = negamax(d, 0, -2.0, 2.0, 1)
    return v, count


#: Pearl on i.i.d. trees, per setting: branching factors, trees per (B, D) cell, and the
#: largest expected leaf count R^D a cell may have (depths go as deep as that allows)
PEARL_IID = {False: {"branching": (2, 3, 5, 10), "trees": 8, "cap": 20_000},
             True: {"branching": (2, 3, 4, 5, 8, 10, 20, 40), "trees": 20, "cap": 200_000}}
#: seconds per leaf of :func:`iid_leaves` (measured: 9,269 leaves in 0.016 s), and leaves
#: per R^D at these depths (about 2.5; the constant before Pearl's rate)
SECONDS_PER_IID_LEAF, IID_LEAVES_PER_RD = 1.8e-6, 3.0
#: the pre-registered band: "the per-ply factor is R" when its 95% interval lies within a
#: factor 1.05 of R
PEARL_BAND = 1.05


def pearl_cells(full: bool) -> list[tuple[int, int]]:
    cfg = PEARL_IID[full]
    return [(b, d) for b in cfg["branching"] for d in range(2, 64) if pearl_r(b) ** d <= cfg["cap"]]


def _iid_cell(b: int, d: int, seeds: tuple[int, ...]) -> dict:
    logs = [math.log(iid_leaves(b, d, s)[1]) for s in seeds]
    return {"branching": b, "depth": d, "trees": len(seeds), "mean_log_leaves": float(np.mean(logs)),
            "sd_log_leaves": float(np.std(logs, ddof=1)), "pearl_R": pearl_r(b)}


#: the local per-ply factor at depth D is fitted over the depths D, D-2, ..., D-SPAN (the
#: same parity at both ends, so the side that moves last is the same)
SPAN = 6


def per_ply(iid: pd.DataFrame) -> pd.DataFrame:
    """The local per-ply factor at each depth D: ``exp`` of the least-squares slope of the
    mean log leaves against depth over D-SPAN, ..., D-2, D (independent trees at every
    depth; at least two depths), with a 95% normal interval from the depths' spreads."""
    rows = []
    for b, g in iid.groupby("branching"):
        g = g.set_index("depth")
        for d in g.index:
            ds = [x for x in range(d - SPAN, d + 1, 2) if x in g.index]
            if len(ds) < 2:
                continue
            x = np.array(ds, dtype=float)
            y = g.loc[ds, "mean_log_leaves"].to_numpy()
            var = (g.loc[ds, "sd_log_leaves"].to_numpy() ** 2) / g.loc[ds, "trees"].to_numpy()
            dx = x - x.mean()
            slope = float((dx * y).sum() / (dx ** 2).sum())
            se = float(math.sqrt((dx ** 2 * var).sum()) / (dx ** 2).sum())
            rows.append({"branching": b, "depth": d, "depths_fitted": len(ds), "factor": math.exp(slope),
                         "lo": math.exp(slope - 1.96 * se), "hi": math.exp(slope + 1.96 * se),
                         "pearl_R": pearl_r(int(b))})
    return pd.DataFrame(rows)


def pearl_verdict(trend: pd.DataFrame) -> tuple[str, str]:
    """The pre-registered rule for one branching factor's trend (rows by depth):

    * **holds** when at the deepest depth the factor's 95% interval lies within a factor
      ``PEARL_BAND`` of R;
    * **does not hold** when it lies wholly outside that band and the factor moved away
      from R at each step over the last four plies (depths D-4, D-2, D: not approaching);
    * otherwise **not judged**: R is a limit in depth, and at the depths feasible here the
      factor has not reached it (the trend is shown)."""
    t = trend.sort_values("depth")
    if t.empty:
        return "not judged", "no two depths of the same parity"
    last = t.iloc[-1]
    r = last.pearl_R
    if r / PEARL_BAND <= last.lo and last.hi <= r * PEARL_BAND:
        return "holds", "within the band at the deepest depth"
    outside = last.hi < r / PEARL_BAND or last.lo > r * PEARL_BAND
    by_depth = t.set_index("depth").factor
    d = int(last.depth)
    if outside and d - 2 in by_depth.index and d - 4 in by_depth.index:
        gap = [abs(math.log(by_depth[x] / r)) for x in (d - 4, d - 2, d)]
        if gap[0] < gap[1] < gap[2]:
            return "does not hold", "outside the band and moving away from R over the last four plies"
    return "not judged", "not within the band at feasible depths"


# seconds per leaf of _cell's searches, measured serially on (B, D) = (8, 5), (20, 4), (3, 8)
# on the 2-core reference machine (7.1e-6), for estimate()
SECONDS_PER_LEAF = 7.1e-6
WORKER_START_S = 5.0


def _cells(full: bool, seed: int) -> tuple[int, range, list[tuple[int, int]], list[tuple[int, int]]]:
    """The setting: leaf cap, random-tree seeds, the (B, D) cells searched and those the
    synthetic game cannot represent."""
    cap = 6_000_000 if full else 250_000
    random_seeds = range(seed, seed + (5 if full else 2))
    cells, unrepresentable = [], []
    for b in BRANCHING:
        for d in DEPTHS:
            if minimal_leaves(b, d) <= cap:
                try:
                    gameai.load_game(f"synthetic(branching={b},depth={d},seed={seed},ordering=best)")
                except gameai.SpecError:
                    unrepresentable.append((b, d))
                    continue
                cells.append((b, d))
    return cap, random_seeds, cells, unrepresentable


def estimate(full: bool) -> float:
    """Wall seconds: the leaves searched (the minimal tree twice, the whole tree once, and
    Pearl's R^D per random tree and searcher) times the measured cost of a leaf, shared by
    the local cores."""
    cap, random_seeds, cells, _ = _cells(full, 1)
    leaves = sum(2 * minimal_leaves(b, d) + (b ** d + 2 * len(random_seeds) * pearl_r(b) ** d
                                             if b ** d <= cap else 0) for b, d in cells)
    iid = sum(IID_LEAVES_PER_RD * pearl_r(b) ** d * PEARL_IID[full]["trees"] for b, d in pearl_cells(full))
    return WORKER_START_S + (leaves * SECONDS_PER_LEAF + iid * SECONDS_PER_IID_LEAF) / (os.cpu_count() or 1)


def run(full: bool = False, seed: int = 1, out=None) -> list[Claim]:
    res = Results(NAME, out)
    cap, random_seeds, cells, unrepresentable = _cells(full, seed)
    rows = list(pmap(_cell, [(b, d, seed, cap, tuple(random_seeds)) for b, d in cells], desc=NAME, unit="tree"))
    df = pd.DataFrame(rows)
    res.table(df)

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    ax = axes[0]
    for b in (2, 4, 8, 16, 40):
        sub = df[df.branching == b]
        if sub.empty:
            continue
        line, = ax.semilogy(sub.depth, sub.ab_best, "o", label=f"B={b} alpha-beta, best order")
        ax.semilogy(sub.depth, sub.minimal_formula, "-", color=line.get_color(), alpha=0.6)
        if "ab_worst" in sub:
            w = sub.dropna(subset=["ab_worst"])
            ax.semilogy(w.depth, w.ab_worst, "x", color=line.get_color())
    ax.set_xlabel("depth D")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylabel("leaves")
    ax.set_title("Alpha-beta leaves by depth (dots: best order, x: worst order)\n"
                 "lines: Knuth & Moore 1975, An analysis of alpha-beta pruning", fontsize=9)
    ax.legend(fontsize=7)
    ax = axes[1]
    if "ab_random_bf" in df:
        deepest = df.dropna(subset=["ab_random_bf"]).sort_values(["branching", "depth"]).groupby("branching").tail(1)
        ax.errorbar(deepest.branching, deepest.ab_random_bf,
                    yerr=[deepest.ab_random_bf - deepest.ab_random_bf_min,
                          deepest.ab_random_bf_max - deepest.ab_random_bf],
                    fmt="o-", capsize=3,
                    label=f"measured leaves^(1/D), random order, deepest D\n(mean of {len(random_seeds)} trees; bars: min-max)")
        bs = np.array(sorted(df.branching.unique()))
        rs = np.array([pearl_r(int(b)) for b in bs])
        ax.plot(bs, rs, "-", label="Pearl R = xi/(1-xi)")
        ax.fill_between(bs, rs / PEARL_TOLERANCE, rs * PEARL_TOLERANCE, alpha=0.12,
                        label=f"rule: within a factor {PEARL_TOLERANCE} of R")
        ax.plot(bs, np.sqrt(bs), ":", label="sqrt(B) (perfect order)")
        ax.plot(bs, bs, "--", alpha=0.4, label="B (no pruning)")
        ax.set_xlabel("branching factor B")
        ax.set_ylabel("effective branching factor")
        ax.set_title("Random ordering vs Pearl's asymptotic branching factor\n"
                     "(Pearl 1982, The solution for the branching factor of the alpha-beta pruning algorithm)",
                     fontsize=9)
        ax.legend(fontsize=7)
    res.figure(fig)

    cmd = command_for(NAME, full)
    checked = identities_hold(df)
    broken = {k: v for k, v in checked.items() if v[0] != v[1]}
    claims = [Claim(
        NAME, "Knuth & Moore 1975; " + source("003"),
        "identities of uniform (B, D) trees: with perfect ordering alpha-beta (and NegaScout) visit "
        "B^ceil(D/2) + B^floor(D/2) - 1 leaves, so 2B^(D/2) - 1 for even D ('alpha-beta at depth D costs "
        "about what minimax costs at D/2': twice, less one); with the worst ordering B^D",
        "identity, checked by tests (tests/test_minimal_tree.py asserts each against its formula); "
        + (f"this run's {len(df)} cells agree" if not broken else
           "BROKEN in this run (a bug, not a finding): "
           + ", ".join(f"{k} in {v[0]} of {v[1]} cells" for k, v in broken.items())),
        False if broken else None, cmd, verdict="does not hold" if broken else "not judged",
        short="Knuth & Moore's identities on uniform trees", estimate="exact in every cell" if not broken else "broken")]
    if "ab_random_bf" in df:
        deepest = df.dropna(subset=["ab_random_bf"]).sort_values(["branching", "depth"]).groupby("branching").tail(1)
        near = [near_pearl(r.ab_random_bf, int(r.branching)) for r in deepest.itertuples()]
        below = int((deepest.ab_random_bf < deepest.pearl_R).sum())
        ratio = deepest.ab_random_bf / deepest.pearl_R
        parts = ", ".join(f"B={int(r.branching)} D={int(r.depth)}: {r.ab_random_bf:.2f} vs R={r.pearl_R:.2f}"
                          for r in deepest.itertuples())
        claims.append(Claim(
            NAME, "Pearl 1982, The solution for the branching factor of the alpha-beta pruning algorithm",
            "with random ordering alpha-beta's effective branching factor tends to R = xi/(1-xi), xi the root "
            "of x^B + x - 1 = 0 (proved for independent leaf values; tested here on nested-value trees)",
            f"leaves^(1/D) at the deepest searched D, mean of {len(random_seeds)} random trees per cell: "
            f"below R in {below} of {len(deepest)} B, above in {len(deepest) - below}; measured/R "
            f"{ratio.min():.2f} to {ratio.max():.2f}; within a factor {PEARL_TOLERANCE} of R in "
            f"{sum(near)} of {len(deepest)}; " + parts + ". Reported, not judged: these trees' values "
            "are nested, not the independent values Pearl's proof assumes (the i.i.d. trees below are "
            "the test)", None, cmd, verdict="not judged",
            short="random order on nested-value trees vs Pearl's R (a finding)",
            estimate=f"measured/R {ratio.min():.2f} to {ratio.max():.2f}"))
    claims.append(_pearl_iid(res, full, seed, cmd))
    res.claims(claims)
    res.manifest({"full": full, "cap_leaves": cap, "pearl_iid": PEARL_IID[full], "pearl_band": PEARL_BAND,
                  "pearl_rule": pearl_verdict.__doc__, "skipped_unrepresentable": unrepresentable, "branching": list(BRANCHING),
                  "depths": list(DEPTHS), "random_seeds": list(random_seeds),
                  "verdict_rule": near_pearl.__doc__, "pearl_tolerance": PEARL_TOLERANCE}, seed)
    return claims


def _recount(row: dict, manifest: dict) -> dict:
    """The best-order leaf counts of one (B, D) row, searched again at the working tree."""
    b, d, seed = int(row["branching"]), int(row["depth"]), int(manifest.get("seed") or 1)
    return {"ab_best": _leaves("alphabeta", b, d, "best", seed)[0],
            "ns_best": _leaves("negascout", b, d, "best", seed)[0]}


#: what ``gameai reproduce --check`` recounts (:mod:`experiments.check`)
CHECK = Recount("table.parquet", ("ab_best", "ns_best"), lambda df: df[df.ab_best_nodes <= MAX_NODES],
                _recount, lambda r: f"B={r['branching']} D={r['depth']}")


def _pearl_iid(res: Results, full: bool, seed: int, cmd: str) -> Claim:
    """Pearl's limit on i.i.d. trees: the per-ply factor's trend in depth against R."""
    cfg = PEARL_IID[full]
    seeds = tuple(range(seed * 1000, seed * 1000 + cfg["trees"]))
    iid = pd.DataFrame(list(pmap(_iid_cell, [(b, d, seeds) for b, d in pearl_cells(full)],
                                 desc="pearl", unit="cell")))
    res.table(iid, "pearl_iid")
    trend = per_ply(iid)
    res.table(trend, "pearl_trend")
    verdicts, parts = {}, []
    for b, g in trend.groupby("branching"):
        v, why = pearl_verdict(g)
        verdicts[int(b)] = v
        last = g.sort_values("depth").iloc[-1]
        parts.append(f"B={int(b)} D={int(last.depth)}: {last.factor:.2f} [{last.lo:.2f}, {last.hi:.2f}] vs "
                     f"R={last.pearl_R:.2f} ({v}: {why})")
    vs = set(verdicts.values())
    verdict = "does not hold" if "does not hold" in vs else "holds" if vs == {"holds"} else "not judged"
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for b, g in trend.groupby("branching"):
        g = g.sort_values("depth")
        ax.errorbar(g.depth, g.factor / g.pearl_R, yerr=[(g.factor - g.lo) / g.pearl_R, (g.hi - g.factor) / g.pearl_R],
                    fmt="o-", ms=3, capsize=2, label=f"B={int(b)}")
    ax.axhline(1, color="k", lw=0.8)
    ax.axhspan(1 / PEARL_BAND, PEARL_BAND, color="tab:blue", alpha=0.1, label=f"R within a factor {PEARL_BAND}")
    ax.set_xlabel("depth D")
    ax.set_ylabel(f"per-ply factor over depths D-{SPAN}..D / R")
    ax.set_title("Pearl 1982 on i.i.d. uniform trees: the per-ply factor against its limit R\n"
                 f"(alpha-beta leaves, geometric mean of {cfg['trees']} trees, 95% intervals)", fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    res.figure(fig, "pearl_iid")
    return Claim(NAME, "Pearl 1982, The solution for the branching factor of the alpha-beta pruning algorithm",
                 "with independent, identically distributed leaf values (random ordering) alpha-beta's "
                 "per-ply branching factor tends to R = xi/(1-xi) as depth grows",
                 f"uniform trees with i.i.d. uniform leaf values, {cfg['trees']} trees per (B, D), depths as "
                 f"deep as R^D <= {cfg['cap']:,}; per-ply factor (slope of log leaves over depths D-{SPAN}..D, "
                 f"same parity) at the deepest depth, "
                 f"95% interval: " + "; ".join(parts) + f". Rule (pearl_verdict): holds within a factor "
                 f"{PEARL_BAND} of R; does not hold outside it and moving away; otherwise not judged (the "
                 "limit is not reached at feasible depths; trend in pearl_iid.png)", 
                 {"holds": True, "does not hold": False}.get(verdict), cmd, verdict=verdict,
                 short="random order, i.i.d. leaves: per-ply factor tends to Pearl's R",
                 estimate=", ".join(f"B={b} {verdicts[b]}" for b in verdicts), n=cfg["trees"])


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
