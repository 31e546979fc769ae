"""Own evaluators in parallel tournaments: a ``module:attr`` evaluator plays in worker
processes (``gameai tournament --jobs 2``, Dask), names registered at run time travel to the
workers, and a player a worker cannot make stops the run before the first game with an
error naming the problem, never as forfeits."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from gameai import SpecError
from gameai.registry import EVALUATORS
from gameai.tournament.runner import TournamentConfig, run_tournament

ROOT = Path(__file__).resolve().parents[2]

#: an evaluator that leaves one file per process that made it, in $GAMEAI_TEST_PIDS
COUNTING = textwrap.dedent('''
    import os
    from pathlib import Path


    class Centre:
        """Tic-tac-toe: the centre and corners are worth a little."""

        def __init__(self, weight: int = 1) -> None:
            self.weight = weight
            Path(os.environ["GAMEAI_TEST_PIDS"], str(os.getpid())).touch()

        def __call__(self, state) -> int:
            return 0
''')

#: a module that imports in the first process that imports it and in no other
PARENT_ONLY = textwrap.dedent('''
    import os
    if os.environ.setdefault("GAMEAI_TEST_FIRST_PID", str(os.getpid())) != str(os.getpid()):
        raise ImportError("this module imports only in the process that imported it first")


    class Zero:
        def __call__(self, state) -> int:
            return 0
''')


def _cli(args, pythonpath, tmp_path, **env):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(pythonpath), str(ROOT)]),
               GAMEAI_TEST_PIDS=str(tmp_path), **env)
    env.pop("GAMEAI_TEST_FIRST_PID", None)
    return subprocess.run([sys.executable, "-c", "import sys; from gameai.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", *args],
                          env=env, capture_output=True, text=True, timeout=600)


def test_cli_tournament_with_a_module_attr_evaluator_and_two_jobs(tmp_path):
    mods = tmp_path / "mods"
    mods.mkdir()
    (mods / "own_eval_mod.py").write_text(COUNTING)
    pids = tmp_path / "pids"
    pids.mkdir()
    spec = "alphabeta(depth=3,eval=own_eval_mod:Centre(weight=2))"
    out = tmp_path / "t"
    r = _cli(["tournament", "--game", "tictactoe", "--player", spec, "--player", "random",
              "--games", "4", "--jobs", "2", "--no-progress", "--out", str(out)], mods, pids)
    assert r.returncode == 0, r.stderr
    games = pq.read_table(out / "games.parquet").to_pylist()
    assert len(games) == 4
    assert all(g["faulty"] == -1 and g["error"] == "" for g in games)    # no forfeits
    assert {g["spec0"] for g in games} | {g["spec1"] for g in games} == {spec, "random"}
    made_in = {int(p.name) for p in pids.iterdir()}
    assert made_in                             # the workers made the evaluator


def test_cli_tournament_with_a_missing_module_stops_before_the_first_game(tmp_path):
    out = tmp_path / "t"
    r = _cli(["tournament", "--game", "tictactoe", "--player",
              "alphabeta(depth=2,eval=own_missing_mod:Centre)", "--player", "random",
              "--games", "2", "--jobs", "2", "--no-progress", "--out", str(out)], tmp_path,
             tmp_path)
    assert r.returncode == 2
    assert "no module named 'own_missing_mod'" in r.stderr and "PYTHONPATH" in r.stderr
    assert not (out / "manifest.json").exists() and not (out / "games.parquet").exists()


def test_a_module_only_the_parent_can_import_stops_the_run_in_the_worker_check(tmp_path):
    mods = tmp_path / "mods"
    mods.mkdir()
    (mods / "own_parent_only.py").write_text(PARENT_ONLY)
    out = tmp_path / "t"
    r = _cli(["tournament", "--game", "tictactoe", "--player",
              "alphabeta(depth=2,eval=own_parent_only:Zero)", "--player", "random",
              "--games", "2", "--jobs", "2", "--no-progress", "--out", str(out)], mods, tmp_path)
    assert r.returncode == 2, r.stderr
    assert "no game was played: not every player can play tictactoe in a worker process" in r.stderr
    assert "importing module 'own_parent_only' failed" in r.stderr
    assert "imports only in the process that imported it first" in r.stderr
    assert not (out / "manifest.json").exists() and not (out / "games.parquet").exists()


def isolate(monkeypatch, reg=EVALUATORS):
    """Whatever a test registers in ``reg`` is gone after it (the catalog loaded first)."""
    reg.names()
    for attr in ("_entries", "_defaults", "_docs", "_factories", "_user"):
        monkeypatch.setattr(reg, attr, dict(getattr(reg, attr)))


@pytest.fixture
def registered(monkeypatch):
    """Register names for one test only (string and object targets)."""
    isolate(monkeypatch)

    class Corners:                   # defined here: travels to the workers by value
        def __call__(self, state) -> int:
            return 1

    EVALUATORS.register("test.zero", "gameai.evaluators.basic:Zero")
    EVALUATORS.register("test.corners", Corners())
    return ["alphabeta(depth=2,eval=test.zero)", "alphabeta(depth=2,eval=test.corners)"]


def test_registered_names_travel_to_joblib_workers(tmp_path, registered):
    cfg = TournamentConfig(game="tictactoe", players=registered, games=2, seed=1)
    r = run_tournament(cfg, tmp_path, jobs=2, progress=False, log=None)
    assert len(r.games) == 2 and not r.forfeited
    assert all(g["faulty"] == -1 for g in r.games)


def test_a_registration_that_cannot_travel_is_named(tmp_path, monkeypatch):
    import threading
    isolate(monkeypatch)

    class Locked:
        lock = threading.Lock()

        def __init__(self):
            self.held = threading.Lock()

        def __call__(self, state) -> int:
            return 0

    EVALUATORS.register("test.locked", Locked())
    cfg = TournamentConfig(game="tictactoe", players=["alphabeta(depth=1,eval=test.locked)",
                                                      "random"], games=2)
    with pytest.raises(SpecError, match="evaluator 'test.locked', registered in this process, "
                                        "cannot be sent to worker processes"):
        run_tournament(cfg, tmp_path, jobs=2, progress=False, log=None)
    assert run_tournament(cfg, tmp_path / "one", jobs=1, progress=False, log=None).games


def test_registered_names_travel_to_dask_workers(tmp_path, registered):
    pytest.importorskip("distributed")
    cfg = TournamentConfig(game="tictactoe", players=registered, games=2, seed=1)
    r = run_tournament(cfg, tmp_path / "d", jobs=2, backend="dask", progress=False, log=None)
    assert len(r.games) == 2 and not r.forfeited


def test_a_dask_worker_that_cannot_make_a_player_stops_the_run(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    isolate(monkeypatch)
    (tmp_path / "own_parent_only_dask.py").write_text(PARENT_ONLY.replace(
        "GAMEAI_TEST_FIRST_PID", "GAMEAI_TEST_FIRST_PID_DASK"))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("GAMEAI_TEST_FIRST_PID_DASK", raising=False)
    try:
        cfg = TournamentConfig(game="tictactoe", players=[
            "alphabeta(depth=2,eval=own_parent_only_dask:Zero)", "random"], games=2)
        with pytest.raises(SpecError, match="no game was played: .* in a Dask worker: .*"
                                            "importing module 'own_parent_only_dask' failed"):
            run_tournament(cfg, tmp_path / "d", jobs=1, backend="dask", progress=False, log=None)
        assert not (tmp_path / "d" / "manifest.json").exists()
    finally:
        sys.modules.pop("own_parent_only_dask", None)


def test_an_evaluator_for_another_game_stops_the_run_in_process(tmp_path):
    cfg = TournamentConfig(game="tictactoe", players=["alphabeta(eval=gomoku.patterns)",
                                                      "random"], games=2)
    with pytest.raises(SpecError, match="in this process: alphabeta.*scores gomoku"):
        run_tournament(cfg, tmp_path, jobs=1, progress=False, log=None)


def test_cli_tournament_with_an_entry_point_evaluator_and_two_jobs(tmp_path):
    sys.path.insert(0, str(ROOT / "tests" / "spec"))
    try:
        from test_own_code import fake_distribution
    finally:
        sys.path.pop(0)
    (tmp_path / "site").mkdir()
    root = fake_distribution(tmp_path / "site")
    out = tmp_path / "t"
    spec = "alphabeta(depth=2,eval=plugin.mobility)"
    r = _cli(["tournament", "--game", "tictactoe", "--player", spec, "--player",
              "plugin.greedy", "--games", "2", "--jobs", "2", "--no-progress", "--out",
              str(out)], root, tmp_path)
    assert r.returncode == 0, r.stderr
    games = pq.read_table(out / "games.parquet").to_pylist()
    assert len(games) == 2 and all(g["faulty"] == -1 for g in games)
