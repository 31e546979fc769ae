"""Engine mode (UCI/UCCI/Gomocup servers) and the external-engine player, as real subprocesses."""
import io
import sys
import textwrap

import pytest

import gameai
from gameai.engine.gomocup import GomocupServer
from gameai.engine.uci import UciServer
from gameai.players.engine import EngineFault, EnginePlayer
from gameai.tournament.runner import TournamentConfig, run_tournament

PY = sys.executable


@pytest.fixture(autouse=True)
def _no_engines_left_running():
    """Tournaments run in-process (jobs=1) keep engines for reuse; stop them after each test."""
    from gameai.tournament.play import close_idle_players
    close_idle_players()
    yield
    close_idle_players()


def _session(server, lines):
    out = io.StringIO()
    server.out = out
    for line in lines:
        if not server.handle(line):
            break
    return out.getvalue().splitlines()


def test_uci_server_handshake_position_and_go():
    s = UciServer("tictactoe", "random", "uci")
    out = _session(s, ["uci", "isready", "ucinewgame", "position startpos moves b2 a1",
                       "go depth 2", "quit", "isready"])
    assert out.index("uciok") < out.index("readyok") == len(out) - 2  # nothing after quit
    assert out[-1].startswith("bestmove ")
    move = out[-1].split()[1]
    g = gameai.load_game("tictactoe", moves="b2 a1")
    g.parse_move(move)  # legal in the position sent (raises otherwise)
    assert s.state.ply == 2  # go does not change the server's position


def test_uci_server_rejects_bad_position_and_keeps_old_one():
    s = UciServer("tictactoe", "random", "ucci")
    out = _session(s, ["ucci", "position startpos moves b2", "position startpos moves b2 b2",
                       "position bogus", "go nodes x"])
    assert out[3] == "ucciok"
    assert sum("error" in line for line in out) == 3
    assert s.state.ply == 1


def test_uci_server_reports_no_move_when_game_over():
    out = _session(UciServer("tictactoe", "random", "ucci"),
                   ["position startpos moves a1 b1 a2 b2 a3", "go depth 1"])
    assert out == ["nobestmove"]
    out = _session(UciServer("tictactoe", "random", "uci"),
                   ["position startpos moves a1 b1 a2 b2 a3", "go depth 1"])
    assert out == ["bestmove (none)"]


def test_uci_server_with_searcher_finds_the_win():
    # X: a1 a2, O: b1 b2 -> X to move wins with a3
    out = _session(UciServer("tictactoe", "alphabeta(depth=3)", "uci"),
                   ["position startpos moves a1 b1 a2 b2", "go depth 3"])
    assert out[-1] == "bestmove a3"
    assert out[0].startswith("info depth")


def test_gomocup_server_commands():
    s = GomocupServer("gomoku", "random")
    out = _session(s, ["ABOUT", "START 15", "INFO rule 0", "BEGIN"])
    assert out[0].startswith('name="gameai"') and out[1] == "OK"
    x, y = map(int, out[2].split(","))
    assert s.state.ply == 1
    out = _session(s, ["TURN 7,7" if (x, y) != (7, 7) else "TURN 8,8"])
    assert s.state.ply == 3 and len(out[-1].split(",")) == 2
    out = _session(s, ["RESTART", "BOARD", "7,7,2", "8,8,1", "7,8,2", "DONE"])
    assert out[0] == "OK" and s.state.ply == 4
    assert s.state.stone(7, 7) == 0 and s.state.stone(8, 8) == 1  # opponent moved first: black
    out = _session(s, ["TURN 7,7", "TURN 99,1", "FOO", "RECTSTART 10,12"])
    assert [line.split()[0] for line in out] == ["ERROR", "ERROR", "UNKNOWN", "ERROR"]
    assert s.state.ply == 4
    out = _session(s, ["INFO rule 4", "START 15", "TAKEBACK 1,1", "END", "ABOUT"])
    assert out[0] == "OK" and out[1].startswith("ERROR") and len(out) == 2
    assert s.state.rule == "renju"


