"""What a user first touches, timed: the public push, small compiled searches, the first call.

Run: ``gameai bench api`` (or ``python -m benchmarks.bench_api``); options after ``--``:
``--repeat N`` (best of N, default 5), ``--depths D ...`` (of the small searches,
default 2 3 4), ``--skip-cold`` (no first-call section: it
compiles every kernel from scratch twice, minutes on a loaded machine), ``--kernels`` (in
the cold run, also list the compile seconds of the slowest kernels), ``--game G``.

Three sections, each a ratio measured within one process (the machine may be shared, so
absolute rates vary; the load average is printed beside each line):

1. **push**: a perft written on ``legal_moves``/``push``/``pop`` (the public, checked
   ``push``) against the same perft on ``push_unchecked``, leaves per CPU second.
   Goal: the checked one at least 0.5x (Xiangqi and Gomoku).
2. **small searches**: eight searches with a fresh searcher each (TT, history, killers,
   iterative deepening), ``backend=compiled`` against ``backend=python``, kernel loaded,
   by depth; the node counts must be equal (``same tree``). Goals: depth 2 at least 5x,
   depth 4 at least 20x.
3. **first call**, per compiled preset (``strong`` of each game): in a new process, the
   wall seconds until its searcher is ready (``prepare``: compile or load the kernels)
   and of its first search (the preset's clock), with the numba caches (``GAMEAI_CACHE_DIR``,
   ``NUMBA_CACHE_DIR``) an empty temporary folder (cold: every kernel compiles), then that
   folder filled by the cold run (warm), then another empty folder filled by ``gameai
   prepare --game G`` (its seconds printed) before the process starts (prepared); all on
   a copy of the package taken before the cold run, so an edit meanwhile cannot make a
   later run compile again. ``--game G`` (repeatable) measures only those games.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import gameai
from gameai.presets import PRESETS

PUSH_CASES = [("xiangqi", {}, 3, 0.5), ("gomoku", {"moves": "h8 h9 i9 g7 j10"}, 2, 0.5),
              ("renju", {"moves": "h8 h9 i9 g7 j10 j8 i8 i7 k9"}, 2, None)]
SMALL_SPEC = "negascout(depth={depth},tt=true,history=true,killers=true,id=true,backend={backend})"
SMALL_GOALS = {2: 5.0, 4: 20.0}
SEARCHES = 8
#: (label, game, spec) of the first-call section: the compiled presets
FIRST_CALLS = [(f"{p.game} {p.name}", p.game, p.name) for p in PRESETS
               if "backend=compiled" in p.spec]


def load() -> str:
    """The machine's load average (1, 5, 15 minutes), for reading a timing beside it."""
    try:
        return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load n/a"


def _perft(state, depth: int, push) -> int:
    if depth == 0:
        return 1
    n = 0
    for m in state.legal_moves():
        push(m)
        n += _perft(state, depth - 1, push)
        state.pop()
    return n


def push_section(repeat: int) -> None:
    print("== push: perft on the public push/pop vs on push_unchecked (leaves per CPU second, "
          f"best of {repeat}, interleaved) ==")
    for game, params, depth, goal in PUSH_CASES:
        s = gameai.load_game(game, **params)
        best = {"push": 0.0, "push_unchecked": 0.0}
        leaves = 0
        for _ in range(repeat):
            for name in best:
                t = time.process_time()
                leaves = _perft(s, depth, getattr(s, name))
                best[name] = max(best[name], leaves / max(time.process_time() - t, 1e-9))
        ratio = best["push"] / best["push_unchecked"]
        verdict = "" if goal is None else f"  goal >= {goal}: {'MET' if ratio >= goal else 'NOT MET'}"
        print(f"  {game:<8} d{depth} {leaves:>7,} leaves  push {best['push']:>9,.0f}/s  "
              f"push_unchecked {best['push_unchecked']:>9,.0f}/s  ratio {ratio:.2f}x{verdict}  [{load()}]")


def _searches(state, depth: int, backend: str) -> tuple[float, list[int]]:
    """Wall seconds of SEARCHES searches, a fresh searcher each, and their node counts."""
    nodes = []
    t = time.perf_counter()
    for _ in range(SEARCHES):
        nodes.append(gameai.make_searcher(SMALL_SPEC.format(depth=depth, backend=backend))
                     .search(state).stats.nodes)
    return time.perf_counter() - t, nodes


def small_section(repeat: int, depths: tuple[int, ...] = (2, 3, 4)) -> None:
    print(f"== small searches: {SEARCHES} Xiangqi searches, a fresh searcher each, "
          f"compiled vs python (best of {repeat}, kernel loaded) ==")
    s = gameai.load_game("xiangqi")
    _searches(s, 1, "compiled")                               # compile or load the core
    for depth in depths:
        best = {"compiled": float("inf"), "python": float("inf")}
        nodes = {}
        for _ in range(repeat):
            for backend in best:
                t, nodes[backend] = _searches(s, depth, backend)
                best[backend] = min(best[backend], t)
        ratio = best["python"] / best["compiled"]
        goal = SMALL_GOALS.get(depth)
        verdict = "" if goal is None else f"  goal >= {goal:g}x: {'MET' if ratio >= goal else 'NOT MET'}"
        print(f"  depth {depth}: {sum(nodes['compiled']):>7,} nodes  compiled "
              f"{best['compiled'] / SEARCHES * 1e3:7.2f} ms/search  python "
              f"{best['python'] / SEARCHES * 1e3:7.2f} ms/search  ratio {ratio:5.1f}x"
              f"  same tree: {nodes['compiled'] == nodes['python']}{verdict}  [{load()}]")


