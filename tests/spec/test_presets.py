"""Named presets (gameai.presets): a preset name builds the searcher its spec string builds,
the commands use ``strong`` by default, ``gameai list`` shows it, and misuse is a SpecError."""
import io
from types import SimpleNamespace

import pytest

import gameai
from gameai.cli import build_parser, main
from gameai.presets import PRESETS, preset_names, presets_for
from gameai.registry import PLAYERS, SEARCHERS, resolve_preset

T = ("negascout(time=2.0,tt=true,history=true,id=true,threats=true,threat_order=true,"
     "threat_forced=true,threat_depth=3,threat_reply_share=0,backend=compiled,"
     "eval=\"gomoku.forks(weights={})\")")
T_GOMOKU, T_RENJU = T.format("gomoku-forks"), T.format("renju-forks")


def _config(searcher) -> tuple:
    """What decides how a searcher searches, as far as its spec sets it."""
    t = searcher.threats
    return (searcher.name, searcher.time, searcher.nodes, searcher.backend,
            None if searcher.tt is None else searcher.tt.size,
            None if t is None else (t.depth, t.vct_depth, t.root_nodes, t.reply_nodes))


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: f"{p.name}-{p.game}")
def test_a_preset_builds_the_searcher_of_its_spec_string(preset):
    by_name = gameai.make_searcher(preset.name, game=preset.game)
    by_spec = gameai.make_searcher(preset.spec)
    assert _config(by_name) == _config(by_spec)
    assert SEARCHERS.resolve(resolve_preset(preset.name, preset.game)) == SEARCHERS.resolve(preset.spec)


def test_plain_searches_exactly_as_its_spec_string():
    s = gameai.load_game("xiangqi", moves="h2e2 h9g7")
    a = gameai.make_searcher("plain", game=s).search(s, {"depth": 2})
    b = gameai.make_searcher("alphabeta(depth=3,backend=python)").search(s, {"depth": 2})
    assert (a.move, a.value, a.stats.nodes) == (b.move, b.value, b.stats.nodes)


def test_strong_is_on_the_compiled_backend_and_plain_on_python_for_every_game():
    for game in ("xiangqi", "gomoku", "renju"):
        assert "backend=compiled" in presets_for(game)["strong"].spec
        assert gameai.make_searcher("plain", game=game).backend == "python"


def test_the_game_may_be_a_spec_or_a_position_and_renju_by_rule_is_renju():
    assert resolve_preset("strong", "gomoku(rule=renju)") == presets_for("renju")["strong"].spec
    assert resolve_preset("strong", gameai.load_game("xiangqi")) == presets_for("xiangqi")["strong"].spec


def test_preset_parameters_replace_the_presets_own():
    spec = resolve_preset("strong(time=5,tt=false)", "gomoku")
    s = gameai.make_searcher(spec)
    assert s.time == 5 and s.tt is None and s.threats is not None
    assert resolve_preset("strong", "xiangqi", timed=False).count("time=") == 0


def test_a_player_from_a_preset_plays_its_spec_under_the_short_name():
    p = gameai.make_player("strong", game="renju")
    assert p.spec == T_RENJU and p.name == "strong"


def test_preset_names_are_not_registered_names():
    for name in preset_names():
        assert name not in SEARCHERS.names() and name not in PLAYERS.names()


@pytest.mark.parametrize("call, words", [
    (lambda: gameai.make_searcher("strong"), ["needs the game", "strong (xiangqi, gomoku, renju)"]),
    (lambda: gameai.make_searcher("strong", game="tictactoe"),
     ["no configuration for tictactoe", "presets:", "plain"]),
    (lambda: gameai.make_player("strongest", game="xiangqi"),
     ["unknown player, searcher or preset 'strongest'", "presets: plain", "strong",
      "searchers:", "negascout", "players:", "random"]),
    (lambda: gameai.make_searcher("strongest", game="gomoku"),
     ["unknown searcher or preset 'strongest'", "presets: plain", "searchers:"]),
    (lambda: gameai.make_searcher("strong(depth=0)", game="xiangqi"), ["depth=0"]),
])
def test_misused_presets_are_spec_errors_that_say_what_exists(call, words):
    with pytest.raises(gameai.SpecError) as err:
        call()
    for w in words:
        assert w in str(err.value)


