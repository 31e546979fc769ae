"""Branching factor: Xiangqi's legal moves per position in games worth the name, against the
004 document's "about 40 in the middle game" and the path counts it derives from that 40
(2.5 million at depth 4, 100 million at 5, 4 billion at 6); Gomoku's candidate moves with
and without the distance-2 restriction.

**Legal moves.** Xiangqi games of Fairy-Stockfish against itself (UCCI, a fixed node count
per move, so the games are reproducible), after 4 seeded random plies; for comparison the
same number of games of our own alpha-beta (depth 3, history heuristic). Middle game =
plies 20-79 *and* at least 8 of the 12 rooks, horses and cannons still on the board.

**Paths, counted at every claimed depth.** ``perft(d)`` (every legal move path of length
d, counted by the compiled kernel) for d = 4, 5 and 6 from the first positions of the
committed Xiangqi suite (:func:`experiments.suites.load`: middle games of Fairy-Stockfish
self-play, screened as balanced). No depth is extrapolated from another: a claimed depth
that is not counted is reported as not counted, without a verdict.

**One verdict rule for "about 40"** (:func:`about_40`, fixed before the data): a measured
per-ply branching factor b is "about 40" when 40/1.25 <= b <= 40*1.25 (32 to 50). It judges
the mean legal-move count *and* each path claim, the latter through the per-ply factor
its paths imply, ``perft(d) ** (1/d)`` (geometric mean over the positions), so the same
discrepancy can never hold in one row and fail in the next.

Every game and every perft count is one job of :func:`experiments.parallel.pmap`, the
longest (depth-6 counts) first. :func:`estimate` gives the wall time from per-unit costs
measured on the 2-core reference machine.

Quick: 6 Fairy-Stockfish games (2,000 nodes per move) and 6 of ours, perft(4) and perft(5)
on 2 suite positions, perft(6) on 1: about 2 minutes. ``--full``: 24 + 24 games (20,000
nodes per move), perft(4) and perft(5) on the pool's 46 positions, perft(6) on 8: about 12
minutes on 2 cores (a perft(6) about 125 CPU seconds, the three games of a seed about 12), so the
15 minutes it is meant to fit hold a 20% error in those costs.
"""
from __future__ import annotations

import math
import os
import shutil
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from tqdm import tqdm

import gameai
from gameai import compiled

from . import selfplay, suites
from ._common import Claim, Results, cli, command_for, source
from .check import Recount
from .parallel import pmap

NAME = "branching_factor"
OURS = "alphabeta(depth=3,history=true)"
CLAIMED_B, TOLERANCE = 40.0, 1.25
MIDDLE = (20, 80)          # plies
MIN_MAJORS = 8             # of the 12 rooks, horses and cannons
PATH_CLAIMS = {4: 2.5e6, 5: 1e8, 6: 4e9}
# "perft": depth -> how many suite positions (the first ones) are counted to that depth
SETTINGS = {False: {"games": 6, "fs_nodes": 2000, "max_plies": 160, "perft": {4: 2, 5: 2, 6: 1}},
            True: {"games": 24, "fs_nodes": 20000, "max_plies": 300, "perft": {4: 46, 5: 46, 6: 8}}}
GOMOKU = "alphabeta(depth=2,history=true)"
PYTHON_PERFT_DEPTH = 5     # deepest count without the compiled kernel (numba missing)


def about_40(b: float) -> bool:
    """The verdict rule for every "about 40" row: within a factor 1.25 of 40 per ply."""
    return CLAIMED_B / TOLERANCE <= b <= CLAIMED_B * TOLERANCE


FS_SOURCE = "Fairy-Stockfish self-play"


def _game_mean_ci(df: pd.DataFrame, col: str) -> tuple[float, float, int]:
    """Mean of the per-game means and the half-width of its 95% interval (1.96 standard
    errors over games: positions of one game are not independent)."""
    per_game = df.groupby("seed")[col].mean()
    n = len(per_game)
    half = 1.96 * float(per_game.std(ddof=1)) / math.sqrt(n) if n > 1 else math.nan
    return float(per_game.mean()), half, n


