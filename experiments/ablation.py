"""The node-count claims at real depth: one pre-registered contrast per claim, and
Schaeffer's (1989) table of how much of the reduction each enhancement gives.

**Positions.** Each committed pool whole (:mod:`experiments.suites`: middle games from
real play, one position per self-play game, no position twice, screened as undecided by
a deeper search than any used here): 46 Xiangqi, 19 Gomoku and 17 Renju positions in the
full setting.

**Sizing, from the observed spread** (fixed before the run it sizes). The first full run's
per-position log ratios, on the positions the pools keep, had standard deviations of
0.15 / 0.10 / 0.15 (NegaScout against alpha-beta; Xiangqi / Gomoku / Renju) and 0.57 /
0.44 / 0.18 (MTD(f) against NegaScout). Detecting a 5% difference at 80% power at the
strictest Holm level of the twelve contrasts needs 129 / 53 / 120 positions for the first
and 1,712 / 1,020 / 169 for the second, more than any pool holds or two cores search in a
run. So ``n`` is the whole pool, the most there is (Xiangqi at about 150 CPU seconds a
position is the run's largest cost), and each claim states the smallest effect its ``n``
detects, from that run's own observed spread; an inconclusive contrast means "no
difference as large as that". The pilot (:mod:`experiments.power`) still estimates the
cost of a position.

**Searches.** On the compiled backend (the same node counts as the Python reference, see
:mod:`gameai.compiled`), each configuration searches each position at every depth of its
ladder, one fixed-depth search per depth (an iterative-deepening configuration deepens up
to that depth). A search that does not complete its depth, or ends on a mate score, is
excluded from every comparison at that depth, and counted (``excluded`` in the claims).

**The contrasts** (the rule in :mod:`experiments.intervals`, written before the data):
per game, at the deepest depth both sides of the contrast reached,

1. history heuristic vs none, on plain fixed-depth alpha-beta (the shared Xiangqi/Gomoku
   AI base class; Schaeffer 1989);
2. transposition table vs none, on alpha-beta with history and iterative deepening (the
   Gomoku thesis);
3. NegaScout vs alpha-beta with the same ordering: history, TT, killers, iterative
   deepening (the Gomoku thesis; Reinefeld 1983);
4. MTD(f) vs NegaScout, both with TT, history and iterative deepening, in leaves (Plaat,
   Schaeffer, Pijls & de Bruin 1996 report 5-10% fewer).

Each is judged by :func:`experiments.intervals.judge` (t and BCa paired bootstrap
intervals at the Holm level, Wilcoxon reported; equivalence by TOST within +-3%); the
twelve (four contrasts, three games) are one Holm family, "ablation node-count
contrasts". Contrast 4 is tested against the claimed ratio 0.95, the others against 1.

**Schaeffer's measure** (Schaeffer 1989). The grid {alpha-beta, NegaScout} x history x TT x
killers, all with iterative deepening (16 configurations), at the deepest depth every one
of them reached. Judged, per position: the reduction alpha-beta + history + TT gives
(against alpha-beta with ID only) over the reduction NegaScout + history + TT + killers
gives, in nodes (his measure) and, reported, in log nodes; the mean fraction with t and
BCa bootstrap intervals; "history and TT give almost all of the reduction" holds when the
union of the two intervals at 1 - 0.05/3 (Bonferroni over the games) lies at or above
``ALMOST_ALL`` (0.9), fails when wholly below. Secondary, without a verdict: each
enhancement's Shapley share of the log reduction over the grid, with bootstrap intervals.

**The minimal tree.** The cheapest Knuth-Moore proof of each position (compiled oracle,
:func:`gameai.search.minimal_tree`), to Xiangqi depth 5 and Gomoku/Renju depth 4 in the
full setting: each search's ``ratio_leaves`` = leaves / minimal leaves, reported (a
distance, not a claim); that no TT-less fixed-depth search goes below it is a check,
counted in the summary line.

Quick (a smoke test, on the Python backend so that a first run compiles nothing): 4
positions, Xiangqi to depth 3 and Gomoku/Renju to 2.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator, NullFormatter, ScalarFormatter

import gameai
from gameai.search import MATE, minimal_tree

from . import suites
from ._common import Claim, Results, cli, command_for, source
from dataclasses import asdict

from .intervals import (ALMOST_ALL, Rule, fraction, holds_of, judge, schaeffer_fractions,
                        schaeffer_verdict, share_ci, shapley_shares)
from .intervals import ALPHA, NOT_JUDGED
from .check import MAX_NODES, Gone, Recount
from .forest import forest_figure
from .journal import JOURNAL, journaled_map

NAME = "ablation"
GAMES = suites.GAMES
GRID_SWITCHES = ("history", "tt", "killers", "negascout")
#: Schaeffer's measure: the grid cells (history, tt, killers, negascout) of alpha-beta with
#: ID only, alpha-beta with history and TT, and every enhancement
SCHAEFFER_CELLS = ((False, False, False, False), (True, True, False, False), (True, True, True, True))
#: the Holm family of the four contrasts over the three games
FAMILY = "ablation node-count contrasts"
#: the pilot's output (:mod:`experiments.power` writes it; the claims quote its spread)
PILOT = Path(__file__).resolve().parent / "suites" / "pilot.json"

#: per setting: positions per game, the deepest depth of each configuration family, the
#: minimal tree's deepest depth. "plain": configurations without history or TT (the
#: unordered baselines); "ordered": every other one; "best": the contrast-4 pair.
QUICK = {"positions": {"xiangqi": 4, "gomoku": 4, "renju": 4},
         "depth": {"xiangqi": {"plain": 3, "ordered": 3, "best": 3},
                   "gomoku": {"plain": 2, "ordered": 2, "best": 2},
                   "renju": {"plain": 2, "ordered": 2, "best": 2}},
         "minimal": {"xiangqi": 2, "gomoku": 2, "renju": 2}, "backend": "python"}
#: positions per game in the full setting: the whole pool (see "Sizing" above)
FULL = {"positions": {g: len(suites.load(g)) for g in suites.GAMES},
        "depth": {"xiangqi": {"plain": 6, "ordered": 7, "best": 8},
                  "gomoku": {"plain": 5, "ordered": 5, "best": 5},
                  "renju": {"plain": 5, "ordered": 5, "best": 5}},
        "minimal": {"xiangqi": 5, "gomoku": 4, "renju": 4}, "backend": "compiled"}

SOURCES = {
    "knuth": "Knuth & Moore 1975, An analysis of alpha-beta pruning",
    "schaeffer": "Schaeffer 1989, The history heuristic and alpha-beta search enhancements in practice",
    "plaat": "Plaat, Schaeffer, Pijls & de Bruin 1996, Best-first fixed-depth minimax algorithms",
    "000": source("000"),
    "003": source("003"),
}


def _label(base: str, on: dict[str, bool], mode: str) -> str:
    return "+".join([base] + [k for k, v in on.items() if v] + ([mode] if mode else []))


def configs() -> list[dict]:
    """Every configuration searched: the 16-cell grid (with ID), plain fixed-depth
    alpha-beta with and without history, and MTD(f) with TT, history and ID."""
    out = []
    for flags in range(16):
        on = {k: bool(flags >> i & 1) for i, k in enumerate(GRID_SWITCHES)}
        base = "negascout" if on.pop("negascout") else "alphabeta"
        spec = "".join(f",{k}=true" for k, v in on.items() if v) + ",id=true"
        out.append({"label": _label(base, on, "id"), "spec": f"{base}(depth={{depth}}{spec}{{tail}})",
                    "grid": True, "base": base, **on})
    for hist in (False, True):
        on = {"history": hist, "tt": False, "killers": False}
        out.append({"label": _label("alphabeta", on, ""), "grid": False, "base": "alphabeta", **on,
                    "spec": "alphabeta(depth={depth}" + (",history=true" if hist else "") + "{tail})"})
    on = {"history": True, "tt": True, "killers": False}
    out.append({"label": "mtdf+history+tt+id", "grid": False, "base": "mtdf", **on,
                "spec": "mtdf(depth={depth},history=true,tt=true,id=true{tail})"})
    return out


#: the pre-registered contrasts: (key, source, claim, numerator label, denominator label, metric)
CONTRASTS = (
    ("history", "000", "the history heuristic cuts the nodes plain alpha-beta searches",
     "alphabeta+history", "alphabeta", "nodes"),
    ("tt", "003", "a transposition table cuts the nodes searched (alpha-beta, history, ID)",
     "alphabeta+history+tt+id", "alphabeta+history+id", "nodes"),
    ("negascout", "003", "NegaScout searches fewer nodes than alpha-beta with the same ordering "
     "(history, TT, killers, ID)", "negascout+history+tt+killers+id", "alphabeta+history+tt+killers+id",
     "nodes"),
    ("mtdf", "plaat", "MTD(f) searches 5-10% fewer leaves than NegaScout (both with TT, history, ID)",
     "mtdf+history+tt+id", "negascout+history+tt+id", "leaves"),
)


#: each contrast's pre-registered rule: the ratio it claims and the equivalence margin
#: (experiments.intervals.Rule). Plaat et al. 1996 claim 5-10% fewer leaves: the weakest
#: form, at most 0.95, is tested; the others claim "fewer" without a size.
RULES = {"history": Rule(1.0), "tt": Rule(1.0), "negascout": Rule(1.0), "mtdf": Rule(0.95)}
SHORT = {"history": "history cuts alpha-beta's nodes", "tt": "a TT cuts the nodes",
         "negascout": "NegaScout < alpha-beta in nodes", "mtdf": "MTD(f) <= 0.95x NegaScout's leaves"}


def family(cfg: dict) -> str:
    if cfg["label"] in ("mtdf+history+tt+id", "negascout+history+tt+id",
                        "negascout+history+tt+killers+id", "alphabeta+history+tt+killers+id"):
        return "best"
    return "ordered" if cfg["history"] or cfg["tt"] else "plain"


def _search(game: str, pos: str, spec_text: str, depth: int, cfg: dict, backend: str) -> list[dict]:
    """One row per depth: a fixed-depth configuration searches ``depth`` alone; an
    iterative-deepening one searches once to ``depth`` and gives a row per finished
    iteration, whose cumulative counters are what a search to that depth alone counts
    (the same tables from the same start; ``tests/experiments/test_ablation.py`` checks it)."""
    s = suites.state(game, spec_text)
    tail = "" if backend == "python" else f",backend={backend}"
    r = gameai.make_searcher(cfg["spec"].format(depth=depth, tail=tail)).search(s)
    st = r.stats
    its = st.iterations if cfg["spec"].count("id=true") else [dict(st.counters(), depth=st.depth, value=r.value)]
    base = {"game": game, "position": pos, "label": cfg["label"], "base": cfg["base"],
            "history": cfg["history"], "tt": cfg["tt"], "killers": cfg["killers"], "grid": cfg["grid"]}
    done = {it["depth"]: it for it in its}
    first = 1 if cfg["spec"].count("id=true") else depth
    rows = []
    for d in range(first, depth + 1):
        it = done.get(d)
        if it is None:                     # the search stopped before this depth (a mate)
            rows.append({**base, "depth": d, "nodes": st.nodes, "leaves": st.leaves + st.terminals,
                         "cutoffs": st.cutoffs, "first_move_cutoffs": st.first_move_cutoffs,
                         "tt_hits": st.tt_hits, "researches": st.researches, "time_s": st.time_s,
                         "value": r.value, "completed_depth": st.depth, "complete": False})
            continue
        rows.append({**base, "depth": d, "nodes": it["nodes"], "leaves": it["leaves"] + it["terminals"],
                     "cutoffs": it["cutoffs"], "first_move_cutoffs": it["first_move_cutoffs"],
                     "tt_hits": it["tt_hits"], "researches": it["researches"],
                     "time_s": it.get("time_s", st.time_s), "value": it["value"], "completed_depth": d,
                     "complete": bool(abs(it["value"]) < MATE // 2)})
    return rows


def _minimal(game: str, pos: str, spec_text: str, depth: int, backend: str) -> dict:
    s = suites.state(game, spec_text)
    t0 = time.perf_counter()
    mt = minimal_tree(s, depth, gameai.make_evaluator(s.default_eval), backend=backend)
    return {"game": game, "position": pos, "depth": depth, "minimal_nodes": mt.nodes,
            "minimal_leaves": mt.leaves, "minimal_graph_nodes": mt.graph_nodes,
            "exact_value": mt.value, "oracle_time_s": time.perf_counter() - t0}


def jobs(setting: dict) -> list[tuple]:
    """Every search and oracle call of a setting, the most expensive first (so the last
    jobs of a parallel run are short)."""
    out = []
    cfgs = configs()
    for g in GAMES:
        for name, spec in suites.load(g, setting["positions"][g]).items():
            for d in range(1, setting["minimal"][g] + 1):
                out.append((_minimal, (g, name, spec, d, setting["backend"])))
            for cfg in cfgs:
                top = setting["depth"][g][family(cfg)]
                for d in range(1, top + 1) if "id=true" not in cfg["spec"] else (top,):
                    out.append((_search, (g, name, spec, d, cfg, setting["backend"])))
    return sorted(out, key=lambda j: -j[1][3])


def _run_job(fn, args) -> list[dict]:
    out = fn(*args)
    return out if isinstance(out, list) else [out]


def run_jobs(todo: list[tuple], desc: str = NAME, journal: Path | None = None,
             resume: bool = False) -> list[dict]:
    """Every job's rows, in parallel (:func:`experiments.parallel.pmap`); with a
    ``journal``, finished jobs survive a kill (:mod:`experiments.journal`)."""
    return [row for rows in journaled_map(_run_job, todo, journal, resume=resume, batch_size=4,
                                          desc=desc, unit="search") for row in rows]


#: CPU seconds every full-setting job of one position costs (compiled, idle machine; the
#: fifth position of each pool, which the pilot puts among the dearer ones: a high guess)
CPU_S_PER_POSITION = {"xiangqi": 152.0, "gomoku": 89.0, "renju": 19.0}


def estimate(full: bool) -> float:
    """Wall seconds: the measured CPU seconds of a position times the positions, over the
    local cores. The quick setting costs a few seconds."""
    if not full:
        return 10.0
    cpu = sum(CPU_S_PER_POSITION[g] * FULL["positions"][g] for g in GAMES)
    return cpu / (os.cpu_count() or 1)


def pilot_spread() -> dict[str, float]:
    """Each contrast's sd of log ratios in the pilot (``game/key`` -> sd), {} without one."""
    if not PILOT.exists():
        return {}
    return {k: v["sd_log"] for k, v in json.loads(PILOT.read_text())["contrasts"].items()}


