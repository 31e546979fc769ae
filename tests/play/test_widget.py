"""The board widget without a browser: the model it syncs (what the front end draws)."""
from __future__ import annotations

import pytest

from gameai.errors import GameError
from gameai.widgets import Board


def test_xiangqi_board_plays_and_reports_the_search():
    b = Board("xiangqi", opponent="alphabeta(depth=2)")
    v = b.view
    assert v["your_turn"] and len(v["pieces"]) == 32
    assert sorted(v["legal"]["7,2"]) == sorted(                       # the h2 cannon's targets
        [[ord(m[2]) - 97, int(m[3])] for m in map(b.state.move_str, b.state.legal_moves()) if m[:2] == "h2"])
    b.play("h2e2")
    assert len(b.state.move_stack) == 2
    reply = b.state.move_str(b.state.move_stack[1])
    assert b.view["moves"] == ["h2e2", reply]
    assert b.view["last"] == [ord(reply[0]) - 97, int(reply[1]), ord(reply[2]) - 97, int(reply[3])]
    assert b.stats["move_str"] == reply and b.stats["nodes"] > 0 and b.stats["depth"] == 2
    assert b.stats["pv_str"].split()[0] == reply
    # the PV drawn is the expected continuation from the current position
    assert len(b.view["pv"]) == len(b.stats["pv_str"].split()) - 1
    b._on_msg(b, {"type": "move", "text": "a0a5"}, [])                 # illegal: reason, no change
    assert "not legal" in b.error and len(b.state.move_stack) == 2
    b._on_msg(b, {"type": "undo"}, [])
    assert b.state.move_stack == [] and b.view["your_turn"]
    r = b.hint()
    assert b.view["pv"][0] == [ord(r.move_str[0]) - 97, int(r.move_str[1]),
                               ord(r.move_str[2]) - 97, int(r.move_str[3])]


def test_renju_board_shows_forbidden_points_and_numbers_only_moves():
    from gameai.registry import load_game
    b = Board(load_game("renju", black="f8 g8 h6 h7", white="a1 a3 o15 o1"),
              opponent="alphabeta(depth=1)")
    assert b.view["forbidden"] == [[7, 7, "double-three"]]
    assert b.view["numbers"] == []                                    # stone lists: no order
    b._on_msg(b, {"type": "move", "text": "h8"}, [])
    assert "forbidden" in b.error
    b.play("j12")
    assert [n for *_, n in b.view["numbers"]] == [1, 2]


def test_computer_opens_when_the_person_plays_second():
    b = Board("gomoku", opponent="alphabeta(depth=1)", side="second")
    assert b.view["moves"] == ["h8"] and b.view["your_turn"]
    with pytest.raises(GameError):
        Board("connect4")


def test_viewer_steps_through_a_recorded_tournament_game(tmp_path):
    import pandas as pd

    from gameai.tournament.runner import TournamentConfig, run_tournament
    run_tournament(TournamentConfig(game="gomoku", players=["alphabeta(depth=1)", "pointweight"],
                                    games=2, seed=1, max_plies=20), tmp_path, jobs=1,
                   progress=False, log=None)
    moves = pd.read_parquet(tmp_path / "moves.parquet")
    games = pd.read_parquet(tmp_path / "games.parquet")
    gid = int(games.game_id.iloc[-1])
    b = Board.from_tournament(tmp_path, gid)
    g = games[games.game_id == gid].iloc[0]
    rows = moves[moves.game_id == gid].sort_values("ply")
    n_open = len(g.opening.split())
    assert b.view["mode"] == "viewer" and b.view["plies"] == n_open + len(rows)
    b._on_msg(b, {"type": "step", "to": n_open + 1}, [])
    first = rows.iloc[0]
    assert b.view["moves"][-1] == first.move
    assert b.stats["nodes"] == (None if pd.isna(first.nodes) else int(first.nodes))
    assert b.stats["player"] == first.player
    b.step(10 ** 6)
    assert b.view["ply"] == b.view["plies"]
    with pytest.raises(GameError):
        b.play("a1")
