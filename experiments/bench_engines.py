"""gameai bench engines: our best Xiangqi searcher against a Fairy-Stockfish ladder.

Each rung plays ``--games`` games (openings played twice with colours swapped) of one
of our searchers against Fairy-Stockfish at one fixed depth, and prints the score, the
trinomial Elo difference with its 95% interval (as cutechess-cli reports it), the
pentanomial one over colour-swapped pairs (as fastchess does), the faults and our mean
seconds per move. A benchmark, not a test: the figures go to the README with the
command that made them.

Two ladders:

* ``--depths 1 2 3``: our fixed-depth searcher at each depth against one engine setting
  (the ladder measured before time management existed);
* ``--time 1 --fsf-depths 1 3 5 7 --backends python compiled``: our best player at a
  fixed time per move, one row per backend, against Fairy-Stockfish at each depth (the
  issues' goal: at least 50% against depth 7 at 1 s per move).

    gameai bench engines -- --depths 1 2 3 4 --games 20
    gameai bench engines -- --time 1 --fsf-depths 3 5 7 --backends python compiled --games 10
"""
from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

OURS = "negascout(depth={d},id=true,tt=true,history=true,killers=true,aspiration=true)"
#: the strongest switch set measured so far, run at a time per move
BEST = ("negascout(time={t},id=true,tt=true,tt_size=4194304,history=true,killers=true,"
        "aspiration=true,quiescence=true,evasions=true,mvv_lva=true,nullmove=true,lmr=true,"
        "check_ext=true,mate_distance=true,repetition=true{backend})")


def rungs(args) -> list[tuple[str, str, str]]:
    """(label, our spec, engine parameters) per rung."""
    fixed = "option.Hash=16,option.Threads=1"
    if args.time is None:
        return [(f"depth {d}", OURS.format(d=d), args.engine) for d in args.depths]
    out = []
    for fd in args.fsf_depths:
        for b in args.backends:
            spec = BEST.format(t=args.time, backend="" if b == "python" else f",backend={b}")
            out.append((f"{b} {args.time:g}s vs d{fd}", spec, f"protocol=ucci,depth={fd},{fixed}"))
    return out


def main(argv: list[str] | None = None) -> int:
    from gameai.tournament.runner import TournamentConfig, run_tournament
    from gameai.tournament.standings import pairing_rows

    ap = argparse.ArgumentParser(prog="gameai bench engines", description=__doc__.splitlines()[0])
    ap.add_argument("--fsf", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    ap.add_argument("--engine", default="protocol=ucci,depth=1,option.Hash=16,option.Threads=1",
                    help="Fairy-Stockfish's engine(...) parameters besides cmd (depth ladder)")
    ap.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3],
                    help="our fixed depths (when --time is not given)")
    ap.add_argument("--time", type=float, default=None, help="our seconds per move")
    ap.add_argument("--fsf-depths", type=int, nargs="+", default=[1, 3, 5, 7])
    ap.add_argument("--backends", nargs="+", default=["python", "compiled"],
                    choices=["python", "compiled"])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not os.access(args.fsf, os.X_OK):
        print(f"Fairy-Stockfish not found at {args.fsf} (apt-get install fairy-stockfish)")
        return 1
    todo = rungs(args)
    print(f"xiangqi: {len(todo)} rungs against Fairy-Stockfish ({args.fsf}); {args.games} games "
          f"per rung, max {args.max_plies} plies, seed {args.seed}, {args.jobs} workers")
    for _, spec, eng in todo[:1] + [r for r in todo[1:] if r[1] != todo[0][1]]:
        print(f"  ours: {spec}")
    print(f"{'rung':>22} {'W-D-L':>9} {'score':>6} {'Elo (trinomial 95%)':>20} "
          f"{'Elo (pentanomial)':>18} {'faults':>6} {'s/move':>7} {'s/game':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, ours, eng) in enumerate(todo):
            fsf = f"engine(cmd={args.fsf},{eng},name=fairy-stockfish)"
            cfg = TournamentConfig(game="xiangqi", players=[ours, fsf], games=args.games,
                                   seed=args.seed, opening_plies=2, max_plies=args.max_plies)
            t0 = time.perf_counter()
            r = run_tournament(cfg, Path(tmp) / f"r{i}", jobs=args.jobs, progress=False, log=None)
            dt = time.perf_counter() - t0
            row = pairing_rows(r.games, order=[ours, fsf])[0]
            print(f"{label:>22} {row['wins']:>3}-{row['draws']}-{row['losses']:<3} "
                  f"{row['score']:>6.3f} {row['elo']:>+9.0f} ± {row['elo_error']:<8.0f} "
                  f"{row['penta_elo']:>+8.0f} ± {row['penta_error']:<7.0f} {row['faults']:>6} "
                  f"{_seconds_per_move(r, ours):>7.2f} {dt / len(r.games):>7.1f}", flush=True)
    return 0


def _seconds_per_move(result, ours: str) -> float:
    """Our mean wall-clock seconds per move over the rung's games (from moves.parquet)."""
    import pandas as pd
    df = pd.read_parquet(Path(result.out) / "moves.parquet", columns=["player", "time_s"])
    return float(df.loc[df.player == ours, "time_s"].mean())


if __name__ == "__main__":
    raise SystemExit(main())
