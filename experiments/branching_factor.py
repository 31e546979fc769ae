"""Branching factor: Xiangqi's legal moves per position in games worth the name, against the
004 document's "about 40 in the middle game" and the path counts it derives from that 40
(2.5 million at depth 4, 100 million at 5, 4 billion at 6); Gomoku's candidate moves with
and without the distance-2 restriction.

**Positions.** Xiangqi games of Fairy-Stockfish against itself (UCCI, a fixed node count
per move, so the games are reproducible), after 4 seeded random plies; for comparison the
same number of games of our own alpha-beta (depth 3, history heuristic). Middle game =
plies 20-79 *and* at least 8 of the 12 rooks, horses and cannons still on the board.

**Paths, counted.** ``perft(d)`` (every legal move path of length d) from middle-game
positions of the Fairy-Stockfish games, not only from the start position: depth 4 in the
quick setting, depths 4 and 5 with ``--full``.

**One verdict rule for "about 40"** (:func:`about_40`, fixed before the data): a measured
per-ply branching factor b is "about 40" when 40/1.25 <= b <= 40*1.25 (32 to 50). It judges
the mean legal-move count *and* each path claim, the latter through the per-ply factor
its paths imply, ``perft(d) ** (1/d)`` (geometric mean over the positions), so the same
discrepancy can never hold in one row and fail in the next. The 4-billion claim (depth 6)
is judged by the deepest measured depth's factor (6 plies of perft are out of reach here).

Quick: 6 Fairy-Stockfish games (2,000 nodes per move) and 6 of ours, perft(4) on 6
positions. ``--full``: 24 + 24 games (20,000 nodes per move), perft(4) and perft(5) on 6.
"""
from __future__ import annotations

import math
import shutil
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from tqdm import tqdm

import gameai

from . import selfplay
from ._common import Claim, Results, cli, command_for, source
from .parallel import pmap

NAME = "branching_factor"
OURS = "alphabeta(depth=3,history=true)"
CLAIMED_B, TOLERANCE = 40.0, 1.25
MIDDLE = (20, 80)          # plies
MIN_MAJORS = 8             # of the 12 rooks, horses and cannons
PATH_CLAIMS = {4: 2.5e6, 5: 1e8, 6: 4e9}
SETTINGS = {False: {"games": 6, "fs_nodes": 2000, "perft_depths": (4,), "perft_positions": 6, "max_plies": 160},
            True: {"games": 24, "fs_nodes": 20000, "perft_depths": (4, 5), "perft_positions": 6, "max_plies": 300}}


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


def _perft(fen: str, depth: int) -> dict:
    s = gameai.load_game("xiangqi", fen=fen)
    t0 = time.perf_counter()
    n = gameai.perft(s, depth, bulk=True)  # bulk: the last ply counted, not played
    return {"fen": fen, "depth": depth, "leaves": n, "time_s": time.perf_counter() - t0}


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
    tasks = [("xiangqi", fs, seed + i, 4, cfg["max_plies"]) for i in range(n)] if have_fs else []
    tasks += [("xiangqi", OURS, seed + i, 4, cfg["max_plies"]) for i in range(n)]
    nxq = len(tasks)
    tasks += [("gomoku", "alphabeta(depth=2,history=true)", seed + i, 4) for i in range(n)]
    games = list(pmap(selfplay.play, tasks, desc=NAME, unit="game"))
    xq = pd.DataFrame([r for g in games[:nxq] for r in g])
    xq["source"] = np.where(xq.players == fs, FS_SOURCE, f"{OURS} self-play")
    go = pd.DataFrame([r for g in games[nxq:] for r in g])
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

    # perft from middle-game positions of the reference games, spread over games and plies
    mid_fs = xq[(xq.source == ref) & xq.middle]
    picks = mid_fs.groupby("seed").apply(lambda g: g.iloc[len(g) // 2], include_groups=False)
    picks = pd.concat([picks, mid_fs.sample(frac=1, random_state=seed)]).drop_duplicates("fen")
    fens = list(picks.fen[: cfg["perft_positions"]])
    prows = [_perft(f, d) for d in cfg["perft_depths"] for f in tqdm(fens, desc=f"perft {d}", unit="position")]
    pdf = pd.DataFrame(prows)
    pdf["per_ply_b"] = pdf.leaves ** (1 / pdf.depth)
    res.table(pdf, "xiangqi_perft")

    fs_mid = phases[(phases.source == ref) & (phases.phase == "middle game")].iloc[0]
    our_mid = phases[(phases.source != ref) & (phases.phase == "middle game")]
    paths = []
    for d, claimed in PATH_CLAIMS.items():
        dd = d if d in cfg["perft_depths"] else max(cfg["perft_depths"])
        sub = pdf[pdf.depth == dd]
        b_eff = float(np.exp(np.log(sub.per_ply_b).mean()))
        paths.append({"depth": d, "claimed_paths": claimed, "perft_depth_used": dd,
                      "measured_paths": float(np.exp(np.log(sub.leaves.astype(float)).mean())) if dd == d else math.nan,
                      "per_ply_b": b_eff, "paths_at_b": b_eff ** d, "verdict": about_40(b_eff)})
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
        about_40(float(fs_mid["mean"])), cmd)]
    for row in paths.itertuples():
        how = (f"perft({row.depth}) from {len(fens)} middle-game positions: geometric mean {row.measured_paths:,.0f} "
               f"paths ({row.measured_paths / row.claimed_paths:.2f}x the claim), {row.per_ply_b:.1f} per ply"
               if row.perft_depth_used == row.depth else
               f"not counted at depth {row.depth}; perft({row.perft_depth_used}) gives {row.per_ply_b:.1f} per ply, "
               f"so about {row.paths_at_b:,.0f} paths at depth {row.depth} ({row.paths_at_b / row.claimed_paths:.2f}x)")
        claims.append(Claim(
            NAME, source("004"),
            f"搜索{row.depth}层需要检查 {row.claimed_paths:,.0f} 条路线 (depth {row.depth} means "
            f"{row.claimed_paths:,.0f} paths, i.e. about 40^{row.depth})",
            f"{how}; {rule}", bool(row.verdict), cmd))
    gm = go[(go.ply >= 10) & (go.ply < 40)]
    claims.append(Claim(
        NAME, "context (no claim in the source documents)",
        "Gomoku: candidate moves within distance 2 of a stone vs every empty point",
        f"plies 10-39 of {n} alpha-beta self-play games: {float(gm.legal_moves.mean()):.1f} candidates within "
        f"distance 2 vs {float(gm.full_board_moves.mean()):.1f} empty points "
        f"({float(gm.full_board_moves.mean() / gm.legal_moves.mean()):.1f}x fewer)", None, cmd))
    res.claims(claims)
    res.manifest({"full": full, **{k: list(v) if isinstance(v, tuple) else v for k, v in cfg.items()},
                  "fairy_stockfish": fs, "ours": OURS, "middle": {"plies": list(MIDDLE), "min_majors": MIN_MAJORS},
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


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
