"""df-pn over the threat space (gameai/compiled/threats_pn.py) against the depth-first solver.

Both search the same AND/OR tree with the same ply limit, so they must decide the same
positions: the published Renju puzzles (experiments/renju_puzzles.py, whose lengths are
the published ones) and seeded random mid-game positions of the three rules. A proven
line must be legal and end in the attacker's five. The budget and the clock stop it,
and its table lets a later call go on.
"""
import random

import pytest

import gameai
from gameai.errors import SpecError
from gameai.search.stats import MATE
from experiments.renju_puzzles import PUZZLES, load
from test_compiled_threats import random_position

numba = pytest.importorskip("numba")


@pytest.fixture(scope="module")
def prove():
    from gameai.compiled import threats, threats_pn
    threats.warm_up()
    return threats_pn.prove


def plays_to_five(s, line):
    attacker = s.to_move
    for m in line:
        s.push(m)                               # (push checks each move is legal)
    won = s.result() is not None and s.result().winner == attacker
    for _ in line:
        s.pop()
    return won


@pytest.mark.parametrize("p", [p for p in PUZZLES if 2 * p["attacks"] + 1 <= 11],
                         ids=lambda p: p["name"])
def test_puzzles_decided_as_the_depth_first_solver_decides_them(prove, p):
    """At the puzzle's published length: the same answer as the depth-first searcher, and
    a proven line of ``MATE - value`` plies that ends in the attacker's five (df-pn's
    proof need not be the shortest, so it may be longer than the published one)."""
    s = load(p)
    depth = 2 * p["attacks"] + 1
    dfs = gameai.make_searcher(f"{p['mode']}(depth={depth},backend=compiled)").search(s)
    pn = gameai.make_searcher(f"{p['mode']}(depth={depth},backend=compiled,pn=true)").search(s)
    assert (dfs.move is None) == (pn.move is None)
    if pn.move is not None:
        assert len(pn.pv) == MATE - pn.value <= depth
        assert plays_to_five(s, pn.pv)


@pytest.mark.parametrize("rule", ["standard", "freestyle", "renju"])
def test_random_positions_decided_as_the_depth_first_solver_decides_them(prove, rule):
    """Seeded random positions, VCT at 9 plies and VCF at 11: df-pn proves exactly the
    positions the depth-first solver proves (both ways, several of each), with lines
    that reach the five and are no shorter than the shortest win (deepening's)."""
    from gameai.compiled.threats import ThreatSolver
    from gameai.search.threats import complete_line
    rng = random.Random(f"dfpn-{rule}")
    seen = {True: 0, False: 0}
    for i in range(40):
        s = random_position(rng, rule, 15, rng.randrange(14, 40))
        for vct, plies in ((True, 9), (False, 11)):
            dfs = ThreatSolver(vct=vct).win_within(s, plies, deepen=True)   # the shortest
            n, line = prove(ThreatSolver(vct=vct), s, plies)
            assert (n > 0) == (dfs > 0), (i, vct)
            if n:
                full = complete_line(s, ThreatSolver(vct=vct), line, n)
                assert dfs <= n <= plies and len(full) == n and plays_to_five(s, full)
            seen[n > 0] += 1
    assert seen[True] >= 5 and seen[False] >= 5


def test_a_budget_stops_it_and_the_next_call_goes_on(prove):
    """okabe-02 (a published 9-ply VCT) with 300 nodes a call: each call stops (-1) within
    its budget, and the table it keeps lets later calls finish the proof; a fresh solver
    with the same budget gets no further than the first call did."""
    from gameai.compiled.threats import ThreatSolver
    from gameai.search.threats import ThreatSolver as Py
    s = load(next(p for p in PUZZLES if p["name"] == "okabe-02"))
    sv = ThreatSolver(vct=True)
    for call in range(1, 60):
        before = sv.nodes
        n, line = prove(sv, s, 9, 300)
        # (a quiet threat's VCF adds its nodes at once: up to its own budget late)
        assert sv.nodes - before <= 300 + Py.THREAT_BUDGET
        if n >= 0:
            break
    assert n == 9 and call > 1
    fresh = ThreatSolver(vct=True)
    assert prove(fresh, s, 9, 300)[0] == -1
    sv.clear()                                  # a new game: the table is emptied
    assert prove(sv, s, 9, 300)[0] == -1


def test_the_clock_stops_it(prove):
    from gameai.compiled.threats import ThreatSolver
    s = load(next(p for p in PUZZLES if p["name"] == "okabe-02"))
    asked = []

    def stop(n):
        asked.append(n)
        return len(asked) == 2
    sv = ThreatSolver(vct=True)
    assert prove(sv, s, 9, None, stop) == (-1, [])
    assert len(asked) == 2 and s.result() is None


def test_pn_needs_the_compiled_backend():
    with pytest.raises(SpecError, match="backend=compiled"):
        gameai.make_searcher("vct(depth=9,pn=true)")
    with pytest.raises(SpecError, match="backend=compiled"):
        gameai.make_searcher("negascout(depth=2,threats=true,threat_pn=17)")


def test_threat_pn_checks_the_move_played_by_dfpn(prove):
    """The game of test_compiled_threats' timed check: after i10 White has a 15-ply VCT.
    With ``threat_pn=17`` the check of the move played is a df-pn search: the timed one
    proves it and stores the move as lost; one the clock stops at once stores nothing,
    and the next one goes on."""
    from gameai.compiled.threats import part_solvers
    from gameai.search.threats import ThreatPart
    g = gameai.load_game("gomoku", moves="h8 i9 j8 k8 h9 k9 g8 k10 k7")
    i10 = g.parse_move("i10")
    part = ThreatPart(solver=part_solvers(), pn=17)
    part.root(g, lambda n: False)
    assert not part.pass_clear
    nodes = part.nodes
    assert not part.refutes(g, i10, lambda n: True)
    assert not part._by_key
    assert part.refutes(g, i10, lambda n: False)
    assert part.nodes > nodes
    g.push(i10)
    assert 0 < part._replies[g.key] <= 17
