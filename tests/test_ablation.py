"""Position suites are reproducible; the ablation and enhancement experiments run end to end
on a tiny setting; the verdict rule does what its docstring says."""
import json

import numpy as np
import pytest

from experiments import ablation, enhancements, intervals, suites


@pytest.mark.parametrize("game", suites.GAMES)
def test_committed_suites_regenerate_from_their_seed(game):
    committed = suites.load(game)
    assert len(committed) >= 30
    for i, (name, spec) in enumerate(list(committed.items())[:2]):
        assert name == f"{game[0]}{i:02d}"
        assert suites.generate_one(game, i) == spec
    s = suites.state(game, next(iter(committed.values())))
    assert s.result() is None and len(s.legal_moves()) >= 20


def test_unknown_suite_is_refused():
    with pytest.raises(ValueError, match="no position suite"):
        suites.load("chess")


def test_verdict_rule():
    assert intervals.below_one([(0.5, 0.9), (0.7, 0.99)]) is True
    assert intervals.below_one([(0.5, 0.9), (0.8, 1.1)]) is None
    assert intervals.below_one([(0.5, 0.9), (1.01, 1.2)]) is False
    assert intervals.below_one([]) is None
    g, lo, hi = intervals.geo_ci([1, 4, 16, 64], seed=0)
    assert g == pytest.approx(8.0) and 1 <= lo < g < hi <= 64
    assert intervals.geo_ci([2, 2, 2])[1:] == pytest.approx((2, 2))


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_ablation_runs_on_a_tiny_setting(tmp_path, monkeypatch, backend):
    # minimal trees stop one ply short of the Xiangqi searches, as --full's do
    monkeypatch.setattr(ablation, "QUICK", {"positions": 3, "depths": {"xiangqi": 2, "gomoku": 1, "renju": 1},
                                            "minimal": {"xiangqi": 1, "gomoku": 1, "renju": 1},
                                            "backend": backend})
    every = ablation.configs(backend)
    monkeypatch.setattr(ablation, "configs", lambda b: [c for c in every if c["mode"] == "fixed" and not c["tt"]])
    claims = ablation.run(False, 1, tmp_path)
    assert {c.claim.split(":")[0] for c in claims} == set(suites.GAMES)
    table = __import__("pandas").read_parquet(tmp_path / "table.parquet")
    has_min = table.minimal_nodes.notna()
    assert set(table[~has_min].depth) == {2} and set(table[~has_min].game) == {"xiangqi"}
    assert (table[has_min].leaves >= table[has_min].minimal_leaves).all()
    assert (table[has_min].nodes >= table[has_min].minimal_nodes).all()
    assert np.isfinite(table[table.depth == 2].ebf).all()
    assert json.loads((tmp_path / "manifest.json").read_text())["config"]["suite_seed"] == suites.SEED
    assert (tmp_path / "figure.png").exists() and (tmp_path / "by_depth.png").exists()


def test_enhancements_run_on_a_tiny_setting(tmp_path, monkeypatch):
    monkeypatch.setattr(enhancements, "QUICK", {"positions": 2, "depth": {"xiangqi": 2, "gomoku": 1},
                                                "history_depth": {"xiangqi": 2, "gomoku": 1}, "plies": 2})
    claims = enhancements.run(False, 1, tmp_path)
    assert len(claims) >= 9
    df = __import__("pandas").read_parquet(tmp_path / "table.parquet")
    assert set(df.table) == {"id", "aspiration", "mtdf", "tt", "history", "captures", "parts", "quiescence"}
    # MTD(f) makes at least one pass per iteration; a coarser grain changes the values searched
    assert (df[(df.table == "mtdf") & (df.setting == "mtdf")].passes_per_iteration >= 1).all()
