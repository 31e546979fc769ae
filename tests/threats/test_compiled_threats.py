"""The compiled threat solver (gameai/compiled/threats.py) against the Python one.

The Python :class:`gameai.search.threats.ThreatSolver` is the independent reference: on
the published Renju puzzles (tests/data/renju_puzzles.json, also checked against their
published first moves and lengths) and on seeded random mid-game positions of the three
rules, both must give the same value, line and last depth and the same node, leaf,
terminal, interior, cut-off and TT counters, also under node limits, node budgets, a
tiny TT that is cleared again and again, and calls that reuse one solver (its TT
persists) across positions; ``proof_points``, ``points`` and ``new_four_points`` too.
"""
import random

import pytest

import gameai
from gameai.search.stats import MATE
from gameai.search.threats import ThreatSolver as PySolver
from gameai.search.threats.facts import _pass, _unpass
from benchmarks.renju_puzzles import PUZZLES, load

numba = pytest.importorskip("numba")

COUNTERS = ("nodes", "leaves", "terminals", "interior", "cutoffs", "probes", "hits", "ttcuts",
            "seldepth")


@pytest.fixture(scope="module")
def compiled():
    from gameai.compiled import threats
    threats.warm_up()                     # compile once for the module
    return threats.ThreatSolver


def counters(sv):
    return {k: getattr(sv, k) for k in COUNTERS}


def both(compiled, vct, tt_size=1 << 20):
    return PySolver(vct=vct, tt_size=tt_size), compiled(vct=vct, tt_size=tt_size)


def same_calls(solvers, state, calls):
    """Run the same sequence of calls on each solver; every answer and counter must agree."""
    answers = []
    for sv in solvers:
        out = []
        for name, args in calls:
            if name == "pass":
                _pass(state)
                out.append(None)
            elif name == "unpass":
                _unpass(state)
                out.append(None)
            elif name == "push":
                state.push(args)
                out.append(None)
            elif name == "pop":
                state.pop()
                out.append(None)
            else:
                key = state.key
                r = getattr(sv, name)(state, *args)
                assert state.key == key             # left as it was
                out.append((r, counters(sv)))
        answers.append(out)
    py, co = answers
    for (name, args), a, b in zip(calls, py, co):
        assert a == b, (name, args)
    return py


SHORT = [p for p in PUZZLES if 2 * p["attacks"] + 1 <= 9]


def test_the_kernel_reads_the_python_solvers_constants(compiled):
    """The compiled solver keeps its own copy (it imports no search module, which imports
    it): the quiet-move width and the VCF budget of a quiet move are the reference's."""
    from gameai.compiled import threats
    assert (threats.QUIET_WIDTH, threats.THREAT_BUDGET) == \
        (PySolver.QUIET_WIDTH, PySolver.THREAT_BUDGET)


@pytest.mark.parametrize("p", SHORT, ids=lambda p: p["name"])
def test_puzzles_same_search_and_published_answer(compiled, p):
    n = 2 * p["attacks"] + 1
    s = load(p)
    out = same_calls(both(compiled, p["mode"] == "vct"), s, [("solve", (n,))])
    plies, line, done = out[0][0]
    assert plies == n and done == n
    assert s.move_str(line[0]) == p["expect"].split(",")[0].lower()


@pytest.mark.parametrize("name", ["okabe-02", "game-white-l04-2"])
def test_searcher_backends_agree(compiled, name):
    p = next(q for q in PUZZLES if q["name"] == name)
    n = 2 * p["attacks"] + 1
    rs = []
    for backend in ("python", "compiled"):
        sr = gameai.make_searcher(f"{p['mode']}(depth={n},backend={backend})")
        rs.append(sr.search(load(p)))
    a, b = rs
    assert (a.move, a.pv, a.value) == (b.move, b.pv, b.value) and a.value == MATE - n
    keep = ("nodes", "leaves", "terminals", "interior", "cutoffs", "tt_probes", "tt_hits",
            "tt_cutoffs", "seldepth", "depth")
    assert {k: getattr(a.stats, k) for k in keep} == {k: getattr(b.stats, k) for k in keep}
    assert [r["nodes"] for r in a.stats.iterations] == [r["nodes"] for r in b.stats.iterations]
    assert "backend=compiled" in gameai.make_searcher("vct(depth=5,backend=compiled)").name


