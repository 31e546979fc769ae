"""Enhancement ablation in the manner of Schaeffer (1989, "The history heuristic and
alpha-beta search enhancements in practice"), powered by fixed position suites.

On the committed suites of middle-game positions (experiments/suites.py: Xiangqi,
Gomoku, Renju), every combination of {alpha-beta, NegaScout} x history heuristic x
transposition table x killer moves x {fixed depth, iterative deepening, iterative
deepening + aspiration} (48 searchers) searches every position at every depth of a
ladder. Per position and depth: nodes, leaves, time, first-move cutoff rate, the
effective branching factor ``nodes(d) / nodes(d-1)`` (odd and even depths apart: with
alpha-beta they alternate), and the ratio to the true minimal tree and minimal graph of
that position (gameai.search.minimal_tree: cheapest Knuth-Moore proof; distinct positions
of it, as Plaat et al. 1996 measured).

Summaries are geometric means over the suite with 95% bootstrap intervals. Each claim
is judged by the rule in experiments/intervals.py, written before the data: a paired
ratio (say NegaScout / alpha-beta on the same position, depth and switches) must have its
interval below 1 in *every* setting of the other switches to hold, and fails if it lies
above 1 in any.

Quick: 8 positions per game; depths Xiangqi 1-3, Gomoku and Renju 1-2 (to stay within the
few minutes the quick reproduce allows; the TT finds few transpositions that shallow), on
the Python backend. ``--full``: all 32 positions; Xiangqi 1-7, Gomoku and Renju 1-5 on
the compiled backend (``backend=compiled``: the same node counts, see
:mod:`gameai.compiled`), the depths the 004 document and Schaeffer's study reason about.
Minimal trees are computed by the Python oracle to Xiangqi depth 5 and Gomoku/Renju 4
only (the Xiangqi depth-5 one took 9 minutes for one position on the loaded session
machine); the claims that compare with them use the deepest depth that has them.
"""
from __future__ import annotations

import itertools
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from matplotlib.ticker import MaxNLocator, NullFormatter, ScalarFormatter
from tqdm import tqdm

import gameai
from gameai.search import minimal_tree

from . import suites
from ._common import Claim, Results, cli, command_for, source
from .intervals import below_one, describe, geo_ci, mean_ci

NAME = "ablation"
SWITCHES = ("history", "tt", "killers")
MODES = {"fixed": "", "id": ",id=true", "id+asp": ",id=true,aspiration=true"}
GAMES = suites.GAMES
QUICK = {"positions": 8, "depths": {"xiangqi": 3, "gomoku": 2, "renju": 2},
         "minimal": {"xiangqi": 3, "gomoku": 2, "renju": 2}, "backend": "python"}
FULL = {"positions": 32, "depths": {"xiangqi": 7, "gomoku": 5, "renju": 5},
        "minimal": {"xiangqi": 5, "gomoku": 4, "renju": 4}, "backend": "compiled"}
SOURCES = {
    "knuth": "Knuth & Moore 1975, An analysis of alpha-beta pruning",
    "schaeffer": "Schaeffer 1989, The history heuristic and alpha-beta search enhancements in practice",
    "plaat": "Plaat, Schaeffer, Pijls & de Bruin 1996, Best-first fixed-depth minimax algorithms",
    "000": source("000"),
    "003": source("003"),
}


def configs(backend: str = "python") -> list[dict]:
    tail = "" if backend == "python" else f",backend={backend}"
    out = []
    for base, flags, mode in itertools.product(("alphabeta", "negascout"),
                                               itertools.product((False, True), repeat=3), MODES):
        on = dict(zip(SWITCHES, flags))
        spec_flags = "".join(f",{k}=true" for k, v in on.items() if v) + MODES[mode]
        label = "+".join([base] + [k for k, v in on.items() if v] + ([mode] if mode != "fixed" else []))
        out.append({"base": base, **on, "mode": mode, "label": label,
                    "spec": f"{base}(depth={{depth}}{spec_flags}{tail})"})
    return out


