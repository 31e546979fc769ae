"""Xiangqi perft speed: ours (public API and bulk) side by side with cchess and OpenSpiel.

Run: ``gameai bench xiangqi -- --depth 3`` (or ``python -m benchmarks.bench_xiangqi``);
``--peers openspiel,fairy-stockfish`` leaves out cchess (about 10k leaves/s: depth 4 takes
~5 minutes).

Rows
* ``gameai public``: ``gameai.perft`` through ``legal_moves``/``push``/``pop`` with a full
  make/unmake at every leaf (the goal: 300k leaves/s).
* ``gameai bulk``: ``state.perft`` counts the last ply with ``len(legal_moves())``.
* ``gameai compiled`` / ``gameai compiled bulk``: the same two counts on the numba kernel
  (``gameai.perft(s, d, backend="compiled")``, compiled before timing); the goal is 30M
  leaves/s, at least 10x the ``openspiel bulk`` row.
* ``cchess``: the pure-Python ``cchess`` library; it has no unmake, so each child is a
  board copy (its natural way to walk a tree); legality = its ``is_valid_move`` plus
  ``is_checked_move``.
* ``openspiel apply/undo``: OpenSpiel's C++ ``xiangqi`` driven by a Python recursion
  with ``apply_action``/``undo_action`` at every leaf; ``openspiel bulk``: the same
  recursion over ``child`` states with ``len(legal_actions())`` at the last ply. The move
  generation is C++, the tree walk Python: neither is a C++ perft.
* ``fairy-stockfish``: Fairy-Stockfish's own C++ ``go perft`` (UCI, ``UCI_Variant
  xiangqi``), a bulk count at the last ply; timed from sending the command to its
  ``Nodes searched`` line, in one engine process kept for the run.
Peers that are not installed print "not installed". Each row also checks its count.

Move generation alone, on the 32 middle-game positions of ``experiments/suites/xiangqi.txt``
(loaded from FEN, so no cached move list): ``legal_moves()`` and ``noisy_moves()`` calls
per second (Python), and ``gameai compiled gen``, the kernel's bulk perft to depth 2 from
each (one move generation per node, nothing else jitted around it). ``--save FILE`` writes
every row's rate as JSON; ``--baseline FILE`` prints each rate beside one saved by another
checkout (e.g. before a change) with the ratio.
"""
from __future__ import annotations

import argparse
import atexit
import importlib
import json
import subprocess
import time
from pathlib import Path
from typing import Callable

import gameai
from gameai.games.xiangqi import START_FEN


def _timed(fn: Callable[[], int], min_time: float) -> tuple[int, float]:
    """Run ``fn`` until at least ``min_time`` s have passed; return (count, best seconds)."""
    best, total, count = float("inf"), 0.0, 0
    while total < min_time or best == float("inf"):
        t = time.perf_counter()
        count = fn()
        dt = time.perf_counter() - t
        best = min(best, dt)
        total += dt
    return count, best


def _cchess_runner(fen: str, depth: int) -> Callable[[], int] | str:
    try:
        import cchess
    except ImportError:
        return "not installed (pip install cchess)"

    def legal(b):
        return [(f, t) for f, t in b.create_moves() if b.is_valid_move(f, t) and not b.is_checked_move(f, t)]

    def perft(b, d):
        total = 0
        for f, t in legal(b):
            c = b.copy()
            c._move_piece(f, t)
            c.next_turn()
            total += 1 if d == 1 else perft(c, d - 1)
        return total

    board = cchess.ChessBoard(" ".join(fen.split()[:2]))
    return lambda: perft(board, depth)


def _openspiel_runners(fen: str, depth: int) -> dict[str, Callable[[], int] | str]:
    names = ("openspiel apply/undo", "openspiel bulk")
    try:
        import pyspiel
    except ImportError:
        return {n: "not installed (pip install open-spiel)" for n in names}
    if fen != START_FEN:
        return {n: "skipped (OpenSpiel xiangqi cannot load a FEN)" for n in names}
    game = pyspiel.load_game("xiangqi")

    def full(s, d):
        total = 0
        for a in s.legal_actions():
            p = s.current_player()
            s.apply_action(a)
            total += 1 if d == 1 else full(s, d - 1)
            s.undo_action(p, a)
        return total

    def bulk(s, d):
        acts = s.legal_actions()
        if d == 1:
            return len(acts)
        return sum(bulk(s.child(a), d - 1) for a in acts)

    return {names[0]: lambda: full(game.new_initial_state(), depth),
            names[1]: lambda: bulk(game.new_initial_state(), depth)}


def _fsf_runner(fen: str, depth: int) -> Callable[[], int] | str:
    """Fairy-Stockfish's ``go perft`` on ``fen``, one engine process for every run."""
    from .bench_tree import find_fsf
    path = find_fsf()
    if path is None:
        return "not installed (apt-get install fairy-stockfish)"
    proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            bufsize=1)
    atexit.register(proc.kill)
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    def answer(command: str, prefix: str) -> str:
        stdin.write(command + "\n")
        stdin.flush()
        for line in stdout:
            if line.startswith(prefix):
                return line
        raise RuntimeError(f"{path} ended before answering {command!r}")

    answer("uci", "uciok")
    stdin.write(f"setoption name UCI_Variant value xiangqi\nposition fen {fen}\n")
    answer("isready", "readyok")
    return lambda: int(answer(f"go perft {depth}", "Nodes searched:").split(":")[1])


