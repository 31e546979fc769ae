"""The external-engine player: notation, options, info lines, resets, limits, and faults
that must never hang a run (fake engines in tests/engines/fake_uci.py and
tests/engines/fake_gomocup.py)."""
from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import gameai
from gameai.games.notation import detect_xiangqi_notation, xiangqi_convert
from gameai.players.engine import EngineFault, EnginePlayer, _parse_info, mate_value
from gameai.search.stats import MATE
from gameai.tournament import TournamentConfig, run_tournament
from gameai.tournament import play as tplay

PY = sys.executable
HERE = Path(__file__).parent
FAKE_UCI = HERE / "fake_uci.py"
FAKE_GOMOCUP = HERE / "fake_gomocup.py"


def _positions(n_games=6, plies=40, seed=0):
    """Xiangqi positions along seeded random games (openings to captures-heavy middles)."""
    rng = random.Random(seed)
    for _ in range(n_games):
        s = gameai.load_game("xiangqi")
        for _ in range(plies):
            if s.result() is not None:
                break
            yield s
            s.push(rng.choice(s.legal_moves()))


# -- notation --------------------------------------------------------------------------
def test_xiangqi_uci_notation_round_trips_every_legal_move_of_many_positions():
    seen = 0
    for s in _positions():
        for m in s.legal_moves():
            iccs = s.move_str(m)
            uci = xiangqi_convert(iccs, "iccs", "uci")
            ranks = [int(r) for r in re.findall(r"\d+", uci)]
            assert [r - 1 for r in ranks] == [int(r) for r in re.findall(r"\d", iccs)]
            assert all(1 <= r <= 10 for r in ranks)
            assert xiangqi_convert(uci, "uci", "iccs") == iccs
            assert s.parse_move(xiangqi_convert(uci, "uci", "iccs")) == m
            seen += 1
    assert seen > 5000


def test_xiangqi_uci_notation_matches_fairy_stockfish_published_texts():
    # Fairy-Stockfish's own UCI Xiangqi output: the knight h0g2 is "h1g3", and the
    # move the issue quotes, "b3b10", is the cannon capturing the knight, ICCS b2b9.
    assert xiangqi_convert("h0g2", "iccs", "uci") == "h1g3"
    assert xiangqi_convert("b3b10", "uci", "iccs") == "b2b9"
    s = gameai.load_game("xiangqi")
    assert s.move_str(s.parse_move(xiangqi_convert("b3b10", "uci", "iccs"))) == "b2b9"
    for bad, src in (("a0a1", "uci"), ("a10a9", "iccs"), ("j1j2", "uci"), ("a01a2", "uci")):
        with pytest.raises(gameai.GameError):
            xiangqi_convert(bad, src, "iccs")


def test_notation_is_detected_from_any_first_move_on_the_start_position():
    start = gameai.load_game("xiangqi")
    for m in start.legal_moves():
        iccs = start.move_str(m)
        assert detect_xiangqi_notation(start, iccs) == "iccs"
        assert detect_xiangqi_notation(start, xiangqi_convert(iccs, "iccs", "uci")) == "uci"
    with pytest.raises(gameai.GameError):
        detect_xiangqi_notation(start, "e5e6")  # legal in neither reading


# -- info lines ------------------------------------------------------------------------
def test_info_lines_of_uci_and_ucci_give_value_nodes_depth_time_pv():
    info = {}
    v = _parse_info("info depth 5 score 29 nodes 78 time 12 pv h2e2 h9g7".split(), info, None)
    assert v == 29 and info == {"depth": 5, "nodes": 78, "time_s": 0.012, "pv": "h2e2 h9g7"}
    info = {}
    v = _parse_info("info depth 9 seldepth 12 multipv 1 score cp -40 lowerbound nodes 5 nps 9 "
                    "tbhits 0 time 3 pv a0a1".split(), info, None)
    assert v == -40 and info["nodes"] == 5 and info["seldepth"] == 12
    assert _parse_info("info multipv 2 score cp 99 nodes 7".split(), {}, 1) == 1
    assert _parse_info("info string score cp 5".split(), {}, None) is None
    assert mate_value(1) == MATE - 1 and mate_value(-2) == -(MATE - 4)
    assert _parse_info("info score mate -1".split(), {}, None) == -(MATE - 2)


