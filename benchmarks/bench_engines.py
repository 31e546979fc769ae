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
    gameai bench engines -- --time 1 --fsf-depths 7 --backends compiled --games 20 --seeds 3 4 --out DIR

With several ``--seeds`` each rung is played once per seed (other random openings) and
then pooled: one trinomial and one pentanomial estimate over all its games (a pair is
never formed across seeds). The goal's verdict is printed by :func:`verdict`, a rule
fixed before the games. ``--out`` keeps the tournament folders, so every game can be
replayed and every row recomputed.
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
    ap.add_argument("--games", type=int, default=10, help="games per rung and seed")
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--seed", "--seeds", dest="seeds", type=int, nargs="+", default=[1],
                    help="opening seeds; with several, each rung prints a row per seed and "
                         "then the rows pooled")
    ap.add_argument("--out", type=Path, default=None,
                    help="keep every rung's tournament folder (games, moves, manifest) here")
    args = ap.parse_args(argv)
    if not os.access(args.fsf, os.X_OK):
        print(f"Fairy-Stockfish not found at {args.fsf} (apt-get install fairy-stockfish)")
        return 1
    todo = rungs(args)
    print(f"xiangqi: {len(todo)} rungs against Fairy-Stockfish ({args.fsf}); {args.games} games "
          f"per rung and seed, max {args.max_plies} plies, seeds {' '.join(map(str, args.seeds))}, "
          f"{args.jobs} workers")
    for _, spec, eng in todo[:1] + [r for r in todo[1:] if r[1] != todo[0][1]]:
        print(f"  ours: {spec}")
    print("  goal (at least 50%):", " ".join(verdict.__doc__.split(":", 1)[1].split()))
    print(f"{'rung':>22} {'seed':>6} {'W-D-L':>9} {'score':>6} {'Elo (trinomial 95%)':>20} "
          f"{'Elo (pentanomial)':>18} {'faults':>6} {'s/move':>7} {'s/game':>7}  goal")
    with tempfile.TemporaryDirectory() as tmp:
        root = args.out or Path(tmp)
        for i, (label, ours, eng) in enumerate(todo):
            fsf = f"engine(cmd={args.fsf},{eng},name=fairy-stockfish)"
            pooled, seconds, moves_s = [], 0.0, []
            for k, seed in enumerate(args.seeds):
                cfg = TournamentConfig(game="xiangqi", players=[ours, fsf], games=args.games,
                                       seed=seed, opening_plies=2, max_plies=args.max_plies)
                t0 = time.perf_counter()
                r = run_tournament(cfg, root / f"rung{i}_seed{seed}", jobs=args.jobs,
                                   progress=True, log=None)
                dt = time.perf_counter() - t0
                seconds += dt
                moves_s.append(_move_seconds(r, ours))
                _print_row(label, str(seed), r.games, ours, fsf, moves_s[-1], dt / len(r.games))
                # pairs of different seeds are different openings: keep their ids apart
                pooled += [dict(g, pair=int(g["pair"]) + k * 1_000_000) for g in r.games]
            if len(args.seeds) > 1:
                import pandas as pd
                _print_row(label, "pooled", pooled, ours, fsf, pd.concat(moves_s),
                           seconds / len(pooled))
    return 0


def verdict(row: dict) -> str:
    """The goal's rule, fixed before any game is played: "shown" when the trinomial 95%
    Elo interval lies wholly above 0 (score above 50%), "refuted" when wholly below,
    otherwise "undecided" (more games needed). A score of 0 or 1 is judged by its one-sided
    95% bound (:func:`gameai.tournament.stats.one_sided_bound`)."""
    lo, hi = row["elo_low"], row["elo_high"]
    return "shown" if lo > 0 else "refuted" if hi < 0 else "undecided"


def _print_row(label: str, seed: str, games: list, ours: str, fsf: str, move_s, game_s: float):
    from gameai.tournament.standings import pairing_rows
    row = pairing_rows(games, order=[ours, fsf])[0]
    print(f"{label:>22} {seed:>6} {row['wins']:>3}-{row['draws']}-{row['losses']:<3} "
          f"{row['score']:>6.3f} {row['elo']:>+9.0f} {_error(row, 'elo'):<10} "
          f"{row['penta_elo']:>+8.0f} {_error(row, 'penta'):<9} {row['faults']:>6} "
          f"{move_s.mean():>7.2f} {game_s:>7.1f}  {verdict(row)}", flush=True)


def _error(row: dict, model: str) -> str:
    """``± 163`` or, for a score of 0 or 1, the one-sided bound (``< -317``)."""
    return row[f"{model}_bound"] or f"± {row[f'{model}_error']:.0f}"


def _move_seconds(result, ours: str):
    """Our wall-clock seconds of every move of the rung (from moves.parquet)."""
    import pandas as pd
    df = pd.read_parquet(Path(result.out) / "moves.parquet", columns=["player", "time_s"])
    return df.loc[df.player == ours, "time_s"]


if __name__ == "__main__":
    raise SystemExit(main())
