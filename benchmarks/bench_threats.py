"""gameai bench threats: threat search and incremental Gomoku evaluation, measured.

Three measurements (printed, never asserted: the machine is shared and noisy):

1. **Incremental pattern evaluation.** NegaScout (depth 3, TT, history) on the four fixed
   middle games of ``gameai bench gomoku``, freestyle and renju, once with the
   ``gomoku.patterns`` evaluator updating its line sum from the previous evaluation (the
   default) and once recounting every line; same node counts and values are checked,
   the time ratio printed.
2. **Published puzzles.** Every puzzle of ``tests/data/renju_puzzles.json`` (read by
   ``benchmarks/renju_puzzles.py``) whose forced line is at most ``--max-plies`` plies
   (default 9), solved by ``vcf``/``vct`` at exactly
   that puzzle's length, with the time of each and whether it is under one second, on the
   Python and the compiled solver (``--backend``) with the ratio of their nodes per second.
3. **Threat switches in alpha-beta** on the same middle games: nodes, threat nodes and
   seconds with ``threat_order``, ``threat_forced`` and ``threats`` off and on, on each
   backend (``--backend``), with the time ratio; ``--depth`` sets the NegaScout depth.

    gameai bench threats
    gameai bench threats -- --max-plies 11 --repeat 3
    gameai bench threats -- --only puzzles --backend compiled
    gameai bench threats -- --only switches --backend compiled --depth 5
"""
from __future__ import annotations

import argparse
import time

from .bench_gomoku import POSITIONS
from .renju_puzzles import PUZZLES, load

BASE = "negascout(depth=3,tt=true,history=true)"


def _search_all(spec: str, rule: str, full_recount: bool = False):
    import gameai
    sr = gameai.make_searcher(spec)
    out = []
    t0 = time.perf_counter()
    for moves in POSITIONS:
        s = gameai.load_game("gomoku", rule=rule, moves=moves)
        ev = sr.evaluator(s)
        if full_recount:
            ev._total = ev.full_total            # the non-incremental computation
        elif "_total" in ev.__dict__:
            del ev._total
        sr.new_game()
        r = sr.search(s)
        out.append((r.move, r.value, r.stats.nodes, r.stats.threat_nodes))
    return time.perf_counter() - t0, out


def incremental(repeat: int) -> None:
    print("1. incremental gomoku.patterns evaluation inside", BASE)
    for rule in ("freestyle", "renju"):
        _search_all(BASE, rule)                  # warm the line memo: the steady state
        best = {True: float("inf"), False: float("inf")}
        results = {}
        for _ in range(repeat):
            for full in (True, False):
                t, out = _search_all(BASE, rule, full)
                best[full] = min(best[full], t)
                results[full] = out
        same = results[True] == results[False]
        nodes = sum(o[2] for o in results[False])
        print(f"   {rule:9s} full recount {best[True]:6.2f} s   incremental {best[False]:6.2f} s   "
              f"speed-up {best[True] / best[False]:.2f}x   ({nodes} nodes, identical results: {same})")