def test_go_command_maps_each_limit_in_each_protocol():
    uci, ucci = EnginePlayer("x", protocol="uci"), EnginePlayer("x", protocol="ucci")
    assert uci.go_command({"time": 0.25}) == "go movetime 250"
    assert ucci.go_command({"time": 0.25}) == "go time 250 increment 0"
    assert uci.go_command({"depth": 4, "nodes": 900}) == "go depth 4 nodes 900"
    clocked = EnginePlayer("x", protocol="uci", clock="10+0.5")
    clocked._clock_left = 8.0
    assert clocked.go_command({}) == "go wtime 8000 btime 8000 winc 500 binc 500"
    clocked = EnginePlayer("x", protocol="ucci", clock="10+0.5")
    clocked._clock_left = 8.0
    assert clocked.go_command({}) == "go time 8000 increment 500"


def test_bad_engine_parameters_raise_spec_errors_naming_them():
    with pytest.raises(gameai.SpecError, match="Hash"):
        gameai.make_player('engine(cmd=x,Hash=64)')
    with pytest.raises(gameai.SpecError, match="increment"):
        EnginePlayer("x", protocol="gomocup", clock="10+1")
    for bad in ("depth=0", "nodes=-5", "time=nan", "clock=abc", "notation=ranks"):
        with pytest.raises(gameai.SpecError):
            gameai.make_player(f'engine(cmd=x,{bad})')
    p = gameai.make_player('engine(cmd=x,option.UCI_Variant=xiangqi,option.Hash=64)')
    assert p.options == {"UCI_Variant": "xiangqi", "Hash": "64"}  # as written


def test_the_engine_player_does_not_import_the_engine_servers():
    code = ("import sys, gameai.players.engine; "
            "assert not any(m.startswith('gameai.engine') for m in sys.modules), sorted(sys.modules)")
    subprocess.run([PY, "-c", code], check=True, env={**os.environ, "PYTHONPATH": str(HERE.parents[1])})


# -- options, variant, handshake order ----------------------------------------------------
def _fake(protocol="uci", log=None, **flags):
    extra = "".join(f" --{k}" if v is True else f" --{k} {v}" for k, v in flags.items())
    return f"{PY} {FAKE_UCI} --protocol {protocol} --log {log or os.devnull}{extra}"


def _log_lines(path):
    return [line.strip() for line in Path(path).read_text().splitlines()]


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_options_then_variant_go_after_the_handshake_and_before_isready(tmp_path, protocol):
    log = tmp_path / "log"
    p = EnginePlayer(_fake(protocol, log, game="tictactoe", newgame=True), protocol=protocol,
                     depth=2, **{"option.Hash": 64, "option.Skill_Level": 3})
    try:
        p.new_game(1)
        s = gameai.load_game("tictactoe")
        d = p.choose(s)
        assert d.move in s.legal_moves() and d.value == 1 and d.info["nodes"] == 101
    finally:
        p.close()
    lines = _log_lines(log)
    if protocol == "uci":
        want = ["uci", "setoption name Hash value 64", "setoption name Skill Level value 3",
                "setoption name UCI_Variant value tictactoe", "isready", "ucinewgame", "isready"]
    else:
        want = ["ucci", "setoption Hash 64", "setoption Skill_Level 3",
                "setoption UCI_Variant tictactoe", "isready", "setoption newgame", "isready"]
    assert lines[:len(want)] == want
    assert lines[len(want)].startswith("position") and lines[len(want) + 1] == "go depth 2"


def test_an_option_the_engine_does_not_offer_is_a_clear_error(tmp_path):
    p = EnginePlayer(_fake("uci"), protocol="uci", depth=1, **{"option.Bogus": 1})
    try:
        p.new_game(0)
        with pytest.raises(EngineFault, match="no option 'Bogus'.*Hash"):
            p.choose(gameai.load_game("tictactoe"))
    finally:
        p.close()


