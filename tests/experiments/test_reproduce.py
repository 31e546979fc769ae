"""`gameai reproduce` reruns from scratch unless told to resume, writes where it is told
(./results-quick or, with --full, ./results by default, never inside the installed
package), records the code that made each result and checks it, plans its cost, resumes
after a kill, and runs on joblib or Dask with the same numbers (what the wheel holds:
tests/spec/test_packaging.py)."""
import importlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from gameai.cli import main
from gameai.commands.reproduce import EXPERIMENTS, experiments_package
from gameai.errors import SpecError
from gameai.manifest import code_fingerprint
from gameai.tournament.runner import TournamentConfig

ROOT = Path(__file__).resolve().parents[2]
PKG = experiments_package().__name__
strength = importlib.import_module(f"{PKG}.strength")
common = importlib.import_module(f"{PKG}._common")
parallel = importlib.import_module(f"{PKG}.parallel")
minimal_tree = importlib.import_module(f"{PKG}.minimal_tree")


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
    assert common.resolve_root(None, None, full=True) == tmp_path / "results"
    assert common.resolve_root(None, None) == tmp_path / "results-quick"  # never the headline
    assert common.resolve_root(None, tmp_path) == tmp_path
    assert main(["reproduce", "--resume", str(tmp_path / "missing")]) == 2


@pytest.mark.slow
def test_an_installed_gameai_writes_quick_results_to_out_or_the_current_folder(installed, tmp_path):
    site = installed
    work = tmp_path / "work"
    work.mkdir()
    env = {**os.environ, "PYTHONPATH": str(site)}
    where = subprocess.run([sys.executable, "-c", "import gameai.experiments as e; print(e.__file__)"],
                           cwd=work, env=env, capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(site))
    cmd = [sys.executable, "-m", "gameai.cli", "reproduce", "--only", "minimal_tree"]
    subprocess.run(cmd, cwd=work, env=env, check=True, capture_output=True)
    assert json.loads((work / "results-quick" / "minimal_tree" / "claims.json").read_text())
    assert (work / "results-quick" / "README.md").exists()     # the quick smoke test's own folder
    subprocess.run(cmd + ["--out", str(tmp_path / "elsewhere")], cwd=work, env=env, check=True,
                   capture_output=True)
    assert (tmp_path / "elsewhere" / "minimal_tree" / "table.parquet").exists()
    assert not list(site.rglob("claims.json")) and not list(site.rglob("README.md"))


# --- provenance, check, plan, resume, backends ----------------------------------------------

def _fake_runs(monkeypatch, calls: list, fail: str | None = None) -> None:
    """Every experiment replaced by a fast stand-in that writes what a real one writes
    (table, claims, then manifest); ``fail`` is killed mid-run."""
    for name in EXPERIMENTS:
        module = importlib.import_module(f"{PKG}.{name}")

        def fake(full=False, seed=1, out=None, resume=False, name=name):
            calls.append((name, resume))
            res = common.Results(name, out)
            res.table(pd.DataFrame({"seed": [seed]}))
            if name == fail:
                raise KeyboardInterrupt
            claims = [common.Claim(name, "a source", "a claim", "what we measured", True,
                                   common.command_for(name, full))]
            res.claims(claims)
            res.manifest({"full": full}, seed)
            return claims
        monkeypatch.setattr(module, "run", fake)
        monkeypatch.delattr(module, "estimate", raising=False)


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_fingerprint_is_of_the_files_the_same_installed_and_checked_out(tmp_path):
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "gameai", tmp_path / "checkout" / "gameai", ignore=ignore)
    shutil.copytree(ROOT / "experiments", tmp_path / "checkout" / "experiments", ignore=ignore)
    shutil.copytree(ROOT / "gameai", tmp_path / "site" / "gameai", ignore=ignore)
    shutil.copytree(ROOT / "experiments", tmp_path / "site" / "gameai" / "experiments", ignore=ignore)
    # installed, the speed benchmarks sit inside the package; they make no results
    shutil.copytree(ROOT / "benchmarks", tmp_path / "site" / "gameai" / "benchmarks", ignore=ignore)
    checkout = (tmp_path / "checkout" / "gameai", tmp_path / "checkout" / "experiments")
    site = (tmp_path / "site" / "gameai", tmp_path / "site" / "gameai" / "experiments")
    today = code_fingerprint()
    assert code_fingerprint(*checkout) == code_fingerprint(*site) == today
    (checkout[1] / "__pycache__").mkdir(exist_ok=True)
    (checkout[1] / "__pycache__" / "x.pyc").write_bytes(b"compiled")
    assert code_fingerprint(*checkout) == today  # caches are not code
    suite = next(checkout[1].glob("suites/*.txt"))
    suite.write_text(suite.read_text() + "\n")
    assert code_fingerprint(*checkout) != today  # the committed positions are part of it
    suite.write_text(suite.read_text()[:-1])
    (checkout[0] / "search" / "__init__.py").write_text("# changed\n", encoding="utf-8")
    assert code_fingerprint(*checkout) != today


