"""The minimal tree (cheapest Knuth-Moore proof) against the closed form, an independent
brute-force minimum, and every fixed-depth searcher without a TT."""
# Kept at the root of tests/ (not tests/search/) while the committed minimal_tree results
# cite this path; it moves with the next rerun of that experiment.
import itertools
import math

import pytest

import gameai
from gameai.search import MATE, minimal_tree

BIG = float("inf")


def brute_force(state, depth, ev, node_cost):
    """The cheapest proof by plain enumeration from exact values (no pruning, no memo):
    ALL = node + sum CUT, CUT = node + min over refuting children of ALL,
    PV = node + sum CUT + min over exact children of (PV - CUT)."""

    def leaf(d):
        r = state.result()
        if r is not None:
            if r.winner is None:
                return 0
            v = MATE - (depth - d)
            return v if r.winner == state.to_move else -v
        if d == 0 or not state.legal_moves():
            return ev(state)
        return None

    def each_child(d, f):
        out = []
        for m in state.legal_moves():
            state.push(m)
            out.append(f(d - 1))
            state.pop()
        return out

    def value(d):
        v = leaf(d)
        return v if v is not None else max(-c for c in each_child(d, value))

    def cut(d, b):
        v = leaf(d)
        if v is not None:
            return 1 if v >= b else BIG
        return node_cost + min(each_child(d, lambda dd: all_(dd, -b)))

    def all_(d, b):
        v = leaf(d)
        if v is not None:
            return 1 if v <= b else BIG
        return node_cost + sum(each_child(d, lambda dd: cut(dd, b=-b)))

    def pv(d, v):
        if leaf(d) is not None:
            return 1
        rows = each_child(d, lambda dd: (cut(dd, -v), value(dd), pv(dd, -v) if value(dd) == -v else BIG))
        return node_cost + sum(c for c, _, _ in rows) + min(p - c for c, cv, p in rows if cv == -v)

    v = value(depth)
    return v, pv(depth, v)


SMALL = [
    ("tictactoe", "moves=b2 a1 c3", "tictactoe.zero", 5),
    ("tictactoe", "moves=a1", "tictactoe.zero", 4),
    ("connect4", "moves=d d c e", "connect4.threats", 3),
    ("gomoku", "moves=h8 h9 i9 g7 i7", "gomoku.patterns", 2),
    ("renju", "moves=h8 h9 i9 g7 i7", "gomoku.patterns", 2),
    ("xiangqi", "fen=1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w", "xiangqi.pst", 2),
    ("synthetic", "branching=3,depth=4,seed=5,ordering=random", "synthetic.exact", 4),
]


def _load(game, args):
    if args.startswith("moves="):
        return gameai.load_game(game, moves=args[len("moves="):])
    if args.startswith("fen="):
        return gameai.load_game(game, fen=args[len("fen="):])
    return gameai.load_game(f"{game}({args})")


@pytest.mark.parametrize("game,args,ev,depth", SMALL)
def test_minimum_equals_brute_force(game, args, ev, depth):
    s = _load(game, args)
    e = gameai.make_evaluator(ev)
    key = s.key
    mt = minimal_tree(s, depth, e)
    assert s.key == key
    v, leaves = brute_force(s, depth, e, node_cost=0)
    _, nodes = brute_force(s, depth, e, node_cost=1)
    assert (mt.value, mt.leaves, mt.nodes) == (v, leaves, nodes)
    assert mt.graph_nodes <= mt.nodes and mt.graph_leaves <= mt.leaves


