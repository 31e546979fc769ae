"""Compiled search speed: backend=compiled beside backend=python, same tree, ratios in one run.

Run: ``gameai bench compiled`` (or ``python -m benchmarks.bench_compiled``); options after
``--``: ``--spec S`` (default ``negascout(tt=true,history=true,id=true)``), ``--xiangqi-depth
N`` (default 5), ``--gomoku-depth N`` (default 4), ``--repeat N`` (best of N CPU-timed
runs, default 3), ``--python-repeat N`` (default 1), ``--no-python`` (compiled only),
``--compile-cost`` (also time the first call in a fresh cache and a cached start-up, each in
a new process: minutes on a loaded machine).

For each fixed position of each game with a compiled kernel, both backends search with the
same spec (a fresh searcher per run, so TT and history start empty) and must visit the
same number of nodes (printed as ``same tree``; a difference is a bug). Speed is nodes
per CPU second (``time.process_time``: the machine may be shared), best of the repeats,
the compiled one after a warm-up search (compile time is reported apart). Goals (issue
13): Xiangqi >= 1.5M nodes/s, Gomoku >= 1M nodes/s.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import gameai

POSITIONS = [
    ("xiangqi", {}, "start"),
    ("xiangqi", {"moves": "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7"}, "opening"),
    ("xiangqi", {"fen": "r1b1kab1r/2c1a4/2n2cn2/3C5/p3p1p1p/2B6/P1P1P1P1P/5R2N/8R/1NBAKAC2 w - - 5 16"},
     "middle game"),
    ("gomoku", {"moves": "h8 h9 i9 g7 j10"}, "5 stones"),
    ("renju", {"moves": "h8 h9 i9 g7 j10 j8"}, "6 stones"),
]
GOALS = {"xiangqi": 1.5e6, "gomoku": 1e6, "renju": 1e6}


def _has_kernel(game: str) -> bool:
    from gameai.compiled.search import kernel_for
    try:
        kernel_for(gameai.load_game(game))
    except gameai.SpecError:
        return False
    return True


def _run(game, params, spec, depth, backend, repeat):
    """(best CPU seconds, result) of ``repeat`` searches with a fresh searcher each."""
    state = gameai.load_game(game, **params)
    best, r = float("inf"), None
    for _ in range(repeat):
        searcher = gameai.make_searcher(spec, depth=depth, backend=backend)
        t = time.process_time()
        r = searcher.search(state)
        best = min(best, time.process_time() - t)
    return max(best, 1e-9), r


def speed_section(args) -> dict:
    print(f"== {args.spec}: nodes per CPU second, compiled vs python (best of {args.repeat} / "
          f"{args.python_repeat}) ==")
    rates: dict = {}
    for game, params, label in POSITIONS:
        if not _has_kernel(game):
            print(f"{game} {label}: no compiled kernel in this checkout")
            continue
        depth = args.xiangqi_depth if game == "xiangqi" else args.gomoku_depth
        _run(game, params, args.spec, 1, "compiled", 1)          # compile / load the cache
        tc, rc = _run(game, params, args.spec, depth, "compiled", args.repeat)
        nps_c = rc.stats.nodes / tc
        line = (f"  {game} {label} d{depth}: compiled nodes {rc.stats.nodes:>9,} "
                f"{tc:7.3f}s {nps_c:>11,.0f} n/s")
        if not args.no_python:
            tp, rp = _run(game, params, args.spec, depth, "python", args.python_repeat)
            nps_p = rp.stats.nodes / tp
            same = rp.stats.nodes == rc.stats.nodes and rp.move == rc.move and rp.value == rc.value
            line += (f" | python {tp:7.3f}s {nps_p:>9,.0f} n/s | ratio {nps_c / nps_p:6.1f}x"
                     f" | same tree: {same}")
        print(line)
        rates.setdefault(game, []).append(nps_c)
    print("summary (geometric mean of compiled nodes/s per game):")
    for game, vals in rates.items():
        g = 1.0
        for v in vals:
            g *= v
        g **= 1 / len(vals)
        goal = GOALS.get(game)
        verdict = "" if goal is None else \
            f"  goal >= {goal:,.0f}  {'MET' if g >= goal else 'NOT MET'} ({g / goal:.2f} of it)"
        print(f"  {game:<8} {g:>11,.0f} n/s{verdict}")
    return rates


_PROBE = """
import time, sys
t0 = time.perf_counter()
import gameai
s = gameai.load_game(sys.argv[1])
gameai.make_searcher("negascout(depth=2,tt=true,history=true,id=true,backend=compiled)").search(s)
print(time.perf_counter() - t0)
"""


def compile_section(args) -> None:
    """First call in an empty cache vs a cached start-up, each in a fresh process."""
    print("== compile cost: wall seconds from process start to the end of a depth-2 search ==")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for game in ("xiangqi", "gomoku"):
        if not _has_kernel(game):
            continue
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, GAMEAI_CACHE_DIR=cache,
                       PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
            times = []
            for _ in range(2):
                out = subprocess.run([sys.executable, "-c", _PROBE, game], env=env,
                                     capture_output=True, text=True, check=True)
                times.append(float(out.stdout.split()[-1]))
        print(f"  {game:<8} first call (compiles) {times[0]:7.1f}s   cached start-up "
              f"{times[1]:6.2f}s")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gameai bench compiled", description=__doc__.splitlines()[0])
    p.add_argument("--spec", default="negascout(tt=true,history=true,id=true)")
    p.add_argument("--xiangqi-depth", type=int, default=5)
    p.add_argument("--gomoku-depth", type=int, default=4)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--python-repeat", type=int, default=1)
    p.add_argument("--no-python", action="store_true")
    p.add_argument("--compile-cost", action="store_true")
    args = p.parse_args(argv)
    from gameai.compiled import AVAILABLE, REASON
    if not AVAILABLE:
        print(f"backend=compiled unavailable: {REASON}")
        return 1
    speed_section(args)
    if args.compile_cost:
        compile_section(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