def test_an_experiments_fingerprint_covers_its_own_scripts_and_what_they_import_only(tmp_path):
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "gameai", tmp_path / "gameai", ignore=ignore)
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments", ignore=ignore)
    where = (tmp_path / "gameai", tmp_path / "experiments")
    before = {name: code_fingerprint(*where, experiment=name) for name in EXPERIMENTS}
    assert len(set(before.values())) == len(EXPERIMENTS)

    def changed(path):
        path.write_text(path.read_text() + "\n# changed\n")
        after = {name: code_fingerprint(*where, experiment=name) for name in EXPERIMENTS}
        return {name for name in EXPERIMENTS if after[name] != before[name]}

    assert changed(where[1] / "strength.py") == {"strength"}
    before = {name: code_fingerprint(*where, experiment=name) for name in EXPERIMENTS}
    assert changed(where[1] / "intervals.py") >= {"ablation"}  # imported by ablation
    assert "strength" not in changed(where[1] / "intervals.py")
    before = {name: code_fingerprint(*where, experiment=name) for name in EXPERIMENTS}
    assert changed(where[0] / "search" / "__init__.py") == set(EXPERIMENTS)  # the package: all


def test_an_experiment_manifest_names_its_commit_and_code_fingerprint(tmp_path):
    res = common.Results("minimal_tree", tmp_path / "minimal_tree")
    m = res.manifest({"full": False}, 1)
    assert m["code_fingerprint"] == code_fingerprint(experiment="minimal_tree")
    assert m["commit"] == m["git_commit"] and m["commit"].split("+")[0] in \
        subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout
    assert json.loads((res.dir / "manifest.json").read_text())["code_fingerprint"] == m["code_fingerprint"]


def test_check_says_which_folders_are_stale_and_why(tmp_path, monkeypatch, capsys):
    """Setting, integrity and manifest (the recount itself: tests/experiments/test_check.py;
    the stand-in tables here have no counts, so --sample 0)."""
    calls = []
    _fake_runs(monkeypatch, calls)
    root = tmp_path / "r"
    names = ["minimal_tree", "depth_cost"]
    assert main(["reproduce", "--only", *names, "--out", str(root)]) == 0
    before = _files(root)
    capsys.readouterr()
    check = ["reproduce", "--check", "--out", str(root), "--only", *names, "--sample", "0", "--report"]
    assert main(check) == 0
    assert "all 2 current" in capsys.readouterr().out
    assert main(check + ["--seed", "2"]) == 1
    assert "seed 1, expected quick, seed 2" in capsys.readouterr().out
    man = root / "depth_cost" / "manifest.json"
    m = json.loads(man.read_text())
    man.write_text(json.dumps({**m, "code_fingerprint": "0" * 16}))
    assert main(check) == 0                 # a changed fingerprint informs; the recount decides
    out = capsys.readouterr().out
    assert "minimal_tree: current" in out and "fingerprint differs from today's (informative" in out
    (root / "depth_cost" / "table.csv").unlink()
    assert main(check) == 1
    assert "depth_cost: STALE" in (out := capsys.readouterr().out) and "table.csv: missing" in out
    (root / "minimal_tree" / "manifest.json").write_text("{torn")
    assert main(check) == 1
    assert "unreadable manifest" in capsys.readouterr().out
    assert main(["reproduce", "--check", "--out", str(root), "--sample", "0", "--report"]) == 1  # the others never ran
    assert "strength: STALE" in (out := capsys.readouterr().out) and "not run" in out
    after = _files(root)
    assert set(after) == set(before) - {"depth_cost/table.csv"} | {"check.json"}
    assert calls == [("minimal_tree", False), ("depth_cost", False)]
    assert "**Status: STALE.**" in (root / "README.md").read_text()


