"""Engine mode (UCI/UCCI/Gomocup servers) and the external-engine player, as real subprocesses."""
import io
import os
import queue
import re
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import gameai
from gameai.engine.gomocup import GomocupServer
from gameai.engine.notation import xiangqi_convert
from gameai.engine.uci import UciServer
from gameai.players.engine import EngineFault, EnginePlayer
from gameai.search import MATE
from gameai.tournament.runner import TournamentConfig, run_tournament

PY = sys.executable
ROOT = Path(gameai.__file__).resolve().parent.parent
#: Generous bound for any single reply (the machine may be heavily loaded); a reply that
#: should come at once still comes long before it, one that never comes fails the test.
REPLY_S = 60.0


@pytest.fixture(autouse=True)
def _no_engines_left_running():
    """Tournaments run in-process (jobs=1) keep engines for reuse; stop them after each test."""
    from gameai.tournament.play import close_idle_players
    close_idle_players()
    yield
    close_idle_players()


def _session(server, lines):
    """Feed lines to an in-process server, letting each search finish before the next line."""
    out = io.StringIO()
    server.out = out
    for line in lines:
        more = server.handle(line)
        server.wait()
        if not more:
            break
    return out.getvalue().splitlines()


class Engine:
    """``gameai engine ...`` as a real subprocess, read by a thread into a queue."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self.proc = subprocess.Popen([PY, "-m", "gameai.cli", "engine", *args], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)  # end of output

    def send(self, *lines) -> None:
        for line in lines:
            self.proc.stdin.write((line if isinstance(line, bytes) else line.encode()) + b"\n")
        self.proc.stdin.flush()

    def read_until(self, pred, timeout: float = REPLY_S) -> list[str]:
        """Lines up to and including the first one matching ``pred`` (fails after timeout)."""
        got, deadline = [], time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no matching line within {timeout} s; got {got}") from None
            if line is None:
                raise AssertionError(f"engine exited (rc={self.proc.wait()}); got {got}; "
                                     f"stderr: {self.proc.stderr.read().decode()[-2000:]}")
            got.append(line)
            if pred(line):
                return got

    def bestmove(self) -> list[str]:
        return self.read_until(lambda s: s.startswith(("bestmove", "nobestmove")))

    def sync(self) -> list[str]:
        """isready -> readyok: every line the engine printed before it."""
        self.send("isready")
        return self.read_until(lambda s: s == "readyok")

    def close(self, command: str = "quit") -> int:
        try:
            self.send(command)
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout=REPLY_S)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
            self.proc.stdout.close()
            self.proc.stderr.close()


_WARM: set[str] = set()


def _warm(game: str) -> None:
    """Compile the game's strong preset into the disk cache the engine process reads, so
    its first reply comes within the tests' read timeout even on a cold cache."""
    if game not in _WARM:
        gameai.make_searcher("strong", game=game).prepare(gameai.load_game(game))
        _WARM.add(game)


@pytest.fixture
def engines():
    started = []

    def start(*args):
        if "--player" not in args:          # the default, the compiled strong preset: its
            _warm(args[args.index("--game") + 1])   # kernels compile here, not inside a read
        e = Engine(*args)
        started.append(e)
        return e

    yield start
    for e in started:
        if e.proc.poll() is None:
            e.proc.kill()
            e.proc.wait()


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
    assert "ucciok" in out
    assert sum(line.startswith("info string error") for line in out) == 2
    assert s.state.ply == 1
    assert "go nodes needs an integer" in out[-2] and out[-1].startswith("bestmove ")
    s.state.parse_move(out[-1].split()[1])  # the fallback move is legal


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_an_unknown_option_gets_an_info_string_naming_it(protocol):
    s = UciServer("tictactoe", "random", protocol)
    out = _session(s, ["setoption name Hash value -1", "setoption name Clear Hash",
                       "setoption name Seed value 3" if protocol == "uci" else "setoption seed 3",
                       "isready"])
    assert out[0].startswith("info string unknown option 'Hash' ignored; options: ")
    assert out[1].startswith("info string unknown option 'Clear Hash' ignored")
    assert out[2:] == ["readyok"] and s.seed == 3        # a known option: no reply, applied


@pytest.mark.parametrize("game, protocol", [("gomoku", "uci"), ("renju", "ucci"),
                                            ("gomoku(rule=renju)", "uci"),
                                            ("xiangqi", "gomocup")])
