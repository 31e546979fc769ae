"""gameai bench engines: each game's ladder is built from rungs (game, our player, the
opponent's protocol and limit) without starting an engine; a missing binary is named with
how to get it; and one Xiangqi rung plays, is recorded and resumes (marked slow)."""
import os
import shlex
import stat

import pandas as pd
import pytest

from benchmarks import bench_engines
from benchmarks.bench_engines import ladder, missing_engine, opponent_spec
from gameai.registry import game_name
from gameai.spec import parse_spec
from gameai.tournament.runner import TournamentConfig, make_tasks

FSF = "/usr/games/fairy-stockfish"
RAPFI = "/opt/rapfi/pbrain-rapfi"


def _params(spec: str) -> dict:
    name, params = parse_spec(spec)
    assert name == "engine"
    return params


def test_xiangqi_ladder_is_ucci_depths_and_an_equal_uci_movetime():
    rungs = ladder("xiangqi", FSF, seconds=1.0)
    assert [r.label for r in rungs] == ["d7", "d9", "d11", "equal"]
    assert {r.game for r in rungs} == {"xiangqi"}
    assert {r.ours for r in rungs} == {"strong(time=1)"}
    for r, depth in zip(rungs[:3], (7, 9, 11)):
        p = _params(r.opponent)
        assert (p["cmd"], p["protocol"], p["depth"]) == (FSF, "ucci", depth)
        assert "time" not in p and "nodes" not in p
    equal = _params(rungs[3].opponent)
    assert (equal["protocol"], equal["time"], equal["option.UCI_Variant"]) == ("uci", 1, "xiangqi")
    assert "depth" not in equal
    for r in rungs:  # both protocols: a small hash and one thread
        p = _params(r.opponent)
        assert (p["option.Hash"], p["option.Threads"], p["name"]) == (16, 1, "fairy-stockfish")


@pytest.mark.parametrize("game, spec, name", [("gomoku", "gomoku", "gomoku"),
                                              ("renju", "gomoku(rule=renju)", "renju")])
def test_gomocup_ladders_are_rapfi_nodes_and_equal_time_from_an_empty_folder(game, spec, name):
    rungs = ladder(game, RAPFI, seconds=0.5, home="/var/empty/rapfi")
    assert [r.label for r in rungs] == ["1k", "3k", "10k", "100k", "equal"]
    assert {r.game for r in rungs} == {spec} and game_name(spec) == name
    assert {r.ours for r in rungs} == {"strong(time=0.5)"}
    params = [_params(r.opponent) for r in rungs]
    assert [p.get("nodes") for p in params] == [1000, 3000, 10000, 100000, None]
    assert params[-1]["time"] == 0.5 and all("time" not in p for p in params[:-1])
    for p in params:
        assert (p["cmd"], p["protocol"], p["cwd"], p["name"]) == (RAPFI, "gomocup",
                                                                  "/var/empty/rapfi", "rapfi")
        assert not any(k.startswith("option.") for k in p)  # Gomocup has no options


def test_rungs_are_picked_by_label_ours_overrides_and_the_tournament_accepts_them():
    rungs = ladder("renju", RAPFI, seconds=2, ours="alphabeta(depth=2)",
                   labels=["10k", "2m", "500"], home="/var/empty/rapfi")
    assert [(r.label, _params(r.opponent)["nodes"]) for r in rungs] == \
        [("10k", 10000), ("2m", 2000000), ("500", 500)]
    assert {r.ours for r in rungs} == {"alphabeta(depth=2)"}
    xq = ladder("xiangqi", FSF, labels=["d1"])[0]
    tasks = make_tasks(TournamentConfig(game=xq.game, players=[xq.ours, xq.opponent], games=4,
                                        opening_plies=2))
    assert [t.names for t in tasks[:2]] == [("strong(time=1)", "fairy-stockfish"),
                                            ("fairy-stockfish", "strong(time=1)")]
    assert tasks[0].players[0].startswith("negascout(time=1,")  # the preset, resolved per game


@pytest.mark.parametrize("game, label", [("xiangqi", "10k"), ("xiangqi", "d"), ("gomoku", "d7"),
                                         ("renju", "fast")])
def test_a_label_that_names_no_rung_of_the_game_is_refused(game, label):
    with pytest.raises(ValueError, match=f"rung {label!r}"):
        opponent_spec(game, label, 1.0, FSF)


def test_paths_the_spec_parser_would_split_are_quoted():
    p = _params(opponent_spec("gomoku", "1k", 1.0, "/opt/my engines/pbrain-rapfi", "/tmp/a,b"))
    assert shlex.split(p["cmd"]) == ["/opt/my engines/pbrain-rapfi"] and p["cwd"] == "/tmp/a,b"


def test_a_missing_binary_is_named_with_how_to_get_it(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(bench_engines.RAPFI_ENV, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    nope = str(tmp_path / "fairy-stockfish")
    assert bench_engines.main(["--fsf", nope, "--rungs", "d1"]) == 1
    err = capsys.readouterr().err
    assert f"Fairy-Stockfish not found at {nope}" in err
    assert "apt-get install fairy-stockfish" in err
    assert bench_engines.main(["--game", "renju"]) == 1   # nothing on the PATH, no $GAMEAI_RAPFI
    err = capsys.readouterr().err
    assert "Rapfi not found on the PATH (pbrain-rapfi or rapfi)" in err
    assert "https://github.com/dhbloo/rapfi" in err and "cmake" in err
    plain = tmp_path / "pbrain-rapfi"   # present but not executable
    plain.write_text("")
    assert missing_engine("gomoku", str(plain)).startswith(f"Rapfi not found at {plain}:")
    plain.chmod(plain.stat().st_mode | stat.S_IXUSR)
    assert bench_engines.default_engine("gomoku") == str(plain) and \
        missing_engine("gomoku", str(plain)) is None


@pytest.mark.slow
@pytest.mark.skipif(not os.access(FSF, os.X_OK), reason=f"Fairy-Stockfish not installed "
                                                        f"({FSF}); apt-get install fairy-stockfish")
def test_one_xiangqi_rung_plays_records_and_resumes(tmp_path, capsys):
    argv = ["--fsf", FSF, "--rungs", "d1", "--games", "2", "--time", "0.05",
            "--out", str(tmp_path)]
    assert bench_engines.main(argv) == 0
    rows = [ln for ln in capsys.readouterr().out.splitlines() if ln.split()[:1] == ["d1"]]
    assert len(rows) == 1 and rows[0].split()[2] in {"2-0-0", "1-1-0", "1-0-1", "0-2-0",
                                                     "0-1-1", "0-0-2"}
    folder = tmp_path / "xiangqi_d1_seed1"
    games = pd.read_parquet(folder / "games.parquet")
    assert len(games) == 2 and (games.faulty == -1).all()       # nobody faulted
    moves = pd.read_parquet(folder / "moves.parquet")
    engine_moves = moves[moves.player == "fairy-stockfish"]
    assert len(engine_moves) and engine_moves.depth.notna().all()
    assert bench_engines.main(argv) == 0       # the same command again: nothing replayed
    out = capsys.readouterr()
    assert "resumed, 2 games were already in" in out.err
    assert [ln for ln in out.out.splitlines() if ln.split()[:1] == ["d1"]] == rows