def _search(game: str, pos: str, spec_text: str, depth: int, cfg: dict) -> dict:
    s = suites.state(game, spec_text)
    r = gameai.make_searcher(cfg["spec"].format(depth=depth)).search(s)
    st = r.stats
    return {"game": game, "position": pos, "depth": depth,
            **{k: cfg[k] for k in ("label", "base", "mode", *SWITCHES)},
            "nodes": st.nodes, "leaves": st.leaves + st.terminals, "cutoffs": st.cutoffs,
            "first_move_cutoffs": st.first_move_cutoffs, "tt_hits": st.tt_hits,
            "researches": st.researches, "time_s": st.time_s, "value": r.value}


def _minimal(game: str, pos: str, spec_text: str, depth: int) -> dict:
    s = suites.state(game, spec_text)
    t0 = time.perf_counter()
    mt = minimal_tree(s, depth, gameai.make_evaluator(s.default_eval))
    return {"game": game, "position": pos, "depth": depth, "minimal_nodes": mt.nodes,
            "minimal_leaves": mt.leaves, "minimal_graph_nodes": mt.graph_nodes,
            "exact_value": mt.value, "oracle_nodes": mt.oracle_nodes,
            "oracle_time_s": time.perf_counter() - t0}


def paired(df: pd.DataFrame, game: str, depth: int, switch: str, on, off,
           seed: int, metric: str = "nodes") -> dict[str, tuple[float, float, float]]:
    """Per setting of the other switches: geo-mean (with 95% CI) of metric(on) / metric(off)."""
    sub = df[(df.game == game) & (df.depth == depth)]
    others = [c for c in ("base", *SWITCHES, "mode") if c != switch]
    out = {}
    for key, grp in sub.groupby(others):
        a = grp[grp[switch] == on].set_index("position")[metric]
        b = grp[grp[switch] == off].set_index("position")[metric]
        common = a.index.intersection(b.index)
        if len(common):
            label = "+".join(f"{k}={v}" for k, v in zip(others, key) if v is not False)
            out[label] = geo_ci((a[common] / b[common]).to_numpy(), seed)
    return out


def summarise(df: pd.DataFrame, seed: int) -> pd.DataFrame:
    rows = []
    for (game, label, depth), g in df.groupby(["game", "label", "depth"]):
        row = {"game": game, "label": label, "depth": depth, "positions": len(g)}
        for col in ("nodes", "ratio_tree", "ratio_graph", "ratio_leaves", "ebf", "time_s"):
            vals = g[col].dropna()
            vals = vals[vals > 0]
            row[col], row[col + "_lo"], row[col + "_hi"] = geo_ci(vals.to_numpy(), seed) if len(vals) else (np.nan,) * 3
        row["fmc_rate"], row["fmc_rate_lo"], row["fmc_rate_hi"] = mean_ci(g.fmc_rate.dropna().to_numpy(), seed)
        rows.append(row)
    return pd.DataFrame(rows)