def completed(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The searches that completed their depth, and the (game, position, depth) cells with
    any search that did not (excluded from every comparison at that depth)."""
    bad = df.loc[~df.complete, ["game", "position", "depth"]].drop_duplicates()
    keep = df.merge(bad.assign(_bad=True), on=["game", "position", "depth"], how="left")
    return keep[keep._bad.isna()].drop(columns="_bad"), bad


def paired_ratios(df: pd.DataFrame, game: str, num: str, den: str, metric: str) -> tuple[int, pd.Series]:
    """Per-position ratio num/den at the deepest depth both reached on every position
    that has both: (depth, ratios)."""
    sub = df[df.game == game]
    a = sub[sub.label == num]
    b = sub[sub.label == den]
    depth = int(min(a.depth.max(), b.depth.max()))
    a = a[a.depth == depth].set_index("position")[metric]
    b = b[b.depth == depth].set_index("position")[metric]
    common = a.index.intersection(b.index)
    return depth, (a[common] / b[common])


def schaeffer_table(df: pd.DataFrame, game: str, seed: int, level: float = 0.95) -> tuple[int, pd.DataFrame, dict]:
    """The grid at its deepest complete depth: Schaeffer's measure per position (history +
    TT's reduction over all the enhancements', in nodes and log nodes) and, secondary, each
    switch's Shapley share of the log reduction, with intervals."""
    grid = df[(df.game == game) & df.grid]
    full_cells = grid.groupby(["position", "depth"]).label.nunique()
    full_cells = full_cells[full_cells == 16].reset_index()
    depth = int(full_cells.depth.max())
    positions = full_cells[full_cells.depth == depth].position
    cells = grid[(grid.depth == depth) & grid.position.isin(positions)]
    logs = {}
    for key, g in cells.groupby(["history", "tt", "killers", "base"]):
        h, t, k, base = key
        logs[(h, t, k, base == "negascout")] = np.log(g.set_index("position").nodes.loc[positions].to_numpy())
    phi = shapley_shares(logs)
    ci = share_ci(phi, seed)
    # history and TT together: their parts summed, against the same total
    both = share_ci(np.column_stack([phi[:, :2].sum(axis=1), phi[:, 2:].sum(axis=1)]), seed)[0]
    rows = [{"game": game, "depth": depth, "positions": len(positions), "switch": s,
             "share": m, "share_lo": lo, "share_hi": hi} for s, (m, lo, hi) in zip(GRID_SWITCHES, ci)]
    rows.append({"game": game, "depth": depth, "positions": len(positions), "switch": "history+tt",
                 "share": both[0], "share_lo": both[1], "share_hi": both[2]})
    reduction = np.exp(np.mean(logs[(False,) * 4] - logs[(True,) * 4]))
    rows.append({"game": game, "depth": depth, "positions": len(positions), "switch": "total reduction (x)",
                 "share": reduction, "share_lo": np.nan, "share_hi": np.nan})
    n0, nht, nall = (np.exp(logs[k]) for k in SCHAEFFER_CELLS)
    nodes, logshare, dropped = schaeffer_fractions(n0, nht, nall)
    keep = n0 > nall
    per = pd.DataFrame({"game": game, "depth": depth, "position": list(positions[keep]),
                        "nodes_none": n0[keep], "nodes_history_tt": nht[keep], "nodes_all": nall[keep],
                        "fraction_nodes": nodes, "fraction_log_nodes": logshare})
    frac = {"nodes": fraction(nodes, level, seed), "logs": fraction(logshare, level, seed),
            "dropped": dropped, "per_position": per}
    return depth, pd.DataFrame(rows), frac