def _perft(name: str, fen: str, depth: int) -> dict:
    """One count: perft(depth) of a suite position by the compiled kernel, with its wall and
    CPU seconds (the CPU seconds, unlike the wall, do not depend on what else runs)."""
    s = gameai.load_game("xiangqi", fen=fen)
    gameai.perft(s, 2, bulk=True, backend="compiled")  # the kernel loaded (or compiled) outside the timing
    t0, c0 = time.perf_counter(), time.process_time()
    n = gameai.perft(s, depth, bulk=True, backend="compiled")  # bulk: the last ply counted, not played
    return {"position": name, "fen": fen, "depth": depth, "legal_moves": len(s.legal_moves()), "leaves": n,
            "time_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0}


def _suite_header() -> str:
    """The committed Xiangqi suite's own description (its first comment line), for the
    manifest: which pool the counted positions came from."""
    for line in (suites.DATA / "xiangqi.txt").read_text().splitlines():
        if line.startswith("#"):
            return line.lstrip("# ")
    return ""


def _job(kind: str, *args) -> list[dict] | dict:
    """One parallel job: a self-play game (``"game"``) or a perft count (``"perft"``)."""
    return selfplay.play(*args) if kind == "game" else _perft(*args)


def _jobs(cfg: dict, seed: int, fs: str | None) -> list[tuple]:
    """Every job of a run, the longest first (deepest counts, then Fairy-Stockfish games,
    ours, Gomoku) so that the cores stay busy to the end."""
    suite = list(suites.load("xiangqi", max(cfg["perft"].values(), default=0)).items())
    n = cfg["games"]
    jobs = [("perft", name, fen, d) for d in sorted(cfg["perft"], reverse=True) for name, fen in suite[:cfg["perft"][d]]]
    jobs += [("game", "xiangqi", fs, seed + i, 4, cfg["max_plies"]) for i in range(n)] if fs else []
    jobs += [("game", "xiangqi", OURS, seed + i, 4, cfg["max_plies"]) for i in range(n)]
    jobs += [("game", "gomoku", GOMOKU, seed + i, 4) for i in range(n)]
    return jobs


# CPU seconds per job, measured on the 2-core reference machine while other work shared it
# (so an idle machine does no worse). perft: mean over the first 12 positions of the suite
# of Fairy-Stockfish middle games (31 to 53 legal moves) at depths 4 and 5. Depth 6: two
# counts (4.35e9 paths in 76 s, 1.31e9 in 31 s: 1.9e-8 s a path) times the mean perft(6)
# of the first 8 positions as perft(5)**2/perft(4) predicts it (6.5e9; within 10% of the
# two counted).
PERFT_CPU_S = {4: 0.07, 5: 2.5, 6: 125.0}
GAME_CPU_S = {False: {"fairy-stockfish": 1.2, "ours": 2.4, "gomoku": 0.9},
              True: {"fairy-stockfish": 9.0, "ours": 2.5, "gomoku": 0.9}}
WORKER_START_S = 10.0      # a worker's imports and compiled kernels loaded from numba's cache


def estimate(full: bool) -> float:
    """Wall seconds of a run: the jobs' measured CPU seconds shared by the local cores, plus
    the workers' start."""
    cfg = SETTINGS[full]
    games = GAME_CPU_S[full]
    have_fs = shutil.which(selfplay.FAIRY_STOCKFISH) is not None
    cpu = sum(n * PERFT_CPU_S[d] for d, n in cfg["perft"].items())
    cpu += cfg["games"] * (games["ours"] + games["gomoku"] + (games["fairy-stockfish"] if have_fs else 0.0))
    longest = max((PERFT_CPU_S[d] for d in cfg["perft"]), default=0.0)  # one job is one core's
    return WORKER_START_S + max(cpu / (os.cpu_count() or 1), longest)


def run(full: bool = False, seed: int = 1, out=None) -> list[Claim]:
    res = Results(NAME, out)
    cfg = SETTINGS[full]
    n = cfg["games"]
    # Stronger games come from Fairy-Stockfish (Debian's fairy-stockfish package). Without
    # it the main job still runs: our own self-play is then the reference, and says so.
    have_fs = shutil.which(selfplay.FAIRY_STOCKFISH) is not None
    if not have_fs:
        tqdm.write(f"{NAME}: {selfplay.FAIRY_STOCKFISH} not found (Debian package fairy-stockfish); "
                   f"middle-game positions come from our own {OURS} self-play only")
    fs = selfplay.fairy_stockfish(cfg["fs_nodes"]) if have_fs else None
    ref = FS_SOURCE if have_fs else f"{OURS} self-play"
    if not compiled.AVAILABLE:  # the Python count of one perft(6) takes hours: not counted
        tqdm.write(f"{NAME}: {compiled.REASON}; perft counted to depth {PYTHON_PERFT_DEPTH} only")
        cfg = {**cfg, "perft": {d: n for d, n in cfg["perft"].items() if d <= PYTHON_PERFT_DEPTH}}
    jobs = _jobs(cfg, seed, fs)
    done = list(pmap(_job, jobs, desc=NAME, unit="job"))
    prows = [r for j, r in zip(jobs, done) if j[0] == "perft"]
    games = [(j[1], r) for j, r in zip(jobs, done) if j[0] == "game"]
    xq = pd.DataFrame([r for g, rows in games if g == "xiangqi" for r in rows])
    xq["source"] = np.where(xq.players == fs, FS_SOURCE, f"{OURS} self-play")
    go = pd.DataFrame([r for g, rows in games if g == "gomoku" for r in rows])
    go["full_board_moves"] = 225 - go.ply  # every empty point (no captures in Gomoku)
    xq["middle"] = xq.ply.between(MIDDLE[0], MIDDLE[1] - 1) & (xq.majors >= MIN_MAJORS)
    res.table(pd.concat([xq.assign(game="xiangqi"), go.assign(game="gomoku")], ignore_index=True))

    summary = []
    for src, sub in xq.groupby("source"):
        for label, mask in (("opening (plies 0-19)", sub.ply < MIDDLE[0]), ("middle game", sub.middle),
                            ("endgame (plies 80+ or under 8 majors)", (sub.ply >= MIDDLE[0]) & ~sub.middle)):
            part = sub[mask]
            if part.empty:
                continue
            m, half, g = _game_mean_ci(part, "legal_moves")
            summary.append({"source": src, "phase": label, "mean": m, "ci95": half, "games": g,
                            "positions": len(part)})
    phases = pd.DataFrame(summary)
    res.table(phases, "xiangqi_phases")

    pdf = pd.DataFrame(prows).sort_values(["depth", "position"], ignore_index=True)
    pdf["per_ply_b"] = pdf.leaves ** (1 / pdf.depth)
    res.table(pdf, "xiangqi_perft")

    fs_mid = phases[(phases.source == ref) & (phases.phase == "middle game")].iloc[0]
    our_mid = phases[(phases.source != ref) & (phases.phase == "middle game")]
    paths = []
    for d, claimed in PATH_CLAIMS.items():
        sub = pdf[pdf.depth == d]
        if sub.empty:  # not counted: no verdict (never extrapolated from another depth)
            paths.append({"depth": d, "claimed_paths": claimed, "positions": 0, "measured_paths": math.nan,
                          "per_ply_b": math.nan, "verdict": None})
            continue
        b_eff = float(np.exp(np.log(sub.per_ply_b).mean()))
        paths.append({"depth": d, "claimed_paths": claimed, "positions": len(sub),
                      "measured_paths": float(np.exp(np.log(sub.leaves.astype(float)).mean())),
                      "min_paths": int(sub.leaves.min()), "max_paths": int(sub.leaves.max()),
                      "per_ply_b": b_eff, "verdict": about_40(b_eff)})
    paths = pd.DataFrame(paths)
    res.table(paths, "path_counts")
    res.figure(_figure(xq, go, pdf, n))

    cmd = command_for(NAME, full)
    rule = f"rule: about 40 = {CLAIMED_B / TOLERANCE:.0f} to {CLAIMED_B * TOLERANCE:.0f} per ply"
    ours_text = (f"; our {OURS} self-play: {float(our_mid['mean'].iloc[0]):.1f} +/- {float(our_mid['ci95'].iloc[0]):.1f}"
                 if not our_mid.empty else "")
    claims = [Claim(
        NAME, source("004"),
        "对于中国象棋而言,在中盘时平均着法数目大约是40种左右 (in the middle game there are about 40 legal moves on average)",
        f"mean legal moves in middle-game positions (plies {MIDDLE[0]}-{MIDDLE[1] - 1}, 8+ of the 12 rooks/horses/"
        f"cannons left) of {n} {ref} games: {fs_mid['mean']:.1f} +/- {fs_mid['ci95']:.1f} "
        f"(95% over games, {int(fs_mid['positions'])} positions){ours_text}; {rule}",
        about_40(float(fs_mid["mean"])), cmd, short="about 40 legal moves in the middle game",
        estimate=f"{fs_mid['mean']:.1f} +/- {fs_mid['ci95']:.1f}", n=int(fs_mid["positions"]))]
    for row in paths.itertuples():
        how = (f"perft({row.depth}) counted from the first {row.positions} middle-game "
               f"position{'s' if row.positions != 1 else ''} of the committed Xiangqi suite: geometric mean {row.measured_paths:,.0f} paths "
               f"({row.measured_paths / row.claimed_paths:.2f}x the claim; {row.min_paths:,} to {row.max_paths:,}), "
               f"{row.per_ply_b:.1f} per ply"
               if row.positions else f"not counted at depth {row.depth} in this setting (no verdict)")
        claims.append(Claim(
            NAME, source("004"),
            f"搜索{row.depth}层需要检查 {row.claimed_paths:,.0f} 条路线 (depth {row.depth} means "
            f"{row.claimed_paths:,.0f} paths, i.e. about 40^{row.depth})",
            f"{how}; {rule}", None if row.verdict is None else bool(row.verdict), cmd,
            verdict="not judged" if row.verdict is None else None,
            short=f"perft({row.depth}) is about 40^{row.depth} paths",
            estimate=f"{row.per_ply_b:.1f} per ply" if row.positions else "", n=row.positions or None))
    gm = go[(go.ply >= 10) & (go.ply < 40)]
    claims.append(Claim(
        NAME, "context (no claim in the source documents)",
        "Gomoku: candidate moves within distance 2 of a stone vs every empty point",
        f"plies 10-39 of {n} alpha-beta self-play games: {float(gm.legal_moves.mean()):.1f} candidates within "
        f"distance 2 vs {float(gm.full_board_moves.mean()):.1f} empty points "
        f"({float(gm.full_board_moves.mean() / gm.legal_moves.mean()):.1f}x fewer)", None, cmd,
        verdict="not judged", short="Gomoku candidates near stones (context)"))
    res.claims(claims)
    res.manifest({"full": full, **{k: list(v) if isinstance(v, tuple) else v for k, v in cfg.items()},
                  "fairy_stockfish": fs, "ours": OURS, "middle": {"plies": list(MIDDLE), "min_majors": MIN_MAJORS},
                  "perft_suite": _suite_header(), "perft_suite_positions": sorted(pdf.position.unique().tolist()),
                  "verdict_rule": about_40.__doc__}, seed)
    return claims


def _figure(xq: pd.DataFrame, go: pd.DataFrame, pdf: pd.DataFrame, n: int):
    fig, axes = plt.subplots(1, 3, figsize=(17, 5))
    ax = axes[0]
    for src, sub in xq.groupby("source"):  # by move pair: Red's and Black's counts differ
        per = sub.groupby(sub.ply // 2 * 2).legal_moves
        mean, se, cnt = per.mean(), per.std(ddof=1) / np.sqrt(per.count()), per.count()
        keep = cnt >= 3
        ax.plot(mean.index[keep], mean[keep], label=src)
        ax.fill_between(mean.index[keep], (mean - 1.96 * se)[keep], (mean + 1.96 * se)[keep], alpha=0.25)
    ax.axhline(CLAIMED_B, color="r", ls="--", label="004 document: about 40 in the middle game")
    ax.axhspan(CLAIMED_B / TOLERANCE, CLAIMED_B * TOLERANCE, color="r", alpha=0.07, label="'about 40': 32 to 50")
    ax.axvspan(*MIDDLE, color="#ddd", alpha=0.5, label=f"plies {MIDDLE[0]}-{MIDDLE[1] - 1}")
    ax.set_ylim(bottom=0)
    ax.set_xlabel("ply (Red's and Black's move averaged)", fontsize=11)
    ax.set_ylabel("legal moves (mean, 95% band over games)", fontsize=11)
    ax.legend(fontsize=9)
    ax.set_title(f"Xiangqi legal moves, {n} games per source", fontsize=12)
    ax = axes[1]
    depths = sorted(pdf.depth.unique())
    for d in depths:
        sub = pdf[pdf.depth == d]
        ax.plot([d] * len(sub), sub.per_ply_b, "o", alpha=0.5, color="#48a")
        g = float(np.exp(np.log(sub.per_ply_b).mean()))
        ax.plot([d - 0.15, d + 0.15], [g, g], "k-", lw=2)
    ax.axhline(CLAIMED_B, color="r", ls="--")
    ax.axhspan(CLAIMED_B / TOLERANCE, CLAIMED_B * TOLERANCE, color="r", alpha=0.07)
    ax.set_xticks(depths)
    ax.set_xlim(min(depths) - 0.6, max(depths) + 0.6)
    ax.set_xlabel("perft depth d (plies)", fontsize=11)
    ax.set_ylabel("perft(d) ** (1/d): paths per ply", fontsize=11)
    ax.set_title("Middle-game positions: per-ply factor (bar: geometric mean)", fontsize=12)
    ax = axes[2]
    per = go.groupby("ply")
    for col, label in (("legal_moves", "candidates within distance 2"), ("full_board_moves", "every empty point")):
        mean, se = per[col].mean(), per[col].std(ddof=1) / np.sqrt(per[col].count())
        ax.plot(mean.index, mean, label=label)
        ax.fill_between(mean.index, mean - 1.96 * se, mean + 1.96 * se, alpha=0.25)
    ax.set_xlabel("ply", fontsize=11)
    ax.set_ylabel("moves (mean, 95% band over games)", fontsize=11)
    ax.set_yscale("log")
    ax.legend(fontsize=9)
    ax.set_title("Gomoku moves considered", fontsize=12)
    fig.tight_layout()
    return fig


def _recount(row: dict, manifest: dict) -> dict:
    """One perft count of the table, counted again at the working tree by the Python
    reference (bulk: the last ply counted, not played; no kernel to compile)."""
    s = gameai.load_game("xiangqi", fen=row["fen"])
    return {"leaves": gameai.perft(s, int(row["depth"]), bulk=True)}


#: what ``gameai reproduce --check`` recounts (:mod:`experiments.check`): the smaller
#: perft(4) counts (a few seconds each in Python); the self-play games need Fairy-Stockfish
CHECK = Recount("xiangqi_perft.parquet", ("leaves",),
                lambda df: df[(df.depth == 4) & (df.leaves <= 1_500_000)], _recount,
                lambda r: f"perft({r['depth']}) of {r['position']}")


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
