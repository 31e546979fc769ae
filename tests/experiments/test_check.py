"""`gameai reproduce --check` decides by recounting: a seeded sample of an experiment's node
counts searched again at the working tree must equal the table, exactly; every table must
match its manifest's row count and hash. A hand-edited count fails the check, a damaged
table is named (and rerun by --resume), and the README says stale. Kept fast: a tiny
ablation run (3 positions a game, depth 2, Python backend) and a few recounted rows."""
import importlib
import json
import shutil

import pandas as pd
import pytest

from gameai.cli import main
from gameai.commands.reproduce import experiments_package
from gameai.manifest import table_records

PKG = experiments_package().__name__
ablation = importlib.import_module(f"{PKG}.ablation")
common = importlib.import_module(f"{PKG}._common")
report = importlib.import_module(f"{PKG}.claims_report")

TINY = {"positions": {"xiangqi": 3, "gomoku": 3, "renju": 3},
        "depth": {"xiangqi": {"plain": 2, "ordered": 2, "best": 2},
                  "gomoku": {"plain": 1, "ordered": 2, "best": 2},
                  "renju": {"plain": 1, "ordered": 2, "best": 2}},
        "minimal": {"xiangqi": 1, "gomoku": 1, "renju": 1}, "backend": "python"}


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("check") / "r"
    mp = pytest.MonkeyPatch()
    mp.setattr(ablation, "QUICK", TINY)
    try:
        ablation.run(False, 1, root / "ablation")
    finally:
        mp.undo()
    report.write_report(root)
    return root


def _copy(src, tmp_path):
    dst = tmp_path / "copy"
    shutil.copytree(src, dst)
    return dst


def _check(root, capsys, k=3):
    code = main(["reproduce", "--check", "--out", str(root), "--only", "ablation", "--sample", str(k),
                 "--report"])
    return code, capsys.readouterr().out


def test_a_fresh_run_is_current_by_recount_and_the_readme_says_so(tiny_run, tmp_path, capsys):
    root = _copy(tiny_run, tmp_path)
    code, out = _check(root, capsys)
    assert code == 0, out
    assert "recounted 3 of" in out and "all equal" in out
    assert "**Status: current.**" in (root / "README.md").read_text()


def test_a_hand_edited_count_fails_the_check_even_with_its_hashes_redone(tiny_run, tmp_path, capsys):
    root = _copy(tiny_run, tmp_path)
    folder = root / "ablation"
    df = pd.read_parquet(folder / "table.parquet")
    df["nodes"] = df["nodes"] + 1                    # every count one more: any sample sees it
    df.to_parquet(folder / "table.parquet", index=False)
    df.to_csv(folder / "table.csv", index=False)
    man = json.loads((folder / "manifest.json").read_text())
    man["tables"] = table_records(folder)            # a careful forger redoes the hashes
    (folder / "manifest.json").write_text(json.dumps(man))
    code, out = _check(root, capsys)
    assert code == 1
    assert "ablation: STALE" in out and "in the table," in out and "today" in out
    page = (root / "README.md").read_text()
    assert "**Status: STALE.**" in page and "`ablation`" in page


@pytest.mark.parametrize("damage", ["csv", "parquet"])
def test_a_damaged_table_is_named_and_resume_reruns_its_experiment(tiny_run, tmp_path, capsys, damage):
    root = _copy(tiny_run, tmp_path)
    folder = root / "ablation"
    if damage == "csv":
        path = folder / "table.csv"
        lines = path.read_text().splitlines()
        lines[1] = lines[1].replace(",True,", ",False,", 1)      # one edited cell
        path.write_text("\n".join(lines) + "\n")
    else:
        path = folder / "table.parquet"
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])   # truncated
    code, out = _check(root, capsys, k=0)
    assert code == 1 and f"table.{damage}" in out
    m = common.read_manifest(folder)
    reason = common.stale_reason(folder, False, 1, m["code_fingerprint"])
    assert reason is not None and "damaged tables, rerun" in reason and f"table.{damage}" in reason


def test_a_manifest_without_table_records_is_stale(tiny_run, tmp_path, capsys):
    root = _copy(tiny_run, tmp_path)
    man_path = root / "ablation" / "manifest.json"
    man = json.loads(man_path.read_text())
    del man["tables"]
    man_path.write_text(json.dumps(man))
    code, out = _check(root, capsys, k=0)
    assert code == 1 and "records no table row counts" in out


def test_the_committed_results_are_current_by_a_small_recount(capsys):
    """CI's check of the committed headline: one recounted row per experiment and every
    table against its manifest. Results made before manifests recorded their tables cannot
    be checked this way and are stale by definition (their README says so); the test
    starts judging with the first full run that records them."""
    root = experiments_package_root() / "results"
    manifests = [json.loads(p.read_text()) for p in sorted(root.glob("*/manifest.json"))]
    if not manifests or any("tables" not in m for m in manifests):
        pytest.skip("the committed results predate table records: stale until the next full run")
    code, out = None, None
    code = main(["reproduce", "--check", "--sample", "1"])
    out = capsys.readouterr().out
    assert code == 0, out


def experiments_package_root():
    from pathlib import Path
    return Path(__file__).resolve().parents[2]


def test_every_folder_under_results_has_a_manifest():
    root = experiments_package_root() / "results"
    # an experiment's folder and a tournament's folder in it; a tournament's games/ folder
    # holds its records, described by the tournament's manifest
    folders = [p for p in root.rglob("*") if p.is_dir() and not p.name.startswith(".")
               and not (p.name == "games" and (p.parent / "games.parquet").exists())]
    assert folders
    missing = [str(p.relative_to(root)) for p in folders if not (p / "manifest.json").exists()]
    assert not missing, f"folders without a manifest.json: {missing}"


def test_a_run_checks_what_it_made_so_its_page_says_current(tmp_path, monkeypatch, capsys):
    minimal_tree = importlib.import_module(f"{PKG}.minimal_tree")
    monkeypatch.setattr(minimal_tree, "BRANCHING", (2, 3))
    monkeypatch.setattr(minimal_tree, "DEPTHS", range(1, 4))
    monkeypatch.setattr(minimal_tree, "PEARL_IID", {False: {"branching": (2,), "trees": 3, "cap": 100}})
    root = tmp_path / "r"
    root.mkdir()
    (root / "check.json").write_text(json.dumps({"experiments": {"minimal_tree": ["an older check"]}}))
    assert main(["reproduce", "--only", "minimal_tree", "--out", str(root)]) == 0
    page = (root / "README.md").read_text()
    assert "**Status: current.**" in page and "an older check" not in page