def puzzles(max_plies: int, backends: tuple[str, ...] = ("python",)) -> None:
    """Each puzzle on each backend (a fresh searcher per puzzle, as a player would have;
    the compiled solver is compiled before the first clock starts)."""
    import gameai
    from gameai.errors import SpecError
    from gameai.search.stats import MATE
    chosen = [p for p in PUZZLES if 2 * p["attacks"] + 1 <= max_plies]
    if not chosen:
        shortest = min(2 * p["attacks"] + 1 for p in PUZZLES)
        raise SpecError(f"--max-plies {max_plies}: no puzzle is that short (the shortest has {shortest} plies)")
    print(f"2. published Renju puzzles with a forced win of at most {max_plies} plies "
          "(searched at exactly that length; first run in this process)")
    rate = {}
    for backend in backends:
        solved = total = nodes = 0
        secs = 0.0
        if backend == "compiled":
            from gameai.compiled.threats import warm_up
            warm_up()
        print(f"   backend={backend}")
        for p in chosen:
            n = 2 * p["attacks"] + 1
            total += 1
            s = load(p)
            sr = gameai.make_searcher(f"{p['mode']}(depth={n},backend={backend})")
            t0 = time.perf_counter()
            r = sr.search(s)
            dt = time.perf_counter() - t0
            got = s.move_str(r.move) if r.move is not None else "-"
            first = p["expect"].split(",")[0].lower()
            ok = r.value and MATE - r.value <= n
            solved += bool(ok and dt < 1.0)
            nodes += r.stats.nodes
            secs += dt
            note = "" if ok else "  NOT SOLVED"
            print(f"   {p['name']:22s} {p['mode']}  {n:2d} plies  answer {first:4s} found {got:4s} "
                  f"{'in ' + str(MATE - r.value) + ' plies' if r.value else '':12s} "
                  f"{dt * 1000:7.1f} ms  {r.stats.nodes:6d} nodes{note}")
        rate[backend] = nodes / secs
        print(f"   solved within 1 s: {solved} of {total}; {nodes} nodes in {secs:.3f} s "
              f"({rate[backend]:,.0f} nodes/s)")
    if "python" in rate and "compiled" in rate:
        print(f"   compiled/python nodes per second: {rate['compiled'] / rate['python']:.1f}x "
              "(the same nodes on both: the searches are identical)")


#: the switch rows of :func:`switches` (``threat_forced`` cuts moves, so its rows also say
#: whether each position's value is the plain search's)
SWITCH_ROWS = ("", ",threat_order=true", ",threat_order=true,threat_forced=true", ",threats=true",
               ",threats=true,threat_order=true", ",threats=true,threat_order=true,threat_forced=true")


def switches(backends: tuple[str, ...] = ("python",), depth: int = 3) -> None:
    """Each switch on each backend (the compiled core compiled before the clock starts);
    with both, the time ratio (the same searches: their nodes are checked equal)."""
    print(f"3. threat switches in alpha-beta (NegaScout depth {depth}, TT, history, ID) on the same positions")
    base = f"negascout(depth={depth},tt=true,history=true,id=true"
    plain: dict = {}
    for extra in SWITCH_ROWS:
        for rule in ("freestyle", "renju"):
            row = {}
            for backend in backends:
                spec = base + extra + ("" if backend == "python" else ",backend=compiled") + ")"
                if backend == "compiled":
                    _search_all(spec, rule)          # compile (or load) once, untimed
                row[backend] = _search_all(spec, rule)
                t, out = row[backend]
                values = [o[1] for o in out]
                same = "" if not extra else \
                    f"  values as plain: {sum(a == b for a, b in zip(values, plain[rule]))} of {len(values)}"
                plain.setdefault(rule, values)
                print(f"   {extra or '(plain)':52s} {rule:9s} {backend:8s} {t:6.2f} s  nodes "
                      f"{sum(o[2] for o in out):7d}  threat nodes {sum(o[3] for o in out):7d}{same}")
            if len(row) == 2:
                (tp, op), (tc, oc) = row["python"], row["compiled"]
                print(f"   {'':52s} {rule:9s} compiled is {tp / tc:5.1f}x faster "
                      f"(identical results: {op == oc})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="gameai bench threats", description=__doc__.splitlines()[0])
    ap.add_argument("--max-plies", type=int, default=9, help="longest puzzle line to time")
    ap.add_argument("--repeat", type=int, default=2, help="repetitions of the speed comparison")
    ap.add_argument("--only", choices=("incremental", "puzzles", "switches"), action="append")
    ap.add_argument("--depth", type=int, default=3, help="NegaScout depth of the switch rows")
    ap.add_argument("--backend", choices=("python", "compiled", "both"), default="both",
                    help="backend of the puzzles and switches (both: print the speed ratio)")
    args = ap.parse_args(argv or [])
    only = set(args.only or ("incremental", "puzzles", "switches"))
    if "puzzles" in only:
        puzzles(args.max_plies, ("python", "compiled") if args.backend == "both" else (args.backend,))
    if "incremental" in only:
        incremental(args.repeat)
    if "switches" in only:
        switches(("python", "compiled") if args.backend == "both" else (args.backend,), args.depth)
    return 0


if __name__ == "__main__":
    import sys
    raise SystemExit(main(sys.argv[1:]))