def run(full: bool = False, seed: int = 1, out=None, resume: bool = False) -> list[Claim]:
    """The experiment into ``out``; ``resume`` continues a stopped run of the same setting
    and code from its journal (``gameai reproduce --resume``)."""
    res = Results(NAME, out)
    setting = FULL if full else QUICK
    todo = jobs(setting)
    for g in GAMES:                        # compile each game's kernels once, here, so the
        spec = next(iter(suites.load(g, 1).values()))   # workers load them from the cache
        _search(g, "warm-up", spec, 1, configs()[0], setting["backend"])
        _minimal(g, "warm-up", spec, 1, setting["backend"])
    journal = res.dir / JOURNAL
    rows = run_jobs(todo, journal=journal, resume=resume)
    mins = pd.DataFrame([r for r in rows if "minimal_nodes" in r])
    df = pd.DataFrame([r for r in rows if "minimal_nodes" not in r])
    df = df.merge(mins, on=["game", "position", "depth"], how="left")
    df["ratio_tree"] = df.nodes / df.minimal_nodes
    df["ratio_graph"] = df.nodes / df.minimal_graph_nodes
    df["ratio_leaves"] = df.leaves / df.minimal_leaves
    df = df.sort_values(["game", "position", "label", "depth"])
    df["ebf"] = df.nodes / df.groupby(["game", "position", "label"]).nodes.shift(1)
    res.table(df)
    journal.unlink(missing_ok=True)         # the table holds every row now
    ok, bad = completed(df)

    cmd = command_for(NAME, full)
    ratios, meta, few = {}, {}, {}
    for game in GAMES:
        for key, _, _, num, den, metric in CONTRASTS:
            depth, r = paired_ratios(ok, game, num, den, metric)
            meta[(game, key)] = depth
            if len(r) >= 3:
                ratios[f"{game}/{key}"] = (r.to_numpy(), RULES[key])
            else:
                few[f"{game}/{key}"] = len(r)
    judged = judge(FAMILY, ratios, seed)
    claims, tables, fractions = [], [], []
    level = 1 - ALPHA / len(GAMES)          # Schaeffer's measure: Bonferroni over the games
    for game in GAMES:
        n_bad = int((bad.game == game).sum())
        for key, src, text, num, den, metric in CONTRASTS:
            c = judged.get(f"{game}/{key}")
            if c is None:
                claims.append(Claim(NAME, SOURCES[src], f"{game}: {text}",
                                    f"{game}, depth {meta[(game, key)]}, {metric} {num} / {den}: "
                                    f"{few[f'{game}/{key}']} positions with both searches complete: too few "
                                    "for a contrast (not judged)", None, cmd, verdict=NOT_JUDGED,
                                    short=f"{game}: {SHORT[key]}"))
                continue
            claims.append(Claim(NAME, SOURCES[src], f"{game}: {text}",
                                f"{game}, depth {meta[(game, key)]}, {metric} {num} / {den}: {c.text()}; "
                                f"{n_bad} position-depth cells excluded (search ended early or on a mate)",
                                holds_of(c.verdict), cmd, verdict=c.verdict, short=f"{game}: {SHORT[key]}",
                                estimate=f"{c.interval_text()} ({metric} ratio, depth {meta[(game, key)]})",
                                n=c.n, family=FAMILY))
        depth, table, frac = schaeffer_table(ok, game, seed, level)
        tables.append(table)
        fractions.append(frac)
        nodes, logs, dropped = frac["nodes"], frac["logs"], frac["dropped"]
        verdict = schaeffer_verdict(nodes)
        parts = ", ".join(f"{r.switch} {r.share:.2f} [{r.share_lo:.2f}, {r.share_hi:.2f}]"
                          for r in table.itertuples() if r.switch in GRID_SWITCHES)
        total = table[table.switch == "total reduction (x)"].share.iloc[0]
        claims.append(Claim(NAME, SOURCES["schaeffer"], f"{game}: history and TT give almost all "
                            f"(at least {ALMOST_ALL:.0%}) of the reduction of all the enhancements together",
                            f"{game}, depth {depth}, {nodes.n} positions ({dropped} where all the "
                            f"enhancements reduce nothing left out): reduction of alpha-beta+history+TT "
                            f"over the reduction of NegaScout+history+TT+killers (all with ID, against "
                            f"alpha-beta with ID only, {total:.1f}x), per position, mean: in nodes "
                            f"(Schaeffer's measure, judged) {nodes.text(pct=True)}; in log nodes "
                            f"{logs.text()}; judged on the union of the t and bootstrap intervals at "
                            f"{level:.2%} (Bonferroni over {len(GAMES)} games): [{nodes.judge_lo:.1%}, "
                            f"{nodes.judge_hi:.1%}] against {ALMOST_ALL:.0%}. Secondary, no verdict: "
                            f"Shapley shares of the log reduction over the 16-configuration grid {parts}",
                            holds_of(verdict), cmd, verdict=verdict,
                            short=f"{game}: history + TT give almost all of the reduction",
                            estimate=f"{nodes.mean:.1%} [{nodes.lo:.1%}, {nodes.hi:.1%}] of the node reduction",
                            n=nodes.n, family=f"Schaeffer's measure (Bonferroni over {len(GAMES)} games)"))
        dm = setting["minimal"][game]
        deep = ok[(ok.game == game) & (ok.depth == dm)]
        best = deep[deep.label == "negascout+history+tt+killers+id"].ratio_leaves
        plain = deep[deep.label == "alphabeta"].ratio_leaves
        no_tt = ok[(ok.game == game) & ~ok.tt & (ok.base != "mtdf") & ok.minimal_leaves.notna()]
        below = int((no_tt.leaves < no_tt.minimal_leaves).sum())
        claims.append(Claim(NAME, SOURCES["knuth"], f"{game}: how far searches stay from the minimal tree "
                            "(a distance, not a verdict)",
                            f"{game}, depth {dm}, {len(best)} positions: leaves / minimal leaves, geometric "
                            f"mean, plain alpha-beta {np.exp(np.log(plain).mean()):.2f}, NegaScout with "
                            f"history, TT, killers, ID {np.exp(np.log(best).mean()):.2f}; check: {below} of "
                            f"{len(no_tt)} TT-less searches below the minimal tree", None, cmd, verdict=NOT_JUDGED,
                            short=f"{game}: distance from the minimal tree (leaves / minimal)",
                            estimate=f"{np.exp(np.log(best).mean()):.2f} (best ordered search)", n=len(best)))
    schaeffer = pd.concat(tables)
    res.table(schaeffer, "schaeffer")
    res.table(pd.concat([f["per_position"] for f in fractions]), "schaeffer_fraction")
    res.table(pd.DataFrame([{"family": FAMILY, "contrast": k, "num_den": f"{n} / {d}", **asdict(c)}
                            for k, c in judged.items()
                            for (kk, _, _, n, d, _) in CONTRASTS if k.endswith("/" + kk)]), "contrasts")
    res.figure(forest_figure({k: v for k, (v, _) in ratios.items()}, judged,
                             f"Holm family '{FAMILY}'"), "forest")
    _figures(res, ok)
    res.claims(claims)
    res.manifest({"full": full, "positions": {g: list(suites.load(g, setting["positions"][g]))
                                              for g in GAMES},
                  "suite_seed": suites.SEED, "depths": setting["depth"], "minimal_depths": setting["minimal"],
                  "backend": setting["backend"], "configs": [c["label"] for c in configs()],
                  "excluded_cells": len(bad), "verdict_rule": "experiments/intervals.py judge (Holm over "
                  f"{len(judged)} contrasts, family '{FAMILY}'); Schaeffer: schaeffer_verdict",
                  "rules": {k: asdict(r) for k, r in RULES.items()}}, seed)
    return claims


