"""The root proof has no fixed cap, and a VCF needs no ply cap.

* A VCF failure no ply limit cut is stored as failing at every depth, so deepening stops
  when the fours run out. Checked against an independent exhaustive VCF (below: every
  four of the attacker, every block of the defender, no table, no depth limit) on random
  7x7 positions of the three rules, and on both backends with identical counters.
* The threat part's root proof grows with the search's budget. The two reproductions are
  positions where a proof exists that the old fixed caps (5,000 nodes; a VCF of 3 x
  ``threat_depth`` = 9 plies) never reached, so ``strong`` played another move:
  a Gomoku VCF of 11 plies (2,803 nodes) and a Renju VCT of 13 plies (about 72,500 nodes).
"""
import random

import pytest

import gameai
from gameai.search.stats import MATE
from gameai.search.threats import ThreatPart, ThreatSolver
from gameai.search.threats.facts import _pass, _unpass

from tests.threats.test_threats import random_position

#: Black to move: ``vcf(depth=11)`` wins with f5; ``strong`` at 20,000 nodes played e8
GOMOKU_VCF = ("h8 f10 h9 i10 i9 j9 k8 i8 j10 g7 k9 k10 h7 h10 e10 i11 h5 h6 i6 j7 g8 f9 "
              "j5 k4 i5 k5 i4 l11 m12 i7 f7 j3")
#: Black to move: ``vct(depth=15)`` wins with f10 (13 plies); ``strong`` at 1,000,000
#: nodes played e10
RENJU_VCT = "h8 i10 f9 j11 h7 j10 g8 i6 e8 i8 f8 d8"


def played(game: str, moves: str):
    s = gameai.load_game(game)
    for t in moves.split():
        s.push(s.parse_move(t))
    return s


# --------------------------------------------------------------- an exhaustive VCF
def _five_points(g) -> list[int]:
    """The side to move's legal moves that make five."""
    out = []
    for m in g.legal_moves():
        g.push(m)
        if g.result() is not None and g.result().winner is not None:
            out.append(m)
        g.pop()
    return out


def exhaustive_vcf(g, memo=None) -> int:
    """Plies to the side to move's shortest VCF win (every four tried, every legal block
    answered, no ply limit; ``memo`` keeps exact answers by position), else 0."""
    memo = {} if memo is None else memo
    if g.key in memo:
        return memo[g.key]
    memo[g.key] = v = _attack(g, memo)
    return v


def _attack(g, memo) -> int:
    if _five_points(g):
        return 1
    _pass(g)
    threats = _five_points(g)
    _unpass(g)
    if len(threats) > 1:
        return 0                                  # two fives to stop: the attack is over
    best = 0
    legal = g.legal_moves()
    for m in ([m for m in threats if m in legal] if threats else legal):
        g.push(m)
        if g.result() is not None:
            g.pop()
            continue
        n = _defend(g, memo)
        g.pop()
        if n and (not best or n + 1 < best):
            best = n + 1
    return best


def _defend(g, memo) -> int:
    if _five_points(g):
        return 0                                  # the defender makes five first
    _pass(g)
    fives = _five_points(g)                      # the attacker's five-points
    _unpass(g)
    if not fives:
        return 0                                  # not a four: no VCF move
    blocks = [m for m in fives if m in set(g.legal_moves())]
    if not blocks:
        return 2                                  # unstoppable (two, or a forbidden block)
    worst = 0
    for m in blocks:
        g.push(m)
        n = exhaustive_vcf(g, memo) if g.result() is None else 0
        g.pop()
        if not n:
            return 0
        worst = max(worst, n)
    return worst + 1


def quiet_positions(rng, rule, size, stones, k):
    """``k`` random positions where neither side can make five at once."""
    out = []
    while len(out) < k:
        g = random_position(rng, rule, size=size, stones=rng.randrange(*stones))
        _pass(g)
        threat = _five_points(g)
        _unpass(g)
        if not threat and not _five_points(g):
            out.append(g)
    return out


def check_uncapped_vcf(rule, size, stones, k, seed):
    wins = 0
    for g in quiet_positions(random.Random(seed), rule, size, stones, k):
        n, _line, done = ThreatSolver(vct=False).solve(g, size * size)
        assert n == exhaustive_vcf(g), str(g)
        if not n:
            assert done == size * size            # it stopped deepening: no limit can win
        wins += bool(n)
    assert 0 < wins < k                           # wins and non-wins in the sample


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_an_uncapped_vcf_equals_an_exhaustive_one(rule):
    check_uncapped_vcf(rule, 7, (14, 26), 10, {"freestyle": 21, "standard": 22, "renju": 23}[rule])


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_an_uncapped_vcf_equals_an_exhaustive_one_on_9x9(rule):
    check_uncapped_vcf(rule, 9, (18, 34), 12, {"freestyle": 21, "standard": 22, "renju": 23}[rule])


def test_an_unwinnable_vcf_stops_deepening_when_its_fours_run_out():
    g = played("gomoku", "h8 h9 i8 i9 g7")       # White to move: no four to make at all
    iterations = []
    n, _line, done = ThreatSolver(vct=False).solve(g, 221, on_iteration=lambda d, v: iterations.append(d))
    assert n == 0 and done == 221 and iterations == [1, 3]


# --------------------------------------------------------------- the root proof
def test_the_root_vcf_has_no_ply_cap_and_a_node_limited_proof_grows_with_the_budget():
    """Python backend: the 11-ply VCF is beyond the old 9-ply root VCF; found at 20,000
    nodes (its proof: 2,803 nodes within the quarter of the budget)."""
    s = played("gomoku", GOMOKU_VCF)
    spec = ("negascout(tt=true,history=true,id=true,threats=true,threat_order=true,"
            "threat_forced=true,threat_depth=3,backend=python)")
    r = gameai.make_searcher(spec, game="gomoku").search(s, {"nodes": 20_000})
    assert s.move_str(r.move) == "f5" and r.value == MATE - 11
    assert r.stats.threat_nodes <= 20_000 // 4


@pytest.mark.parametrize("game, moves, nodes, move, plies", [
    ("gomoku", GOMOKU_VCF, 20_000, "f5", 11),
    ("renju", RENJU_VCT, 1_000_000, "f10", 13),
])
def test_strong_plays_the_proven_win_of_the_reproductions(game, moves, nodes, move, plies):
    pytest.importorskip("numba")
    s = played(game, moves)
    r = gameai.make_searcher(f"strong(nodes={nodes},time=none)", game=game).search(s)
    assert s.move_str(r.move) == move and r.value == MATE - plies
    assert r.stats.threat_nodes <= nodes // 4    # within the root proof's share


def test_a_depth_only_search_keeps_the_fixed_root_budget():
    """Without a node or time limit nothing else bounds the root proof: ``root_nodes``
    (5,000, ``threat_effort`` times), so the 13-ply Renju VCT (about 72,500 nodes) stays
    out of reach at effort 1 and is found at effort 20."""
    s = played("renju", RENJU_VCT)
    part = ThreatPart(depth=3, effort=1)
    assert part.root(s, lambda n: False) == (0, [])
    assert part.nodes <= 5_000 + part.pass_nodes
    part = ThreatPart(depth=3, effort=20)
    n, line = part.root(s, lambda n: False)
    assert n == 13 and s.move_str(line[0]) == "f10"
