"""Position suites are reproducible and undecided; the ablation runs end to end on a tiny
setting; the statistics behind its verdicts agree with textbook figures and scipy."""
import json
import shutil

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from experiments import ablation, intervals, suites

FS = shutil.which(suites.FAIRY_STOCKFISH) or shutil.which("fairy-stockfish")


@pytest.mark.parametrize("game", suites.GAMES)
def test_committed_pools_hold_playable_positions(game):
    pool = suites.load(game)
    assert len(pool) >= 15
    for name, spec in pool.items():
        assert name[0] == game[0] and name[1:].isdigit()
        s = suites.state(game, spec)
        assert s.result() is None
    assert list(suites.load(game, 3)) == list(pool)[:3]
    with pytest.raises(ValueError, match="positions"):
        suites.load(game, len(pool) + 1)


@pytest.mark.engine
@pytest.mark.skipif(FS is None, reason="Fairy-Stockfish is not installed")
def test_the_xiangqi_pool_regenerates_and_is_undecided_by_fairy_stockfish():
    pool = suites.load("xiangqi")
    spec, _ = suites.generate_one("xiangqi", 0)
    assert spec == pool["x00"]
    kind, score = suites.fs_score(pool["x01"], depth=10)
    assert kind == "cp" and abs(score) <= 2 * suites.XIANGQI_BOUND


def test_unknown_suite_is_refused():
    with pytest.raises(ValueError, match="no position suite"):
        suites.load("chess")


def test_the_contrast_is_scipys_one_sample_t_test_on_log_ratios():
    rng = np.random.default_rng(3)
    r = np.exp(rng.normal(-0.1, 0.2, size=25))
    c = intervals.contrast(r)
    t = stats.ttest_1samp(np.log(r), 0.0)
    assert c.p == pytest.approx(t.pvalue)
    lo, hi = t.confidence_interval(0.95)
    assert (c.lo, c.hi) == pytest.approx((np.exp(lo), np.exp(hi)))
    assert c.ratio == pytest.approx(np.exp(np.log(r).mean()))


def test_holm_adjusts_as_the_textbook_does():
    # Holm (1979): sorted p 0.005, 0.01, 0.03, 0.04 -> 4x, 3x, 2x, 1x, kept monotone
    ps = {"a": 0.01, "b": 0.04, "c": 0.03, "d": 0.005}
    cs = {k: intervals.Contrast(0.9, 0.8, 0.95, p, 10, 0.1) for k, p in ps.items()}
    adj = {k: c.p_holm for k, c in intervals.holm(cs).items()}
    assert adj == pytest.approx({"d": 0.02, "a": 0.03, "c": 0.06, "b": 0.06})
    verdicts = {k: c.verdict() for k, c in intervals.holm(cs).items()}
    assert verdicts == {"d": True, "a": True, "c": None, "b": None}
    up = intervals.Contrast(1.2, 1.1, 1.3, 0.001, 10, 0.1, p_holm=0.004)
    assert up.verdict() is False


def test_power_matches_the_published_paired_t_table():
    # Cohen (1988): a paired t-test at d = 0.5, two-sided 5%, 80% power needs 34 pairs
    # (G*Power gives the same); d = 0.8 needs 15
    effect = 1 - np.exp(-0.5)                      # log ratio 0.5 with sd 1 -> d = 0.5
    assert intervals.positions_for_power(1.0, effect) == 34
    assert intervals.positions_for_power(1.0, 1 - np.exp(-0.8)) == 15
    assert intervals.positions_for_power(1.0, effect, family=12) > 34