def test_engines_file_defines_engines_and_the_spec_overrides(tmp_path):
    f = tmp_path / "engines.toml"
    f.write_text(f'[fake]\ncmd = "{_fake("uci")}"\nprotocol = "uci"\ndepth = 3\ncwd = "."\n'
                 '[fake.options]\nHash = 32\n')
    p = gameai.make_player(f'engine(conf=fake,engines="{f}",depth=2,option.Skill_Level=1)')
    assert (p.name, p.protocol, p.limits, p.cwd) == ("fake", "uci", {"depth": 2}, str(tmp_path))
    assert p.options == {"Hash": 32, "Skill_Level": "1"}
    with pytest.raises(gameai.SpecError, match="defined: fake"):
        gameai.make_player(f'engine(conf=other,engines="{f}")')
    f.write_text('[fake]\ncommand = "x"\n')
    with pytest.raises(gameai.SpecError, match="command"):
        gameai.make_player(f'engine(conf=fake,engines="{f}")')


# -- a fresh game every game: identical results for any number of workers -------------------
def _one_and_two_workers(cfg, tmp_path):
    """The tournament on one worker (engines reused across games), then on two."""
    try:
        a = run_tournament(cfg, tmp_path / "a", jobs=1, progress=False, log=None)
        tplay.close_idle_players()
        return a, run_tournament(cfg, tmp_path / "b", jobs=2, progress=False, log=None)
    finally:
        tplay.close_idle_players()


def _games(r):
    return [(g["game_id"], g["result"], g["plies"], g["reason"]) for g in r.games]


@pytest.mark.parametrize("protocol,flags", [("uci", {}), ("ucci", {"newgame": True}), ("ucci", {})])
def test_resets_make_games_identical_for_one_and_two_workers(tmp_path, protocol, flags):
    spec = f'engine(cmd="{_fake(protocol, **flags)}",protocol={protocol},depth=1,name=fake)'
    cfg = TournamentConfig(game="tictactoe", players=[spec, "random"], games=6, seed=3,
                           opening_plies=1)
    a, b = _one_and_two_workers(cfg, tmp_path)
    assert all(g["faulty"] == -1 for g in a.games), [g["error"] for g in a.games]
    assert _games(a) == _games(b)
    ma = pd.read_parquet(tmp_path / "a" / "moves.parquet").sort_values(["game_id", "ply"])
    mb = pd.read_parquet(tmp_path / "b" / "moves.parquet").sort_values(["game_id", "ply"])
    assert list(ma["move"]) == list(mb["move"])
    eng = ma[ma.player == "fake"]
    assert len(eng) and eng["value"].notna().all() and eng["nodes"].notna().all()


# -- Gomocup: limits, pacing, resets --------------------------------------------------------
def test_gomocup_limits_pacing_and_resets(tmp_path):
    log = tmp_path / "gomocup.log"
    spec = (f'engine(cmd="{PY} {FAKE_GOMOCUP} --log {log}",protocol=gomocup,nodes=1000,'
            f'depth=7,name=fake)')
    cfg = TournamentConfig(game="gomoku(rule=renju)", players=[spec, "random"], games=4, seed=2,
                           opening_plies=2, max_plies=20)
    a, b = _one_and_two_workers(cfg, tmp_path)
    assert all(g["faulty"] == -1 for g in a.games + b.games), [g["error"] for g in a.games + b.games]
    assert _games(a) == _games(b)
    lines = _log_lines(log)
    assert not [x for x in lines if x.startswith("DROPPED")]
    assert "INFO max_node 1000" in lines and "INFO max_depth 7" in lines
    assert "INFO rule 4" in lines
    assert lines.count("RESTART") >= 2  # a reused process starts each later game afresh
    first_move = min(i for i, x in enumerate(lines) if x in ("BEGIN", "BOARD") or x.startswith("TURN"))
    assert "INFO max_node 1000" in lines[:first_move]


