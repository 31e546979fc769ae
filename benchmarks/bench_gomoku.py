"""gameai bench gomoku: Gomoku/Renju primitives' speed on fixed middle-game positions.

Prints, per operation, calls per second over four fixed 40-stone renju positions (from
seeded games of the 002 point-weighting player, pasted below so they never change):
push+pop, legal-move generation (incremental candidates vs a from-scratch rescan, and
with renju's forbidden-point filter), ``forbidden()`` on every empty point, and each
evaluator; then a cProfile of a renju move-generation + evaluation loop, naming what
dominates. Ratios, not absolute times, are the portable numbers.

    gameai bench gomoku            # default repeat
    gameai bench gomoku -- --repeat 3
"""
from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

POSITIONS = (
    "h8 h9 i8 g8 i9 i10 f7 j11 k12 j10 j9 k10 h10 l10 m10 l9 i12 l11 l12 j12 k11 j13 j14 "
    "l8 l7 k9 i11 m8 n7 m7 n6 n8 k8 m6 m5 j8 i7 l6 k5 j6",
    "h8 i7 h7 h6 i8 j8 k9 g5 f4 g6 g7 f6 i6 e6 d6 e7 h4 e5 e4 g4 f5 g3 g2 e8 e9 f7 h5 d8 "
    "c9 d9 c10 c8 b8 f8 g8 f9 f10 d7 g10 d10",
    "h8 g8 h9 h7 g9 f9 e10 i6 j5 i7 i8 j7 k7 g7 f7 k8 l9 h5 g4 h6 g5 i5 j4 i4 i3 h4 h3 g3 "
    "f2 j3 k2 f8 e9 j6 g6 k6 l6 k5 e8 e7",
    "h8 i8 i7 h7 j6 g9 k5 l4 k6 j9 k10 g6 f5 k4 l6 i6 j5 j4 m4 i4 h4 h5 f7 j3 k2 l5 i2 m6 "
    "n7 g4 j7 g5 g7 g3 g2 f3 e2 e3 d3 f4",
)


def _rate(fn, states, min_time: float) -> float:
    """Calls per second of ``fn(state)`` cycling over ``states`` for about ``min_time`` s."""
    n = 0
    t0 = time.perf_counter()
    while True:
        for s in states:
            fn(s)
        n += len(states)
        dt = time.perf_counter() - t0
        if dt >= min_time:
            return n / dt


def _rescan(state) -> list[int]:
    """Reference candidate generation from scratch (what the incremental set avoids)."""
    b = state.board
    neigh = state.geo.neighbours(state.radius)
    return [i for i in state.geo.cells if b[i] == 2 and any(b[q] < 2 for q in neigh[i])]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="gameai bench gomoku", description=__doc__.splitlines()[0])
    ap.add_argument("--time", type=float, default=0.5, help="seconds per measurement")
    args = ap.parse_args(argv or [])

    import gameai
    from gameai.games.gomoku_rules import maybe_forbidden

    renju = [gameai.load_game("renju", moves=m) for m in POSITIONS]
    free = [gameai.load_game("gomoku", moves=m) for m in POSITIONS]
    black_to_move = []
    for s in renju:
        t = s.copy()
        if t.to_move == 1:
            t.pop()
        black_to_move.append(t)
    T = args.time
    rows: list[tuple[str, float]] = []

    def push_pop(s):
        m = s.legal_moves()[0]
        s.push(m)
        s.pop()

    rows.append(("push+pop (gomoku, incl. legal_moves)", _rate(push_pop, free, T)))
    rows.append(("legal_moves gomoku (incremental set)", _rate(lambda s: s.legal_moves(), free, T)))
    rows.append(("legal_moves gomoku (rescan, reference)", _rate(_rescan, free, T)))
    def renju_cold(s):
        s._legal_cache.clear()
        return s.legal_moves()

    rows.append(("legal_moves renju, black to move (uncached)", _rate(renju_cold, black_to_move, T)))
    rows.append(("legal_moves renju, black to move (key cache hit)",
                 _rate(lambda s: s.legal_moves(), black_to_move, T)))

    def all_forbidden(s):
        b = s.board
        for i in s.geo.cells:
            if b[i] == 2:
                s.forbidden(i)

    empties = sum(1 for i in black_to_move[0].geo.cells if black_to_move[0].board[i] == 2)
    r = _rate(all_forbidden, black_to_move, T)
    rows.append(("forbidden() per empty point", r * empties))

    def prefiltered(s):
        b, d = s.board, s.dirs
        for i in s.geo.cells:
            if b[i] == 2:
                maybe_forbidden(b, i, d)

    rows.append(("maybe_forbidden() prefilter per point", _rate(prefiltered, black_to_move, T) * empties))
    from gameai.evaluators import gomoku_patterns

    pat = gameai.make_evaluator("gomoku.patterns")

    def pat_cold(s):
        gomoku_patterns._MEMO.clear()
        pat._memo.clear()
        return pat(s)

    rows.append(("eval gomoku.patterns (cold line memo)", _rate(pat_cold, free, T)))
    for spec in ("gomoku.patterns", "gomoku.position", "gomoku.pointweight"):
        ev = gameai.make_evaluator(spec)
        for s in free:
            ev(s)  # warm the pattern memo: the search-time steady state
        rows.append((f"eval {spec}", _rate(ev, free, T)))

    width = max(len(n) for n, _ in rows)
    print(f"gomoku bench: {len(POSITIONS)} fixed 40-stone positions, 15x15, radius 2")
    for name, rate in rows:
        print(f"  {name:<{width}}  {rate:>12,.0f} /s")
    inc, ref = rows[1][1], rows[2][1]
    print(f"  incremental candidates vs rescan: {inc / ref:.1f}x")
    print(f"  renju legal_moves (uncached) costs {rows[1][1] / rows[3][1]:.1f}x gomoku's (forbidden filter)")

    prof = cProfile.Profile()
    ev = gameai.make_evaluator("gomoku.patterns")

    def workload():
        for s in black_to_move:
            for m in s.legal_moves():
                s.push(m)
                ev(s)
                s.pop()

    workload()  # warm the memo and the renju cache: profile the steady state
    for s in black_to_move:
        s._legal_cache.clear()
    prof.enable()
    for _ in range(3):
        workload()
    prof.disable()
    buf = io.StringIO()
    st = pstats.Stats(prof, stream=buf).sort_stats("tottime")
    st.print_stats(6)
    top = [(f"{fn[2]} ({fn[0].rsplit('/', 1)[-1]}:{fn[1]})", v[2]) for fn, v in st.stats.items()]
    top.sort(key=lambda x: -x[1])
    total = sum(v for _, v in top) or 1.0
    print("  profile, warm memo (renju, black to move: legal_moves, then per child push + patterns eval + pop):")
    for name, t in top[:6]:
        print(f"    {100 * t / total:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