def run(full: bool = False, seed: int = 1, out=None) -> list[Claim]:
    res = Results(NAME, out)
    setting = FULL if full else QUICK
    depths = {g: range(1, setting["depths"][g] + 1) for g in GAMES}
    suite = {g: list(suites.load(g).items())[:setting["positions"]] for g in GAMES}
    cells = [(g, name, spec, d) for g in GAMES for name, spec in suite[g] for d in depths[g]]
    cfgs = configs(setting["backend"])
    if setting["backend"] != "python":      # compile each game's core once, here, so the
        for g in GAMES:                      # workers load it from the disk cache
            _search(g, *suite[g][0], 1, cfgs[0])
    jobs = [delayed(_minimal)(*c) for c in cells if c[3] <= setting["minimal"][c[0]]]
    jobs += [delayed(_search)(*c, cfg) for c in cells for cfg in cfgs]
    par = Parallel(n_jobs=-1, return_as="generator", batch_size=8)
    mins, rows = [], []
    for row in tqdm(par(jobs), total=len(jobs), desc=NAME, unit="search"):
        (mins if "minimal_nodes" in row else rows).append(row)
    df = pd.DataFrame(rows).merge(pd.DataFrame(mins), on=["game", "position", "depth"], how="left")
    df["ratio_tree"] = df.nodes / df.minimal_nodes
    df["ratio_graph"] = df.nodes / df.minimal_graph_nodes
    df["ratio_leaves"] = df.leaves / df.minimal_leaves
    df["fmc_rate"] = df.first_move_cutoffs / df.cutoffs.where(df.cutoffs > 0)
    df = df.sort_values(["game", "position", "label", "depth"])
    prev = df.groupby(["game", "position", "label"]).nodes.shift(1)
    df["ebf"] = df.nodes / prev
    df["parity"] = np.where(df.depth % 2 == 1, "odd", "even")
    res.table(df)
    summary = summarise(df, seed)
    res.table(summary, "summary")
    ebf = [{"game": g, "label": lbl, "parity": par, "depths": sorted(x.depth.unique().tolist()),
            **dict(zip(("ebf", "ebf_lo", "ebf_hi"), geo_ci(x.ebf.to_numpy(), seed)))}
           for (g, lbl, par), x in df.dropna(subset=["ebf"]).groupby(["game", "label", "parity"])]
    res.table(pd.DataFrame(ebf), "ebf")          # effective branching factor, odd vs even depths
    _figures(res, summary, {g: range(1, m + 1) for g, m in setting["minimal"].items()})

    cmd = command_for(NAME, full)
    claims = []
    for game in GAMES:
        d = depths[game][-1]
        deep = df[(df.game == game) & (df.depth == d)]
        tag = f"{game}, depth {d}, {deep.position.nunique()} positions"
        dm = setting["minimal"][game]            # deepest depth with minimal trees
        deep_m = df[(df.game == game) & (df.depth == dm)]
        tag_m = f"{game}, depth {dm}, {deep_m.position.nunique()} positions"
        for switch, src, text in (("history", "000", "the history heuristic cuts the nodes alpha-beta searches"),
                                  ("tt", "003", "a transposition table cuts the nodes searched"),
                                  ("killers", "schaeffer", "killer moves cut the nodes searched")):
            iv = paired(df, game, d, switch, True, False, seed)
            claims.append(Claim(NAME, SOURCES[src], f"{game}: {text}",
                                f"{tag}; geometric mean of nodes with/without, 95% bootstrap interval, "
                                f"per setting of the other switches: {describe(iv)}", below_one(
                                    [(lo, hi) for _, lo, hi in iv.values()]), cmd))
        iv = paired(df, game, d, "base", "negascout", "alphabeta", seed)
        claims.append(Claim(NAME, SOURCES["003"], f"{game}: NegaScout searches fewer nodes than alpha-beta",
                            f"{tag}; NegaScout / alpha-beta nodes: {describe(iv)}",
                            below_one([(lo, hi) for _, lo, hi in iv.values()]), cmd))
        best = deep_m[deep_m.label == "alphabeta+history+tt+killers+id"].set_index("position")
        plain = deep_m[deep_m.label == "alphabeta"].set_index("position")
        g_best, g_plain = geo_ci(best.ratio_tree, seed), geo_ci(plain.ratio_tree, seed)
        r = geo_ci((best.nodes / plain.nodes).to_numpy(), seed)
        claims.append(Claim(NAME, SOURCES["003"], f"{game}: move ordering is the key to efficiency "
                            "(well-ordered searches approach the minimal tree)",
                            f"{tag_m}; nodes / minimal tree: plain alpha-beta {g_plain[0]:.1f} "
                            f"[{g_plain[1]:.1f}, {g_plain[2]:.1f}], history+TT+killers+ID {g_best[0]:.1f} "
                            f"[{g_best[1]:.1f}, {g_best[2]:.1f}]; paired ratio {r[0]:.2f} [{r[1]:.2f}, {r[2]:.2f}]",
                            below_one([r[1:]]), cmd))
        no_tt = df[(df.game == game) & ~df.tt & (df["mode"] == "fixed") & df.minimal_leaves.notna()]
        low = no_tt[no_tt.leaves < no_tt.minimal_leaves]
        claims.append(Claim(NAME, SOURCES["knuth"], f"{game}: no search without a TT visits fewer leaves "
                            "than the minimal tree",
                            f"{len(no_tt)} fixed-depth TT-less searches (depths 1-{dm}, all positions): "
                            f"{len(low)} below the cheapest proof; fewest leaves / minimal "
                            f"{(no_tt.leaves / no_tt.minimal_leaves).min():.2f}", len(low) == 0, cmd))
    res.claims(claims)
    res.manifest({"full": full, "positions": {g: [n for n, _ in suite[g]] for g in GAMES},
                  "suite_seed": suites.SEED, "depths": {g: list(r) for g, r in depths.items()},
                  "minimal_depths": setting["minimal"], "backend": setting["backend"],
                  "configs": [c["label"] for c in cfgs], "bootstrap_reps": 2000,
                  "verdict_rule": "experiments/intervals.py:below_one"}, seed)
    return claims