def _by_depth(df: pd.DataFrame, col: str, labels: tuple[str, ...], ylabel: str, title: str,
              unit_line: bool = False):
    """One panel per game: the geometric mean of ``col`` over positions, by depth."""
    fig, axes = plt.subplots(1, len(GAMES), figsize=(5 * len(GAMES), 4.2))
    for ax, game in zip(axes, GAMES):
        for label in labels:
            sub = df[(df.game == game) & (df.label == label) & df[col].notna()]
            g = sub.groupby("depth")[col].apply(lambda x: float(np.exp(np.log(x).mean())))
            ax.plot(g.index, g.values, marker="o", label=label)
        ax.set_yscale("log")
        ax.yaxis.set_minor_formatter(NullFormatter())
        if unit_line:
            ax.yaxis.set_major_formatter(ScalarFormatter())
            ax.axhline(1, color="k", lw=0.8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("depth")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{game}: {title}", fontsize=9)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _figures(res: Results, df: pd.DataFrame) -> None:
    """Nodes by depth for the contrasts' configurations, and leaves / minimal leaves."""
    res.figure(_by_depth(df, "nodes", ("alphabeta", "alphabeta+history", "alphabeta+history+tt+killers+id",
                                       "negascout+history+tt+killers+id", "mtdf+history+tt+id"),
                         "nodes (geometric mean over positions)", "nodes by depth"))
    res.figure(_by_depth(df, "ratio_leaves", ("alphabeta", "alphabeta+history", "negascout+history+tt+killers+id"),
                         "leaves / minimal leaves", "distance from the minimal tree (Knuth & Moore 1975)",
                         unit_line=True), "by_depth")


def _recount(row: dict, manifest: dict) -> dict:
    """One table row searched again at the working tree (Python backend, same counts)."""
    game, pos = row["game"], row["position"]
    pool = suites.load(game)
    if pos not in pool:
        raise Gone(f"position {pos} is no longer in the {game} suite")
    cfg = {c["label"]: c for c in configs()}.get(row["label"])
    if cfg is None:
        raise Gone(f"configuration {row['label']} is no longer searched")
    got = _search(game, pos, pool[pos], int(row["depth"]), cfg, "python")[-1]
    return {"nodes": got["nodes"], "leaves": got["leaves"]}


#: what ``gameai reproduce --check`` recounts (:mod:`experiments.check`)
CHECK = Recount("table.parquet", ("nodes", "leaves"),
                lambda df: df[df.complete & (df.nodes <= MAX_NODES) & (df.position != "warm-up")],
                _recount, lambda r: f"{r['game']}/{r['position']}/{r['label']}/depth {r['depth']}")


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