_PROBE = """
import json, sys, time
t0 = time.perf_counter()
import gameai
from gameai.prepare import counting_compiles
state = gameai.load_game(sys.argv[1])
searcher = gameai.make_searcher(sys.argv[2], game=sys.argv[1])
t1 = time.perf_counter()
kernels = []
if sys.argv[3] == "1":
    from numba.core.event import install_recorder
    with install_recorder("numba:compile") as rec:
        searcher.prepare(state)
    start = {}
    for ts, ev in rec.buffer:
        name = ev.data["dispatcher"].py_func.__qualname__ + " " + ev.data["dispatcher"].py_func.__module__
        if ev.is_start:
            start[id(ev.data["dispatcher"])] = ts
        else:
            kernels.append((ts - start.pop(id(ev.data["dispatcher"]), ts), name))
else:
    searcher.prepare(state)
t2 = time.perf_counter()
with counting_compiles() as n:
    searcher.search(state)
t3 = time.perf_counter()
from gameai.compiled.jit import cache_dir
print(json.dumps({"import": t1 - t0, "ready": t2 - t1, "first": t3 - t2, "compiled_in_search": n[0],
                  "kernels": sorted(kernels, reverse=True)[:12], "sources": cache_dir()}))
"""


def _env(cache: str, src: str | None) -> dict:
    path = [src] if src else []
    return dict(os.environ, GAMEAI_CACHE_DIR=cache, NUMBA_CACHE_DIR=cache,
                PYTHONPATH=os.pathsep.join(path + [os.environ.get("PYTHONPATH", "")]))


def _probe(game: str, spec: str, cache: str, kernels: bool, src: str | None = None) -> dict:
    """Run :data:`_PROBE` in a new process with the numba caches in ``cache``, importing
    gameai from ``src`` when given (else as installed): the seconds of import, of the
    searcher's ``prepare`` (``ready``) and of its first search (``first``)."""
    out = subprocess.run([sys.executable, "-c", _PROBE, game, spec, "1" if kernels else "0"],
                         env=_env(cache, src), capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _prepare(game: str, cache: str, src: str) -> float:
    """Wall seconds of ``gameai prepare --game game`` in a new process on ``cache``."""
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gameai.cli", "prepare", "--game", game],
                   env=_env(cache, src), capture_output=True, text=True, check=True)
    return time.perf_counter() - t


def first_call_section(kernels: bool, games: list[str] | None = None) -> None:
    """Cold, warm and prepared first calls on a copy of the package taken now, so that the
    sources (whose hash names the cache folder) cannot change between the runs."""
    print("== first call: a new process's seconds until the searcher is ready (compile or load) "
          "+ its first search (the preset's clock); cold: an empty numba cache; warm: the cache "
          "the cold run filled; prepared: an empty cache filled by 'gameai prepare' first ==")
    package = os.path.dirname(os.path.abspath(gameai.__file__))
    for label, game, spec in FIRST_CALLS:
        if games and game not in games:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "src")
            shutil.copytree(package, os.path.join(src, "gameai"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            cold = _probe(game, spec, os.path.join(tmp, "cold"), kernels, src)
            warm = _probe(game, spec, os.path.join(tmp, "cold"), False, src)
            prep_s = _prepare(game, os.path.join(tmp, "prepared"), src)
            prep = _probe(game, spec, os.path.join(tmp, "prepared"), False, src)
        runs = (cold, warm, prep)
        keys = {os.path.basename(os.path.normpath(r["sources"])) for r in runs}  # the hash
        changed = "" if len(keys) == 1 else "  (sources changed: a later run compiled again)"
        again = sum(r["compiled_in_search"] for r in runs)
        print(f"  {label:<15} cold {cold['ready']:6.1f}s + {cold['first']:.1f}s   warm "
              f"{warm['ready']:5.2f}s + {warm['first']:.1f}s   prepared {prep['ready']:5.2f}s + "
              f"{prep['first']:.1f}s (gameai prepare took {prep_s:.1f}s; import "
              f"{prep['import']:.2f}s)  kernels compiled during a search: {again}  [{load()}]"
              f"{changed}")
        for seconds, name in cold["kernels"]:
            print(f"      {seconds:6.1f}s  {name}  (compiling it and what it calls)")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="gameai bench api", description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--depths", type=int, nargs="+", default=[2, 3, 4],
                   help="depths of the small searches (default 2 3 4)")
    p.add_argument("--skip-cold", action="store_true")
    p.add_argument("--kernels", action="store_true")
    p.add_argument("--game", action="append", help="first call: only this game (repeatable)")
    args = p.parse_args(argv)
    push_section(args.repeat)
    from gameai.compiled import AVAILABLE, REASON
    if not AVAILABLE:
        print(f"backend=compiled unavailable: {REASON}")
        return 1
    small_section(args.repeat, tuple(args.depths))
    if not args.skip_cold:
        first_call_section(args.kernels, args.game)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
