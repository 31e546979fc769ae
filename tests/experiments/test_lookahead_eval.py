"""The 002 design holds the evaluation equal: with the line-sum point weighting a depth-1
search IS the one-shot player (it picks from the one-shot player's best points), and the
equal-effort Xiangqi players spend the max-min's own node count on every move."""
import random

import gameai
import pytest

from experiments import equal_effort, lookahead_eval, suites
from gameai.evaluators.gomoku_pointweight import point_weights


def _positions(game):
    """Every suite position of the game, and positions of seeded random games from them."""
    out = [suites.state(game, spec) for spec in suites.load(game).values()]
    rng = random.Random(5)
    for spec in list(suites.load(game).values())[:8]:
        s = suites.state(game, spec)
        for _ in range(rng.randint(1, 6)):
            if s.result() is not None:
                break
            s.push(rng.choice(s.legal_moves()))
        out.append(s)
    return [s for s in out if s.result() is None]


@pytest.mark.parametrize("game", ["gomoku", "renju"])
def test_depth_one_picks_from_the_one_shot_players_best_points(game):
    searcher = gameai.make_searcher(f"alphabeta(depth=1,eval={lookahead_eval.spec()})")
    positions = _positions(game)
    assert len(positions) >= 20
    for s in positions:
        key = s.key
        move = searcher.search(s).move
        weights = point_weights(s, points=s.legal_moves())
        best = max(weights.values())
        assert weights[move] == best, (s.move_str(move), weights[move], best)
        assert s.key == key                      # the evaluation leaves the position as it was


def test_the_line_sum_counts_each_stone_at_the_time_it_was_placed():
    ev = lookahead_eval.LineSum()
    s = suites.state("gomoku", next(iter(suites.load("gomoku").values())))
    before = ev(s)
    m = s.legal_moves()[0]
    w = point_weights(s, points=[m])[m]
    s.push(m)
    assert ev(s) == -(before + w)                # the mover gains w; the value flips sides


def test_equal_effort_gives_the_deepening_searcher_the_max_mins_count_on_each_move():
    class Python(equal_effort.EqualEffort):
        searcher = "negascout(depth=30,id=true,tt=true)"
    p = Python()
    s = gameai.load_game("xiangqi", moves="h2e2 h9g7")
    own = gameai.make_searcher("minimax2").search(s).stats.nodes
    d = p.choose(s)
    assert d.info["budget"] == own
    assert d.info["nodes"] <= own + 1 and d.move in s.legal_moves()