def test_play_uses_strong_for_opponent_and_hint_by_default():
    from gameai.commands.play import Session
    args = build_parser().parse_args(["play", "--game", "renju"])
    assert (args.opponent, args.hint) == ("strong", "strong")
    session = Session(args, console=SimpleNamespace(print=lambda *a, **k: None))
    expected = _config(gameai.make_searcher(T_RENJU))
    assert _config(session.searcher) == expected and _config(session.hinter) == expected


def test_play_refuses_a_preset_for_another_game_before_the_game_starts():
    from gameai.commands.play import Session
    args = build_parser().parse_args(["play", "--game", "tictactoe"])
    with pytest.raises(gameai.SpecError, match="--game must be one of"):
        Session(args, console=SimpleNamespace(print=lambda *a, **k: None))


@pytest.mark.parametrize("game", ["xiangqi", "gomoku"])
def test_engine_uses_strong_without_its_time_limit_by_default(game):
    from gameai.engine.gomocup import GomocupServer
    from gameai.engine.uci import UciServer
    server = UciServer(game, None, "ucci", out=io.StringIO()) if game == "xiangqi" \
        else GomocupServer(game, None, out=io.StringIO())
    strong = presets_for(game)["strong"]
    assert server.player.name == "strong"
    assert server.player.searcher.time is None     # the GUI's clock decides
    assert _config(server.player.searcher)[0] == gameai.make_searcher(strong.spec).name


def test_engine_for_a_game_without_presets_keeps_its_old_default():
    from gameai.engine.uci import UciServer
    server = UciServer("tictactoe", None, "uci", out=io.StringIO())
    assert server.player.spec.startswith("negascout(")


def test_list_shows_each_preset_with_its_spec_string(capsys):
    assert main(["list", "--brief"]) == 0
    out = capsys.readouterr().out
    for p in PRESETS:
        assert f"{p.name} [{p.game}]  {p.spec}" in out


def test_tournament_plays_a_preset_under_its_short_name(tmp_path):
    import pandas as pd
    rc = main(["tournament", "--game", "gomoku", "--player", "strong", "--player", "plain",
               "--depth", "1", "--games", "2", "--jobs", "1", "--no-progress",
               "--out", str(tmp_path)])
    assert rc == 0
    games = pd.read_parquet(tmp_path / "games.parquet")
    first = games[games.player0 == "strong"].iloc[0]
    assert (first.spec0, first.spec1) == (T_GOMOKU, presets_for("gomoku")["plain"].spec)
    standings = pd.read_csv(tmp_path / "standings.csv")
    assert sorted(standings.player) == ["plain", "strong"]


def test_tournament_refuses_a_preset_the_game_lacks(tmp_path, capsys):
    rc = main(["tournament", "--game", "tictactoe", "--player", "strong", "--player", "random",
               "--games", "2", "--jobs", "1", "--no-progress", "--out", str(tmp_path / "t")])
    err = capsys.readouterr().err
    assert rc == 2 and "preset 'strong' has no configuration for tictactoe" in err
    assert not (tmp_path / "t").exists()            # refused before anything is written


def test_search_command_takes_a_preset(capsys):
    import json
    assert main(["search", "--game", "xiangqi", "--searcher", "plain", "--depth", "2", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    s = gameai.load_game("xiangqi")
    want = gameai.make_searcher("alphabeta(depth=3,backend=python)").search(s, {"depth": 2})
    assert (got["move"], got["stats"]["nodes"]) == (want.move_str, want.stats.nodes)


def test_the_board_widget_takes_a_preset_for_its_game():
    from gameai.widgets import Board
    board = Board("renju", opponent="strong", hint="plain")
    assert _config(board.searcher) == _config(gameai.make_searcher(T_RENJU))
    assert _config(board.hinter) == _config(gameai.make_searcher("alphabeta(depth=3,backend=python)"))


def test_tournament_refuses_an_unknown_name_listing_the_presets(tmp_path, capsys):
    rc = main(["tournament", "--game", "gomoku", "--player", "strongest", "--player", "random",
               "--games", "2", "--jobs", "1", "--no-progress", "--out", str(tmp_path / "t")])
    err = capsys.readouterr().err
    assert rc == 2 and "unknown player 'strongest'" in err and "presets: plain" in err
