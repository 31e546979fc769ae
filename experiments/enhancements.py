"""The search enhancements beyond the ablation grid: one pre-registered contrast per claim.

**The rule** (:mod:`experiments.intervals`, the house standard of :mod:`experiments.ablation`,
fixed before the data). Each judged claim is ONE paired contrast: per position, the ratio
``metric(A) / metric(B)`` of two configurations at the same completed depth, oriented so
that a ratio below 1 is what the claim says, with the ratio it claims and an equivalence
margin (:func:`rule`: MTD(f) at most 0.95x NegaScout, the others "fewer"; +-3%). All the
judged contrasts of this experiment (27 in the full setting) are one Holm family,
:data:`FAMILY`, judged by :func:`~experiments.intervals.judge`: at each contrast's Holm
level a t interval and a BCa paired bootstrap interval of the mean log ratio must agree
on holds / does not hold / equivalent, else inconclusive; Wilcoxon reported. Each claim
states the smallest reduction its ``n`` detects at 80% power at the strictest Holm
level, from that contrast's own observed sd of log ratios.
Descriptive numbers (re-search rates, MTD(f) passes, how often a pruning part keeps the
root value, iterative deepening's overhead without memory) are reported in the measured
text, never as verdicts. A reported claim that is not judged has verdict None and says so.

**Positions.** The first ``n`` positions of the committed Xiangqi and Gomoku (freestyle)
pools (:func:`experiments.suites.load`): middle games from real play, one position per
self-play game, screened as undecided by a deeper search than any used here. In the full
setting 24 Xiangqi positions and the whole Gomoku pool, 19 (a Xiangqi position at depth
8 costs ten times a Gomoku one). (Renju is
left out: its pool, its evaluation and its kernel are Gomoku's with the forbidden moves
of black; the ablation experiment covers it.) A search that does not complete its depth,
or ends on a mate score, drops its position from every contrast that uses it (counted in
the claim as ``excluded``).

**Backends.** Every configuration runs on the compiled backend (``backend=compiled``:
the same node counts as the Python reference, which the compiled tests check switch by
switch, ``grain`` and ``tt_replace`` included).

**Depths** (full setting; Xiangqi / Gomoku): "ordered" configurations (with a TT)
8 / 6; "plain" ones (no TT) 6 / 4; the history lines (12 plies) 5 / 4.
The old setting searched Xiangqi to 5 and Gomoku to 4 everywhere.

**The claims and their contrasts** (per game unless marked Xiangqi; numerator / denominator):

1. ``id`` (Slate & Atkin 1977, Chess 4.5; Korf 1985): with a TT and history ordering,
   iterative deepening searches fewer nodes than a direct search to the same depth.
   Nodes ``alphabeta+history+tt+id`` / ``alphabeta+history+tt``, ordered depth. Reported:
   the overhead without memory, nodes ``alphabeta+id`` / ``alphabeta``, plain depth.
2. ``aspiration`` (Slate & Atkin 1977; Schaeffer 1989): aspiration windows save nodes.
   Nodes ``negascout+history+tt+id grain 1+aspiration`` / ``negascout+history+tt+id grain 1``
   at the ordered depth and one ply less (both parities: the root value swings with the
   side that moved last), with the window fixed in advance at half the evaluation's
   smallest tactical unit: 50 in Xiangqi (half a pawn), 250 in Gomoku (half a closed
   three). Xiangqi searches with a capture quiescence (MVV-LVA), as engines do, so that
   the root value does not swing with the side that moved last; a TT of ``TT_BIG`` (4M)
   slots. Reported: how often the value moves a window between consecutive iterations
   (a re-search each) and two iterations apart.
2b. ``mtdf`` (Plaat, Schaeffer, Pijls & de Bruin 1996): MTD(f) visits at most 0.95x the
   leaves of NegaScout, both with TT, history, ID (and quiescence in Xiangqi) at the SAME
   evaluation grain (``GRAINS`` 1, 10, 50 searched; 1 and 50 judged), at the ordered depth
   and one ply less. Reported: passes per iteration at each grain, nodes per TT slot.
2c. The pre-registered variant with MTD(f)'s first guess and the aspiration centre from
   the iteration two plies back: not run (the searcher has no such switch yet), said so.
3. ``grain`` (Plaat et al. 1996): a coarser evaluation needs fewer MTD(f) passes. MTD(f)
   passes summed over the iterations to the ordered depth, grain 50 / grain 1.
4. ``tt_replace`` (Breuker, Uiterwijk & van den Herik 1994): with a table too small for the
   search, depth-preferred replacement beats always-replace. Nodes of
   ``alphabeta+history+tt+id`` with a 1,024-slot depth-preferred table (the library's) /
   the same with an always-replace table (``tt_replace=always``), ordered depth.
5. ``history_inc`` (the 000 document): the increment ``1 << depth`` orders better than
   ``depth^2``. Nodes summed over the decisions of one game line (``plies`` consecutive
   positions from the suite position, moves from a fixed driver, ``alphabeta+history+tt+id``),
   ``alphabeta+history`` with ``1 << depth`` / with ``depth^2``, in the document's table
   lifetime for the game (cleared per decision for Xiangqi, kept for Gomoku) and the piece
   key; line depth.
6. ``history_keep`` (the 000 document): the document's table lifetime is the better one
   for its game. The same line, nodes with the document's lifetime / the other.
7. ``history_key`` (the 000 document): a history key with the moving piece orders better
   than (from, to). The same line, nodes with key (piece, from, to) / (from, to).
8. ``captures`` (Xiangqi; the 000 document): the history heuristic orders better than
   captures-first ordering. Nodes ``alphabeta+history`` / ``alphabeta+mvv_lva`` (captures
   first, most valuable victim first), plain depth. Reported: captures first / generation
   order.
9. ``nullmove`` (Xiangqi; Donninger 1993): null-move pruning cuts the nodes of a
   well-ordered alpha-beta. Nodes ``alphabeta+history+tt+killers+id+nullmove`` /
   ``alphabeta+history+tt+killers+id``, ordered depth. Reported: same root value rate.
10. ``lmr`` (Xiangqi; Heinz 2000): late-move reductions cut them. The same with ``lmr``.
11. ``quiescence`` (Xiangqi; Beal 1990): the cost of a capture-only quiescence search at
    the horizon, nodes ``alphabeta+history+tt+id+mvv_lva+quiescence`` / without, by depth.
    Both order captures first by MVV-LVA: a quiescence search that tries captures in
    generation order explodes (on one suite position, 61 million nodes at depth 6 against
    1.5 million with MVV-LVA). Reported, not judged (the source states no bound to test).

MTD(f) against NegaScout is judged here at equal grain and in the ablation (its
contrast 4, at the library's default grain, without quiescence).

**Budget.** :func:`estimate` is the measured CPU seconds of every full-setting job of one
position (:data:`CPU_S_PER_POSITION`, from :func:`measure_cost`), times the positions, over
the local cores: about 56 minutes on 2 cores, nearly all of it the Xiangqi searches at depth 8.
The plain Gomoku configurations and the history lines stop where a ply more would cost
more than the rest together.

Quick (a smoke test of a few seconds on the Python backend, so nothing is compiled): 3
positions a game, Xiangqi to depth 3 and Gomoku to 2, lines of 3 plies.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

import gameai
from gameai.search import MATE

from . import suites
from ._common import Claim, Results, cli, command_for, source
from dataclasses import asdict

from .check import MAX_NODES, Gone, Recount
from .forest import forest_figure
from .intervals import NOT_JUDGED, Rule, holds_of, judge
from .journal import JOURNAL, journaled_map

NAME = "enhancements"
#: the Holm family of every judged contrast of this experiment, both games
FAMILY = "enhancements node-count contrasts"
SHORT = {"id": "iterative deepening saves nodes", "aspiration": "aspiration windows save nodes",
         "mtdf": "MTD(f) <= 0.95x NegaScout's leaves", "grain": "a coarser grain needs fewer MTD(f) passes",
         "tt_replace": "depth-preferred beats always-replace in a small TT",
         "history_inc": "history increment 1<<depth beats depth^2",
         "history_keep": "the 000 document's history lifetime is better",
         "history_key": "a history key with the piece beats (from, to)",
         "captures": "history orders better than captures first", "nullmove": "null move cuts nodes",
         "lmr": "late-move reductions cut nodes"}
GAMES = ("xiangqi", "gomoku")

#: per setting: positions per game; per game the depth of each family of configurations
#: ("ordered": with a TT; "plain": without; "line": the history lines); plies of a history
#: line; the backend.
QUICK = {"positions": {"xiangqi": 3, "gomoku": 3},
         "depth": {"xiangqi": {"ordered": 3, "plain": 3, "line": 2},
                   "gomoku": {"ordered": 2, "plain": 2, "line": 2}},
         "plies": 3, "backend": "python"}
FULL = {"positions": {"xiangqi": min(24, len(suites.load("xiangqi"))),
                      "gomoku": min(32, len(suites.load("gomoku")))},
        "depth": {"xiangqi": {"ordered": 8, "plain": 6, "line": 5},
                  "gomoku": {"ordered": 6, "plain": 4, "line": 4}},
        "plies": 12, "backend": "compiled"}

#: aspiration window per game, fixed before the data: half the smallest tactical unit
WINDOW = {"xiangqi": 50, "gomoku": 250}
GRAIN = 50                    #: the coarse evaluation of the MTD(f) grain claim
#: the evaluation grains at which MTD(f) and NegaScout are compared, each at the same grain
GRAINS = (1, 10, 50)
#: the grains whose MTD(f) / NegaScout contrast is judged (grain 10 is reported)
JUDGED_GRAINS = (1, 50)
#: TT slots of the MTD(f) / NegaScout / aspiration searches: four million, so that the
#: table holds a large part of the tree (the measured nodes per slot are reported)
TT_BIG = 1 << 22
#: what the MTD(f) / NegaScout / aspiration searches add per game: Xiangqi searches with a
#: capture quiescence (MVV-LVA ordered), the configuration engines use, so that the root
#: value does not swing with the side that moved last
ENGINE = {"xiangqi": ",quiescence=true,mvv_lva=true", "gomoku": ""}
TT_SLOTS = 1 << 10            #: the "too small" table of the replacement claim
DOC_KEEP = {"xiangqi": False, "gomoku": True}   #: the 000 document's history lifetime
ORDERED = "history=true,tt=true,id=true"
#: the quiescence cost: with / without, both ordering captures by MVV-LVA (in the
#: quiescence search as in the main one; in generation order the capture search explodes)
QUIESCENCE = ("alphabeta+history+tt+id+mvv_lva+quiescence", "alphabeta+history+tt+id+mvv_lva")

SOURCES = {
    "id": "Slate & Atkin 1977, Chess 4.5; Korf 1985, Depth-first iterative-deepening",
    "aspiration": "Slate & Atkin 1977, Chess 4.5; Schaeffer 1989, The history heuristic and "
                  "alpha-beta search enhancements in practice",
    "plaat": "Plaat, Schaeffer, Pijls & de Bruin 1996, Best-first fixed-depth minimax algorithms",
    "breuker": "Breuker, Uiterwijk & van den Herik 1994, Replacement schemes for transposition tables",
    "000": source("000"),
    "donninger": "Donninger 1993, Null move and deep search",
    "heinz": "Heinz 2000, Scalable search in computer chess (late move reductions)",
    "beal": "Beal 1990, A generalised quiescence search algorithm",
}


def configs(game: str) -> list[dict]:
    """The searches of one position: label, spec (``{depth}``, ``{tail}`` the backend),
    family (which depth)."""
    w = WINDOW[game]
    out = [
        {"label": "alphabeta+history+tt", "family": "ordered", "spec": "alphabeta(depth={depth},history=true,tt=true{tail})"},
        {"label": "alphabeta+history+tt+id", "family": "ordered", "spec": "alphabeta(depth={depth}," + ORDERED + "{tail})"},
        {"label": "alphabeta", "family": "plain", "spec": "alphabeta(depth={depth}{tail})"},
        {"label": "alphabeta+id", "family": "plain", "spec": "alphabeta(depth={depth},id=true{tail})"},
    ]
    big = f",tt_size={TT_BIG}" + ENGINE[game]
    for g in GRAINS:
        out += [{"label": f"negascout+history+tt+id grain {g}", "family": "ordered",
                 "spec": "negascout(depth={depth}," + ORDERED + big + f",grain={g}" + "{tail})"},
                {"label": f"mtdf+history+tt+id grain {g}", "family": "ordered",
                 "spec": "mtdf(depth={depth},history=true" + big + f",grain={g}" + "{tail})"}]
    out += [
        {"label": "negascout+history+tt+id grain 1+aspiration", "family": "ordered",
         "spec": "negascout(depth={depth}," + ORDERED + big + f",aspiration=true,window={w}" + "{tail})"},
        {"label": "alphabeta+history+tt+id depth-preferred", "family": "ordered",
         "spec": "alphabeta(depth={depth}," + ORDERED + f",tt_size={TT_SLOTS}" + "{tail})"},
        {"label": "alphabeta+history+tt+id always-replace", "family": "ordered",
         "spec": "alphabeta(depth={depth}," + ORDERED + f",tt_size={TT_SLOTS},tt_replace=always" + "{tail})"},
    ]
    if game == "xiangqi":
        base = "alphabeta(depth={depth}," + ORDERED + ",killers=true"
        out += [
            {"label": "alphabeta+history", "family": "plain", "spec": "alphabeta(depth={depth},history=true{tail})"},
            {"label": "alphabeta+mvv_lva", "family": "plain", "spec": "alphabeta(depth={depth},mvv_lva=true{tail})"},
            {"label": "alphabeta+history+tt+killers+id", "family": "ordered", "spec": base + "{tail})"},
            {"label": "alphabeta+history+tt+killers+id+nullmove", "family": "ordered",
             "spec": base + ",nullmove=true{tail})"},
            {"label": "alphabeta+history+tt+killers+id+lmr", "family": "ordered", "spec": base + ",lmr=true{tail})"},
            {"label": "alphabeta+history+tt+id+mvv_lva", "family": "ordered",
             "spec": "alphabeta(depth={depth}," + ORDERED + ",mvv_lva=true{tail})"},
            {"label": "alphabeta+history+tt+id+mvv_lva+quiescence", "family": "ordered",
             "spec": "alphabeta(depth={depth}," + ORDERED + ",mvv_lva=true,quiescence=true{tail})"},
        ]
    return out


def _row(game, pos, label, depth, c: dict, value, iters: int, complete: bool) -> dict:
    return {"game": game, "position": pos, "label": label, "depth": depth, "nodes": c["nodes"],
            "leaves": c["leaves"] + c["terminals"], "researches": c["researches"],
            "passes": c["researches"] + iters, "iterations": iters, "value": value,
            "complete": bool(complete and abs(value) < MATE // 2)}


def _search(game: str, pos: str, spec_text: str, cfg: dict, depth: int, backend: str) -> list[dict]:
    """One search; an iterative-deepening one gives a row per finished iteration (its
    cumulative counters are what a search to that depth alone counts, as the ablation
    experiment checks), a fixed-depth one a single row."""
    s = suites.state(game, spec_text)
    tail = "" if backend == "python" else f",backend={backend}"
    r = gameai.make_searcher(cfg["spec"].format(depth=depth, tail=tail)).search(s)
    st = r.stats
    if "id=true" in cfg["spec"] or cfg["spec"].startswith("mtdf"):
        rows = [_row(game, pos, cfg["label"], it["depth"], it, it["value"], i + 1, True)
                for i, it in enumerate(st.iterations)]
        if st.depth < depth:      # stopped early (a mate): the depths it never reached
            rows += [_row(game, pos, cfg["label"], d, st.counters(), r.value, len(st.iterations), False)
                     for d in range(st.depth + 1, depth + 1)]
        return rows
    return [_row(game, pos, cfg["label"], depth, st.counters(), r.value, 1, st.depth >= depth)]


def history_settings(game: str) -> dict[str, tuple[str, bool, str]]:
    """The history variants of the lines: label -> (increment, kept, key). The document's
    setting and one switch changed at a time."""
    keep = DOC_KEEP[game]
    return {"history document": ("pow2", keep, "piece"),
            "history square": ("square", keep, "piece"),
            "history other lifetime": ("pow2", not keep, "piece"),
            "history fromto": ("pow2", keep, "fromto")}


def _history_line(game: str, pos: str, spec_text: str, depth: int, plies: int, backend: str) -> list[dict]:
    """Nodes summed over ``plies`` consecutive decisions of one game line (moves from a
    fixed driver), for each history variant; one searcher per variant over the line (so a
    kept table carries from decision to decision)."""
    s = suites.state(game, spec_text)
    tail = "" if backend == "python" else f",backend={backend}"
    driver = gameai.make_searcher(f"alphabeta(depth={depth},{ORDERED}{tail})")
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
    for label, (inc, keep, key) in history_settings(game).items():
        searcher = gameai.make_searcher(f"alphabeta(depth={depth},history=true,history_inc={inc},"
                                        f"history_keep={str(keep).lower()},history_key={key}{tail})")
        total, ok = 0, True
        for m in line:
            r = searcher.search(s)
            total += r.stats.nodes
            ok = ok and r.stats.depth >= depth and abs(r.value) < MATE // 2
            s.push(m)
        for _ in line:
            s.pop()
        rows.append({"game": game, "position": pos, "label": label, "depth": depth, "nodes": total,
                     "decisions": len(line), "complete": ok and len(line) > 0})
    return rows


def jobs(setting: dict) -> list[tuple]:
    """Every search of a setting, the deepest first (so the last jobs of a parallel run are
    short)."""
    out = []
    for g in GAMES:
        depth = setting["depth"][g]
        for name, spec in suites.load(g, setting["positions"][g]).items():
            for cfg in configs(g):
                out.append((_search, (g, name, spec, cfg, depth[cfg["family"]], setting["backend"])))
            out.append((_history_line, (g, name, spec, depth["line"], setting["plies"], setting["backend"])))
    def order(job):                       # the lines are the dear ones
        fn, args = job
        if fn is _history_line:
            return (0, -args[3])
        return (1, -args[4])
    return sorted(out, key=order)


def _run_job(fn, args) -> list[dict]:
    return fn(*args)


def run_jobs(todo: list[tuple], desc: str | None = NAME, journal: Path | None = None,
             resume: bool = False) -> list[dict]:
    """Every job's rows, in parallel (:func:`experiments.parallel.pmap`); with a
    ``journal``, finished jobs survive a kill (:mod:`experiments.journal`)."""
    return [row for rows in journaled_map(_run_job, todo, journal, resume=resume, batch_size=2,
                                          desc=desc, unit="search") for row in rows]


#: CPU seconds every full-setting job of one position costs (``measure_cost``: each
#: position's jobs one after another in one process, ``time.process_time``, compiled kernels
#: loaded first). The redesign (MTD(f) and NegaScout at three grains, aspiration, Xiangqi
#: with quiescence, a 4M-slot table) was measured on the first position of each pool only:
#: Xiangqi x00 269 s, Gomoku g00 9.9 s (the old design's means over every position were
#: 105.6 and 10.1 s, ranging over a factor 13 in Xiangqi), on the 2-core machine under a
#: load of 5-7. Rough: measure the full pools before trusting it.
CPU_S_PER_POSITION = {"xiangqi": 270.0, "gomoku": 10.0}
#: wall seconds a full run costs besides its jobs (imports, worker start-up, loading the
#: compiled kernels in each worker, the figures): a full run on 2 + 2 positions took 35.5 s
#: wall on 2 cores against 23 s of jobs by the constants above
STARTUP_S = 15.0


def measure_cost(game: str, indices=None, setting: dict | None = None) -> list[float]:
    """CPU seconds (``time.process_time``) of every job of positions ``indices`` (default:
    every position of the setting) of ``game`` in ``setting`` (default FULL), run one after
    another in this process after a warm-up (so the compiled kernels are loaded, as in a
    worker)."""
    setting = setting or FULL
    if indices is None:
        indices = range(setting["positions"][game])
    one = {**setting, "positions": {g: max(indices) + 1 for g in GAMES}}
    _warm_up(one)
    todo = [j for j in jobs(one) if j[1][0] == game]
    names = list(suites.load(game, max(indices) + 1))
    out = []
    for i in indices:
        t0 = time.process_time()
        for fn, args in todo:
            if args[1] == names[i]:
                fn(*args)
        out.append(time.process_time() - t0)
    return out


def estimate(full: bool) -> float:
    """Wall seconds: the measured CPU seconds of a position times the positions, over the
    local cores. The quick setting costs a few seconds."""
    if not full:
        return 10.0
    cpu = sum(CPU_S_PER_POSITION[g] * FULL["positions"][g] for g in GAMES)
    return STARTUP_S + cpu / (os.cpu_count() or 1)


def paired(df: pd.DataFrame, game: str, num: str, den: str, metric: str, depth: int) -> tuple[pd.Series, int]:
    """Per-position ratio ``metric(num) / metric(den)`` at ``depth`` over the positions
    where both searches completed it; and how many positions were dropped."""
    sub = df[(df.game == game) & (df.depth == depth)]
    a = sub[sub.label == num].set_index("position")
    b = sub[sub.label == den].set_index("position")
    both = a.index.intersection(b.index)
    ok = [p for p in both if a.at[p, "complete"] and b.at[p, "complete"]]
    return (a.loc[ok, metric] / b.loc[ok, metric]).astype(float), len(both) - len(ok)


def geo(x) -> float:
    x = np.asarray(x, dtype=float)
    return float(np.exp(np.log(x).mean())) if len(x) else float("nan")


#: the judged claims of a game: (key, source, claim, numerator label, denominator label,
#: metric, depth family, plies short of the family's depth); each is one paired contrast, a
#: ratio below 1 is the claim. MTD(f) and aspiration are judged at the two deepest depths
#: (both parities: the side that moved last changes the evaluation's sign of swing).
def contrasts(game: str) -> list[tuple]:
    return [c if len(c) == 8 else (*c, 0) for c in _contrasts(game)]


#: each claim's pre-registered rule (experiments.intervals.Rule): the claimed ratio and the
#: equivalence margin; Plaat et al. 1996 claim MTD(f) visits 5-10% fewer leaves than
#: NegaScout: the weakest form, at most 0.95, is tested
def rule(key: str) -> Rule:
    return Rule(0.95) if key.startswith("mtdf") else Rule(1.0)


def _contrasts(game: str) -> list[tuple]:
    doc = "cleared per decision" if not DOC_KEEP[game] else "kept for the game"
    out = [
        ("id", "id", ("with a TT and history ordering, iterative deepening searches fewer nodes than a direct "
         "search to the same depth"), "alphabeta+history+tt+id", "alphabeta+history+tt", "nodes", "ordered"),
        *[(f"aspiration_{par}", "aspiration", (f"aspiration windows (width {WINDOW[game]}) save nodes "
           f"(NegaScout with TT, history, ID{', quiescence' if ENGINE[game] else ''}; {par} depth)"),
           "negascout+history+tt+id grain 1+aspiration", "negascout+history+tt+id grain 1",
           "nodes", "ordered", back) for back, par in ((0, "deepest"), (1, "next"))],
        *[(f"mtdf_g{g}_{par}", "plaat", (f"MTD(f) visits at most 0.95x NegaScout's leaves, both with TT, "
           f"history, ID{', quiescence' if ENGINE[game] else ''} at evaluation grain {g} ({par} depth)"),
           f"mtdf+history+tt+id grain {g}", f"negascout+history+tt+id grain {g}", "leaves", "ordered", back)
          for g in JUDGED_GRAINS for back, par in ((0, "deepest"), (1, "next"))],
        ("grain", "plaat", "a coarser evaluation needs fewer MTD(f) passes",
         f"mtdf+history+tt+id grain {GRAIN}", "mtdf+history+tt+id grain 1", "passes", "ordered"),
        ("tt_replace", "breuker", ("with a table too small for the search, a depth-preferred replacement "
         "scheme beats always-replace"), "alphabeta+history+tt+id depth-preferred",
         "alphabeta+history+tt+id always-replace", "nodes", "ordered"),
        ("history_inc", "000", f"the history increment 1 << depth orders better than depth^2 (table {doc})",
         "history document", "history square", "nodes", "line"),
        ("history_keep", "000", f"the document's history table lifetime for {game} ({doc}) is the better one",
         "history document", "history other lifetime", "nodes", "line"),
        ("history_key", "000", "a history key that includes the moving piece orders better than (from, to)",
         "history document", "history fromto", "nodes", "line"),
    ]
    if game == "xiangqi":
        out += [
            ("captures", "000", ("the history heuristic orders plain alpha-beta better than captures-first "
             "(MVV-LVA) ordering"), "alphabeta+history", "alphabeta+mvv_lva", "nodes", "plain"),
            ("nullmove", "donninger", ("null-move pruning cuts the nodes of a well-ordered alpha-beta "
             "(history, TT, killers, ID)"), "alphabeta+history+tt+killers+id+nullmove",
             "alphabeta+history+tt+killers+id", "nodes", "ordered"),
            ("lmr", "heinz", ("late-move reductions cut the nodes of a well-ordered alpha-beta "
             "(history, TT, killers, ID)"), "alphabeta+history+tt+killers+id+lmr",
             "alphabeta+history+tt+killers+id", "nodes", "ordered"),
        ]
    return out


def _extras(df: pd.DataFrame, game: str, key: str, setting: dict) -> str:
    """The descriptive numbers a claim reports besides its contrast."""
    d = setting["depth"][game]
    if key == "id":
        r, _ = paired(df, game, "alphabeta+id", "alphabeta", "nodes", d["plain"])
        return f"; reported: without memory, nodes alphabeta+id / alphabeta at depth {d['plain']} {geo(r):.3f}"
    if key.startswith("aspiration"):
        # an iteration's aspiration search fails (and is searched again with a full window)
        # exactly when its value lies a window or more from the previous iteration's; the
        # pre-registered variant centres the window on the value two iterations back
        sub = df[(df.game == game) & (df.label == "negascout+history+tt+id grain 1+aspiration") & df.complete &
                 (df.depth <= d["ordered"])].sort_values(["position", "depth"])
        one = sub.groupby("position").value.diff().dropna().abs()
        two = sub.groupby("position").value.diff(2).dropna().abs()
        rate = float((one >= WINDOW[game]).mean()) if len(one) else float("nan")
        rate2 = float((two >= WINDOW[game]).mean()) if len(two) else float("nan")
        return (f"; reported: the root value moves a window or more between consecutive iterations on "
                f"{rate:.0%} of {len(one)} (a re-search each; median move {one.median():.0f}), two "
                f"iterations apart on {rate2:.0%} of {len(two)} (median {two.median():.0f})")
    if key == "grain" or key.startswith("mtdf"):
        parts = []
        for g in GRAINS:
            sub = df[(df.game == game) & (df.label == f"mtdf+history+tt+id grain {g}") &
                     (df.depth == d["ordered"]) & df.complete]
            parts.append(f"grain {g} {(sub.passes / sub.iterations).mean():.2f}")
        ns = df[(df.game == game) & (df.label == "negascout+history+tt+id grain 1") & (df.depth == d["ordered"])]
        return ("; reported: MTD(f) passes per iteration at depth " + str(d["ordered"]) + ", " + ", ".join(parts)
                + f"; NegaScout nodes per TT slot {ns.nodes.median() / TT_BIG:.2f} (median; an upper "
                "bound of the table's fill)")
    if key == "captures":
        r, _ = paired(df, game, "alphabeta+mvv_lva", "alphabeta", "nodes", d["plain"])
        return f"; reported: captures first / generation order {geo(r):.3f}"
    if key in ("nullmove", "lmr"):
        sub = df[(df.game == game) & (df.depth == d["ordered"])]
        base = sub[sub.label == "alphabeta+history+tt+killers+id"].set_index("position").value
        part = sub[sub.label == f"alphabeta+history+tt+killers+id+{key}"].set_index("position").value
        common = base.index.intersection(part.index)
        same = float((base[common] == part[common]).mean()) if len(common) else float("nan")
        return f"; reported: same root value as without on {same:.0%} of {len(common)} positions"
    return ""


def run(full: bool = False, seed: int = 1, out=None, resume: bool = False) -> list[Claim]:
    """The experiment into ``out``; ``resume`` continues a stopped run of the same setting
    and code from its journal (``gameai reproduce --resume``)."""
    res = Results(NAME, out)
    setting = FULL if full else QUICK
    _warm_up(setting)
    journal = res.dir / JOURNAL
    df = pd.DataFrame(run_jobs(jobs(setting), journal=journal, resume=resume))
    df = df.sort_values(["game", "position", "label", "depth"]).reset_index(drop=True)
    res.table(df)
    journal.unlink(missing_ok=True)         # the table holds every row now

    cmd = command_for(NAME, full)
    ratios, meta, few = {}, {}, {}
    for game in GAMES:
        for key, _, _, num, den, metric, fam, back in contrasts(game):
            depth = setting["depth"][game][fam] - back
            r, dropped = paired(df, game, num, den, metric, depth)
            meta[f"{game}/{key}"] = (depth, dropped)
            if len(r) >= 3:
                ratios[f"{game}/{key}"] = (r.to_numpy(), rule(key))
            else:
                few[f"{game}/{key}"] = len(r)
    judged = judge(FAMILY, ratios, seed)
    claims, rows = [], []
    for game in GAMES:
        for key, src, text, num, den, metric, fam, back in contrasts(game):
            k = f"{game}/{key}"
            c = judged.get(k)
            depth, dropped = meta[k]
            head = f"{game}, depth {depth}, {metric} {num} / {den} per position: "
            if c is None:
                measured = head + (f"{few[k]} positions with both searches complete: too few for "
                                   "a contrast (not judged)")
                verdict = NOT_JUDGED
            else:
                measured = (head + c.text() + f"; {dropped} positions excluded (a search ended early or on "
                            "a mate)")
                verdict = c.verdict
                rows.append({"family": FAMILY, "game": game, "claim": key, "depth": depth, "metric": metric,
                             "numerator": num, "denominator": den, **asdict(c)})
            claims.append(Claim(NAME, SOURCES[src], f"{game}: {text}", measured + _extras(df, game, key, setting),
                                holds_of(verdict), cmd, verdict=verdict,
                                short=f"{game}: {SHORT[key]}" if key in SHORT else
                                f"{game}: {SHORT.get(key.split('_')[0], key)}"
                                + (f" ({key.split('_', 1)[1].replace('_', ', ')})" if "_" in key else ""),
                                estimate=(f"{c.interval_text()} ({metric} ratio, depth {depth})" if c else ""),
                                n=c.n if c else None, family=FAMILY if c else ""))
    claims.append(Claim(NAME, SOURCES["aspiration"], "both games: aspiration windows centred on the value of the "
                        "iteration two plies back (same side to move last) save nodes; pre-registered "
                        "variant, with MTD(f)'s first guess from the same iteration",
                        "not run: the searcher has no switch that takes the window centre or MTD(f)'s first "
                        "guess from two iterations back (the driver uses the previous iteration's value); "
                        "the reported rates of a window's misses two iterations apart show what it would "
                        "change", None, cmd, verdict=NOT_JUDGED,
                        short="aspiration / MTD(f) guess two plies back", estimate=""))
    q = _quiescence(df, setting)
    claims.append(Claim(NAME, SOURCES["beal"], "xiangqi: a capture-only quiescence search at the horizon costs "
                        "a bounded factor of extra nodes (reported, not judged: the source states no bound)",
                        f"xiangqi, nodes {QUIESCENCE[0]} / {QUIESCENCE[1]} per position, geometric "
                        "mean by depth: "
                        + ", ".join(f"depth {int(r.depth)} {r.ratio:.2f} (n={int(r.n)})" for r in q.itertuples()),
                        None, cmd, verdict=NOT_JUDGED, short="xiangqi: quiescence costs a bounded factor",
                        estimate=", ".join(f"d{int(r.depth)} {r.ratio:.2f}" for r in q.itertuples())))
    summary = pd.DataFrame(rows)
    res.table(summary, "contrasts")
    _figures(res, ratios, judged, q)
    res.claims(claims)
    res.manifest({"full": full, "positions": {g: list(suites.load(g, setting["positions"][g])) for g in GAMES},
                  "suite_seed": suites.SEED, "depths": setting["depth"], "plies": setting["plies"],
                  "backend": setting["backend"], "windows": WINDOW,
                  "grain": GRAIN, "tt_slots": TT_SLOTS,
                  "verdict_rule": f"experiments/intervals.py judge (Holm over {len(judged)} contrasts, family "
                  f"'{FAMILY}')", "rules": {k: asdict(rule(k.split("/")[1])) for k in ratios},
                  "grains": GRAINS, "tt_big": TT_BIG, "engine": ENGINE}, seed)
    return claims


def _warm_up(setting: dict) -> None:
    """Compile (or load from the cache) each game's kernels once, here, so the workers load
    them from the disk cache."""
    if setting["backend"] == "python":
        return
    for g in GAMES:
        spec = next(iter(suites.load(g, 1).values()))
        s = suites.state(g, spec)
        gameai.make_searcher(f"alphabeta(depth=1,backend={setting['backend']})").search(s)


def _quiescence(df: pd.DataFrame, setting: dict) -> pd.DataFrame:
    rows = []
    for d in range(1, setting["depth"]["xiangqi"]["ordered"] + 1):
        r, _ = paired(df, "xiangqi", *QUIESCENCE, "nodes", d)
        if len(r):
            rows.append({"depth": d, "ratio": geo(r), "n": len(r)})
    return pd.DataFrame(rows, columns=["depth", "ratio", "n"])


def _figures(res: Results, ratios: dict, judged: dict, q: pd.DataFrame) -> None:
    """The forest plot of the judged contrasts (one Holm family); the quiescence cost by depth."""
    if judged:
        res.figure(forest_figure({k: v for k, (v, _) in ratios.items()}, judged,
                                 f"Holm family '{FAMILY}'"))
    fig, ax = plt.subplots(figsize=(5, 3.6))
    ax.plot(q.depth, q.ratio, marker="o")
    ax.set_yscale("log")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("depth")
    ax.set_ylabel("nodes with / without quiescence (geometric mean)")
    ax.set_title("Xiangqi: quiescence search cost\n(alpha-beta + TT + history + ID + MVV-LVA)", fontsize=9)
    fig.tight_layout()
    res.figure(fig, "quiescence")


def _recount(row: dict, manifest: dict) -> dict:
    """One search row searched again at the working tree (Python backend, same counts)."""
    game, pos = row["game"], row["position"]
    pool = suites.load(game)
    if pos not in pool:
        raise Gone(f"position {pos} is no longer in the {game} suite")
    cfg = {c["label"]: c for c in configs(game)}.get(row["label"])
    if cfg is None:
        raise Gone(f"configuration {row['label']} is no longer searched")
    rows = _search(game, pos, pool[pos], cfg, int(row["depth"]), "python")
    got = next((r for r in rows if r["depth"] == int(row["depth"])), rows[-1])
    return {c: got[c] for c in ("nodes", "leaves", "passes")}


def _checkable(df: pd.DataFrame) -> pd.DataFrame:
    searches = df[df.decisions.isna()] if "decisions" in df else df
    return searches[searches.complete.astype(bool) & (searches.nodes <= MAX_NODES)]


#: what ``gameai reproduce --check`` recounts (:mod:`experiments.check`)
CHECK = Recount("table.parquet", ("nodes", "leaves", "passes"), _checkable, _recount,
                lambda r: f"{r['game']}/{r['position']}/{r['label']}/depth {r['depth']}")


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
