"""`gameai reproduce` reruns from scratch unless told to resume, writes where it is told
(./results by default, never inside the installed package), and `pip install .` installs
no top-level package but `gameai`."""
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from gameai.cli import main
from gameai.commands.reproduce import experiments_package
from gameai.errors import SpecError
from gameai.tournament.runner import TournamentConfig

ROOT = Path(__file__).resolve().parent.parent
strength = __import__(f"{experiments_package().__name__}.strength", fromlist=["_match"])
common = __import__(f"{experiments_package().__name__}._common", fromlist=["Results"])


def _journal_lines(folder: Path) -> int:
    return len((folder / "journal.jsonl").read_text().splitlines())


def test_a_fresh_run_replays_the_games_and_resume_continues_them(tmp_path):
    res = common.Results("strength", tmp_path / "strength")
    cfg = TournamentConfig(game="tictactoe", players=["random", "alphabeta(depth=2)"], games=4, seed=5,
                           opening_plies=0)
    strength._match(res, "m", cfg)
    folder = res.dir / "m"
    first = _journal_lines(folder)
    assert first >= 4
    (folder / "marker").write_text("from the earlier run")
    strength._match(res, "m", cfg)  # afresh: the earlier folder is gone, every game replayed
    assert not (folder / "marker").exists()
    assert _journal_lines(folder) == first
    (folder / "marker").write_text("from the earlier run")
    strength._match(res, "m", cfg, resume=True)  # resumed: nothing replayed, nothing removed
    assert (folder / "marker").exists()
    assert _journal_lines(folder) == first


def test_resume_of_a_different_setting_is_an_error_not_a_silent_restart(tmp_path):
    res = common.Results("strength", tmp_path / "strength")
    cfg = TournamentConfig(game="tictactoe", players=["random", "random"], games=2, seed=5, opening_plies=0)
    strength._match(res, "m", cfg)
    cfg.seed = 6
    with pytest.raises(ValueError, match="cannot resume"):
        strength._match(res, "m", cfg, resume=True)


def test_out_and_resume_options(tmp_path, monkeypatch):
    with pytest.raises(SystemExit):  # an unknown experiment name is refused by the parser
        main(["reproduce", "--only", "no_such_experiment"])
    with pytest.raises(SpecError, match="nothing to resume"):
        common.resolve_root(None, tmp_path / "missing")
    with pytest.raises(SpecError, match="writes into the folder it resumes"):
        common.resolve_root(tmp_path / "a", tmp_path)
    monkeypatch.chdir(tmp_path)
    assert common.resolve_root(None, None) == tmp_path / "results"
    assert common.resolve_root(None, tmp_path) == tmp_path
    assert main(["reproduce", "--resume", str(tmp_path / "missing")]) == 2


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel `pip install .` would install, built from a clean copy of the sources
    (an in-tree build/ folder from an earlier layout would leak into it)."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    for name in ("gameai", "experiments"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"), str(src)],
                   check=True)
    return next((tmp / "dist").glob("gameai-*.whl"))


@pytest.mark.slow
def test_the_wheel_installs_gameai_only(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert top == {"gameai"}
    assert "gameai/experiments/strength.py" in names and "gameai/experiments/_common.py" in names
    assert not any(n.startswith("gameai/results") or "/results/" in n for n in names)


@pytest.mark.slow
def test_an_installed_gameai_writes_results_to_out_or_the_current_folder(wheel, tmp_path):
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True)
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run([sys.executable, "-c", "import gameai.experiments as e; print(e.__file__)"],
                           cwd=work, env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(site))
    cmd = [sys.executable, "-m", "gameai.cli", "reproduce", "--only", "minimal_tree"]
    subprocess.run(cmd, cwd=work, env=env, check=True, capture_output=True)
    assert json.loads((work / "results" / "minimal_tree" / "claims.json").read_text())
    assert (work / "results" / "README.md").exists()
    subprocess.run(cmd + ["--out", str(tmp_path / "elsewhere")], cwd=work, env=env, check=True,
                   capture_output=True)
    assert (tmp_path / "elsewhere" / "minimal_tree" / "table.parquet").exists()
    assert not list(site.rglob("claims.json")) and not list(site.rglob("README.md"))