def test_node_limits_abort_at_the_same_node(compiled):
    p = next(q for q in PUZZLES if q["name"] == "renjuportal-3040")
    for limit in (50, 333, 700):
        rs = [gameai.make_searcher(f"vcf(depth=25,nodes={limit},backend={b})").search(load(p))
              for b in ("python", "compiled")]
        assert rs[0].value == rs[1].value and rs[0].stats.nodes == rs[1].stats.nodes
        assert rs[0].stats.depth == rs[1].stats.depth
    s = load(next(q for q in PUZZLES if q["name"] == "game-black-l04-2"))
    same_calls(both(compiled, True), s, [("solve", (9, lambda n, k=k: n >= k, None, 64, k))
                                         for k in (100, 1500, 4000)])
    same_calls(both(compiled, True), s, [("solve", (9, None, None, 64, 100))])   # no stop: runs on


def random_position(rng, rule, size, stones):
    while True:
        g = gameai.load_game("gomoku", rule=rule, size=size)
        for _ in range(stones):
            moves = g.legal_moves()
            if g.result() is not None or not moves:
                break
            moves.sort(key=lambda m: rng.random() + 0.2 * max(abs(c - size // 2) for c in g.point(m)))
            g.push(moves[0])
        if g.result() is None and g.legal_moves():
            return g


def _random_calls(rng):
    """A seeded mix of solver calls: deepening solves, budgets, passes, proofs."""
    calls = [("solve", (7,)), ("win_within", (9, 1, 300, True)), ("points", (0, 1)),
             ("points", (1, 3)), ("pass", None), ("win_within", (7, 1, 2000, True)),
             ("proof_points", ()), ("unpass", None), ("win_within", (5,))]
    return calls


def test_proof_points_on_bit_63_of_a_word(compiled):
    """A proof point whose index is 63 mod 64 sets the sign bit of its bitset word: read
    as a signed int the compiled proof_points never finished (a threat player's game
    stalled there). The set must equal the Python solver's."""
    moves = "h8 i6 i7 j9 h7 j7 j6 g9 k5 l4 h9 h10 h5 h6 i5 j5 k7 h4 l8 m9 k8 k9 l9"
    g = gameai.load_game("gomoku", moves=moves)
    out = same_calls(both(compiled, vct=True), g, [("pass", None), ("win_within", (15, 1, 4000, True)),
                                                   ("proof_points", ()), ("unpass", None)])
    points = out[2][0]
    assert out[1][0] and points and any(p % 64 == 63 for p in points)


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_random_positions_same_search(compiled, rule):
    rng = random.Random({"freestyle": 1, "standard": 2, "renju": 3}[rule])
    wins = 0
    for i in range(6):
        g = random_position(rng, rule, 15, rng.randrange(14, 30))
        pair = both(compiled, vct=i % 3 != 0, tt_size=1 << 20 if i % 2 else 97)
        out = same_calls(pair, g, _random_calls(rng))
        wins += bool(out[0][0][0])
        # the solver keeps its TT: one move later, again
        m = g.legal_moves()[0]
        same_calls(pair, g, [("push", m), ("solve", (7,)), ("pop", None), ("solve", (9,))])
        assert pair[1].new_four_points(g.to_move, m) == pair[0].new_four_points(g.to_move, m)
    assert wins >= 1


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_many_random_positions_same_search(compiled, rule):
    rng = random.Random(100 + len(rule))
    for i in range(30):
        g = random_position(rng, rule, rng.choice((9, 15)), rng.randrange(10, 40))
        pair = both(compiled, vct=bool(i % 2), tt_size=rng.choice((31, 1000, 1 << 16)))
        same_calls(pair, g, [("solve", (rng.choice((5, 7, 9, 11)), None, None, 64,
                                        rng.choice((None, 500, 3000))))] + _random_calls(rng))


@pytest.mark.slow
@pytest.mark.parametrize("p", [p for p in PUZZLES if 2 * p["attacks"] + 1 > 9], ids=lambda p: p["name"])
def test_long_puzzles_same_search(compiled, p):
    n = 2 * p["attacks"] + 1
    s = load(p)
    out = same_calls(both(compiled, p["mode"] == "vct"), s, [("solve", (n + 2,))])
    assert out[0][0][0] and out[0][0][0] <= n + 2


# --------------------------------------------------------------------------- inside alpha-beta
from benchmarks.bench_gomoku import POSITIONS  # noqa: E402

AB_KEEP = ("nodes", "leaves", "terminals", "interior", "cutoffs", "first_move_cutoffs",
           "tt_probes", "tt_hits", "tt_cutoffs", "researches", "seldepth", "depth",
           "threat_nodes")


def ab_pair(spec, rule, moves, limits=None):
    out = []
    for backend in ("python", "compiled"):
        s = gameai.load_game("gomoku", rule=rule, moves=moves)
        r = gameai.make_searcher(spec + f",backend={backend})").search(s, limits)
        out.append(r)
    a, b = out
    assert (a.move, a.value, a.pv) == (b.move, b.value, b.pv)
    assert {k: getattr(a.stats, k) for k in AB_KEEP} == {k: getattr(b.stats, k) for k in AB_KEEP}
    assert [{k: v for k, v in row.items() if k != "time_s"} for row in a.stats.iterations] == \
        [{k: v for k, v in row.items() if k != "time_s"} for row in b.stats.iterations]
    return a


@pytest.mark.parametrize("rule,position", [
    ("freestyle", 0), ("renju", 1),          # the other pairs behind the slow marker
    pytest.param("freestyle", 1, marks=pytest.mark.slow),
    pytest.param("renju", 0, marks=pytest.mark.slow)])
@pytest.mark.parametrize("spec", [
    "negascout(depth=3,tt=true,history=true,id=true,threats=true,threat_order=true",
    "alphabeta(depth=2,threats=true",
    "negascout(depth=2,tt=true,killers=true,threat_order=true",
    "negascout(depth=2,tt=true,history=true,threats=true,threat_horizon_vct=5",
    "negascout(depth=2,tt=true,history=true,threats=true,threat_horizon_vct=7,"
    "threat_horizon_nodes=40",
    "negascout(depth=4,tt=true,history=true,id=true,threat_forced=true",
    "negascout(depth=3,tt=true,history=true,threats=true,threat_order=true,threat_forced=true",
    "negascout(depth=3,tt=true,history=true,threats=true,threat_order=true,threat_forced=true,"
    "threat_depth=3",
    "negascout(depth=4,tt=true,history=true,id=true,threats=true,threat_order=true,"
    "threat_forced=true,threat_depth=3,threat_defend=true",
])
def test_threat_parts_in_alpha_beta_same_search(compiled, rule, position, spec):
    """threats (root, root-move reply checks, horizon VCF and VCT, with and without a node
    budget, the horizon's defence against a four), threat_order and threat_forced on both cores: the same move, value, PV and
    counters, threat nodes included."""
    r = ab_pair(spec, rule, POSITIONS[position])
    assert ("threats" not in spec) or r.stats.threat_nodes > 0


def test_threat_nodes_count_against_the_node_limit(compiled):
    spec = "negascout(depth=6,tt=true,history=true,id=true,threats=true,threat_order=true"
    for limit in (3000, 20000):
        r = ab_pair(spec, "freestyle", POSITIONS[0], {"nodes": limit})
        assert r.stats.nodes <= limit and r.stats.threat_nodes > 0


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_threat_parts_in_alpha_beta_all_positions(compiled, rule):
    for moves in POSITIONS:
        ab_pair("mtdf(depth=3,tt=true,history=true,threats=true,threat_order=true", rule, moves)
        ab_pair("negascout(depth=4,tt=true,history=true,id=true,aspiration=true,threats=true,"
                "threat_order=true,threat_vct_depth=9", rule, moves, {"nodes": 30000})


def test_without_numba_the_python_solver_runs(no_numba):
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        a = gameai.make_searcher("vct(depth=5,backend=compiled)")
        b = gameai.make_searcher("negascout(depth=2,threats=true,backend=compiled)")
    assert type(a.solver) is PySolver and type(b.threats.vct) is PySolver
    assert a.name == "vct(depth=5)" and b.backend == "python"
    assert len([x for x in w if "Python backend" in str(x.message)]) == 1
    with pytest.raises(gameai.SpecError, match="backend"):
        gameai.make_searcher("vcf(depth=5,backend=fast)")


def test_a_timed_check_goes_beyond_the_fixed_budget(compiled):
    """A game the threat player lost at 2 s a move (standard opening h8 i9 j8): after its
    i10 White has a VCT (15 plies by a fresh ``vct`` search, which takes 54,000 nodes; the
    check's deepening takes about 58,000), beyond the 50,000 a depth-limited search's
    check of its move gets. A timed search's check (given
    ``should_stop``) may go further and proves it, and stores the move as lost; the
    fixed check and one stopped at once prove nothing and store nothing."""
    from gameai.compiled.threats import part_solvers
    from gameai.search.threats import ThreatPart
    g = gameai.load_game("gomoku", moves="h8 i9 j8 k8 h9 k9 g8 k10 k7")
    i10 = g.parse_move("i10")
    fixed, timed, stopped = (ThreatPart(solver=part_solvers()) for _ in range(3))
    for part in (fixed, timed, stopped):
        part.root(g, lambda n: False)
        assert not part.pass_clear
    assert not fixed.refutes(g, i10)
    assert not stopped.refutes(g, i10, lambda n: True)
    assert not stopped._by_key
    assert timed.refutes(g, i10, lambda n: False)
    g.push(i10)
    for part in (fixed, stopped):                       # nothing stored as lost
        assert not part._replies.get(g.key) and not part._by_key.get(g.key)
    assert 0 < timed._replies[g.key] == timed.reply(g, 1) <= 15
    assert gameai.make_searcher("vct(depth=15,backend=compiled)").search(g).value == MATE - 15


def test_win_within_asks_the_clock(compiled):
    """``win_within(..., should_stop)`` asks every 256 nodes, on both solvers at the same
    nodes; when it says stop, the check gives up (0, ``aborted``) with the position as it
    was, and with a clock that never stops the same check proves the win."""
    g = gameai.load_game("gomoku", moves="h8 i9 j8 k8 h9 k9 g8 k10 k7 i10")
    key = g.key
    seen = []
    for sv in both(compiled, vct=True):
        asked = []

        def stop(n):
            asked.append(n)
            return len(asked) == 3
        assert sv.win_within(g, 15, 1, 200_000, True, stop) == 0 and sv.aborted
        assert g.key == key and len(asked) == 3 and asked[-1] == sv.nodes
        # (a quiet threat's VCF adds its nodes at once, so a check can come a little late)
        assert all(256 <= b - a < 512 for a, b in zip([0] + asked, asked))
        seen.append(asked)
    assert seen[0] == seen[1]
    sv = compiled(vct=True)
    assert 0 < sv.win_within(g, 15, 1, 200_000, True, lambda n: False) <= 15 and not sv.aborted
    assert sv.win_within(g, 15, 1, 100, True) == 0 and sv.aborted


def test_an_unfinished_timed_check_is_continued_not_passed(compiled):
    """The position of the test above: a timed check of i10 stopped at once proves nothing,
    and the move is not taken as checked: the next check (with time) goes on and proves
    White's VCT. A finished check that proves nothing is not repeated."""
    from gameai.compiled.threats import part_solvers
    from gameai.search.threats import ThreatPart
    g = gameai.load_game("gomoku", moves="h8 i9 j8 k8 h9 k9 g8 k10 k7")
    i10, k11 = g.parse_move("i10"), g.parse_move("k11")
    part = ThreatPart(solver=part_solvers())
    part.root(g, lambda n: False)
    assert not part.refutes(g, i10, lambda n: True)
    assert part.refutes(g, i10, lambda n: False)
    g.push(k11)                             # (k11 blocks the column: no VCT after it)
    assert part.vct.solve(g, part.vct_depth)[0] == 0
    g.pop()
    assert not part.refutes(g, k11, lambda n: False)
    nodes = part.nodes
    assert not part.refutes(g, k11, lambda n: False) and part.nodes == nodes
