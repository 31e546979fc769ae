"""Players: random, search (any searcher spec) and the external engine player in isolation."""
import random
import sys

import pytest

import gameai
from gameai.players.engine import EnginePlayer
from gameai.players.random import RandomPlayer
from gameai.players.search import SearchPlayer


def _play_out(player, game="tictactoe", seed=0):
    s = gameai.load_game(game)
    player.new_game(seed)
    moves = []
    while s.result() is None:
        m = player.choose(s).move
        moves.append(m)
        s.push(m)
    return moves


def test_random_player_is_seeded_per_game():
    p = gameai.make_player("random")
    a, b, c = _play_out(p, seed=1), _play_out(p, seed=1), _play_out(p, seed=2)
    assert a == b
    assert any(_play_out(p, seed=k) != a for k in range(2, 6)) or c != a
    assert isinstance(p, RandomPlayer) and p.name == "random"


def test_random_player_leaves_state_unchanged():
    s = gameai.load_game("tictactoe", moves="b2")
    key, ply = s.key, s.ply
    RandomPlayer().choose(s)
    assert (s.key, s.ply) == (key, ply)


def test_searcher_spec_becomes_search_player_with_stats():
    p = gameai.make_player("alphabeta(depth=9)")
    assert isinstance(p, SearchPlayer) and p.name == "alphabeta(depth=9)"
    s = gameai.load_game("tictactoe", moves="a1 b1 a2 b2")
    key = s.key
    p.new_game(0)
    d = p.choose(s)
    assert s.move_str(d.move) == "a3" and s.key == key
    assert d.info["nodes"] > 0 and d.info["depth"] >= 1 and "pv" in d.info
    # per-move limits passed to choose override the spec's
    d1 = p.choose(s, limits={"depth": 1})
    assert d1.info["nodes"] < d.info["nodes"] or d1.info["depth"] == 1


def test_search_player_never_loses_tictactoe_to_random():
    ab, rnd = gameai.make_player("alphabeta(depth=9)"), RandomPlayer()
    for seed in range(6):
        for first in (0, 1):
            s = gameai.load_game("tictactoe")
            players = (ab, rnd) if first == 0 else (rnd, ab)
            for p in players:
                p.new_game(seed)
            while s.result() is None:
                s.push(players[s.to_move].choose(s).move)
            assert s.result().winner in (None, first)


def test_mcts_player_is_reproducible_from_the_game_seed():
    p = gameai.make_player("mcts(iterations=60)")
    assert _play_out(p, seed=3) == _play_out(p, seed=3)


@pytest.mark.parametrize("protocol", ["uci", "gomocup"])
def test_engine_player_keeps_in_sync_with_engine_over_many_moves(protocol):
    game = "tictactoe" if protocol == "uci" else "gomoku"
    cmd = f"{sys.executable} -m gameai.cli engine --game {game} --protocol {protocol} --player random"
    eng = EnginePlayer(cmd, protocol=protocol, timeout=20)
    rng = random.Random(0)
    try:
        for seed in range(2):
            eng.new_game(seed)
            s = gameai.load_game(game)
            # a random "opening" so that gomocup must start with BOARD, then TURN replies
            for _ in range(2 if protocol == "gomocup" else 1):
                s.push(rng.choice(s.legal_moves()))
            n = 0
            while s.result() is None and n < 12:
                if n % 2 == 0:
                    m = eng.choose(s).move
                    assert m in s.legal_moves()
                else:
                    m = rng.choice(s.legal_moves())
                s.push(m)
                n += 1
        assert eng._alive()
    finally:
        eng.close()
    assert eng.proc is None
