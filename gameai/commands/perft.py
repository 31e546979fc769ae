"""gameai perft: count legal-move paths to a depth (optionally per root move)."""
from __future__ import annotations

import time

from ..errors import SpecError
from ..games.perft import MAX_DEPTH, check_depth, divide, perft
from ._common import add_game_options, compile_notice, game_from_args


def add_parser(sub):
    p = sub.add_parser("perft", help="count legal move paths to a depth (move-generator check)")
    add_game_options(p)
    p.add_argument("--depth", type=int, default=3,
                   help=f"plies to count, 0 to {MAX_DEPTH} (default 3)")
    p.add_argument("--divide", action="store_true", help="print the count under each root move")
    p.add_argument("--bulk", action="store_true", help="use the game's bulk counting if it has one")
    p.add_argument("--backend", choices=("python", "compiled"), default="python",
                   help="python (the reference) or compiled (numba kernel; same counts)")
    return p


def run(args) -> int:
    check_depth(args.depth, lo=1 if args.divide else 0)   # before counting any depth
    if args.divide and args.backend != "python":
        raise SpecError("perft --divide runs on the python backend only")
    state = game_from_args(args)
    if args.backend == "compiled":   # compile (or load) the kernel now, saying so if it compiles,
        with compile_notice("gameai perft"):   # the one counting runs (bulk or not): depth 1's
            perft(state, 1, bulk=args.bulk, backend="compiled")   # rate is then not the load's
    t0 = time.perf_counter()
    if args.divide:
        counts = divide(state, args.depth)
        for move, n in sorted(counts.items()):
            print(f"{move}: {n}")
        total = sum(counts.values())
        print(f"moves: {len(counts)}")
    else:
        total = 1  # depth 0: the position itself
        for d in range(1, args.depth + 1):
            t = time.perf_counter()
            total = perft(state, d, bulk=args.bulk, backend=args.backend)
            dt = time.perf_counter() - t
            print(f"depth {d}: {total} ({dt:.3f} s, {total / max(dt, 1e-9):,.0f} leaves/s)")
    print(f"total: {total} in {time.perf_counter() - t0:.3f} s")
    return 0
