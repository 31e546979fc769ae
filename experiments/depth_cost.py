"""Depth vs cost: nodes and time per decision by depth for each searcher, on Xiangqi and
Gomoku middle-game positions (experiments/positions.py). The 004 document reports that
only 4 plies were feasible on its 1.5 GHz PC; here is what each depth costs in Python.

Searches run one at a time (no parallel workers) so times are not disturbed by each other.
Quick: 2 positions per game, Xiangqi depths 1-4, Gomoku 1-3 (plain minimax one ply less).
``--full``: 4 positions, Xiangqi 1-5, Gomoku 1-4.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from tqdm import tqdm

import gameai

from . import positions
from ._common import Claim, Results, cli, command_for

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


def run(full: bool = False, seed: int = 1, out=None) -> list[Claim]:
    res = Results(NAME, out)
    n_pos = 4 if full else 2
    max_depth = {"xiangqi": 5 if full else 4, "gomoku": 4 if full else 3}
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
    mean = df.groupby(["game", "searcher", "depth"])[["nodes", "time_s"]].mean().reset_index()
    res.table(mean, "per_decision")

    fig, axes = plt.subplots(2, 2, figsize=(13, 9))
    for col, game in enumerate(("xiangqi", "gomoku")):
        for row, metric in enumerate(("nodes", "time_s")):
            ax = axes[row][col]
            for label in SEARCHERS:
                sub = mean[(mean.game == game) & (mean.searcher == label)]
                if not sub.empty:
                    ax.semilogy(sub.depth, sub[metric], "o-", label=label)
            ax.set_xlabel("depth")
            ax.set_ylabel("nodes per decision" if metric == "nodes" else "seconds per decision")
            ax.set_title(f"{game}: {'nodes' if metric == 'nodes' else 'time'} per decision")
            if row == 0 and col == 0:
                ax.legend(fontsize=7)
    fig.tight_layout()
    res.figure(fig)

    cmd = command_for(NAME, full)
    xq = mean[(mean.game == "xiangqi") & (mean.searcher == "alphabeta+history (000)")].set_index("depth")
    times = ", ".join(f"depth {d}: {t:.2f} s" for d, t in xq.time_s.items())
    ratios = ", ".join(f"{xq.nodes[d] / xq.nodes[d - 1]:.1f}" for d in xq.index if d - 1 in xq.index)
    claims = [
        Claim(NAME, "004_f1fc59599f9037a4.txt",
              "在配置为1.5G,512M内存的计算机上最多只能搜索4层 (on a 1.5 GHz, 512 MB PC at most 4 plies are feasible)",
              f"alpha-beta with history heuristic on Xiangqi middle games, mean seconds per decision here "
              f"(pure Python): {times}; node growth per ply {ratios}",
              None, cmd),
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
        claims.append(Claim(NAME, "004_f1fc59599f9037a4.txt",
                            "Alpha-Beta搜索能在不影响搜索精度的前提下大幅减少工作量 (alpha-beta greatly reduces the work "
                            "without changing the result)",
                            f"Xiangqi depth {d}: minimax {mm.nodes[d]:,.0f} nodes, alpha-beta {ab.nodes[d]:,.0f} "
                            f"({mm.nodes[d] / ab.nodes[d]:.1f}x fewer); root values equal in all {len(both)} "
                            f"positions and depths searched by both: {same}",
                            bool(ab.nodes[d] < mm.nodes[d]) and same, cmd))
    res.claims(claims)
    res.manifest({"full": full, "positions": n_pos, "max_depth": max_depth, "searchers": SEARCHERS}, seed)
    return claims


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