def test_check_defaults_to_the_committed_headline_and_expects_full(tmp_path, monkeypatch, capsys):
    main(["reproduce", "--check", "--only", "minimal_tree", "--sample", "0"])
    assert str(ROOT / "results") in capsys.readouterr().out
    calls = []
    _fake_runs(monkeypatch, calls)
    root = tmp_path / "r"
    assert main(["reproduce", "--full", "--only", "minimal_tree", "--out", str(root)]) == 0
    shutil.copytree(root / "minimal_tree", root / "depth_cost")  # stands in for a quick one
    man = root / "depth_cost" / "manifest.json"
    m = json.loads(man.read_text())
    man.write_text(json.dumps({**m, "config": {"experiment": "depth_cost", "full": False}}))
    capsys.readouterr()
    # a folder holding full results is only refreshed by --full: without it, full is expected
    assert main(["reproduce", "--check", "--out", str(root), "--only", "minimal_tree", "--sample", "0"]) == 0
    assert main(["reproduce", "--check", "--out", str(root), "--only", "minimal_tree", "depth_cost",
                 "--sample", "0"]) == 1
    assert "setting quick, seed 1, expected full" in capsys.readouterr().out


def test_a_quick_run_never_replaces_full_results(tmp_path, monkeypatch, capsys):
    calls = []
    _fake_runs(monkeypatch, calls)
    monkeypatch.chdir(tmp_path)
    assert main(["reproduce", "--only", "minimal_tree"]) == 0  # quick: ./results-quick
    assert not (tmp_path / "results").exists()
    readme = (tmp_path / "results-quick" / "README.md").read_text().splitlines()
    assert "Smoke test" in readme[0] and "not the headline" in readme[0]
    assert main(["reproduce", "--full", "--only", "minimal_tree"]) == 0  # full: ./results
    assert "Smoke test" not in (tmp_path / "results" / "README.md").read_text()
    before = _files(tmp_path / "results")
    capsys.readouterr()
    assert main(["reproduce", "--only", "depth_cost", "--out", str(tmp_path / "results")]) == 2
    err = capsys.readouterr().err
    assert "holds full results (minimal_tree)" in err and "--full" in err
    assert main(["reproduce", "--resume", str(tmp_path / "results")]) == 2
    assert _files(tmp_path / "results") == before
    # a full run into a quick folder is fine
    assert main(["reproduce", "--full", "--only", "minimal_tree", "--out", str(tmp_path / "results-quick")]) == 0
    assert calls == [("minimal_tree", False)] * 3