def test_gomocup_renju_rule_bit_forbids_double_three_for_black():
    for rule, forbidden in ((4, True), (0, False)):
        s = GomocupServer("gomoku", "random")
        # we are black (field 1, as many stones as white and to move); h8 = 7,7 would
        # make two open threes (row and column)
        out = _session(s, [f"INFO rule {rule}", "START 15", "BOARD", "5,7,1", "0,0,2", "6,7,1",
                           "0,14,2", "7,5,1", "14,0,2", "7,6,1", "14,14,2", "DONE"])
        assert out[-1] != "7,7" or not forbidden
        out = _session(s, [f"TAKEBACK {out[-1]}", "PLAY 7,7"])
        assert out[0] == "OK"
        assert out[1].startswith("ERROR") == forbidden, out
        if forbidden:
            assert "forbidden" in out[1]


def _engine_spec(game, protocol, player="random", **extra):
    cmd = f"{PY} -m gameai.cli engine --game {game} --protocol {protocol} --player {player}"
    params = "".join(f",{k}={v}" for k, v in extra.items())
    return f'engine(cmd="{cmd}",protocol={protocol},name=ours-{protocol}{params})'


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_engine_player_drives_our_uci_engine_subprocess(tmp_path, protocol):
    cfg = TournamentConfig(game="tictactoe", players=[_engine_spec("tictactoe", protocol), "random"],
                           games=2, seed=5, opening_plies=1)
    r = run_tournament(cfg, tmp_path, jobs=1, progress=False, log=None)
    assert len(r.games) == 2
    assert all(g["faulty"] == -1 and g["reason"] in ("three-in-a-row", "board-full") for g in r.games)


def test_engine_player_drives_our_gomocup_engine_subprocess(tmp_path):
    cfg = TournamentConfig(game="gomoku", players=[_engine_spec("gomoku", "gomocup"), "random"],
                           games=2, seed=5, opening_plies=3, max_plies=40)
    r = run_tournament(cfg, tmp_path, jobs=1, progress=False, log=None)
    assert len(r.games) == 2
    assert all(g["faulty"] == -1 for g in r.games), [g["error"] for g in r.games]
    assert sum(g["plies"] for g in r.games) > 2 * 3 + 4  # the engine really played moves


def test_engine_player_drives_our_ucci_xiangqi_engine_subprocess(tmp_path):
    cfg = TournamentConfig(game="xiangqi", players=[_engine_spec("xiangqi", "ucci"), "random"],
                           games=2, seed=2, opening_plies=2, max_plies=16)
    r = run_tournament(cfg, tmp_path, jobs=1, progress=False, log=None)
    assert all(g["faulty"] == -1 for g in r.games), [g["error"] for g in r.games]
    moves = __import__("pandas").read_parquet(tmp_path / "moves.parquet")
    assert (moves["player"] == "ours-ucci").sum() >= 10


FAKE = {
    # answers the handshake, then dies when asked to move
    "crash": """
        import sys
        for line in sys.stdin:
            c = line.split()[0] if line.split() else ""
            if c == "uci": print("uciok", flush=True)
            elif c == "isready": print("readyok", flush=True)
            elif c == "go": sys.exit(3)
    """,
    # never answers go
    "hang": """
        import sys, time
        for line in sys.stdin:
            c = line.split()[0] if line.split() else ""
            if c == "uci": print("uciok", flush=True)
            elif c == "isready": print("readyok", flush=True)
            elif c == "go": time.sleep(60)
    """,
    # plays the centre whether or not it is free
    "illegal": """
        import sys
        for line in sys.stdin:
            c = line.split()[0] if line.split() else ""
            if c == "uci": print("uciok", flush=True)
            elif c == "isready": print("readyok", flush=True)
            elif c == "go": print("bestmove b2", flush=True)
    """,
    "malformed": """
        import sys
        for line in sys.stdin:
            c = line.split()[0] if line.split() else ""
            if c == "uci": print("uciok", flush=True)
            elif c == "isready": print("readyok", flush=True)
            elif c == "go": print("info depth 1", flush=True); print("bestmove", flush=True)
    """,
}
EXPECTED = {"crash": "engine-crash", "hang": "engine-timeout", "illegal": "illegal-move",
            "malformed": "malformed-reply"}


