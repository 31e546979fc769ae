"""One statistics schema: SearchStats drives per-move records and Parquet; MCTS fills the
same identity and reports evaluator units (issue 10)."""
import pyarrow.parquet as pq
import pytest

import gameai
from gameai.players.search import STAT_FIELDS
from gameai.search.stats import SearchStats
from gameai.tournament.play import MOVE_STATS
from gameai.tournament.records import MOVES_SCHEMA
from gameai.tournament.runner import TournamentConfig, run_tournament


def test_every_stats_field_is_a_record_column():
    names = [n for n, _ in SearchStats.record_fields()]
    assert set(names) >= set(SearchStats.COUNTERS) | {"depth", "seldepth", "time_s"}
    assert list(STAT_FIELDS) == names
    assert [n for n, _ in MOVE_STATS] == [n for n in names if n != "time_s"]
    assert MOVES_SCHEMA.names[6:6 + len(names)] == names


def test_tournament_moves_carry_every_counter(tmp_path):
    cfg = TournamentConfig(game="tictactoe", players=["alphabeta(depth=2)", "mcts(iterations=50)"],
                           games=2, seed=3, opening_plies=0)
    run_tournament(cfg, tmp_path / "t", jobs=1, progress=False, log=None)
    moves = pq.read_table(tmp_path / "t" / "moves.parquet").to_pylist()
    assert moves and set(MOVES_SCHEMA.names) == set(moves[0])
    for m in moves:
        total = m["leaves"] + m["terminals"] + m["interior"] + m["tt_cutoffs"]
        assert m["nodes"] == total, m           # the identity holds for both searchers
    mcts_rows = [m for m in moves if m["player"].startswith("mcts")]
    assert all(m["simulations"] == 50 for m in mcts_rows)


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "gomoku", "xiangqi",
                                  "synthetic(branching=4,depth=6)"])
def test_mcts_fills_the_node_identity(game):
    r = gameai.make_searcher("mcts(iterations=120,rollout_depth=8)").search(gameai.load_game(game))
    st = r.stats
    assert st.nodes == st.leaves + st.terminals + st.interior + st.tt_cutoffs
    assert st.leaves + st.terminals == st.simulations == 120


def test_mcts_value_is_in_evaluator_units():
    # rollout_depth=0 and one simulation per root child: each child is scored once by the
    # evaluator, so the reported value is exactly the negamax value of the chosen child.
    s = gameai.load_game("synthetic(branching=3,depth=3,ordering=random,seed=5)")
    r = gameai.make_searcher("mcts(iterations=3,rollout_depth=0,scale=1e9)").search(s)
    s.push(r.move)
    child_value = -s.value()
    s.pop()
    assert abs(r.value - child_value) <= 1
    assert abs(r.value) > 1   # not a [-1, 1] probability


def test_mcts_on_a_finished_game_reports_its_result():
    s = gameai.load_game("tictactoe", moves="a1 b1 a2 b2 a3")
    r = gameai.make_searcher("mcts").search(s)
    assert r.move is None and r.value < -10 ** 8 and r.stats.terminals == 1 == r.stats.nodes
