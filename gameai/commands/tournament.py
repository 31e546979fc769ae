"""gameai tournament: round robin or gauntlet, in parallel, with parquet records and Elo."""
from __future__ import annotations

import sys


def add_parser(sub):
    p = sub.add_parser("tournament", help="play a round robin or gauntlet in parallel; "
                       "records to parquet, standings with Elo +- 95%%")
    p.add_argument("--game", required=True, help="game spec, e.g. gomoku or xiangqi")
    p.add_argument("--player", action="append", required=True, dest="players", metavar="SPEC",
                   help="player or searcher spec (repeat; at least two)")
    p.add_argument("--name", action="append", dest="names", metavar="NAME",
                   help="a short name for the standings and records, the k-th --name for the "
                        "k-th --player (default: the spec, or its name= parameter)")
    p.add_argument("--games", type=int, default=2,
                   help="games per pairing (openings x 2 colours; default 2)")
    p.add_argument("--format", choices=("roundrobin", "gauntlet"), default="roundrobin",
                   help="gauntlet: the first player against each other player")
    p.add_argument("--seed", type=int, default=0, help="master seed: openings and per-game seeds (default 0)")
    p.add_argument("--out", required=True, help="output folder (rerun to resume)")
    p.add_argument("--opening-plies", type=int, default=2,
                   help="random opening length in plies (default 2; 0 = start position)")
    p.add_argument("--opening-balance", type=float, default=None,
                   help="redraw random openings whose static eval exceeds this (game's units)")
    p.add_argument("--openings", dest="openings_file",
                   help="file with one opening per line (space-separated moves)")
    p.add_argument("--depth", type=int, help="per-move depth limit for every player")
    p.add_argument("--nodes", type=int, help="per-move node limit for every player")
    p.add_argument("--time", type=float, help="per-move time limit in seconds")
    p.add_argument("--max-plies", type=int, default=400,
                   help="adjudicate a draw after this many plies (default 400; 0 = never)")
    p.add_argument("--jobs", type=int, default=None, help="parallel workers (default: all cores)")
    p.add_argument("--backend", choices=("joblib", "dask"), default="joblib",
                   help="joblib (processes on this machine) or dask (local or remote cluster); default joblib")
    p.add_argument("--scheduler", help="Dask scheduler address tcp://host:port "
                   "(default: start a local cluster)")
    p.add_argument("--sprt", help="elo0,elo1[,alpha,beta]: stop a two-player match early")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p


def _compile_first(game: str, players: list[str]) -> None:
    """Compile (or load) the kernels of the compiled searchers among ``players`` in this
    process, saying so when one compiles, so that a cold cache is not minutes of a
    progress bar at 0 while every worker compiles the same kernels; the workers then
    load them from the disk cache. Anything else (players, engines) is left alone."""
    from ..errors import GameError
    from ..registry import SEARCHERS, load_game, make_searcher, resolve_preset
    from ._common import compile_notice
    try:
        state = load_game(game)
        specs = [resolve_preset(p, state) for p in players]
    except GameError:
        return                       # the tournament itself names the problem
    with compile_notice("gameai tournament"):
        for spec in specs:
            if spec.split("(", 1)[0].strip() not in SEARCHERS.names():
                continue
            try:
                searcher = make_searcher(spec)
            except GameError:
                continue
            if getattr(searcher, "backend", None) == "compiled":
                from ..compiled.search import warm_up   # compiles; its tables stay unmade
                warm_up(searcher, state, searcher.evaluator(state))


def run(args) -> int:
    from ..tournament.runner import TournamentConfig, run_tournament
    cfg = TournamentConfig(
        game=args.game, players=list(args.players), games=args.games, seed=args.seed,
        format=args.format, opening_plies=args.opening_plies, openings_file=args.openings_file,
        depth=args.depth, nodes=args.nodes, time=args.time,
        max_plies=args.max_plies or None, sprt=args.sprt, opening_balance=args.opening_balance,
        names=args.names)
    if args.backend == "joblib":    # a Dask cluster's workers have caches of their own
        _compile_first(args.game, list(args.players))
    r = run_tournament(cfg, args.out, jobs=args.jobs, backend=args.backend,
                       scheduler=args.scheduler, progress=not args.no_progress)
    print(f"records: {r.out}/games.parquet, moves.parquet, manifest.json, standings.csv, "
          f"pairings.csv ({len(r.games)} games, {r.played} played now)")
    for name, why in r.forfeited.items():  # a player that never played: the run failed
        print(f"gameai tournament: error: {name} forfeited every game it played; the first: "
              f"{why}", file=sys.stderr)
    return 1 if r.forfeited else 0