def test_the_plan_prints_each_experiments_estimate_before_running(tmp_path, monkeypatch, capsys):
    calls = []
    _fake_runs(monkeypatch, calls)
    seen = []
    monkeypatch.setattr(minimal_tree, "estimate", lambda full: seen.append(full) or (120.0 if full else 12.0),
                        raising=False)
    assert main(["reproduce", "--only", "minimal_tree", "branching_factor", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    plan = out[:out.index("[1/2]")]  # printed before the first experiment starts
    assert "minimal_tree      about 12 s" in plan and "branching_factor  unknown" in plan
    assert "estimated total: at least 12 s (1 without an estimate)" in plan
    assert main(["reproduce", "--full", "--only", "minimal_tree", "--out", str(tmp_path / "f")]) == 0
    assert "about 2 min" in capsys.readouterr().out and seen == [False, True]


def test_resume_skips_finished_experiments_and_continues_the_unfinished(tmp_path, monkeypatch, capsys):
    calls = []
    names = ["minimal_tree", "branching_factor", "depth_cost", "strength"]
    _fake_runs(monkeypatch, calls, fail="depth_cost")
    with pytest.raises(KeyboardInterrupt):  # killed while depth_cost runs
        main(["reproduce", "--only", *names, "--out", str(tmp_path)])
    assert (tmp_path / "depth_cost" / common.UNFINISHED).exists()
    capsys.readouterr()
    assert main(["reproduce", "--check", "--out", str(tmp_path), "--only", *names, "--sample", "0"]) == 1
    out = capsys.readouterr().out
    assert "depth_cost: STALE" in out and "unfinished" in out and "strength: STALE" in out
    calls.clear()
    _fake_runs(monkeypatch, calls)
    assert main(["reproduce", "--resume", str(tmp_path), "--only", *names]) == 0
    # finished ones skipped; the unfinished one continues (same setting, same code); the
    # one never started starts afresh
    assert calls == [("depth_cost", True), ("strength", False)]
    assert "minimal_tree      finished with this setting and code: skipped" in capsys.readouterr().out
    assert not list(tmp_path.glob(f"*/{common.UNFINISHED}"))
    assert main(["reproduce", "--check", "--out", str(tmp_path), "--only", *names, "--sample", "0"]) == 0
    calls.clear()
    assert main(["reproduce", "--resume", str(tmp_path), "--only", *names, "--seed", "2"]) == 0
    assert calls == [(n, False) for n in names]  # another setting: everything reruns afresh


def test_bad_output_folders_are_refused_before_anything_runs(tmp_path, monkeypatch, capsys):
    calls = []
    _fake_runs(monkeypatch, calls)
    assert main(["reproduce", "--out", "/proc/x"]) == 2
    assert "cannot write results to /proc/x" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # one experiment's own command line: the same check
        minimal_tree.main(["--out", "/proc/x"])
    assert "cannot write results to /proc/x" in capsys.readouterr().err
    tour = tmp_path / "tour"  # what a tournament folder holds at its top
    tour.mkdir()
    for f in ("games.parquet", "journal.jsonl", "manifest.json"):
        (tour / f).write_text("")
    for opt in ("--resume", "--out"):
        assert main(["reproduce", opt, str(tour), "--only", "minimal_tree"]) == 2
        assert "not a results root" in capsys.readouterr().err
    assert sorted(p.name for p in tour.iterdir()) == ["games.parquet", "journal.jsonl", "manifest.json"]
    (tmp_path / "empty").mkdir()
    assert main(["reproduce", "--resume", str(tmp_path / "empty")]) == 2
    assert "nothing to resume" in capsys.readouterr().err
    assert main(["reproduce", "--check", "--resume", str(tmp_path)]) == 2
    assert calls == []


def test_dask_options_fail_fast_with_clear_errors(tmp_path, monkeypatch, capsys):
    calls = []
    _fake_runs(monkeypatch, calls)
    out = ["--out", str(tmp_path), "--only", "minimal_tree"]
    assert main(["reproduce", "--backend", "dask", "--scheduler", "notaurl", *out]) == 2
    assert "--scheduler 'notaurl': expected a Dask scheduler address" in capsys.readouterr().err
    assert main(["reproduce", "--scheduler", "tcp://127.0.0.1:8786", *out]) == 2
    assert "needs --backend dask" in capsys.readouterr().err
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.perf_counter()
    assert main(["reproduce", "--backend", "dask", "--scheduler", f"127.0.0.1:{port}", *out]) == 2
    assert time.perf_counter() - t0 < 3 * parallel.CONNECT_TIMEOUT
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}" in capsys.readouterr().err
    assert calls == []


@pytest.fixture(scope="module")
def dask_scheduler():
    from distributed import LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def test_pmap_gives_the_same_results_in_job_order_on_every_backend(dask_scheduler):
    # the slow job first: a completion-order map would return it last
    jobs = [(8, 4, 1, 10 ** 4, (1, 2)), (2, 1, 1, 10, (1,)), (3, 4, 2, 100, (1, 2)), (2, 2, 1, 10, (3,))]
    serial = [minimal_tree._cell(*j) for j in jobs]
    with parallel.using("joblib", workers=1):
        assert list(parallel.pmap(minimal_tree._cell, jobs)) == serial
    with parallel.using("joblib", workers=2):
        assert list(parallel.pmap(minimal_tree._cell, jobs)) == serial
    with parallel.using("dask", dask_scheduler):
        assert parallel.current() == ("dask", dask_scheduler)
        assert parallel.scheduler_address() == dask_scheduler  # tournaments join the same cluster
        assert list(parallel.pmap(minimal_tree._cell, jobs, desc="test")) == serial
    assert parallel.current() == ("joblib", None)
    assert list(parallel.pmap(minimal_tree._cell, jobs, backend="dask", scheduler=dask_scheduler)) == serial


def test_an_experiment_gives_the_same_table_on_joblib_and_dask(tmp_path, monkeypatch, dask_scheduler):
    monkeypatch.setattr(minimal_tree, "BRANCHING", (2, 3, 5))
    monkeypatch.setattr(minimal_tree, "DEPTHS", range(1, 6))
    with parallel.using("joblib", workers=2):
        minimal_tree.run(False, 1, tmp_path / "joblib")
    with parallel.using("dask", dask_scheduler):
        minimal_tree.run(False, 1, tmp_path / "dask")
    tables = [pd.read_csv(tmp_path / b / "table.csv") for b in ("joblib", "dask")]
    assert len(tables[0]) == 15
    pd.testing.assert_frame_equal(*tables)
    assert (tmp_path / "joblib" / "claims.json").read_text() == (tmp_path / "dask" / "claims.json").read_text()
    runs = [json.loads((tmp_path / b / "manifest.json").read_text())["run"] for b in ("joblib", "dask")]
    assert runs == [{"backend": "joblib", "scheduler": None}, {"backend": "dask", "scheduler": dask_scheduler}]
