"""Depth vs cost: nodes and time per decision by depth for each searcher, on Xiangqi and
Gomoku middle-game positions (experiments/positions.py). The 004 document reports that
only 4 plies were feasible on its 1.5 GHz PC; here is what each depth costs in Python.

Searches run one at a time (no parallel workers) so times are not disturbed by each other.
Quick: 2 positions per game, Xiangqi depths 1-4, Gomoku 1-3 (plain minimax one ply less).
``--full``: 4 positions, Xiangqi 1-5, Gomoku 1-4. :func:`estimate` says how long (about 12 s
and 3 minutes) from the measured cost of each kind of search.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from tqdm import tqdm

import gameai

from . import positions
from ._common import Claim, Results, cli, command_for, source
from .check import MAX_NODES, Recount

NAME = "depth_cost"
SEARCHERS = {
    "minimax": "minimax(depth={d})",
    "minimax2 (001)": "minimax2",
    "alphabeta (000)": "alphabeta(depth={d})",
    "alphabeta+history (000)": "alphabeta(depth={d},history=true)",
    "negascout+tt (003)": "negascout(depth={d},tt=true)",
    "negascout+tt+history": "negascout(depth={d},tt=true,history=true)",
    "mtdf": "mtdf(depth={d},history=true)",
    "id+tt+history+killers+aspiration": "negascout(depth={d},id=true,tt=true,history=true,killers=true,aspiration=true)",
}


# CPU seconds of one search by game and depth: (mean of the searchers other than plain
# minimax, plain minimax), measured with the --full setting's 4 positions per game on the
# 2-core reference machine while other work shared it (a whole --full run: 186 s). Depths
# where minimax never runs have None.
SEARCH_CPU_S = {"xiangqi": {1: (0.003, 0.015), 2: (0.010, 0.007), 3: (0.036, 0.27), 4: (0.32, 11.5), 5: (2.66, None)},
                "gomoku": {1: (0.003, 0.007), 2: (0.015, 0.067), 3: (0.13, 2.38), 4: (2.20, None)}}
START_S = 5.0              # the process: imports, the positions loaded


def _setting(full: bool) -> tuple[int, dict[str, int]]:
    """Positions per game and deepest depth per game of a run."""
    return (4 if full else 2), {"xiangqi": 5 if full else 4, "gomoku": 4 if full else 3}


def _cells(full: bool) -> list[tuple[str, str, str, str, int]]:
    """Every search of a run: (game, position, searcher label, spec, depth)."""
    n_pos, max_depth = _setting(full)
    cells = []
    for game, suite in (("xiangqi", positions.XIANGQI), ("gomoku", positions.GOMOKU)):
        for pos in list(suite)[:n_pos]:
            for label, spec in SEARCHERS.items():
                for d in range(1, max_depth[game] + 1):
                    if label == "minimax" and d >= max_depth[game]:
                        continue  # full width one ply less: B^d is the point, not worth waiting for
                    if label.startswith("minimax2") and d != 2:
                        continue
                    cells.append((game, pos, label, spec.format(d=d), d))
    return cells


def estimate(full: bool) -> float:
    """Wall seconds of a run: its searches one after another (run serially, see above), each
    at the CPU seconds measured for its game, depth and kind (plain minimax or not)."""
    return START_S + sum(SEARCH_CPU_S[game][d][label == "minimax"] for game, _, label, _, d in _cells(full))


def run(full: bool = False, seed: int = 1, out=None) -> list[Claim]:
    res = Results(NAME, out)
    n_pos, max_depth = _setting(full)
    cells = _cells(full)
    rows = []
    for game, pos, label, spec, d in tqdm(cells, desc=NAME, unit="search"):
        s = positions.state(game, pos)
        r = gameai.make_searcher(spec).search(s)
        st = r.stats
        rows.append({"game": game, "position": pos, "searcher": label, "spec": spec, "depth": d,
                     "nodes": st.nodes, "leaves": st.leaves, "cutoffs": st.cutoffs,
                     "tt_hits": st.tt_hits, "researches": st.researches, "time_s": st.time_s,
                     "nodes_per_s": st.nodes / st.time_s if st.time_s > 0 else None,
                     "value": r.value})
    df = pd.DataFrame(rows)
    res.table(df)
    by = df.groupby(["game", "searcher", "depth"])
    mean = by[["nodes", "time_s"]].mean().reset_index()
    for metric in ("nodes", "time_s"):  # the spread over positions, drawn as error bars
        mean[f"{metric}_min"] = by[metric].min().values
        mean[f"{metric}_max"] = by[metric].max().values
    mean["positions"] = by.size().values
    res.table(mean, "per_decision")
    res.figure(_figure(mean, n_pos))

    cmd = command_for(NAME, full)
    xq = mean[(mean.game == "xiangqi") & (mean.searcher == "alphabeta+history (000)")].set_index("depth")
    times = ", ".join(f"depth {d}: {t:.2f} s" for d, t in xq.time_s.items())
    ratios = ", ".join(f"{xq.nodes[d] / xq.nodes[d - 1]:.1f}" for d in xq.index if d - 1 in xq.index)
    claims = [
        Claim(NAME, source("004"),
              "在配置为1.5G,512M内存的计算机上最多只能搜索4层 (on a 1.5 GHz, 512 MB PC at most 4 plies are feasible)",
              f"alpha-beta with history heuristic on Xiangqi middle games, mean seconds per decision here "
              f"(pure Python): {times}; node growth per ply {ratios}",
              None, cmd, verdict="not judged", short="only 4 plies feasible (1.5 GHz PC)",
              estimate=times),
    ]
    ab = mean[(mean.game == "xiangqi") & (mean.searcher == "alphabeta (000)")].set_index("depth")
    mm = mean[(mean.game == "xiangqi") & (mean.searcher == "minimax")].set_index("depth")
    common = [d for d in mm.index if d in ab.index and d >= 2]
    if common:
        d = max(common)
        keys = ["game", "position", "depth"]
        both = df[df.searcher == "minimax"][keys + ["value"]].merge(
            df[df.searcher == "alphabeta (000)"][keys + ["value"]], on=keys, suffixes=("_mm", "_ab"))
        same = bool((both.value_mm == both.value_ab).all())
        claims.append(Claim(NAME, source("004"),
                            "Alpha-Beta搜索能在不影响搜索精度的前提下大幅减少工作量 (alpha-beta greatly reduces the work "
                            "without changing the result)",
                            f"Xiangqi depth {d}: minimax {mm.nodes[d]:,.0f} nodes, alpha-beta {ab.nodes[d]:,.0f} "
                            f"({mm.nodes[d] / ab.nodes[d]:.1f}x fewer); root values equal in all {len(both)} "
                            f"positions and depths searched by both: {same}",
                            bool(ab.nodes[d] < mm.nodes[d]) and same, cmd,
                            short="alpha-beta cuts minimax's work, same result",
                            estimate=f"{mm.nodes[d] / ab.nodes[d]:.1f}x fewer nodes at depth {d}",
                            n=len(both)))
    res.claims(claims)
    res.manifest({"full": full, "positions": n_pos, "max_depth": max_depth, "searchers": SEARCHERS}, seed)
    return claims


def _figure(mean: pd.DataFrame, n_pos: int):
    """Mean per decision with the range over positions as error bars; integer depth ticks."""
    from matplotlib.ticker import MaxNLocator
    fig, axes = plt.subplots(2, 2, figsize=(14, 10))
    for col, game in enumerate(("xiangqi", "gomoku")):
        for row, metric in enumerate(("nodes", "time_s")):
            ax = axes[row][col]
            for i, label in enumerate(SEARCHERS):
                sub = mean[(mean.game == game) & (mean.searcher == label)]
                if sub.empty:
                    continue
                x = sub.depth + (i - len(SEARCHERS) / 2) * 0.03  # a small dodge so bars stay apart
                ax.errorbar(x, sub[metric], yerr=[sub[metric] - sub[f"{metric}_min"], sub[f"{metric}_max"] - sub[metric]],
                            fmt="o-", capsize=3, label=label)
            ax.set_yscale("log")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.set_xlabel("search depth (plies)", fontsize=11)
            ax.set_ylabel("nodes per decision" if metric == "nodes" else "seconds per decision", fontsize=11)
            ax.set_title(f"{game}: {'nodes' if metric == 'nodes' else 'time'} per decision "
                         f"(mean of {n_pos} positions, bars: min to max)", fontsize=11)
            if row == 0 and col == 0:
                ax.legend(fontsize=9)
    fig.tight_layout()
    return fig


def _recount(row: dict, manifest: dict) -> dict:
    """One search row searched again at the working tree."""
    st = gameai.make_searcher(row["spec"]).search(positions.state(row["game"], row["position"])).stats
    return {"nodes": st.nodes, "leaves": st.leaves}


#: what ``gameai reproduce --check`` recounts (:mod:`experiments.check`)
CHECK = Recount("table.parquet", ("nodes", "leaves"), lambda df: df[df.nodes <= MAX_NODES], _recount,
                lambda r: f"{r['game']}/{r['position']}/{r['spec']}")


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
