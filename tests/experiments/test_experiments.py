"""The experiment plumbing: a quick experiment writes its table, figure, manifest and
claims, and the results README is generated from them."""
import json
import os

import numpy as np
import pandas as pd

from experiments import minimal_tree
from experiments.claims_report import write_report
from gameai.manifest import code_fingerprint


def test_minimal_tree_experiment_writes_results_and_claims(tmp_path, monkeypatch):
    monkeypatch.setattr(minimal_tree, "BRANCHING", (2, 3, 5))
    monkeypatch.setattr(minimal_tree, "DEPTHS", range(1, 6))
    out = tmp_path / "minimal_tree"
    claims = minimal_tree.run(full=False, seed=3, out=out)
    df = pd.read_parquet(out / "table.parquet")
    assert len(df) == 15
    # Knuth & Moore, independently of our code: B^ceil(D/2) + B^floor(D/2) - 1
    assert list(df.ab_best) == [b ** -(-d // 2) + b ** (d // 2) - 1 for b, d in zip(df.branching, df.depth)]
    # the identities are one line without a verdict (tests/test_minimal_tree.py checks
    # them); the one finding is random ordering against Pearl's R, judged by the rule
    assert claims[0].holds is None and claims[0].measured.startswith("identity, checked by tests")
    assert "15 cells agree" in claims[0].measured
    pearl = claims[1]
    deepest = df.dropna(subset=["ab_random_bf"]).groupby("branching").tail(1)
    assert pearl.holds is all(minimal_tree.near_pearl(r.ab_random_bf, int(r.branching)) for r in deepest.itertuples())
    below = int((deepest.ab_random_bf < deepest.pearl_R).sum())
    assert f"below R in {below} of {len(deepest)} B" in pearl.measured
    assert len(claims) == 2
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["seed"] == 3 and manifest["config"]["experiment"] == "minimal_tree"
    assert manifest["code_fingerprint"] == code_fingerprint(experiment="minimal_tree") and manifest["commit"] == manifest["git_commit"]
    assert (out / "figure.png").stat().st_size > 10_000
    report = write_report(tmp_path).read_text()
    assert report.count("| minimal_tree |") == len(claims)
    assert "Smoke test" in report.splitlines()[0]  # a quick run is never mistaken for the headline
    # the one-line table has no commit column; each experiment's own page names it
    assert f"`{(manifest['commit'] or '')[:12]}`" in (out / "README.md").read_text()
    assert "| experiment | claim | source | measured (95% interval) | n | verdict |" in report
    assert "![minimal_tree/figure.png]" in report


def test_pearl_root_solves_its_equation():
    for b in (2, 5, 40):
        xi = minimal_tree.pearl_xi(b)
        assert abs(xi ** b + xi - 1) < 1e-12
    # R(2) = xi/(1-xi) with xi the golden-ratio conjugate 0.618...: R = 1.618...
    assert abs(minimal_tree.pearl_r(2) - (1 + 5 ** 0.5) / 2) < 1e-9


def test_minimal_tree_estimates_its_cost_from_the_leaves_it_will_search(monkeypatch):
    quick, full = minimal_tree.estimate(False), minimal_tree.estimate(True)
    assert 0 < quick < full
    monkeypatch.setattr(minimal_tree, "BRANCHING", (2, 3, 5))
    monkeypatch.setattr(minimal_tree, "DEPTHS", range(1, 6))
    assert minimal_tree.WORKER_START_S < minimal_tree.estimate(False) < quick  # fewer trees, less time


def test_branching_factor_counts_every_claimed_depth_and_never_extrapolates(tmp_path, monkeypatch):
    from experiments import branching_factor as bf
    from experiments import parallel, selfplay, suites
    monkeypatch.setattr(selfplay, "FAIRY_STOCKFISH", str(tmp_path / "no-engine"))  # our games only
    monkeypatch.setattr(bf, "SETTINGS", {False: {"games": 2, "fs_nodes": 100, "max_plies": 40,
                                                 "perft": {2: 2, 3: 1}}})
    monkeypatch.setattr(bf, "PATH_CLAIMS", {2: 1600, 3: 64_000, 4: 2_560_000})  # 4: not counted here
    with parallel.using("joblib", workers=1):
        claims = bf.run(full=False, seed=1, out=tmp_path / "bf")
    perft = pd.read_parquet(tmp_path / "bf" / "xiangqi_perft.parquet")
    first = list(suites.load("xiangqi", 2))  # the suite's first positions, nested by depth
    assert perft.groupby("depth").position.apply(list).to_dict() == {2: first, 3: first[:1]}
    counted = {2: 2, 3: 1}
    assert (perft.per_ply_b == perft.leaves ** (1 / perft.depth)).all()
    paths = {d: next(c for c in claims if c.claim.startswith(f"搜索{d}层")) for d in (2, 3, 4)}
    for d in (2, 3):
        b = float(np.exp(np.log(perft[perft.depth == d].per_ply_b).mean()))
        assert paths[d].holds is bf.about_40(b) and f"perft({d}) counted from the first {counted[d]} " in paths[d].measured
    assert paths[4].holds is None and "not counted at depth 4" in paths[4].measured


def test_branching_factor_estimate_fits_the_budget_of_the_full_run(monkeypatch):
    from experiments import branching_factor as bf
    from experiments import suites
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # the reference machine
    quick, full = bf.estimate(False), bf.estimate(True)
    assert bf.WORKER_START_S < quick < full <= 16 * 60
    for setting in bf.SETTINGS.values():  # the committed pool holds every position asked for
        assert len(suites.load("xiangqi", max(setting["perft"].values()))) == max(setting["perft"].values())


def test_depth_cost_estimate_prices_every_search_the_run_makes():
    from experiments import depth_cost as dc
    for full in (False, True):
        cells = dc._cells(full)
        assert all(dc.SEARCH_CPU_S[g][d][label == "minimax"] is not None for g, _, label, _, d in cells)
    quick, full = dc.estimate(False), dc.estimate(True)
    assert dc.START_S < quick < full < 10 * 60
    assert len(dc._cells(False)) < len(dc._cells(True))