def test_shapley_shares_split_an_additive_reduction_by_its_parts_and_sum_to_one():
    rng = np.random.default_rng(0)
    effects = np.array([1.0, 0.5, 0.25])
    base = rng.normal(10, 1, size=6)
    logs = {on: base - sum(e for e, o in zip(effects, on) if o)
            for on in __import__("itertools").product((False, True), repeat=3)}
    phi = intervals.shapley_shares(logs)
    assert phi == pytest.approx(np.tile(effects, (6, 1)))
    shares = [m for m, _, _ in intervals.share_ci(phi)]
    assert shares == pytest.approx(effects / effects.sum())
    # with an interaction, each of two switches gets half of it
    logs2 = {(False, False): np.array([4.0]), (True, False): np.array([3.0]),
             (False, True): np.array([3.0]), (True, True): np.array([0.0])}
    assert intervals.shapley_shares(logs2)[0] == pytest.approx([2.0, 2.0])
    # a grid that reduces nothing has no shares, not a division error
    flat = {k: np.zeros(3) for k in logs2}
    assert all(np.isnan(m) for m, _, _ in intervals.share_ci(intervals.shapley_shares(flat)))


def test_ablation_runs_on_a_tiny_setting(tmp_path, monkeypatch):
    tiny = {"positions": {"xiangqi": 3, "gomoku": 3, "renju": 3},
            "depth": {"xiangqi": {"plain": 2, "ordered": 2, "best": 3},
                      "gomoku": {"plain": 1, "ordered": 2, "best": 2},
                      "renju": {"plain": 1, "ordered": 2, "best": 2}},
            "minimal": {"xiangqi": 2, "gomoku": 1, "renju": 1}, "backend": "python"}
    monkeypatch.setattr(ablation, "QUICK", tiny)
    claims = ablation.run(False, 1, tmp_path)
    assert {c.claim.split(":")[0] for c in claims} == set(suites.GAMES)
    table = pd.read_parquet(tmp_path / "table.parquet")
    for col in ("game", "position", "depth", "label", "nodes", "leaves", "minimal_leaves", "ratio_leaves"):
        assert col in table
    no_tt = table[~table.tt & (table.base != "mtdf") & table.minimal_leaves.notna()]
    assert len(no_tt) and (no_tt.leaves >= no_tt.minimal_leaves).all()
    assert table[table.game == "xiangqi"].depth.max() == 3
    # contrasts are compared at the deepest depth both sides reached
    text = {c.claim: c.measured for c in claims}
    assert "depth 3" in text["xiangqi: " + ablation.CONTRASTS[3][2]]
    assert "depth 2" in text["xiangqi: " + ablation.CONTRASTS[0][2]]
    sch = pd.read_csv(tmp_path / "schaeffer.csv")
    parts = sch[sch.switch.isin(ablation.GRID_SWITCHES)].groupby("game").share.sum(min_count=1)
    assert parts["xiangqi"] == pytest.approx(1.0)      # depth 2: the grid reduces the nodes
    assert json.loads((tmp_path / "manifest.json").read_text())["config"]["suite_seed"] == suites.SEED
    assert (tmp_path / "figure.png").exists() and (tmp_path / "by_depth.png").exists()


@pytest.mark.parametrize("game", suites.GAMES)
def test_an_iterative_search_gives_each_depth_what_a_search_to_that_depth_alone_counts(game):
    """The run searches each iterative-deepening configuration once, to its deepest depth,
    and reads the shallower depths off its iterations: that must equal separate searches."""
    name, spec = next(iter(suites.load(game, 1).items()))
    for cfg in ablation.configs():
        if "id=true" not in cfg["spec"] or cfg["label"] not in ("negascout+history+tt+killers+id",
                                                                "mtdf+history+tt+id", "alphabeta+id"):
            continue
        rows = ablation._search(game, name, spec, 3, cfg, "python")
        assert [r["depth"] for r in rows] == [1, 2, 3]
        for r in rows:
            alone = ablation._search(game, name, spec, r["depth"], cfg, "python")[-1]
            assert (r["nodes"], r["leaves"], r["cutoffs"]) == (alone["nodes"], alone["leaves"], alone["cutoffs"])


def test_a_search_that_ends_early_is_excluded_from_its_cell():
    df = pd.DataFrame({"game": ["g", "g", "g", "g"], "position": ["a", "a", "b", "b"], "depth": [3, 3, 3, 3],
                       "label": ["x", "y", "x", "y"], "complete": [True, False, True, True]})
    ok, bad = ablation.completed(df)
    assert set(ok.position) == {"b"} and len(bad) == 1
