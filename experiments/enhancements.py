"""Search enhancements a reader of the source documents expects measured, one table each.

All on the committed suites (experiments/suites.py), summarised as geometric means over
positions with 95% bootstrap intervals; claims are judged by the rule written in
experiments/intervals.py before the data (a paired ratio must lie below 1 in every
setting to hold, above 1 in any to fail).

* ``id``: iterative-deepening overhead, nodes of ``id=true`` / a direct search to the
  same depth, with and without memory (TT + history) (Slate & Atkin 1977, "Chess 4.5";
  Korf 1985, "Depth-first iterative-deepening").
* ``aspiration``: NegaScout + TT + history + ID with aspiration windows of several
  widths, nodes / the same search without aspiration, and the fail (re-search) rate.
* ``mtdf``: MTD(f) against NegaScout, both with TT, history and ID: leaves, nodes and
  MTD(f) passes per iteration, at the evaluation's own granularity and coarsened (values
  rounded to multiples of g). Plaat, Schaeffer, Pijls & de Bruin (1996, "Best-first
  fixed-depth minimax algorithms") report MTD(f) about 5-10% fewer leaves than NegaScout
  in chess, checkers and Othello programs, and that coarser evaluations need fewer passes.
* ``tt``: TT size (slots) x replacement scheme (the library's depth-preferred-with-ageing
  vs always-replace), nodes / the largest depth-preferred table.
* ``history``: the 000 document's history increment (``1 << depth``) vs ``depth^2``, the
  table lifetime (cleared per decision, as 000 does for Xiangqi, vs kept for the game, as
  it does for Gomoku) and the key ((piece, from, to) vs (from, to)), summed over
  consecutive decisions of one game line per position.
* ``captures``: a capture-first ordering (captures before quiet moves, generation order
  otherwise) as the baseline the history heuristic must beat (Xiangqi).
* ``parts``: the core's pruning parts on a well-ordered alpha-beta (Xiangqi): null-move
  pruning, late-move reductions, both, and MVV-LVA capture ordering; nodes and how often
  the root value stays the same (they are not exact).
* ``quiescence``: the cost of a capture-only quiescence search at the horizon (Xiangqi),
  nodes with / without.

Quick: 6 Xiangqi positions at depth 3, 6 Gomoku positions at depth 2 (3 for history).
``--full``: 32 positions, Xiangqi depth 5, Gomoku depth 4.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from joblib import delayed
from matplotlib.ticker import MaxNLocator

import gameai
from gameai.search.tt import TranspositionTable, to_tt

from . import suites
from ._common import Claim, Results, cli, command_for, source
from .intervals import below_one, describe, geo_ci, mean_ci
from .parallel import call, pmap

NAME = "enhancements"
QUICK = {"positions": 6, "depth": {"xiangqi": 3, "gomoku": 2}, "history_depth": {"xiangqi": 3, "gomoku": 3},
         "plies": 6}
FULL = {"positions": 32, "depth": {"xiangqi": 5, "gomoku": 4}, "history_depth": {"xiangqi": 4, "gomoku": 3},
        "plies": 12}
GAMES = ("xiangqi", "gomoku")
WINDOWS = {"xiangqi": (10, 25, 50, 100, 200, 400), "gomoku": (10, 50, 200, 1000, 5000)}
GRAIN = (1, 10, 50)
TT_SIZES = (1 << 6, 1 << 8, 1 << 10, 1 << 12, 1 << 16)
ORDERED = "history=true,tt=true,id=true"
PLAAT = "Plaat, Schaeffer, Pijls & de Bruin 1996, Best-first fixed-depth minimax algorithms"


class AlwaysReplace(TranspositionTable):
    """The simplest replacement scheme: every store overwrites its slot (compared with the
    library's depth-preferred scheme; Breuker, Uiterwijk & van den Herik 1994)."""

    def store(self, key, depth, flag, value, move, ply) -> None:
        i = key & self.mask
        if self.slots[i] is None:
            self.used += 1
        self.slots[i] = (key, depth, flag, to_tt(value, ply), move, self.age)


class CapturesFirst:
    """A game state whose ``legal_moves`` lists captures first (else generation order)."""

    def __init__(self, state) -> None:
        self._s = state

    def __getattr__(self, name):
        return getattr(self._s, name)

    def legal_moves(self):
        s = self._s
        return sorted(s.legal_moves(), key=lambda m: not s.is_capture(m))


def _coarse(ev, g: int):
    return ev if g == 1 else (lambda state: g * round(ev(state) / g))


def _one(game: str, pos: str, spec_text: str, table: str, setting: str, spec: str, depth: int,
         grain: int = 1, tt: str | None = None, tt_size: int | None = None, wrap: bool = False) -> dict:
    s = suites.state(game, spec_text)
    searcher = gameai.make_searcher(spec.format(depth=depth))
    if grain != 1:                # coarsen this searcher's evaluator (an experiment-only switch)
        base = searcher.evaluator(s)
        searcher.evaluator = lambda state, _f=_coarse(base, grain): _f
    if tt == "always":
        searcher.tt = AlwaysReplace(tt_size)
    elif tt == "depth":
        searcher.tt = TranspositionTable(tt_size)
    r = searcher.search(CapturesFirst(s) if wrap else s)
    st = r.stats
    iters = max(len(st.iterations), 1)
    return {"table": table, "game": game, "position": pos, "setting": setting, "depth": depth,
            "grain": int(grain), "nodes": st.nodes, "leaves": st.leaves + st.terminals,
            "researches": st.researches, "passes_per_iteration": (st.researches + iters) / iters,
            "time_s": st.time_s, "value": r.value}


def _history_line(game: str, pos: str, spec_text: str, depth: int, plies: int) -> list[dict]:
    """Nodes summed over ``plies`` consecutive decisions of one game line (moves from a
    fixed driver), for each history increment x lifetime x key."""
    s = suites.state(game, spec_text)
    driver = gameai.make_searcher(f"alphabeta(depth={depth},{ORDERED})")
    line = []
    for _ in range(plies):
        if s.result() is not None:
            break
        m = driver.search(s).move
        line.append(m)
        s.push(m)
    for _ in line:
        s.pop()
    rows = []
    for inc in ("pow2", "square"):
        for keep in (False, True):
            for key in ("piece", "fromto"):
                searcher = gameai.make_searcher(f"alphabeta(depth={depth},history=true,history_inc={inc},"
                                                f"history_keep={str(keep).lower()},history_key={key})")
                total = 0
                for m in line:
                    total += searcher.search(s).stats.nodes
                    s.push(m)
                for _ in line:
                    s.pop()
                rows.append({"table": "history", "game": game, "position": pos, "depth": depth,
                             "setting": f"{inc},{'kept' if keep else 'cleared'},{key}",
                             "inc": inc, "keep": keep, "key": key, "decisions": len(line), "nodes": total})
    return rows


def jobs(setting: dict):
    suite = {g: list(suites.load(g).items())[:setting["positions"]] for g in GAMES}
    out = []
    for game in GAMES:
        d = setting["depth"][game]
        for pos, text in suite[game]:
            a = (game, pos, text)
            for memory, flags in (("plain", ""), ("tt+history", ",history=true,tt=true")):
                out.append(delayed(_one)(*a, "id", f"{memory},fixed", f"alphabeta(depth={{depth}}{flags})", d))
                out.append(delayed(_one)(*a, "id", f"{memory},id", f"alphabeta(depth={{depth}}{flags},id=true)", d))
            out.append(delayed(_one)(*a, "aspiration", "none", f"negascout(depth={{depth}},{ORDERED})", d))
            for w in WINDOWS[game]:
                out.append(delayed(_one)(*a, "aspiration", str(w),
                                         f"negascout(depth={{depth}},{ORDERED},aspiration=true,window={w})", d))
            for g in GRAIN:
                out.append(delayed(_one)(*a, "mtdf", "negascout", f"negascout(depth={{depth}},{ORDERED})", d, g))
                out.append(delayed(_one)(*a, "mtdf", "mtdf", "mtdf(depth={depth},history=true)", d, g))
            for size in TT_SIZES:
                for scheme in ("depth", "always"):
                    out.append(delayed(_one)(*a, "tt", f"{scheme},{size}", f"alphabeta(depth={{depth}},{ORDERED})",
                                             d, tt=scheme, tt_size=size))
            out.append(delayed(_history_line)(*a, setting["history_depth"][game], setting["plies"]))
            if game == "xiangqi":
                out.append(delayed(_one)(*a, "captures", "generation order", "alphabeta(depth={depth})", d))
                out.append(delayed(_one)(*a, "captures", "captures first", "alphabeta(depth={depth})", d, wrap=True))
                out.append(delayed(_one)(*a, "captures", "history", "alphabeta(depth={depth},history=true)", d))
                for part in ("none", "nullmove", "lmr", "nullmove+lmr", "mvv_lva"):
                    flags = "".join(f",{x}=true" for x in part.split("+") if x != "none")
                    out.append(delayed(_one)(*a, "parts", part,
                                             f"alphabeta(depth={{depth}},{ORDERED},killers=true{flags})", d))
                for dq in range(1, d + 1):
                    for q in ("false", "true"):
                        out.append(delayed(_one)(*a, "quiescence", f"quiescence={q}",
                                                 f"alphabeta(depth={{depth}},{ORDERED},quiescence={q})", dq))
    return out


def ratio(df: pd.DataFrame, num: str, den: str, seed: int, metric: str = "nodes", by=("game",)) -> dict:
    """Geo-mean (95% CI) of metric(num)/metric(den), paired by position, per group."""
    out = {}
    for key, g in df.groupby(list(by)):
        a = g[g.setting == num].set_index("position")[metric]
        b = g[g.setting == den].set_index("position")[metric]
        common = a.index.intersection(b.index)
        if len(common):
            label = ",".join(str(k) for k in (key if isinstance(key, tuple) else (key,)))
            out[label] = geo_ci((a[common] / b[common]).to_numpy(), seed)
    return out


def _iv(d: dict) -> list[tuple[float, float]]:
    return [(lo, hi) for _, lo, hi in d.values()]


def run(full: bool = False, seed: int = 1, out=None) -> list[Claim]:
    res = Results(NAME, out)
    setting = FULL if full else QUICK
    work = jobs(setting)
    rows = []
    for r in pmap(call, work, batch_size=4, desc=NAME, unit="job"):
        rows.extend(r if isinstance(r, list) else [r])
    df = pd.DataFrame(rows)
    res.table(df)
    t = {name: df[df.table == name] for name in df.table.unique()}
    cmd = command_for(NAME, full)
    claims, summary = [], []

    def add(table, label, d):
        for k, (g, lo, hi) in d.items():
            summary.append({"table": table, "comparison": label, "group": k, "geo_mean": g, "lo": lo, "hi": hi})

    id_mem = ratio(t["id"], "tt+history,id", "tt+history,fixed", seed)
    id_plain = ratio(t["id"], "plain,id", "plain,fixed", seed)
    add("id", "id / fixed, TT+history", id_mem)
    add("id", "id / fixed, no memory", id_plain)
    claims.append(Claim(NAME, "Slate & Atkin 1977, Chess 4.5; Korf 1985, Depth-first iterative-deepening",
                        "with a TT and history ordering, iterative deepening costs no more nodes than a direct "
                        "search to the same depth",
                        f"nodes id / fixed (per game): {describe(id_mem)}; without memory the overhead is "
                        f"{describe(id_plain)}", below_one(_iv(id_mem)), cmd))

    asp = {}
    for game in GAMES:
        for w in WINDOWS[game]:
            asp.update({f"{game},window {w}": v for v in ratio(t["aspiration"][t["aspiration"].game == game],
                                                               str(w), "none", seed).values()})
    add("aspiration", "aspiration / none", asp)
    fails = t["aspiration"][t["aspiration"].setting != "none"].groupby(["game", "setting"]).researches.mean()
    claims.append(Claim(NAME, "Slate & Atkin 1977; Schaeffer 1989", "aspiration windows save nodes "
                        "(some window width does, in each game)",
                        f"NegaScout+TT+history+ID with / without aspiration: {describe(asp)}; mean re-searches "
                        f"per search {', '.join(f'{g} {s}: {v:.1f}' for (g, s), v in fails.items())}",
                        below_one([min(((lo, hi) for k, (_, lo, hi) in asp.items() if k.startswith(g)),
                                       key=lambda x: x[1]) for g in GAMES]), cmd))

    m = t["mtdf"].astype({"grain": int})
    mt_leaves = ratio(m, "mtdf", "negascout", seed, "leaves", by=("game", "grain"))
    add("mtdf", "MTD(f) / NegaScout leaves", mt_leaves)
    passes = m[m.setting == "mtdf"].groupby(["game", "grain"]).passes_per_iteration.apply(
        lambda x: mean_ci(x.to_numpy(), seed))
    claims.append(Claim(NAME, PLAAT, "MTD(f) searches about 5-10% fewer leaves than NegaScout "
                        "(both with TT, history, iterative deepening)",
                        f"leaves MTD(f) / NegaScout by game and evaluation grain: {describe(mt_leaves)}; "
                        "MTD(f) passes per iteration: "
                        + ", ".join(f"{g} grain {gr}: {v[0]:.1f} [{v[1]:.1f}, {v[2]:.1f}]" for (g, gr), v in passes.items()),
                        below_one([iv[1:] for k, iv in mt_leaves.items() if k.endswith(",1")]), cmd))
    claims.append(Claim(NAME, PLAAT, "a coarser evaluation needs fewer MTD(f) passes",
                        "MTD(f) passes per iteration, grain 1 vs 50: " + ", ".join(
                            f"{g}: {passes[(g, GRAIN[0])][0]:.1f} [{passes[(g, GRAIN[0])][1]:.1f}, "
                            f"{passes[(g, GRAIN[0])][2]:.1f}] vs {passes[(g, GRAIN[-1])][0]:.1f} "
                            f"[{passes[(g, GRAIN[-1])][1]:.1f}, {passes[(g, GRAIN[-1])][2]:.1f}]" for g in GAMES)
                        + " (holds when the coarse interval lies below the fine one in every game)",
                        _fewer_passes(passes), cmd))

    tt = t["tt"]
    big = f"depth,{max(TT_SIZES)}"
    tt_ratios = {}
    for size in TT_SIZES:
        for scheme in ("depth", "always"):
            tt_ratios.update({f"{g},{scheme},{size}": v for g, v in ratio(tt, f"{scheme},{size}", big, seed).items()})
    add("tt", f"nodes / depth-preferred {max(TT_SIZES)} slots", tt_ratios)
    small = ratio(tt, f"depth,{min(TT_SIZES)}", f"always,{min(TT_SIZES)}", seed)
    add("tt", "depth-preferred / always-replace, smallest table", small)
    claims.append(Claim(NAME, "Breuker, Uiterwijk & van den Herik 1994, Replacement schemes for transposition tables",
                        "with a table too small for the search, a depth-preferred replacement scheme beats "
                        "always-replace",
                        f"{min(TT_SIZES)} slots, depth-preferred / always-replace nodes: {describe(small)}",
                        below_one(_iv(small)), cmd))

    h = t["history"]
    doc_keep = {"xiangqi": "cleared", "gomoku": "kept"}
    inc, life, key = {}, {}, {}
    for game in GAMES:
        hg = h[h.game == game]
        lt = doc_keep[game]
        inc.update({f"{game} ({lt})": v for v in ratio(hg, f"square,{lt},piece", f"pow2,{lt},piece", seed).values()})
        other = "kept" if lt == "cleared" else "cleared"
        life.update({f"{game}": v for v in ratio(hg, f"pow2,{lt},piece", f"pow2,{other},piece", seed).values()})
        key.update({f"{game} ({lt})": v for v in ratio(hg, f"pow2,{lt},piece", f"pow2,{lt},fromto", seed).values()})
    add("history", "depth^2 / 1<<depth, document's lifetime", inc)
    add("history", "document's lifetime / the other", life)
    add("history", "(piece,from,to) / (from,to) key", key)
    src = source("000")
    claims += [
        Claim(NAME, src, "the history increment 1 << depth orders better than depth^2",
              f"nodes over consecutive decisions, depth^2 / 1<<depth: {describe(inc)} (holds if above 1)",
              below_one([(1 / hi, 1 / lo) for _, lo, hi in inc.values()]), cmd),
        Claim(NAME, src, "the document's table lifetime (cleared per decision for Xiangqi, kept for the game for "
              "Gomoku) is the better one for each game",
              f"nodes, the document's lifetime / the other: {describe(life)}", below_one(_iv(life)), cmd),
        Claim(NAME, src, "a history key that includes the moving piece orders better than (from, to)",
              f"nodes, piece key / (from,to) key: {describe(key)}", below_one(_iv(key)), cmd),
    ]

    c = t["captures"]
    cap = ratio(c, "captures first", "generation order", seed)
    hist_cap = ratio(c, "history", "captures first", seed)
    add("captures", "captures first / generation order", cap)
    add("captures", "history / captures first", hist_cap)
    claims.append(Claim(NAME, src, "xiangqi: the history heuristic orders better than a plain captures-first "
                        "ordering", f"alpha-beta nodes, history / captures first: {describe(hist_cap)}; captures "
                        f"first / generation order: {describe(cap)}", below_one(_iv(hist_cap)), cmd))
    pt = t["parts"]
    parts = {}
    for part in ("nullmove", "lmr", "nullmove+lmr", "mvv_lva"):
        parts.update({f"{g},{part}": v for g, v in ratio(pt, part, "none", seed).items()})
    add("parts", "nodes with / without the part", parts)
    base = pt[pt.setting == "none"].set_index("position").value
    same = {part: float((pt[pt.setting == part].set_index("position").value == base).mean())
            for part in ("nullmove", "lmr", "nullmove+lmr")}
    claims.append(Claim(NAME, "Donninger 1993, Null move and deep search; Heinz 2000, Scalable search in "
                        "computer chess (late move reductions)", "xiangqi: null-move pruning and late-move "
                        "reductions cut the nodes of a well-ordered alpha-beta (history+TT+killers+ID)",
                        f"nodes with / without: {describe({k: v for k, v in parts.items() if 'mvv' not in k})}; "
                        "same root value as without: " + ", ".join(f"{k} {v:.0%}" for k, v in same.items()),
                        below_one([iv[1:] for k, iv in parts.items() if k.endswith(("nullmove", "lmr"))]), cmd))
    q = t["quiescence"]
    qr = ratio(q, "quiescence=true", "quiescence=false", seed, by=("game", "depth"))
    add("quiescence", "nodes with / without quiescence", qr)
    claims.append(Claim(NAME, "Beal 1990, A generalised quiescence search algorithm", "xiangqi: a capture-only "
                        "quiescence search costs a bounded factor of extra nodes (reported, not judged)",
                        f"nodes with / without, by depth: {describe(qr)}", None, cmd))

    sdf = pd.DataFrame(summary)
    res.table(sdf, "summary")
    _figure(res, sdf, q, seed)
    res.claims(claims)
    res.manifest({"full": full, **{k: v for k, v in setting.items()}, "windows": WINDOWS, "grain": GRAIN,
                  "tt_sizes": TT_SIZES, "suite_seed": suites.SEED,
                  "verdict_rule": "experiments/intervals.py:below_one"}, seed)
    return claims


def _fewer_passes(passes) -> bool | None:
    """Coarse (largest grain) passes interval below the grain-1 interval in every game."""
    verdicts = []
    for game in GAMES:
        fine, coarse = passes.get((game, GRAIN[0])), passes.get((game, GRAIN[-1]))
        if fine is None or coarse is None:
            return None
        verdicts.append(True if coarse[2] < fine[1] else False if coarse[1] > fine[2] else None)
    return False if False in verdicts else True if all(verdicts) else None


def _figure(res: Results, sdf: pd.DataFrame, q: pd.DataFrame, seed: int) -> None:
    panels = [c for c in sdf.comparison.unique()]
    cols = 3
    rows = -(-len(panels) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(15, 3.6 * rows))
    for ax, comp in zip(axes.flat, panels):
        sub = sdf[sdf.comparison == comp]
        y = np.arange(len(sub))
        ax.errorbar(sub.geo_mean, y, xerr=[sub.geo_mean - sub.lo, sub.hi - sub.geo_mean], fmt="o", capsize=3)
        ax.set_yticks(y, sub.group, fontsize=7)
        ax.axvline(1, color="k", lw=0.8)
        ax.ticklabel_format(axis="x", style="plain", useOffset=False)
        ax.set_title(f"{sub.table.iloc[0]}: {comp}", fontsize=9)
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    fig.text(0.5, 0.002, "Geometric means over the suite, 95% bootstrap intervals; ratio < 1: the first "
             "setting searches fewer nodes. MTD(f): Plaat et al. 1996.", ha="center", fontsize=8)
    fig.tight_layout(rect=(0, 0.01, 1, 1))
    res.figure(fig)
    fig, ax = plt.subplots(figsize=(5, 3.6))
    for qs in ("quiescence=false", "quiescence=true"):
        sub = q[q.setting == qs].groupby("depth").nodes.apply(lambda x: geo_ci(x.to_numpy(), seed))
        d = np.array(sub.index)
        g = np.array([v[0] for v in sub])
        ax.errorbar(d, g, yerr=[g - [v[1] for v in sub], [v[2] for v in sub] - g], marker="o", capsize=3, label=qs)
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("depth")
    ax.set_ylabel("nodes (geometric mean)")
    ax.set_title("Xiangqi: quiescence search cost\n(alpha-beta + TT + history + ID)", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    res.figure(fig, "quiescence")


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