def test_engine_refuses_a_protocol_its_game_is_not_played_over(game, protocol):
    import subprocess
    p = subprocess.run([sys.executable, "-m", "gameai.cli", "engine", "--game", game,
                        "--protocol", protocol, "--player", "random"], input="uci\nquit\n",
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stdout == ""          # no uciok, no move: an error
    assert f"has no {'Gomocup' if protocol == 'gomocup' else protocol.upper()} engine mode" in p.stderr
    assert "--protocol" in p.stderr


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


def test_uci_searchmoves_restrict_the_root_moves():
    # X: a1 a2, O: b1 b2 -> X wins with a3, but the GUI allows only c3 and c2
    for player in ("alphabeta(depth=3)", "mcts(iterations=100)", "random"):
        out = _session(UciServer("tictactoe", player, "uci"),
                       ["position startpos moves a1 b1 a2 b2", "go depth 3 searchmoves c3 c2 zz",
                        "go searchmoves a3 b3"])
        first, second = [line.split()[1] for line in out if line.startswith("bestmove")]
        assert first in ("c3", "c2"), (player, out)
        assert "info string searchmoves: 'zz' is not a legal move here, ignored" in out
        assert second in ("a3", "b3"), (player, out)
    out = _session(UciServer("tictactoe", "alphabeta(depth=3)", "uci"),
                   ["position startpos moves a1 b1 a2 b2", "go depth 3 searchmoves b1 zz"])
    assert "info string searchmoves: no legal move given, all moves searched" in out
    assert out[-1] == "bestmove a3"


def test_ucci_banmoves_hold_until_the_next_position():
    s = UciServer("tictactoe", "alphabeta(depth=3)", "ucci")
    out = _session(s, ["position startpos moves a1 b1 a2 b2", "banmoves a3 c3", "go depth 3",
                       "go depth 3", "position startpos moves a1 b1 a2 b2", "go depth 3"])
    moves = [line.split()[1] for line in out if line.startswith("bestmove")]
    assert moves[0] not in ("a3", "c3") and moves[1] not in ("a3", "c3")
    assert moves[2] == "a3"                            # a new position clears the bans
    all_banned = ["position startpos moves a1 b1 a2 b2", "banmoves a3 b3 c1 c2 c3", "go depth 3"]
    out = _session(s, all_banned)
    assert "info string banmoves: every legal move is banned, all moves searched" in out
    assert out[-1] == "bestmove a3"


def test_searchmoves_through_the_xiangqi_engine(engines):
    e = engines("--game", "xiangqi", "--protocol", "uci")
    e.send("uci", "position startpos", "go depth 2 searchmoves a1a2 i1i2")
    assert e.bestmove()[-1].split()[1] in ("a1a2", "i1i2")
    e.send("position startpos", "go nodes 300 searchmoves h3h10")
    assert e.bestmove()[-1].split()[1] == "h3h10"      # the only move allowed: cannon takes knight
    assert e.close() == 0


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
    cfg = TournamentConfig(game="gomoku", players=[_engine_spec("gomoku", "gomocup", player="negascout(depth=1)"), "random"],
                           games=2, seed=5, opening_plies=3, max_plies=40)
    r = run_tournament(cfg, tmp_path, jobs=1, progress=False, log=None)
    assert len(r.games) == 2
    assert all(g["faulty"] == -1 for g in r.games), [g["error"] for g in r.games]
    assert sum(g["plies"] for g in r.games) > 2 * 3 + 4  # the engine really played moves
    # what the engine said in its MESSAGE lines lands in the records, as UCI info does
    moves = __import__("pandas").read_parquet(tmp_path / "moves.parquet")
    ours = moves[moves["player"] != "random"]
    assert len(ours) > 0 and ours["depth"].notna().all() and (ours["nodes"] > 0).all()
    assert ours["value"].notna().all()


@pytest.mark.parametrize("line, value, info", [
    # Rapfi's default messages (search output of Rapfi's public source, MsgMode NORMAL)
    ("Depth 12-20 | Eval 35 | Time 996ms | h8 i9", 35, {"depth": 12, "seldepth": 20, "time_s": 0.996}),
    ("Speed 1.2M | Depth 9-15 | Eval -120 | Node 1.5M | Time 1.2s", -120,
     {"depth": 9, "seldepth": 15, "nodes": 1_500_000, "time_s": 1.2}),
    # Rapfi's UCI-like mode and gameai engine's own
    ("depth 12-20 ev 35 n 120K n/ms 1200 tm 996 pv 7,7 8,8", 35,
     {"depth": 12, "seldepth": 20, "nodes": 120_000, "time_s": 0.996}),
    ("depth 9 seldepth 14 ev 35 nodes 81234 nps 90000 time 996 pv 7,7", 35,
     {"depth": 9, "seldepth": 14, "nodes": 81234, "time_s": 0.996}),
    ("depth 3 seldepth 3 ev loss in 2 plies nodes 87 nps 1 time 52", -(MATE - 2),
     {"depth": 3, "seldepth": 3, "nodes": 87, "time_s": pytest.approx(0.052)}),
    # Rapfi's proven results (its Value printer: "+M" and the plies to the win)
    ("Depth 7-12 | Eval +M9 | Node 3K | Time 20ms", MATE - 9,
     {"depth": 7, "seldepth": 12, "nodes": 3000, "time_s": pytest.approx(0.02)}),
    ("Depth 5-9 | Eval -M10 | Time 8ms", -(MATE - 10),
     {"depth": 5, "seldepth": 9, "time_s": pytest.approx(0.008)}),
    ("Depth 3-3 | Eval +M* | Time 1ms", None, {"depth": 3, "seldepth": 3, "time_s": 0.001}),
    ("OptiTime 950ms | MaxTime 4s", None, {}),          # free text changes nothing
    ("the engine is thinking", None, {}),
])
def test_gomocup_messages_give_depth_nodes_time_and_value(line, value, info):
    from gameai.players.engine import parse_gomocup_message
    got: dict = {}
    assert parse_gomocup_message(line, got, None) == value and got == info


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


# -- engine mode as GUIs drive it: the search beside the reader, limits, bad input ------------

UCI_INFO = re.compile(r"^info depth (\d+) seldepth (\d+) score (cp|mate) (-?\d+) nodes (\d+) "
                      r"nps (\d+) time (\d+)(?: pv((?: \S+)+))?$")
UCCI_INFO = re.compile(r"^info depth (\d+) score (-?\d+)(?: pv((?: \S+)+))?$")
UCCI_TIME = re.compile(r"^info time (\d+) nodes (\d+)$")


def _legal_line(game, moves, notation="iccs"):
    """Push ``moves`` (text; Xiangqi in ``notation``) from the start position; raises if one
    is illegal."""
    g = gameai.load_game(game)
    for m in moves:
        if game == "xiangqi":
            m = xiangqi_convert(m, "uci" if notation == "uci" else "iccs", "iccs")
        g.push(g.parse_move(m))
    return g


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_isready_and_stop_answered_during_a_long_search(engines, protocol):
    e = engines("--game", "xiangqi", "--protocol", protocol)
    e.send(protocol, "position startpos", "go infinite")
    e.read_until(lambda s: s.startswith("info depth"))  # the search is running
    before = e.sync()  # answered while it runs: no bestmove first
    assert not any(s.startswith("bestmove") for s in before), before
    e.send("stop")
    lines = e.bestmove()
    move = lines[-1].split()[1]
    _legal_line("xiangqi", [move], notation=protocol)
    assert not any(s.startswith("bestmove") for s in e.sync())  # exactly one bestmove
    assert e.close() == 0


def test_go_infinite_and_ponder_answer_only_when_released(engines):
    e = engines("--game", "tictactoe", "--protocol", "uci", "--player", "negascout(tt=true)")
    e.send("uci", "position startpos moves b2", "go infinite")
    e.read_until(lambda s: s.startswith("info depth"))
    time.sleep(1.0)  # the 8-ply tree is solved long before; the answer must still wait
    assert not any(s.startswith("bestmove") for s in e.sync())
    e.send("stop")
    _legal_line("tictactoe", ["b2", e.bestmove()[-1].split()[1]])
    # pondering: no answer before ponderhit, then one answer on our own clock
    e.send("position startpos moves b2 a1", "go ponder wtime 2000 btime 2000")
    e.read_until(lambda s: s.startswith("info depth"))
    assert not any(s.startswith("bestmove") for s in e.sync())
    e.send("ponderhit")
    _legal_line("tictactoe", ["b2", "a1", e.bestmove()[-1].split()[1]])
    assert not any(s.startswith("bestmove") for s in e.sync())
    assert e.close() == 0


def test_quit_during_a_search_ends_the_engine(engines):
    e = engines("--game", "xiangqi", "--protocol", "ucci")
    e.send("ucci", "position startpos", "go infinite")
    e.read_until(lambda s: s.startswith("info depth"))
    assert e.close("quit") == 0  # an infinite search would otherwise never end


#: Lines a GUI (or a fuzzer) may send; each case is followed by ``go depth 1`` when it is not
#: a ``go`` itself. Every case must end in exactly one legal bestmove, in the position the
#: engine holds (the start position: bad ``position`` commands leave it unchanged).
BAD_LINES = [
    [b"position moves h2e2"],
    [b"position startpos moves h3e3 h3e3"], [b"position startpos moves h2e2"],
    [b"position startpos moves z9z9"],
    [b"position fen not-a-fen w"],
    [b"position"],
    [b"go depth nan"], [b"go depth inf"], [b"go depth 1e12"], [b"go depth 0"], [b"go depth -1"],
    [b"go depth abc"], [b"go depth"], [b"go nodes 0"], [b"go nodes -5"], [b"go movetime nan"],
    [b"go wtime inf btime 1000"], [b"go wtime -100 btime -100"], [b"go time 1e400"],
    [b"go depth 99999 movetime 300"], [b"go searchmoves h2e2 depth 1"], [b"go bogus 1 depth 1"],
    [b"frobnicate 1 2 3"], [b""], [b"   "], [b"\xff\xfe\xfd"], [b"go \xff\xfe depth 1"],
    [b"setoption name Seed value banana"], [b"setoption"], [b"ponderhit"], [b"stop"],
]


def test_every_bad_line_gets_exactly_one_bestmove(engines):
    e = engines("--game", "xiangqi", "--protocol", "uci")
    e.send("uci")
    e.read_until(lambda s: s == "uciok")
    for case in BAD_LINES:
        e.send("position startpos", *case)
        if not case[0].startswith(b"go"):
            e.send("go depth 1")
        lines = e.bestmove()
        words = lines[-1].split()
        assert words[0] == "bestmove", (case, lines)
        _legal_line("xiangqi", [words[1]], notation="uci")  # legal from the start position
        after = e.sync()
        assert not any(s.startswith("bestmove") for s in after), (case, after)
        if case[0].startswith(b"go") and case[0] not in (b"go depth 99999 movetime 300",
                                                         b"go searchmoves h2e2 depth 1",
                                                         b"go bogus 1 depth 1",
                                                         b"go \xff\xfe depth 1"):
            assert any(s.startswith("info string") for s in lines), (case, lines)  # says why
    assert e.close() == 0


def test_mcts_engine_with_bad_and_good_node_limits(engines):
    e = engines("--game", "tictactoe", "--protocol", "uci", "--player", "mcts(iterations=200)")
    for go in ("go nodes 0", "go nodes 50", "go depth 0", "go movetime 200"):
        e.send("position startpos moves a1", go)
        _legal_line("tictactoe", ["a1", e.bestmove()[-1].split()[1]])
        assert not any(s.startswith("bestmove") for s in e.sync()), go
    assert e.close() == 0


def test_uci_info_line_per_iteration_parses_and_ends_with_its_move(engines):
    e = engines("--game", "xiangqi", "--protocol", "uci")
    e.send("uci", "position startpos moves h3e3", "go depth 3")
    lines = e.bestmove()
    infos = [UCI_INFO.match(s) for s in lines if s.startswith("info depth")]
    assert all(infos), lines
    assert [int(m.group(1)) for m in infos] == [1, 2, 3]
    nodes = [int(m.group(5)) for m in infos]
    assert nodes == sorted(nodes) and nodes[0] > 0
    for m in infos:
        pv = m.group(8).split()
        assert 1 <= len(pv) <= int(m.group(2)) + 1
        _legal_line("xiangqi", ["h3e3", *pv], notation="uci")  # every PV is a legal line
        assert int(m.group(2)) >= int(m.group(1))  # seldepth >= depth
    assert lines[-1].split()[1] == infos[-1].group(8).split()[0]
    assert e.close() == 0


def test_ucci_info_lines_use_ucci_syntax(engines):
    e = engines("--game", "xiangqi", "--protocol", "ucci")
    e.send("ucci", "position startpos", "go depth 2")
    lines = e.bestmove()
    info = [s for s in lines if s.startswith("info ")]
    depth_lines = [UCCI_INFO.match(s) for s in info if s.startswith("info depth")]
    time_lines = [UCCI_TIME.match(s) for s in info if s.startswith("info time")]
    assert all(depth_lines) and all(time_lines) and len(depth_lines) == len(time_lines) == 2, info
    for m in depth_lines:
        _legal_line("xiangqi", m.group(3).split())
    assert e.close() == 0


def test_ucci_clock_is_spent_sensibly(engines):
    """``go time 60000`` (a minute left, UCCI milliseconds) must buy a real search, not a
    164 ms depth-3 answer; and it must not spend the whole minute on one move."""
    e = engines("--game", "xiangqi", "--protocol", "ucci")
    e.send("ucci", "position startpos")
    e.sync()
    t0 = time.monotonic()
    e.send("go time 60000")
    lines = e.bestmove()
    used = time.monotonic() - t0
    depth = max(int(UCCI_INFO.match(s).group(1)) for s in lines if s.startswith("info depth"))
    assert depth > 3 or used > 1.0, (depth, used, lines)
    assert used < 45, used
    assert e.close() == 0


def test_a_failing_search_or_reply_still_ends_in_one_bestmove(monkeypatch):
    s = UciServer("tictactoe", "alphabeta(depth=2)", "uci")

    def broken(*a, **k):
        raise RuntimeError("boom")

    monkeypatch.setattr(s.player.searcher, "search", broken)
    out = _session(s, ["position startpos moves b2", "go depth 2"])
    assert [line.split()[0] for line in out] == ["info", "bestmove"], out
    assert "search failed (RuntimeError: boom)" in out[0]
    _legal_line("tictactoe", ["b2", out[1].split()[1]])  # a legal fallback move
    monkeypatch.setattr(s, "move_text", broken)
    out = _session(s, ["go depth 2"])
    assert out[-1] == "bestmove (none)" and "cannot send the move" in out[-2], out


def test_xiangqi_move_text_is_iccs_under_ucci_and_ranks_1_to_10_under_uci():
    for protocol, first, other in (("ucci", "h2e2", "h3e3"), ("uci", "h3e3", "h2e2")):
        s = UciServer("xiangqi", "alphabeta(depth=1)", protocol)
        out = _session(s, [f"position startpos moves {first}", "go depth 1"])
        assert s.state.ply == 1, out  # the central cannon: h2e2 in ICCS is h3e3 in UCI
        reply = out[-1].split()[1]
        _legal_line("xiangqi", [first, reply], notation=protocol)
        out = _session(s, [f"position startpos moves {other}"])
        assert s.state.ply == 1 and out[0].startswith("info string error"), out


def test_go_limits_become_soft_and_hard_budgets():
    from gameai.engine.base import MAX_DEPTH
    s = UciServer("xiangqi", "random", "uci")
    r = s.parse_go("wtime 60000 btime 1000 winc 0 binc 0".split())  # red to move
    assert 0.5 < r.soft <= r.hard < 60 and r.search_depth() == MAX_DEPTH
    s.handle("position startpos moves h3e3")  # black to move: black's second on the clock
    assert s.state.to_move == 1
    r = s.parse_go("wtime 60000 btime 1000".split())
    assert r.hard < 1.0 and r.soft < 0.5
    r = s.parse_go("movetime 2000 depth 7".split())
    assert r.depth == 7 and 1.9 <= r.soft == r.hard <= 2.0
    r = s.parse_go(["infinite"])
    assert r.infinite and r.hard is None and r.search_depth() == MAX_DEPTH
    assert s.parse_go("depth 5".split()).search_depth() == 5
    assert s.parse_go([]).search_depth() is None  # plain go: the player's own depth
    with pytest.raises(ValueError, match="depth"):
        s.parse_go(["depth", "nan"])
    u = UciServer("xiangqi", "random", "ucci")
    r = u.parse_go("time 60000 increment 0 opptime 1000 oppincrement 0".split())
    assert 0.5 < r.soft <= r.hard < 60  # our clock, not the opponent's
    assert u.parse_go("time 60000 movestogo 1".split()).soft > 50  # the whole period is ours
    u.handle("setoption usemillisec false")  # the UCCI specification's seconds
    assert u.parse_go("time 60 movestogo 1".split()).soft > 50
    assert u.parse_go(["depth", "infinite"]).infinite


def test_go_limits_beyond_what_a_searcher_takes_are_clamped_and_said():
    from gameai.engine.base import MAX_DEPTH, MAX_NODES, MAX_SECONDS
    s = UciServer("xiangqi", "random", "uci")
    r = s.parse_go("depth 99999999999999999999".split())
    assert r.depth == MAX_DEPTH and any("searched as 64" in n for n in r.notes)
    r = s.parse_go("movetime 1e20".split())
    assert r.hard == r.soft == MAX_SECONDS and any("86400 s" in n for n in r.notes)
    r = s.parse_go(["nodes", "9" * 30])
    assert r.nodes == MAX_NODES and any(f"searched as {MAX_NODES}" in n for n in r.notes)
    r = UciServer("xiangqi", "random", "ucci").parse_go("time 1e30".split())
    assert r.hard == MAX_SECONDS and r.soft <= r.hard and r.notes
    with pytest.raises(ValueError, match="nodes needs an integer"):
        s.parse_go("nodes 1e30".split())         # a count is written as an integer


def test_end_of_input_stops_any_search_and_the_engine_exits(engines):
    e = engines("--game", "xiangqi", "--protocol", "ucci")
    e.send("ucci", "position startpos", "go depth 99999999999999999999", "go movetime 1e20",
           "go nodes 1e30", "go nodes " + "9" * 30, "go time 1e30")
    lines = e.read_until(lambda s: "searched as 86400 s" in s and "1.33333e+26" in s)
    assert sum(s.startswith("bestmove") for s in lines) == 4   # each go ended the one before
    assert any("go nodes needs an integer, got '1e30'" in s for s in lines)
    e.read_until(lambda s: s.startswith("info depth"))        # the last search is running
    t0 = time.monotonic()
    e.proc.stdin.close()                                      # end of input, no quit
    assert e.proc.wait(timeout=REPLY_S) == 0
    waited = time.monotonic() - t0
    rest = e.read_until(lambda s: s.startswith("bestmove"))
    _legal_line("xiangqi", [rest[-1].split()[1]], notation="ucci")
    assert waited < 10, waited                               # about 1 s; "never" before


def test_gomocup_negative_turn_time_still_plays_and_says_so():
    s = GomocupServer("gomoku", "random")
    out = _session(s, ["START 15", "INFO timeout_turn -1", "BEGIN"])
    assert "MESSAGE INFO timeout_turn -1 is negative: playing at once (depth 1)" in out
    assert not any(line.startswith("ERROR") for line in out)
    assert re.fullmatch(r"\d+,\d+", out[-1])
    out = _session(s, ["INFO timeout_turn 5000", "INFO max_node 99999999999999999999",
                       "INFO max_depth -3", "TURN 0,0"])
    assert any("max_depth -3 is negative" in line for line in out)
    assert any("searched as 1000000000000" in line for line in out)
    assert re.fullmatch(r"\d+,\d+", out[-1])


def test_gomocup_budget_from_info_keys():
    s = GomocupServer("gomoku", "random")
    _session(s, ["START 15", "INFO timeout_turn 5000", "INFO timeout_match 0"])
    r = s.request()
    assert 4.0 < r.hard <= 5.0 and r.soft <= r.hard
    _session(s, ["INFO time_left 60000", "INFO timeout_turn 30000"])
    r = s.request()
    assert 0.5 < r.soft < 10 and r.soft <= r.hard <= 30  # the game clock binds, not the turn
    _session(s, ["INFO time_left 20"])
    assert s.request().depth == 1  # the match clock is spent: answer at once
    _session(s, ["INFO timeout_turn 0", "INFO time_left 60000"])
    assert s.request().depth == 1  # "as fast as possible"
    _session(s, ["INFO timeout_turn 1000", "INFO max_node 500", "INFO max_depth 3"])
    r = s.request()
    assert (r.nodes, r.depth) == (500, 3)
    out = _session(s, ["INFO timeout_turn soon"])
    assert out[0].startswith("ERROR")


GOMOCUP_MESSAGE = re.compile(r"^MESSAGE depth (\d+) seldepth (\d+) ev (?:-?\d+|win in \d+ plies|"
                             r"loss in \d+ plies) nodes (\d+) nps (\d+) time (\d+)"
                             r"(?: pv((?: \d+,\d+)+))?$")


def _gomocup_move(lines):
    assert re.fullmatch(r"\d+,\d+", lines[-1]), lines
    return tuple(map(int, lines[-1].split(",")))


def test_gomocup_engine_thinks_beside_the_reader(engines):
    e = engines("--game", "gomoku", "--protocol", "gomocup")
    e.send("START 15", "INFO timeout_turn 2000", "INFO timeout_match 0")
    assert e.read_until(lambda s: s == "OK")[-1] == "OK"
    e.send("BEGIN")
    lines = e.read_until(lambda s: re.fullmatch(r"\d+,\d+", s) is not None)
    x, y = _gomocup_move(lines)
    messages = [GOMOCUP_MESSAGE.match(s) for s in lines if s.startswith("MESSAGE depth")]
    assert messages and all(messages), lines
    assert [int(m.group(1)) for m in messages] == list(range(1, len(messages) + 1))
    assert messages[-1].group(6).split()[0] == f"{x},{y}"  # the move is the last PV's first
    # bad requests: exactly one reply each (ERROR), and the session goes on
    for bad in ([f"TURN {x},{y}"], ["TURN 99,1"], ["TURN seven"], ["TURN 1,2,3"],
                ["BOARD", "1,1,1", "x,y,z", "DONE"], ["BOARD", "1,1,1", "2,2,3", "DONE"],
                ["BOARD", "1,1,1", "1,1,2", "DONE"], ["BOARD", "1,1", "DONE"], ["FROB"],
                [b"\xff\xfe"], ["START abc"], ["INFO rule x"]):
        e.send(*bad)
        reply = e.read_until(lambda s: s.startswith(("ERROR", "UNKNOWN")))
        assert not re.fullmatch(r"\d+,\d+", "\n".join(reply)), (bad, reply)
    # a long think (30 s a move): ABOUT is answered meanwhile, END ends it
    e.send("START 15", "INFO timeout_turn 30000", "BOARD", "7,7,2", "DONE")
    e.read_until(lambda s: s.startswith("MESSAGE depth"))
    e.send("INFO time_left 100000", "ABOUT")
    during = e.read_until(lambda s: s.startswith("name="))
    assert not any(re.fullmatch(r"\d+,\d+", s) for s in during), during
    assert e.close("END") == 0


def test_gomocup_malformed_board_then_valid_board(engines):
    e = engines("--game", "gomoku", "--protocol", "gomocup", "--player", "alphabeta(depth=1)")
    e.send("START 15", "BOARD", "7,7,1", "garbage", "DONE", "BOARD", "7,7,2", "8,8,1", "9,9,2",
           "DONE")
    e.read_until(lambda s: s == "OK")
    assert e.read_until(lambda s: s.startswith("ERROR"))[-1].startswith("ERROR BOARD line")
    x, y = _gomocup_move(e.read_until(lambda s: re.fullmatch(r"\d+,\d+", s) is not None))
    assert (x, y) not in ((7, 7), (8, 8), (9, 9))
    assert e.close("END") == 0


@pytest.mark.skipif(not __import__("gameai.compiled", fromlist=["AVAILABLE"]).AVAILABLE,
                    reason="backend=compiled is not available here")
def test_an_idle_engine_compiles_and_faults_in_its_tables_before_the_first_go():
    """``isready`` (UCI) and ``START`` (Gomocup) do the first timed search's warm-up, so
    its compiling and its tables' page faults are not on the first move's clock."""
    from gameai.compiled.search import kernel_for, load_core
    spec = "negascout(time=0.2,tt=true,id=true,threats=true,backend=compiled)"
    g = GomocupServer("gomoku", spec)
    assert not g.player.searcher.tt.touched
    out = _session(g, ["START 15"])             # (a cold kernel cache: MESSAGE preparing)
    assert [line for line in out if not line.startswith("MESSAGE ")] == ["OK"]
    searcher = g.player.searcher
    assert searcher.tt.touched and searcher.threats.vct.arena.touched
    assert load_core(kernel_for(g.state).__name__.rsplit(".", 1)[1]).negamax.signatures
    x = UciServer("xiangqi", "negascout(tt=true,id=true,backend=compiled)", "uci")
    assert not x.player.searcher.tt.touched
    out = _session(x, ["uci", "isready"])
    assert out[-1] == "readyok" and x.player.searcher.tt.touched
    out = _session(x, ["ucinewgame", "position startpos", "go movetime 200"])
    assert out[-1].startswith("bestmove ")   # (ucinewgame made a new table: touched again
    assert x.player.searcher.tt.touched      #  by the timed go's own warm-up)
