"""Branching factor: Xiangqi's legal moves per position by game phase over self-play games,
against the 004 document's "about 40 in the middle game" and its path counts (2.5 million
at depth 4, 100 million at 5, 4 billion at 6); Gomoku's candidate moves with and without
the distance-2 restriction; perft ratios from the Xiangqi start position.

Quick: 10 Xiangqi and 10 Gomoku self-play games (alpha-beta depth 2 with history after 6
random plies), perft to depth 3. ``--full``: 40 games each, perft to depth 4.
"""
from __future__ import annotations

import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd
from joblib import Parallel, delayed
from tqdm import tqdm

import gameai

from . import selfplay
from ._common import Claim, Results, cli, command_for

NAME = "branching_factor"
SEARCHER = "alphabeta(depth=2,history=true)"
PHASES = ((0, 20, "opening (plies 0-19)"), (20, 80, "middle game (plies 20-79)"), (80, 10_000, "endgame (plies 80+)"))


def _phase(ply: int) -> str:
    return next(name for lo, hi, name in PHASES if lo <= ply < hi)


def run(full: bool = False, seed: int = 1, out=None) -> list[Claim]:
    res = Results(NAME, out)
    n_games = 40 if full else 10
    perft_depth = 4 if full else 3
    tasks = [delayed(selfplay.play)("xiangqi", SEARCHER, seed + i) for i in range(n_games)]
    tasks += [delayed(selfplay.play)("gomoku", SEARCHER, seed + i, 4) for i in range(n_games)]
    games = list(tqdm(Parallel(n_jobs=-1, return_as="generator")(tasks), total=len(tasks),
                      desc=NAME, unit="game"))
    xq = pd.DataFrame([r for g in games[:n_games] for r in g])
    go = pd.DataFrame([r for g in games[n_games:] for r in g])
    xq["game"], go["game"] = "xiangqi", "gomoku"
    xq["phase"] = xq.ply.map(_phase)
    go["full_board_moves"] = 225 - go.ply  # every empty point (no captures in Gomoku)
    res.table(pd.concat([xq, go], ignore_index=True), "positions")

    phase = xq.groupby("phase").legal_moves.agg(["mean", "std", "count"]).reset_index()
    res.table(phase, "xiangqi_phases")
    mid = float(xq[xq.phase.str.startswith("middle")].legal_moves.mean())
    # phase by material instead of ply: 8 or more of the 12 rooks/horses/cannons left, past ply 10
    mid_material = float(xq[(xq.majors >= 8) & (xq.ply >= 10)].legal_moves.mean())

    s = gameai.load_game("xiangqi")
    perft_rows = []
    for d in range(1, perft_depth + 1):
        t0 = time.perf_counter()
        n = gameai.perft(s, d)
        perft_rows.append({"depth": d, "leaves": n, "time_s": time.perf_counter() - t0})
    pdf = pd.DataFrame(perft_rows)
    pdf["ratio"] = pdf.leaves / pdf.leaves.shift(1).fillna(1)
    res.table(pdf, "xiangqi_perft")
    paths = pd.DataFrame({"depth": [4, 5, 6], "claimed_paths": [2.5e6, 1e8, 4e9]})
    paths["paths_at_measured_b"] = mid ** paths.depth
    paths["paths_at_b40"] = 40.0 ** paths.depth
    res.table(paths, "path_counts")

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    ax = axes[0]
    by_ply = xq.groupby("ply").legal_moves.mean()
    ax.plot(by_ply.index, by_ply.values, label="Xiangqi legal moves (mean over games)")
    ax.axhline(40, color="r", ls="--", label="004 document: about 40 in the middle game")
    ax.axvspan(20, 80, color="#ddd", alpha=0.5, label="middle game (plies 20-79)")
    ax.set_xlabel("ply")
    ax.set_ylabel("legal moves")
    ax.legend(fontsize=8)
    ax.set_title(f"Xiangqi branching factor, {n_games} self-play games")
    ax = axes[1]
    g = go.groupby("ply")[["legal_moves", "full_board_moves"]].mean()
    ax.plot(g.index, g.legal_moves, label="Gomoku candidates within distance 2")
    ax.plot(g.index, g.full_board_moves, label="Gomoku every empty point")
    ax.set_xlabel("ply")
    ax.set_ylabel("moves")
    ax.set_yscale("log")
    ax.legend(fontsize=8)
    ax.set_title("Gomoku branching factor")
    res.figure(fig)

    cmd = command_for(NAME, full)
    start_b = float(pdf.ratio.iloc[-1])
    claims = [
        Claim(NAME, "004_f1fc59599f9037a4.txt",
              "对于中国象棋而言,在中盘时平均着法数目大约是40种左右 (in the middle game there are about 40 legal moves on average)",
              f"mean legal moves over plies 20-79 of {n_games} self-play games: {mid:.1f} "
              f"(opening {float(phase.set_index('phase').loc[PHASES[0][2], 'mean']):.1f}); past ply 10 with 8+ of the 12 "
              f"rooks/horses/cannons left: {mid_material:.1f}; "
              f"perft ratio from the start at depth {perft_depth}: {start_b:.1f}",
              bool(30 <= mid <= 50), cmd),  # "about 40": within 25%
    ]
    for row in paths.itertuples():
        claims.append(Claim(
            NAME, "004_f1fc59599f9037a4.txt",
            f"搜索{row.depth}层需要检查 {row.claimed_paths:,.0f} 条路线 (depth {row.depth} means "
            f"{row.claimed_paths:,.0f} paths, i.e. 40^{row.depth})",
            f"with the measured middle-game branching factor {mid:.1f}: {row.paths_at_measured_b:,.0f} paths "
            f"({row.paths_at_measured_b / row.claimed_paths:.2f}x the claim); 40^{row.depth} = {row.paths_at_b40:,.0f}",
            bool(0.5 <= row.paths_at_measured_b / row.claimed_paths <= 2), cmd))
    gm = go[(go.ply >= 10) & (go.ply < 40)]
    claims.append(Claim(
        NAME, "context (no claim in the source documents)",
        "Gomoku: candidate moves within distance 2 of a stone vs every empty point",
        f"plies 10-39: {float(gm.legal_moves.mean()):.1f} candidates within distance 2 vs "
        f"{float(gm.full_board_moves.mean()):.1f} empty points ({float(gm.full_board_moves.mean() / gm.legal_moves.mean()):.1f}x fewer)",
        None, cmd))
    res.claims(claims)
    res.manifest({"full": full, "games": n_games, "searcher": SEARCHER, "perft_depth": perft_depth,
                  "phases": [p[2] for p in PHASES]}, seed)
    return claims


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
