"""gameai search: search one position and print the move, value, PV and statistics."""
from __future__ import annotations

import json
import sys

from ..games.protocol import line_text
from ..registry import make_searcher
from ._common import add_game_options, compile_notice, game_from_args, limit_options


def add_parser(sub):
    p = sub.add_parser("search", help="search a position: best move, value, PV and node statistics")
    add_game_options(p)
    p.add_argument("--searcher", default="alphabeta(depth=4)",
                   help="searcher spec or preset, e.g. 'negascout(depth=5,tt=true,id=true)', "
                        "'strong' (default alphabeta(depth=4))")
    p.add_argument("--depth", type=int, help="override the searcher's depth (1 to 256)")
    p.add_argument("--nodes", type=int, help="node limit (at least 1)")
    p.add_argument("--time", type=float, help="time limit in seconds (> 0, at most 86400: a day)")
    p.add_argument("--progress", action="store_true",
                   help="show a root progress bar on stderr (the 003 thesis' progress bar)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def _progress(i: int, n: int, move, value) -> None:
    width = 30
    done = int(width * (i + 1) / max(n, 1))
    sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {i + 1}/{n}")
    if i + 1 == n:
        sys.stderr.write("\n")
    sys.stderr.flush()


def run(args) -> int:
    limits = limit_options(args)                           # refused before any work
    state = game_from_args(args)
    searcher = make_searcher(args.searcher, game=state)   # a preset (strong) for this game
    rows = []

    def on_iteration(row):
        pv = line_text(state, row.get("pv", []))
        rows.append({**row, "move_str": pv.split(" ")[0] if pv else None,
                     "pv_str": pv})
        if not args.json:
            print(f"depth {row['depth']:>2}  value {row['value']:>10}  nodes {row['nodes']:>10}  "
                  f"time {row['time_s']:.3f}s  pv {pv}")

    if getattr(searcher, "backend", None) == "compiled":
        with compile_notice("gameai search"):   # a cold kernel cache is said, off the clock
            searcher.prepare(state)
    r = searcher.search(state, limits or None, on_iteration=on_iteration,
                        on_root_move=_progress if args.progress else None)
    move, pv = r.move_str, r.pv_str
    counters = r.stats.counters()
    if args.json:  # move text for people beside the game's integer moves for programs
        print(json.dumps({"game": args.game, "searcher": args.searcher, "move": move,
                          "move_int": r.move, "value": r.value, "pv": pv.split(),
                          "pv_int": list(r.pv), "stats": counters,
                          "iterations": rows}, default=str))
        return 0
    print(f"move: {move}")
    print(f"value: {r.value}")
    print(f"pv: {pv}")
    nps = counters["nodes"] / counters["time_s"] if counters["time_s"] > 0 else 0.0
    print("stats: " + " ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                               for k, v in counters.items()) + f" nps={nps:,.0f}")
    return 0
