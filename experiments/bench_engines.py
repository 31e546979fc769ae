"""gameai bench engines: a depth ladder of our best Xiangqi searcher against Fairy-Stockfish.

Each rung plays ``--games`` games (openings played twice with colours swapped) of
``negascout`` with iterative deepening, TT, history, killers and aspiration windows at
one depth against Fairy-Stockfish at a fixed setting, and prints the score, the
trinomial Elo difference with its 95% interval (as cutechess-cli reports it), the
pentanomial one over colour-swapped pairs (as fastchess does), and the faults. A
benchmark, not a test: the figures go to the README with the command that made them.

    gameai bench engines
    gameai bench engines -- --depths 1 2 3 4 --games 20 --engine "protocol=uci,depth=1"
"""
from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

OURS = "negascout(depth={d},id=true,tt=true,history=true,killers=true,aspiration=true)"


def main(argv: list[str] | None = None) -> int:
    from gameai.tournament.runner import TournamentConfig, run_tournament
    from gameai.tournament.standings import pairing_rows

    ap = argparse.ArgumentParser(prog="gameai bench engines", description=__doc__.splitlines()[0])
    ap.add_argument("--fsf", default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish")
    ap.add_argument("--engine", default="protocol=ucci,depth=1,option.Hash=16,option.Threads=1",
                    help="Fairy-Stockfish's engine(...) parameters besides cmd")
    ap.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if not os.access(args.fsf, os.X_OK):
        print(f"Fairy-Stockfish not found at {args.fsf} (apt-get install fairy-stockfish)")
        return 1
    fsf = f"engine(cmd={args.fsf},{args.engine},name=fairy-stockfish)"
    print(f"xiangqi: our negascout ladder against {fsf}; {args.games} games per rung, "
          f"max {args.max_plies} plies, seed {args.seed}, {args.jobs} workers")
    print(f"{'depth':>5} {'W-D-L':>9} {'score':>6} {'Elo (trinomial 95%)':>20} "
          f"{'Elo (pentanomial)':>18} {'faults':>6} {'s/game':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for d in args.depths:
            ours = OURS.format(d=d)
            cfg = TournamentConfig(game="xiangqi", players=[ours, fsf], games=args.games,
                                   seed=args.seed, opening_plies=2, max_plies=args.max_plies)
            t0 = time.perf_counter()
            r = run_tournament(cfg, Path(tmp) / f"d{d}", jobs=args.jobs, progress=False, log=None)
            dt = time.perf_counter() - t0
            row = pairing_rows(r.games, order=[ours, fsf])[0]
            print(f"{d:>5} {row['wins']:>3}-{row['draws']}-{row['losses']:<3} {row['score']:>6.3f} "
                  f"{row['elo']:>+9.0f} ± {row['elo_error']:<8.0f} "
                  f"{row['penta_elo']:>+8.0f} ± {row['penta_error']:<7.0f} {row['faults']:>6} "
                  f"{dt / len(r.games):>7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
