"""What `pip install .` installs: the gameai package and nothing else at the top level
(the experiments and the speed benchmarks as gameai.experiments and gameai.benchmarks,
with the data files they read), so `gameai reproduce` and `gameai bench` work from the
installed command."""
import json
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
BENCHES = ["api", "compiled", "engines", "gomoku", "limits", "search", "threats", "tournament", "xiangqi"]


def _folder(package: str) -> Path:
    """Where a listed package's files are: its package-dir mapping, else its dotted path."""
    parts = package.split(".")
    for i in range(len(parts), 0, -1):
        mapped = SETUPTOOLS.get("package-dir", {}).get(".".join(parts[:i]))
        if mapped is not None:
            return ROOT / mapped / Path(*parts[i:])
    return ROOT / Path(*parts)


def test_there_is_no_setup_py_and_every_listed_package_is_gameai_and_exists():
    assert not (ROOT / "setup.py").exists()
    packages = SETUPTOOLS["packages"]
    assert all(p == "gameai" or p.startswith("gameai.") for p in packages)
    assert {"gameai.experiments", "gameai.benchmarks"} <= set(packages)
    missing = [p for p in packages if not _folder(p).is_dir()]
    assert not missing, f"pyproject.toml lists packages with no folder: {missing}"


def test_every_gameai_subpackage_is_listed_in_pyproject():
    # the list is explicit (a packages.find table cannot name mapped folders): a new
    # subpackage missing from it would be left out of the wheel
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "gameai").rglob("__init__.py")
             if "__pycache__" not in p.parts}
    unlisted = sorted(found - set(SETUPTOOLS["packages"]))
    assert not unlisted, f"add to [tool.setuptools] packages in pyproject.toml: {unlisted}"


def test_the_wheel_holds_gameai_only_with_the_experiments_data(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    top = {n.split("/")[0] for n in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"gameai"}
    for f in ["gameai/experiments/strength.py", "gameai/experiments/_common.py",
              *(f"gameai/experiments/suites/{s.name}" for s in sorted((ROOT / "experiments" / "suites").iterdir())),
              *(f"gameai/benchmarks/bench_{b}.py" for b in BENCHES),
              "gameai/benchmarks/bench_search_baseline.json", "gameai/benchmarks/data/renju_puzzles.json",
              "gameai/widgets/board.js", "gameai/widgets/board.css",
              # the presets' weights
              "gameai/evaluators/weights/gomoku-forks.json",
              "gameai/evaluators/weights/renju-forks.json"]:
        assert f in names, f"{f} is not in the wheel"
    assert "gameai/experiments/suites/pilot.json" in names   # the ablation reads it
    # only the puzzles of tests/data, and no tests
    assert [n for n in names if n.startswith("gameai/benchmarks/data/")] == ["gameai/benchmarks/data/renju_puzzles.json"]
    assert not any(n.startswith("tests/") or "/results/" in n for n in names)


def _run(installed: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(installed)}
    return subprocess.run([str(installed / "bin" / "gameai"), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_installed_command_runs_reproduce_and_bench(installed, tmp_path):
    for args in (["reproduce", "--help"], ["bench", "--help"]):
        proc = _run(installed, *args, cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
    bench_help = _run(installed, "bench", "--help", cwd=tmp_path).stdout
    assert all(name in bench_help for name in BENCHES)
    assert "threat_strength" not in bench_help and "pattern_fit" not in bench_help
    # the benchmarks and their data come from the installed copy, not the checkout
    code = ("import gameai.benchmarks.renju_puzzles as r, gameai.commands.bench as b; "
            "print(b.benchmarks_package().__file__); print(r.data_file()); print(len(r.PUZZLES))")
    env = {**os.environ, "PYTHONPATH": str(installed)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[0].startswith(str(installed)) and out[1].startswith(str(installed))
    puzzles = json.loads((ROOT / "tests" / "data" / "renju_puzzles.json").read_text())["puzzles"]
    assert int(out[2]) == len(puzzles)


def test_the_installed_presets_read_their_shipped_weights(installed, tmp_path):
    code = ("import gameai, gameai.evaluators.linear as l; "
            "ev = gameai.make_evaluator('gomoku.forks(weights=renju-forks)'); "
            "print(l.resolve_weights('renju-forks')); print(len(ev.weights))")
    env = {**os.environ, "PYTHONPATH": str(installed)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert out[0].startswith(str(installed)) and int(out[1]) == 30