def _figures(res: Results, summary: pd.DataFrame, depths: dict) -> None:
    """Ratio to the minimal tree with 95% intervals: one panel per game and base searcher
    (24 bars each), and by depth for a few searchers."""
    fig, axes = plt.subplots(len(GAMES), 2, figsize=(13, 5.2 * len(GAMES)))
    for row, game in zip(axes, GAMES):
        d = depths[game][-1]
        for ax, base in zip(row, ("alphabeta", "negascout")):
            sub = summary[(summary.game == game) & (summary.depth == d) & summary.label.str.startswith(base)]
            sub = sub.sort_values("ratio_tree")
            y = np.arange(len(sub))
            err = [sub.ratio_tree - sub.ratio_tree_lo, sub.ratio_tree_hi - sub.ratio_tree]
            ax.barh(y, sub.ratio_tree, xerr=err, color="#4a7" if base == "alphabeta" else "#47a",
                    ecolor="k", capsize=2)
            ax.set_yticks(y, [lbl[len(base) + 1:] or "(plain)" for lbl in sub.label], fontsize=8)
            ax.set_xscale("log")
            ax.xaxis.set_major_formatter(ScalarFormatter())
            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.axvline(1, color="k", lw=0.8)
            ax.set_title(f"{game}, {base}, depth {d}: nodes / minimal tree\n"
                         f"(geometric mean over {int(sub.positions.max())} positions, 95% bootstrap interval)",
                         fontsize=9)
    fig.text(0.5, 0.005, "Minimal tree: cheapest proof (Knuth & Moore 1975); ablation after Schaeffer (1989)",
             ha="center", fontsize=8)
    fig.tight_layout(rect=(0, 0.01, 1, 1))
    res.figure(fig)

    fig, axes = plt.subplots(1, len(GAMES), figsize=(5 * len(GAMES), 4.2))
    for ax, game in zip(axes, GAMES):
        for label in ("alphabeta", "negascout", "alphabeta+history+tt+killers+id",
                      "negascout+history+tt+killers+id"):
            sub = summary[(summary.game == game) & (summary.label == label)].sort_values("depth")
            ax.errorbar(sub.depth, sub.ratio_tree, yerr=[sub.ratio_tree - sub.ratio_tree_lo,
                                                         sub.ratio_tree_hi - sub.ratio_tree],
                        marker="o", capsize=3, label=label)
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(ScalarFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.axhline(1, color="k", lw=0.8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("depth")
        ax.set_ylabel("nodes / minimal tree")
        ax.set_title(f"{game}: distance from the minimal tree\n(geometric mean, 95% interval)", fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    res.figure(fig, "by_depth")


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