def test_gomocup_without_restart_gets_a_new_process(tmp_path):
    log = tmp_path / "log"
    p = EnginePlayer(f"{PY} {FAKE_GOMOCUP} --no-restart --log {log}", protocol="gomocup",
                     time=0.2)
    try:
        for seed in (0, 1):
            p.new_game(seed)
            s = gameai.load_game("gomoku")
            s.push(p.choose(s).move)
        assert "INFO timeout_turn 200" in _log_lines(log)
        assert _log_lines(log).count("START 15") == 2
    finally:
        p.close()


# -- faults never hang the run -------------------------------------------------------------
def _gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:  # a zombie waiting for its (foreign) parent to reap it is gone too
        return Path(f"/proc/{pid}/stat").read_text().split(")")[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.parametrize("mode,reason", [("eof", "engine-crash"), ("badbytes", "malformed-reply")])
def test_end_of_output_and_invalid_bytes_are_faults_not_hangs(mode, reason):
    p = EnginePlayer(_fake("uci", mode=mode), protocol="uci", depth=1, timeout=60)
    t0 = time.monotonic()
    try:
        p.new_game(0)
        with pytest.raises(EngineFault) as exc:
            p.choose(gameai.load_game("tictactoe"))
        assert exc.value.reason == reason
        pid = p.proc.pid
    finally:
        p.close()
    assert _gone(pid)
    assert time.monotonic() - t0 < 50  # well inside the 60 s read timeout: no waiting on EOF


def test_an_engine_that_stops_reading_cannot_block_a_write():
    p = EnginePlayer(_fake("uci", mode="deaf"), protocol="uci", depth=1, timeout=1)
    try:
        p.new_game(0)
        with pytest.raises(EngineFault) as exc:
            for _ in range(100):  # far more than a pipe holds
                p._write("position startpos moves " + "a1a2 " * 2000)
        assert exc.value.reason == "engine-timeout"
    finally:
        p.close()


def test_an_engine_that_ignores_quit_and_sigterm_is_killed_with_its_children(tmp_path):
    log = tmp_path / "log"
    p = EnginePlayer(_fake("uci", log, mode="stubborn"), protocol="uci", depth=1)
    q = EnginePlayer(_fake("uci", tmp_path / "log2", mode="grandchild"), protocol="uci", depth=1)
    p.new_game(0)
    q.new_game(0)
    pids = [p.proc.pid, q.proc.pid, int(Path(str(tmp_path / "log2") + ".pid").read_text())]
    p.close()
    q.close()
    assert p.proc is None and q.proc is None
    deadline = time.monotonic() + 10
    while not all(_gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert all(_gone(pid) for pid in pids)


def test_tournament_records_engine_faults_as_termination_reasons(tmp_path):
    players = ["random"] + [f'engine(cmd="{_fake("uci", mode=m)}",protocol=uci,depth=1,name={m})'
                            for m in ("eof", "badbytes", "stubborn")]
    cfg = TournamentConfig(game="tictactoe", players=players, games=2, seed=1, format="gauntlet",
                           opening_plies=0)
    r = run_tournament(cfg, tmp_path, jobs=1, progress=False, log=None)
    tplay.close_idle_players()
    by = {}
    for g in r.games:
        bad = g["player1"] if g["player0"] == "random" else g["player0"]
        by.setdefault(bad, set()).add(g["reason"] if g["faulty"] >= 0 else "ok")
    assert by == {"eof": {"engine-crash"}, "badbytes": {"malformed-reply"}, "stubborn": {"ok"}}


def test_a_game_clock_counts_down_and_is_sent_as_a_clock(tmp_path):
    log = tmp_path / "log"
    p = EnginePlayer(_fake("uci", log), protocol="uci", clock="30+1")
    try:
        p.new_game(0)
        s = gameai.load_game("tictactoe")
        for _ in range(3):
            s.push(p.choose(s).move)
    finally:
        p.close()
    gos = [x.split() for x in _log_lines(log) if x.startswith("go")]
    assert [g[1::2] for g in gos] == [["wtime", "btime", "winc", "binc"]] * 3
    left = [int(g[2]) for g in gos]
    assert left[0] == 30000 and all(25000 < v <= 32000 for v in left[1:])  # + 1 s a move, minus thinking
    assert all(g[6] == "1000" for g in gos)
