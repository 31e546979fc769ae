"""gameai bench tournament: the same small tournament on 1 and N joblib workers and on Dask.

Prints games per minute for each run, the speed-up over one worker and the parallel
efficiency (speed-up / workers), and checks that every run produced the same games
(timing columns aside). Worker start-up is part of the measured wall time, as a user
sees it; use more or longer games to amortise it.

    gameai bench tournament
    gameai bench tournament -- --games 24 --jobs 2 --game gomoku \\
        --player "alphabeta(depth=2)" --player "alphabeta(depth=1)"
"""
from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path


def _run(cfg, out: Path, jobs: int, backend: str) -> tuple[float, list]:
    from gameai.tournament.runner import run_tournament
    t0 = time.perf_counter()
    r = run_tournament(cfg, out, jobs=jobs, backend=backend, progress=False, log=None)
    dt = time.perf_counter() - t0
    games = [{k: v for k, v in g.items() if k != "time_s"} for g in r.games]
    return dt, games


def main(argv: list[str] | None = None) -> int:
    import gameai
    from gameai.tournament.runner import TournamentConfig

    ap = argparse.ArgumentParser(prog="gameai bench tournament", description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="gomoku")
    ap.add_argument("--player", action="append", dest="players")
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-dask", action="store_true")
    args = ap.parse_args(argv)
    players = args.players
    if not players:
        strong = "alphabeta(depth=2)" if "alphabeta" in gameai.SEARCHERS.names() else "random"
        weak = "pointweight" if "pointweight" in gameai.PLAYERS.names() else "random"
        players = [strong, weak]
    cfg = TournamentConfig(game=args.game, players=players, games=args.games, seed=args.seed,
                           opening_plies=2)
    print(f"tournament: {args.game}, {' vs '.join(players)}, {args.games} games, seed {args.seed}, "
          f"{os.cpu_count()} cores")
    runs = [("joblib", 1), ("joblib", args.jobs)]
    if not args.no_dask:
        try:
            import distributed  # noqa: F401
            runs.append(("dask", args.jobs))
        except ImportError:
            print("dask: distributed not installed")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (backend, jobs) in enumerate(runs):
            dt, games = _run(cfg, Path(tmp) / f"run{i}", jobs, backend)
            results.append((backend, jobs, dt, games))
    base = results[0][2]
    print(f"{'backend':8} {'workers':>7} {'wall s':>8} {'games/min':>10} {'speed-up':>9} {'efficiency':>10}")
    for backend, jobs, dt, games in results:
        speed = base / dt
        print(f"{backend:8} {jobs:7d} {dt:8.2f} {60 * len(games) / dt:10.1f} {speed:9.2f} "
              f"{speed / jobs:10.0%}")
    same = all(r[3] == results[0][3] for r in results)
    print(f"same games on every run: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