def _movegen_rows(compiled: bool) -> dict[str, tuple[Callable[[], int], str]]:
    """Move generation alone on the fixed middle-game suite: (runner, unit) per row."""
    from gameai.commands.reproduce import experiments_package
    suites = importlib.import_module(f"{experiments_package().__name__}.suites")
    states = [gameai.load_game("xiangqi", fen=fen) for fen in suites.load("xiangqi").values()]
    rows: dict[str, tuple[Callable[[], int], str]] = {
        "gameai legal_moves": (lambda: sum(len(s.legal_moves()) > 0 for s in states), "calls"),
        "gameai noisy_moves": (lambda: sum(len(s.noisy_moves()) >= 0 for s in states), "calls"),
    }
    if compiled:
        from gameai.compiled import xiangqi as K
        kernels = [K.load(s) for s in states]
        K.perft_bulk(kernels[0], 2)
        rows["gameai compiled gen"] = (lambda: sum(K.perft_bulk(G, 2) for G in kernels), "leaves")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="gameai bench xiangqi", description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--fen", default=START_FEN)
    ap.add_argument("--min-time", type=float, default=1.0, help="repeat each run for at least this long (s)")
    ap.add_argument("--peers", default="cchess,openspiel,fairy-stockfish",
                    help="comma list of peers to time: cchess, openspiel, fairy-stockfish "
                         "(or 'none')")
    ap.add_argument("--no-peers", action="store_true", help="only time gameai (same as --peers none)")
    ap.add_argument("--save", help="write every row's rate (per second) as JSON")
    ap.add_argument("--baseline", help="JSON from --save (another checkout): print each rate beside it")
    args = ap.parse_args(argv)

    state = gameai.load_game("xiangqi", fen=args.fen)
    rows: dict[str, Callable[[], int] | str] = {
        "gameai public": lambda: gameai.perft(state, args.depth),
        "gameai bulk": lambda: state.perft(args.depth),
    }
    from gameai.compiled import AVAILABLE, REASON
    if AVAILABLE:
        t = time.perf_counter()
        gameai.perft(state, 1, backend="compiled")
        gameai.perft(state, 1, bulk=True, backend="compiled")
        print(f"compiled kernel ready in {time.perf_counter() - t:.1f} s (compile or disk cache)")
        rows["gameai compiled"] = lambda: gameai.perft(state, args.depth, backend="compiled")
        rows["gameai compiled bulk"] = lambda: gameai.perft(state, args.depth, bulk=True,
                                                            backend="compiled")
    else:
        rows["gameai compiled"] = f"unavailable: {REASON}"
    peers = set() if args.no_peers else {p.strip() for p in args.peers.split(",")} - {"none", ""}
    unknown = peers - {"cchess", "openspiel", "fairy-stockfish"}
    if unknown:
        ap.error(f"unknown peer(s) {sorted(unknown)}; known: cchess, openspiel, fairy-stockfish")
    if "cchess" in peers:
        rows["cchess"] = _cchess_runner(args.fen, args.depth)
    if "openspiel" in peers:
        rows.update(_openspiel_runners(args.fen, args.depth))
    if "fairy-stockfish" in peers:
        rows["fairy-stockfish"] = _fsf_runner(args.fen, args.depth)

    print(f"xiangqi perft depth {args.depth}, fen {args.fen}")
    results: dict[str, tuple[int, float]] = {}
    for name, run in rows.items():
        if isinstance(run, str):
            print(f"  {name:<22} {run}")
            continue
        # the slow pure-Python peer gets a single run
        results[name] = _timed(run, 0.0 if name == "cchess" else args.min_time)
        n, dt = results[name]
        print(f"  {name:<22} {n:>12,} leaves {dt:9.3f} s {n / dt:>14,.0f} leaves/s", flush=True)

    rates = {name: n / dt for name, (n, dt) in results.items()}
    print("move generation, 32 suite positions (experiments/suites/xiangqi.txt):")
    for name, (run, unit) in _movegen_rows("gameai compiled" in results).items():
        n, dt = _timed(run, args.min_time)
        rates[name] = n / dt
        print(f"  {name:<22} {n:>12,} {unit:<6} {dt:9.5f} s {n / dt:>14,.0f} {unit}/s", flush=True)
    if args.save:
        Path(args.save).write_text(json.dumps(rates, indent=1) + "\n")
    if args.baseline:
        base = json.loads(Path(args.baseline).read_text())
        print(f"ratios (this checkout / {args.baseline}, >1 means faster now):")
        for name, rate in rates.items():
            if name in base:
                print(f"  {name:<22} {rate:>14,.0f} /s  base {base[name]:>14,.0f} /s  {rate / base[name]:6.2f}x")

    counts = {n for n, _ in results.values()}
    if len(counts) > 1:
        print(f"  WARNING: leaf counts differ: { {k: v[0] for k, v in results.items()} }")
    for mine in ("gameai public", "gameai compiled", "gameai compiled bulk"):
        if mine not in results:
            continue
        ours = results[mine][0] / results[mine][1]
        print(f"ratios ({mine} / other, >1 means {mine} is faster):")
        for name, (n, dt) in results.items():
            if name != mine:
                print(f"  vs {name:<22} {ours / (n / dt):8.2f}x")
    if "gameai compiled" in results:
        best = max(n / dt for k, (n, dt) in results.items() if k.startswith("gameai compiled"))
        print(f"compiled goal >= 30,000,000 leaves/s (wall): best {best:,.0f} "
              f"{'MET' if best >= 30e6 else 'NOT MET'}")
    return 0 if len(counts) == 1 else 1


if __name__ == "__main__":
    raise SystemExit(main())
