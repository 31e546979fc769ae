"""How far searches overrun their limits: the distribution of the overshoot.

Run: ``gameai bench limits`` (or ``python -m benchmarks.bench_limits``); options after
``--``: ``--repeat N`` searches per setting (default 10), ``--quick``.

Every negamax-family searcher checks its node and time limits and ``stop`` at every
node, quiescence included, so a search should stop within one node's work of its limit.
For time limits the overshoot is ``time_s - limit`` (wall seconds, so it includes the
unwinding of the recursion and the machine's noise; printed beside the mean time of one
node of the same search); for node limits it is ``nodes - limit``. Not a test: the
machine is shared, so figures are printed, not asserted.
"""
from __future__ import annotations

import argparse
import statistics

import gameai

MID = "r1b1kab1r/2c1a4/2n2cn2/3C5/p3p1p1p/2B6/P1P1P1P1P/5R2N/8R/1NBAKAC2 w - - 5 16"
CASES = [
    ("xiangqi", {"fen": MID}, "negascout(tt=true,id=true,history=true,quiescence=true)"),
    ("xiangqi", {"fen": MID}, "alphabeta(quiescence=true,evasions=true,nullmove=true,lmr=true)"),
    ("xiangqi", {}, "mtdf(history=true)"),
    ("gomoku", {"moves": "h8 h9 i9 g7 j10"}, "negascout(tt=true,id=true,history=true)"),
    ("gomoku", {"moves": "h8 h9 i9 g7 j10"}, "alphabeta(quiescence=true)"),
    ("renju", {"moves": "h8 h9 i9 g7 j10 j8"}, "negascout(tt=true,id=true,history=true)"),
]
TIMES = (0.05, 0.2)
NODES = (100, 2000)


def _q(values: list[float], p: float) -> float:
    v = sorted(values)
    return v[min(len(v) - 1, int(p * len(v)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="gameai bench limits", description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    reps = 3 if args.quick else args.repeat
    print(f"{'game':<8} {'searcher':<62} {'limit':>8}  overshoot: median   p90     max"
          f"   (one node: mean)")
    all_time, all_nodes = [], []
    for game, params, spec in CASES:
        state = gameai.load_game(game, **params)
        s = gameai.make_searcher(spec, depth=200)
        s.search(state, {"depth": 1})          # the evaluator is built once, outside the timing
        for t in TIMES:
            over, per_node = [], []
            for _ in range(reps):
                s.new_game()
                r = s.search(state, {"time": t})
                over.append(r.stats.time_s - t)
                per_node.append(r.stats.time_s / max(r.stats.nodes, 1))
            all_time.extend(over)
            print(f"{game:<8} {spec[:62]:<62} {t:>7.2f}s  {statistics.median(over) * 1e3:8.2f}ms "
                  f"{_q(over, 0.9) * 1e3:6.2f}ms {max(over) * 1e3:6.2f}ms "
                  f"({statistics.mean(per_node) * 1e3:.3f}ms)")
        for n in NODES:
            over = []
            for _ in range(min(reps, 2)):      # deterministic: two runs suffice
                r = gameai.make_searcher(spec, depth=200).search(state, {"nodes": n})
                over.append(r.stats.nodes - n)
            all_nodes.extend(over)
            print(f"{game:<8} {spec[:62]:<62} {n:>6}nd  {statistics.median(over):8.0f}nd "
                  f"{_q(over, 0.9):6.0f}nd {max(over):6.0f}nd")
    print(f"all time limits: median {statistics.median(all_time) * 1e3:.2f} ms, "
          f"p90 {_q(all_time, 0.9) * 1e3:.2f} ms, max {max(all_time) * 1e3:.2f} ms over "
          f"{len(all_time)} searches; node limits: max overshoot {max(all_nodes)} nodes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
