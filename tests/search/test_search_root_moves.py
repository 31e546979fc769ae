"""Root-move restriction (UCI searchmoves / UCCI banmoves) and MCTS's stop (issue 11)."""
import random
import threading

import pytest

import gameai
from gameai.errors import SpecError


def _positions():
    rng = random.Random(7)
    for game in ("tictactoe", "xiangqi", "connect4"):
        for _ in range(2):
            g = gameai.load_game(game)
            for _ in range(rng.randrange(1, 5)):
                g.push(rng.choice(g.legal_moves()))
            yield g


@pytest.mark.parametrize("spec", ["alphabeta(depth=2)", "negascout(depth=2,tt=true,history=true,id=true)",
                                  "mtdf(depth=2,tt=true)"])
def test_root_moves_value_is_the_best_over_the_allowed_moves(spec):
    """Restricted to some root moves, the value is the best of those moves' own values
    (each searched one ply less with a full window), and the move is one of them."""
    for g in _positions():
        legal = g.legal_moves()
        allowed = legal[1::2] or legal
        r = gameai.make_searcher(spec).search(g, root_moves=allowed)
        assert r.move in allowed
        child_values = []
        for m in allowed:
            g.push(m)
            child_values.append(-gameai.make_searcher("alphabeta(depth=1)").search(g).value)
            g.pop()
        assert r.value == max(child_values)


def test_root_moves_with_no_legal_move_is_an_error():
    g = gameai.load_game("tictactoe")
    b2 = g.parse_move("b2")
    g.push(b2)                                        # b2 is taken: not a legal root move
    with pytest.raises(SpecError, match="root_moves"):
        gameai.make_searcher("alphabeta(depth=2)").search(g, root_moves=[b2])


def test_root_restriction_is_not_stored_in_the_tt():
    """A restricted root value must not be reused later for the unrestricted position."""
    g = gameai.load_game("tictactoe", moves="a1 b1 a2 b2")    # X wins with a3
    sr = gameai.make_searcher("alphabeta(depth=3,tt=true)")
    win = g.parse_move("a3")
    r = sr.search(g, root_moves=[m for m in g.legal_moves() if m != win])
    assert r.move != win
    assert sr.tt.probe(g.key) is None
    assert sr.search(g).move == win


def test_mcts_root_moves():
    g = gameai.load_game("tictactoe", moves="a1 b1 a2 b2")
    allowed = [g.parse_move("c3"), g.parse_move("c1")]
    r = gameai.make_searcher("mcts(iterations=200)").search(g, root_moves=allowed)
    assert r.move in allowed


def test_mcts_stop_already_set_returns_a_legal_move_after_one_simulation():
    g = gameai.load_game("gomoku", moves="h8 h9")
    ev = threading.Event()
    ev.set()
    r = gameai.make_searcher("mcts(iterations=100000)").search(g, stop=ev)
    assert r.move in g.legal_moves() and r.stats.simulations == 1


def test_mcts_stop_set_during_the_search_returns_the_best_so_far():
    g = gameai.load_game("tictactoe", moves="a1 b1 a2 b2")
    ev = threading.Event()

    def on_root_move(i, n, m, v):
        if i == 49:
            ev.set()                                # as an engine's "stop" would
    sr = gameai.make_searcher("mcts(iterations=100000)")
    r = sr.search(g, stop=ev, on_root_move=on_root_move)
    assert r.stats.simulations == 50
    assert r.move in g.legal_moves()
    assert r.stats.nodes == r.stats.leaves + r.stats.terminals + r.stats.interior
