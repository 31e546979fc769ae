"""The enhancements experiment: runs end to end on its quick setting, judges each claim by
one Holm-corrected paired contrast oriented so that a ratio below 1 is the claim, and its
full setting fits its budget."""
import json

import numpy as np
import pandas as pd
import pytest

from experiments import enhancements, intervals, suites


def test_enhancements_quick_run_end_to_end(tmp_path):
    claims = enhancements.run(False, 1, tmp_path)
    judged = [c for g in enhancements.GAMES for c in enhancements.contrasts(g)]
    # + the guess-two-plies-back variant (not run: no searcher switch) + the quiescence cost
    assert len(claims) == len(judged) + 2
    assert all(c.verdict in intervals.VERDICTS for c in claims)
    for c in claims[:-2]:
        assert "Holm" in c.measured and "per position" in c.measured and c.family == enhancements.FAMILY
    assert [c.verdict for c in claims[-2:]] == [intervals.NOT_JUDGED] * 2
    # MTD(f) is compared with NegaScout at the same grain, at both parities of the depth
    mtdf = [c for c in claims if "MTD(f) visits at most 0.95x" in c.claim]
    assert len(mtdf) == 2 * len(enhancements.JUDGED_GRAINS) * len(enhancements.GAMES)
    assert all("claimed ratio <= 0.95" in c.measured for c in mtdf)
    for f in ("table.csv", "table.parquet", "contrasts.csv", "figure.png", "quiescence.png",
              "claims.json", "manifest.json"):
        assert (tmp_path / f).exists(), f
    assert len(json.loads((tmp_path / "claims.json").read_text())) == len(claims)
    df = pd.read_parquet(tmp_path / "table.parquet")
    mt = df[df.label.str.startswith("mtdf")]
    assert (mt.passes >= mt.iterations).all()            # at least one MTD(f) pass an iteration
    summary = pd.read_csv(tmp_path / "contrasts.csv")
    assert ((summary.p_holm >= summary.p) & (summary.lo <= summary.ratio) & (summary.ratio <= summary.hi)).all()
    assert set(summary.verdict) <= set(intervals.VERDICTS)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["config"]["backend"] == "python" and not manifest["config"]["full"]


def test_full_setting_fits_its_hour_and_the_house_minimums():
    assert 0 < enhancements.estimate(True) <= 3600
    assert enhancements.estimate(False) < 60
    for g in enhancements.GAMES:
        assert enhancements.CPU_S_PER_POSITION[g] > 0
        assert enhancements.FULL["positions"][g] >= 16
        assert len(suites.load(g)) >= enhancements.FULL["positions"][g]
    assert enhancements.FULL["depth"]["xiangqi"]["ordered"] >= 8
    assert enhancements.FULL["depth"]["gomoku"]["ordered"] > 4
    assert enhancements.QUICK["backend"] == "python" and enhancements.FULL["backend"] == "compiled"


def _rows(label, nodes, depth=4, game="gomoku", complete=True):
    return [{"game": game, "position": f"p{i}", "label": label, "depth": depth, "nodes": n,
             "complete": complete} for i, n in enumerate(nodes)]


def test_the_history_increment_contrast_is_oriented_so_below_one_means_pow2_wins():
    """"1<<depth orders better than depth^2": the claim's numerator is the document's
    (pow2) line, so fewer pow2 nodes make a ratio below 1 and the claim holds."""
    key = {k: (num, den) for k, _, _, num, den, _, _, _ in enhancements.contrasts("gomoku")}
    num, den = key["history_inc"]
    assert enhancements.history_settings("gomoku")[num][0] == "pow2"
    assert enhancements.history_settings("gomoku")[den][0] == "square"
    rng = np.random.default_rng(0)
    square = rng.integers(10_000, 50_000, 20)
    pow2 = (square * rng.uniform(0.7, 0.8, 20)).astype(int)     # pow2 searches fewer nodes
    df = pd.DataFrame(_rows(num, pow2) + _rows(den, square))
    ratios, dropped = enhancements.paired(df, "gomoku", num, den, "nodes", 4)
    assert dropped == 0 and (ratios < 1).all()
    rule = enhancements.rule("history_inc")
    c = intervals.judge("f", {"gomoku/history_inc": (ratios.to_numpy(), rule)})["gomoku/history_inc"]
    assert c.verdict == intervals.HOLDS
    worse = intervals.judge("f", {"x": ((1 / ratios).to_numpy(), rule)})["x"]
    assert worse.verdict == intervals.FAILS


def test_a_contrast_drops_positions_with_an_incomplete_search():
    df = pd.DataFrame(_rows("a", [10, 20, 30]) + _rows("b", [20, 40, 60])[:2]
                      + _rows("b", [60], complete=False)[:1])
    df.loc[df.index[-1], "position"] = "p2"
    ratios, dropped = enhancements.paired(df, "gomoku", "a", "b", "nodes", 4)
    assert list(ratios) == [0.5, 0.5] and dropped == 1


def test_the_mtdf_rule_tests_the_claimed_five_percent_and_the_others_any_reduction():
    assert enhancements.rule("mtdf_g1_deepest").claimed == 0.95
    assert enhancements.rule("aspiration_deepest").claimed == 1.0


@pytest.mark.parametrize("game", enhancements.GAMES)
def test_every_contrast_names_configurations_the_run_searches(game):
    labels = {c["label"] for c in enhancements.configs(game)} | set(enhancements.history_settings(game))
    for key, src, _, num, den, metric, fam, back in enhancements.contrasts(game):
        assert {num, den} <= labels and src in enhancements.SOURCES
        assert fam in enhancements.FULL["depth"][game] and back in (0, 1)
