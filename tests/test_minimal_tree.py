"""The minimal-tree counter against Knuth & Moore's closed form and against alpha-beta."""
import math

import pytest

import gameai
from gameai.search.minimal import minimal_tree


@pytest.mark.parametrize("b,d", [(2, 1), (2, 4), (3, 3), (3, 5), (4, 4), (5, 3), (6, 2), (7, 1)])
@pytest.mark.parametrize("ordering", ["random", "worst", "best"])
def test_minimal_tree_matches_knuth_moore(b, d, ordering):
    # The minimal tree does not depend on the order moves are generated in.
    s = gameai.load_game(f"synthetic(branching={b},depth={d},seed=3,ordering={ordering})")
    mt = minimal_tree(s, d, gameai.make_evaluator("synthetic.exact"))
    assert mt.leaves == b ** math.ceil(d / 2) + b ** (d // 2) - 1
    assert mt.value == s.value()


def test_minimal_tree_bounds_alphabeta_on_a_real_game():
    s = gameai.load_game("tictactoe", moves="b2")
    ev = gameai.make_evaluator("tictactoe.zero")
    key = s.key
    mt = minimal_tree(s, 8, ev)
    r = gameai.make_searcher("alphabeta(depth=8)").search(s)
    assert s.key == key
    assert mt.value == 0 == r.value  # tic-tac-toe is a draw
    assert mt.nodes <= r.stats.nodes
    assert mt.leaves + mt.terminals <= r.stats.leaves + r.stats.terminals