@pytest.mark.parametrize("b,d", [(2, 1), (2, 4), (3, 3), (3, 5), (4, 4), (5, 3), (6, 2), (7, 1)])
@pytest.mark.parametrize("ordering", ["random", "worst", "best"])
def test_uniform_trees_give_the_knuth_moore_formula(b, d, ordering):
    # Knuth & Moore (1975): B^ceil(D/2) + B^floor(D/2) - 1 leaves, whatever the move order.
    s = gameai.load_game(f"synthetic(branching={b},depth={d},seed=3,ordering={ordering})")
    mt = minimal_tree(s, d, gameai.make_evaluator("synthetic.exact"))
    assert mt.leaves == b ** math.ceil(d / 2) + b ** (d // 2) - 1
    assert mt.value == s.value()
    best = gameai.make_searcher(f"alphabeta(depth={d})").search(
        gameai.load_game(f"synthetic(branching={b},depth={d},seed=3,ordering=best)"))
    assert best.stats.leaves == mt.leaves


POSITIONS = [
    ("xiangqi", "fen=r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w", 3),
    ("xiangqi", "moves=h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 c6c5", 3),
    ("xiangqi", "fen=1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w", 2),
    pytest.param("gomoku", "moves=h8 h9 i9 g7 i7 i8 j7 h7 g9", 3, marks=pytest.mark.slow),
    ("gomoku", "moves=h8 i9 j8 i8 i7 h9 g8 j10 k8", 2),
    ("renju", "moves=h8 h9 j8 i7 i9 g9 g8 j10 f8", 2),
    pytest.param("renju", "moves=h8 i7 i9 g9 j9", 3, marks=pytest.mark.slow),
    ("renju", "moves=h8 i7 i9 g9 j9", 2),
    ("tictactoe", "moves=", 6),
    ("tictactoe", "moves=b2 a1", 7),
    ("connect4", "moves=d c d", 5),
    ("connect4", "moves=", 4),
    ("synthetic", "branching=4,depth=5,seed=11,ordering=random", 5),
    ("synthetic", "branching=6,depth=4,seed=2,ordering=0.5", 4),
]
CONFIGS = [f"{base}(depth={{d}}{''.join(f',{k}=true' for k, on in zip(('history', 'killers'), flags) if on)})"
           for base in ("alphabeta", "negascout") for flags in itertools.product((False, True), repeat=2)]


@pytest.mark.parametrize("game,args,depth", POSITIONS)
def test_no_search_without_tt_beats_the_minimal_tree(game, args, depth):
    s = _load(game, args)
    mt = minimal_tree(s, depth, gameai.make_evaluator(s.default_eval))
    for spec in CONFIGS:
        r = gameai.make_searcher(spec.format(d=depth)).search(s)
        assert r.value == mt.value, spec
        assert r.stats.leaves + r.stats.terminals >= mt.leaves, spec
        assert r.stats.nodes >= mt.nodes, spec


def test_transpositions_and_terminal_refutations_are_seen():
    s = _load(*POSITIONS[0][:2])
    mt = minimal_tree(s, 3, gameai.make_evaluator(s.default_eval))
    assert mt.graph_nodes < mt.nodes          # Xiangqi transposes even at depth 3
    assert 0 < mt.terminals <= mt.leaves


def test_bad_depth_is_refused():
    with pytest.raises(gameai.SpecError, match="depth"):
        minimal_tree(gameai.load_game("tictactoe"), -1, gameai.make_evaluator("zero"))


# The identities the minimal_tree experiment relies on, asserted against their formulas
# (written out here, not taken from the experiment), on the experiment's own cells: they are
# true by construction of the synthetic trees, so they are tests, not findings.
def knuth_moore(b: int, d: int) -> int:
    return b ** ((d + 1) // 2) + b ** (d // 2) - 1


IDENTITY_CELLS = [(2, 1), (2, 8), (3, 7), (4, 6), (5, 5), (6, 4), (8, 4), (10, 3), (12, 4), (16, 3),
                  (20, 4), (24, 3), (32, 2), (40, 3), (40, 4)]


@pytest.mark.parametrize("b,d", IDENTITY_CELLS)
def test_experiment_cells_meet_the_uniform_tree_identities(b, d):
    from experiments import minimal_tree as exp
    cap = 20_000  # the worst order searches B^D leaves: only where that is cheap
    row = exp._cell(b, d, 1, cap, (1,))
    assert exp.minimal_leaves(b, d) == row["minimal_formula"] == knuth_moore(b, d)
    assert row["ab_best"] == knuth_moore(b, d)                 # Knuth & Moore 1975
    assert row["ns_best"] == knuth_moore(b, d)                 # NegaScout: the same minimal tree
    if d % 2 == 0:  # "depth D costs what minimax costs at D/2": twice B^(D/2), less one
        assert row["ab_best"] == 2 * b ** (d // 2) - 1
    if b ** d <= cap:
        assert row["ab_worst"] == b ** d                       # worst order: no cut-off at all
    else:
        assert "ab_worst" not in row


def test_experiment_formula_on_its_whole_grid():
    from experiments import minimal_tree as exp
    for b in exp.BRANCHING:
        for d in exp.DEPTHS:
            assert exp.minimal_leaves(b, d) == knuth_moore(b, d)
            if d % 2 == 0:
                assert exp.minimal_leaves(b, d) == 2 * b ** (d // 2) - 1


def test_the_pearl_rule_is_a_factor_either_way_of_r():
    from experiments import minimal_tree as exp
    r = exp.pearl_r(10)
    tol = exp.PEARL_TOLERANCE
    assert exp.near_pearl(r, 10) and exp.near_pearl(r / tol * 1.0001, 10) and exp.near_pearl(r * tol * 0.9999, 10)
    assert not exp.near_pearl(r / tol * 0.999, 10) and not exp.near_pearl(r * tol * 1.001, 10)