def test_faulty_engines_lose_with_reason_and_tournament_goes_on(tmp_path):
    players = []
    for kind, src in FAKE.items():
        path = tmp_path / f"{kind}.py"
        path.write_text(textwrap.dedent(src))
        players.append(f'engine(cmd="{PY} {path}",protocol=uci,timeout=1,time=0.05,name={kind})')
    players.append("random")
    cfg = TournamentConfig(game="tictactoe", players=players, games=2, seed=1, format="gauntlet",
                           opening_plies=0)
    # gauntlet with the random player first: it meets every faulty engine twice
    cfg.players = [players[-1]] + players[:-1]
    r = run_tournament(cfg, tmp_path / "out", jobs=1, progress=False, log=None)
    assert len(r.games) == 8
    for g in r.games:
        bad = g["player1"] if g["player0"] == "random" else g["player0"]
        bad_side = 1 if g["player0"] == "random" else 0
        # ("illegal" moving first plays a legal b2, then repeats it on its second move)
        assert g["reason"] == EXPECTED[bad], (bad, g["reason"], g["error"])
        assert g["faulty"] == bad_side and g["winner"] == 1 - bad_side
        assert g["error"]


def test_engine_that_cannot_start_loses(tmp_path):
    cfg = TournamentConfig(game="tictactoe", players=['engine(cmd="/nonexistent/engine")', "random"],
                           games=2, seed=1)
    r = run_tournament(cfg, tmp_path, jobs=1, progress=False, log=None)
    assert [g["reason"] for g in r.games] == ["engine-crash", "engine-crash"]
    assert all(g["score0"] == (0.0 if g["player0"].startswith("engine") else 1.0) for g in r.games)


def test_engine_player_rejects_bad_parameters():
    with pytest.raises(gameai.GameError):
        EnginePlayer("x", protocol="xboard")
    with pytest.raises(gameai.GameError):
        EnginePlayer("   ")
    assert issubclass(EngineFault, gameai.GameError)


def test_info_line_parsing_feeds_move_records():
    from gameai.players.engine import _parse_info
    info = {}
    v = _parse_info("info depth 7 seldepth 9 score cp -35 nodes 12345 time 250 pv h2e2 h9g7".split(),
                    info, None)
    assert v == -35 and info == {"depth": 7, "seldepth": 9, "nodes": 12345, "time_s": 0.25,
                                 "pv": "h2e2 h9g7"}
    assert _parse_info("info score mate 3".split(), {}, None) > 10**8
    assert _parse_info("info string depth 99".split(), info, 1) == 1 and info["depth"] == 7


def test_lying_gomocup_engine_loses(tmp_path):
    src = """
        import sys
        for line in sys.stdin:
            c = line.split()[0].upper() if line.split() else ""
            if c in ("START", "RESTART"): print("OK", flush=True)
            elif c in ("BEGIN", "TURN", "DONE"): print("MESSAGE thinking\\nhello there", flush=True)
            elif c == "END": break
    """
    path = tmp_path / "liar.py"
    path.write_text(textwrap.dedent(src))
    cfg = TournamentConfig(game="gomoku", players=[f'engine(cmd="{PY} {path}",protocol=gomocup,timeout=2,name=liar)',
                                                   "random"], games=2, seed=1, opening_plies=0)
    r = run_tournament(cfg, tmp_path / "out", jobs=1, progress=False, log=None)
    assert [g["reason"] for g in r.games] == ["malformed-reply"] * 2
    assert all((g["player0"] == "liar") == (g["winner"] == 1) for g in r.games)


def test_workers_reuse_engine_processes_and_stay_reproducible(tmp_path, monkeypatch):
    from gameai.tournament import play
    starts = []
    real_start = EnginePlayer._start

    def counting_start(self):
        starts.append(self.cmd)
        real_start(self)

    monkeypatch.setattr(EnginePlayer, "_start", counting_start)
    spec = _engine_spec("tictactoe", "uci")
    cfg = TournamentConfig(game="tictactoe", players=[spec, "random"], games=6, seed=8, opening_plies=1)
    try:
        a = run_tournament(cfg, tmp_path / "a", jobs=1, progress=False, log=None)
        assert len(starts) == 1  # one process served all six games
        assert len(play._IDLE[spec]) == 1 and play._IDLE[spec][0]._seed_option
        play.close_idle_players()
        b = run_tournament(cfg, tmp_path / "b", jobs=2, progress=False, log=None)
    finally:
        play.close_idle_players()
    assert [(g["result"], g["plies"]) for g in a.games] == [(g["result"], g["plies"]) for g in b.games]
    # the engine's random moves depend on the game seed (sent as the Seed option)
    moves = __import__("pandas").read_parquet(tmp_path / "a" / "moves.parquet")
    eng = moves[moves.player == "ours-uci"].groupby("game_id")["move"].apply(" ".join)
    assert eng.nunique() > 1
