"""The experiment plumbing: a quick experiment writes its table, figure, manifest and
claims, and the results README is generated from them."""
import json
import os

import numpy as np
import pytest
import pandas as pd

from experiments import minimal_tree
from experiments.claims_report import write_report
from gameai.manifest import code_fingerprint


def test_minimal_tree_experiment_writes_results_and_claims(tmp_path, monkeypatch):
    monkeypatch.setattr(minimal_tree, "BRANCHING", (2, 3, 5))
    monkeypatch.setattr(minimal_tree, "DEPTHS", range(1, 6))
    monkeypatch.setattr(minimal_tree, "PEARL_IID", {False: {"branching": (2, 3), "trees": 4, "cap": 300}})
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
    nested = claims[1]                 # nested-value trees: a reported finding, not judged
    deepest = df.dropna(subset=["ab_random_bf"]).groupby("branching").tail(1)
    assert nested.verdict == "not judged"
    below = int((deepest.ab_random_bf < deepest.pearl_R).sum())
    assert f"below R in {below} of {len(deepest)} B" in nested.measured
    iid = claims[2]                    # Pearl's own trees: judged by the pre-registered rule
    trend = pd.read_parquet(out / "pearl_trend.parquet")
    expected = {minimal_tree.pearl_verdict(g)[0] for _, g in trend.groupby("branching")}
    assert iid.verdict == ("does not hold" if "does not hold" in expected else
                           "holds" if expected == {"holds"} else "not judged")
    assert len(claims) == 3 and (out / "pearl_iid.png").exists()
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


def _minimax_iid(b, d, seed, index=0, depth=None, sign=1):
    depth = d if depth is None else depth
    if depth == 0:
        return sign * minimal_tree._uniform(seed, index)
    return max(-_minimax_iid(b, d, seed, index * b + i, depth - 1, -sign) for i in range(b))


@pytest.mark.parametrize("b, d", [(2, 1), (2, 6), (3, 5), (5, 3)])
def test_alpha_beta_on_iid_trees_finds_the_minimax_value_and_prunes(b, d):
    for seed in range(3):
        value, leaves = minimal_tree.iid_leaves(b, d, seed)
        assert value == pytest.approx(_minimax_iid(b, d, seed))
        assert minimal_tree.minimal_leaves(b, d) <= leaves <= b ** d


def test_iid_leaf_values_are_uniform_and_unrelated_to_their_neighbours():
    x = np.array([minimal_tree._uniform(7, i) for i in range(20_000)])
    assert 0 <= x.min() and x.max() < 1 and abs(x.mean() - 0.5) < 0.01
    assert abs(np.corrcoef(x[:-1], x[1:])[0, 1]) < 0.03       # siblings independent


def test_the_pearl_rule_holds_in_the_band_fails_moving_away_and_otherwise_is_not_judged():
    r = minimal_tree.pearl_r(3)
    def trend(*rows):
        return pd.DataFrame([{"depth": d, "factor": f, "lo": lo, "hi": hi, "pearl_R": r} for d, f, lo, hi in rows])
    assert minimal_tree.pearl_verdict(trend((8, r, r * 0.99, r * 1.01)))[0] == "holds"
    assert minimal_tree.pearl_verdict(trend((4, r * 1.2, r * 1.15, r * 1.25), (6, r * 1.3, r * 1.25, r * 1.35),
                                            (8, r * 1.5, r * 1.45, r * 1.55)))[0] == "does not hold"
    assert minimal_tree.pearl_verdict(trend((6, r * 1.3, r * 1.25, r * 1.35),
                                            (8, r * 1.5, r * 1.45, r * 1.55)))[0] == "not judged"   # two steps
    assert minimal_tree.pearl_verdict(trend((4, r * 1.6, r * 1.55, r * 1.65), (6, r * 1.5, r * 1.45, r * 1.55),
                                            (8, r * 1.3, r * 1.25, r * 1.35)))[0] == "not judged"
    assert minimal_tree.pearl_verdict(trend((8, r, r * 0.8, r * 1.2)))[0] == "not judged"


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
