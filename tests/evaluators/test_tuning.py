"""Evaluation tuning (gameai.tuning, gameai tune) and the tuned evaluators.

The fit is checked against data drawn from a known logistic model (not against our own
output); the features against the symmetries of the games; the defaults against the
evaluators they promise to equal; the command against bad input."""
from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest

from gameai.cli import main
from gameai.errors import GameError, RecordError, SpecError
from gameai.registry import load_game, make_evaluator
from gameai.tuning import Dataset, fit, read_records, tune
from gameai.tuning.texel import TuneWarning, split_games


def _random_positions(spec: str, n: int, max_plies: int, seed: int) -> list:
    """``n`` undecided positions from random legal games, sampled along each game."""
    rng = random.Random(seed)
    out: list = []
    state = load_game(spec)
    while len(out) < n:
        if state.result() is not None or state.ply >= max_plies:
            state = load_game(spec)
        state.push(rng.choice(state.legal_moves()))
        if state.result() is None and rng.random() < 0.2:
            out.append(state.copy())
    return out


# ------------------------------------------------------------------ the fit itself
def test_fit_recovers_the_coefficients_of_a_known_logistic_model():
    rng = np.random.default_rng(7)
    n, k = 30000, 4
    X = np.c_[rng.normal(0, 300, n), rng.poisson(2.0, n) - rng.poisson(2.0, n),
              rng.integers(0, 2, n), np.ones(n)]
    truth = np.array([0.004, 0.35, -0.8, 0.2])         # logit coefficients of the model
    p = 1 / (1 + np.exp(-(X @ truth)))
    y = (rng.random(n) < p).astype(float)
    data = Dataset(X, y, np.full(n, np.nan), np.arange(n) // 40, ("a", "b", "c", "d"), n // 40)
    start = np.array([1.0, 0.0, 0.0, 0.0])              # only the first feature to begin with
    w, K, losses, curve, info = fit(data, start, held_out=0.2, seed=1, l2=0.0)
    assert info["success"]
    # within 4 standard errors of the truth (Fisher information of the training rows)
    train = ~split_games(n // 40, 0.2, 1)[data.game]
    Xt, pt = X[train], p[train]
    se = np.sqrt(np.diag(np.linalg.inv(Xt.T @ (Xt * (pt * (1 - pt))[:, None]))))
    assert np.all(np.abs(K * w - truth) < 4 * se), (K * w, truth, se)
    assert losses["test_after"] < losses["test_before"]
    assert curve[0]["train"] >= curve[-1]["train"]


def test_held_out_split_is_by_game_and_never_empty_or_total():
    mask = split_games(10, 0.2, seed=3)
    assert mask.sum() == 2
    assert split_games(2, 0.9, 0).sum() == 1              # never every game
    assert split_games(5, 0.0, 0).sum() == 0
    with pytest.raises(SpecError):
        split_games(5, 1.0, 0)


# ------------------------------------------------------------------ the evaluators
def test_xiangqi_tuned_with_default_weights_equals_xiangqi_pst():
    tuned, pst = make_evaluator("xiangqi.tuned"), make_evaluator("xiangqi.pst")
    for s in _random_positions("xiangqi", 40, 80, seed=2):
        assert tuned(s) == pst(s)
        assert tuned.linear(s) == pst(s)                  # the feature path agrees too


def test_gomoku_tuned_with_default_weights_equals_gomoku_patterns():
    for rule in ("freestyle", "renju"):
        tuned, pat = make_evaluator("gomoku.tuned"), make_evaluator("gomoku.patterns")
        for s in _random_positions(f"gomoku(rule={rule})", 40, 50, seed=3):
            assert tuned(s) == pat(s)


def _swap_colours(fen: str) -> str:
    """The same position with the colours swapped: ranks reversed, case swapped, other side to move."""
    board, side, *rest = fen.split()
    swapped = "/".join(reversed(board.split("/"))).swapcase()
    return " ".join([swapped, "b" if side == "w" else "w", *rest])


def _mirror_files(fen: str) -> str:
    board, *rest = fen.split()
    return " ".join(["/".join(r[::-1] for r in board.split("/")), *rest])


def test_xiangqi_features_are_zero_sum_under_a_colour_swap_and_symmetric_in_a_mirror():
    ev = make_evaluator("xiangqi.tuned")
    for s in _random_positions("xiangqi", 30, 60, seed=4):
        f = ev.features(s)
        swapped = ev.features(load_game("xiangqi", fen=_swap_colours(s.fen())))
        mirrored = ev.features(load_game("xiangqi", fen=_mirror_files(s.fen())))
        # the side to move's view is the same position seen by the other colour
        assert swapped == pytest.approx(f), (s.fen(), f, swapped)
        assert mirrored == pytest.approx(f)


def test_gomoku_features_are_symmetric_under_board_reflections():
    ev = make_evaluator("gomoku.tuned")
    for s in _random_positions("gomoku", 20, 40, seed=5):
        n = 15
        texts = [s.move_str(m) for m in s.move_stack]
        f = ev.features(s)
        for reflect in (lambda x, y: (n - 1 - x, y), lambda x, y: (y, x)):
            t = load_game("gomoku")
            for text in texts:
                x, y = ord(text[0]) - ord("a"), int(text[1:]) - 1
                a, b = reflect(x, y)
                t.push(t.parse_move(f"{chr(ord('a') + a)}{b + 1}"))
            assert ev.features(t) == f


def test_the_compiled_kernel_refuses_the_tuned_evaluators():
    from gameai.compiled import xiangqi as kernel
    s = load_game("xiangqi")
    assert kernel.evaluator(make_evaluator("xiangqi.tuned"), s) is None  # -> SpecError in search
    from gameai.compiled.gomoku_eval import evaluator as gomoku_kernel
    assert gomoku_kernel(make_evaluator("gomoku.tuned"), load_game("gomoku")) is None


# ------------------------------------------------------------------ records, command, file
def _xiangqi_records(path, games: int = 12, seed: int = 0) -> None:
    """A move-list file of random games, each line ending in a random result."""
    rng = random.Random(seed)
    lines = []
    for _ in range(games):
        s = load_game("xiangqi")
        for _ in range(30):
            if s.result() is not None:
                break
            s.push(rng.choice(s.legal_moves()))
        moves = " ".join(s.move_str(m) for m in s.move_stack)
        lines.append(f"{moves} {rng.choice(['1-0', '0-1', '1/2-1/2'])}")
    path.write_text("\n".join(lines) + "\n")


def test_weights_file_round_trips_through_the_evaluator_spec(tmp_path):
    rec = tmp_path / "games.txt"
    _xiangqi_records(rec)
    r = tune("xiangqi", rec, max_iter=20)
    out = r.write(tmp_path / "w.json")
    doc = json.loads(out.read_text())
    assert doc["evaluator"] == "xiangqi.tuned" and doc["features"] == list(r.features)
    assert {"train_before", "train_after", "test_before", "test_after"} <= set(doc["loss"])
    assert doc["data"]["games"] == 12
    ev = make_evaluator(f"xiangqi.tuned(weights={out})")
    assert ev.weight_map() == pytest.approx(dict(zip(r.features, r.weights)))
    with pytest.raises(GameError):
        r.write(out)                                       # never overwritten unless asked
    r.write(out, overwrite=True)


def test_weights_file_of_another_evaluator_is_refused(tmp_path):
    from gameai.evaluators.linear import weights_document
    f = tmp_path / "g.json"
    f.write_text(json.dumps(weights_document("gomoku.tuned", "gomoku", ["tempo"], [1.0])))
    with pytest.raises(SpecError, match="gomoku.tuned"):
        make_evaluator(f"xiangqi.tuned(weights={f})")
    bad = tmp_path / "b.json"
    bad.write_text(json.dumps(weights_document("xiangqi.tuned", "xiangqi", ["no_such"], [1.0])))
    with pytest.raises(SpecError, match="no_such"):
        make_evaluator(f"xiangqi.tuned(weights={bad})")
    with pytest.raises(SpecError, match="does not exist"):
        make_evaluator(f"xiangqi.tuned(weights={tmp_path / 'missing.json'})")


def test_tune_command_writes_and_refuses_bad_input(tmp_path, capsys):
    rec = tmp_path / "games.txt"
    _xiangqi_records(rec)
    out = tmp_path / "w.json"
    args = ["tune", "--game", "xiangqi", "--records", str(rec), "--out", str(out), "--max-iter", "10"]
    assert main(args) == 0 and out.exists()
    assert "held-out" in capsys.readouterr().out
    assert main(args) == 2                                 # --out exists
    assert "--force" in capsys.readouterr().err
    assert main(args + ["--force"]) == 0
    capsys.readouterr()
    (tmp_path / "pgn").mkdir()
    (tmp_path / "pgn" / "x.pgn").write_text('[Game "Chinese Chess"]\n1. H2-E2 H9-G7 1-0\n')
    (tmp_path / "bad.pgn").write_text('[Game "Chinese Chess"]\n1. Pawn-takes 1-0\n')
    (tmp_path / "notes.doc").write_text("h2e2")
    out.rename(tmp_path / "x.json")                        # an xiangqi.tuned weights file
    cases = {
        "no such file": {"--records": str(tmp_path / "missing")},
        "not gomoku": {"--game": "gomoku", "--records": str(tmp_path / "pgn")},
        "not an ICCS move": {"--records": str(tmp_path / "bad.pgn")},
        "unknown suffix": {"--records": str(tmp_path / "notes.doc")},
        "was made for": {"--game": "gomoku", "--eval": f"gomoku.tuned(weights={tmp_path / 'x.json'})"},
        "no linear features": {"--eval": "xiangqi.pst"},
        "unknown game": {"--game": "chess"},
    }
    for needle, change in cases.items():
        given = {"--game": "xiangqi", "--records": str(rec), "--out": str(tmp_path / "n.json"), **change}
        assert main(["tune"] + [x for kv in given.items() for x in kv]) == 2, needle
        assert needle in capsys.readouterr().err, needle
    assert not (tmp_path / "n.json").exists()


def test_tournament_folder_is_read_with_results_and_values(tmp_path):
    out = tmp_path / "t"
    assert main(["tournament", "--game", "xiangqi", "--player", "alphabeta(eval=xiangqi.pst)",
                 "--player", "alphabeta(eval=xiangqi.material)", "--depth", "1", "--games", "2",
                 "--max-plies", "30", "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    recs = read_records([out], "xiangqi")
    assert len(recs.games) == 2
    import pandas as pd
    g = pd.read_parquet(out / "games.parquet").sort_values("game_id")
    scores = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
    assert [r.result for r in recs.games] == [scores[x] for x in g.result]
    assert all(r.values for r in recs.games)
    with pytest.raises(GameError, match="xiangqi games"):
        read_records([out], "renju")


@pytest.mark.parametrize("option, value", [("--l2", "nan"), ("--l2", "inf"), ("--l2", "-1"),
                                           ("--held-out", "nan"), ("--score-weight", "nan")])
def test_tune_refuses_a_nan_or_out_of_range_number_before_fitting(tmp_path, capsys, option, value):
    rec = tmp_path / "games.txt"
    _xiangqi_records(rec, games=3)
    out = tmp_path / "w.json"
    assert main(["tune", "--game", "xiangqi", "--records", str(rec), "--out", str(out),
                 option, value]) == 2
    captured = capsys.readouterr()
    assert f"{option} {value}" in captured.err and "expected" in captured.err
    assert "log-loss" not in captured.out and not out.exists()
    with pytest.raises(SpecError, match="l2=nan"):
        tune("xiangqi", rec, l2=float("nan"))                # the library refuses it too


def test_tune_on_one_game_warns_that_there_is_no_held_out_set(tmp_path, capsys):
    rec = tmp_path / "one.txt"
    _xiangqi_records(rec, games=1)
    out = tmp_path / "w.json"
    assert main(["tune", "--game", "xiangqi", "--records", str(rec), "--out", str(out),
                 "--max-iter", "10"]) == 0
    err = capsys.readouterr().err
    assert "warning: no held-out set (1 game(s) leave none to hold out" in err
    with pytest.warns(TuneWarning, match="no held-out set"):
        tune("xiangqi", rec, max_iter=5)
    rec12 = tmp_path / "twelve.txt"                         # enough games: no warning
    _xiangqi_records(rec12)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", TuneWarning)
        tune("xiangqi", rec12, max_iter=5)


def test_moves_of_games_missing_from_games_parquet_are_an_error(tmp_path):
    out = tmp_path / "t"
    assert main(["tournament", "--game", "xiangqi", "--player", "alphabeta(eval=xiangqi.pst)",
                 "--player", "alphabeta(eval=xiangqi.material)", "--depth", "1", "--games", "2",
                 "--max-plies", "10", "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    import pandas as pd
    games = pd.read_parquet(out / "games.parquet").sort_values("game_id")
    assert len(read_records([out], "xiangqi").games) == 2
    dropped = games.game_id.iloc[-1]
    games[games.game_id != dropped].to_parquet(out / "games.parquet")   # a damaged folder
    with pytest.raises(GameError, match=f"moves of 1 game.*missing from games.parquet.*{dropped}"):
        read_records([out], "xiangqi")


@pytest.mark.parametrize("weight", [1e300, -1e9])
def test_a_weight_too_large_for_the_score_range_is_refused_not_clamped(tmp_path, weight):
    from gameai.evaluators.linear import weights_document
    for name, game, feature in (("xiangqi.tuned", "xiangqi", "pst"),
                                ("gomoku.tuned", "gomoku", "me_five")):
        f = tmp_path / f"{name}.json"
        f.write_text(json.dumps(weights_document(name, game, [feature], [weight])))
        with pytest.raises(SpecError, match=re.escape(f"{feature}={weight!r}") + ".*at most"):
            make_evaluator(f"{name}(weights={f})")
    ok = tmp_path / "ok.json"                              # a large but usable weight loads
    ok.write_text(json.dumps(weights_document("gomoku.tuned", "gomoku", ["me_five"], [5e6])))
    assert make_evaluator(f"gomoku.tuned(weights={ok})").weight_map()["me_five"] == 5e6


def test_shipped_weights_load_by_name_and_are_the_committed_tuning_results():
    from pathlib import Path

    from gameai.evaluators.linear import SHIPPED, shipped_weights
    assert {"gomoku-forks", "renju-forks"} <= set(shipped_weights())
    results = Path(__file__).resolve().parents[2] / "results" / "tuning"
    for name, rule in (("gomoku-forks", "gomoku"), ("renju-forks", "renju")):
        assert (SHIPPED / f"{name}.json").read_bytes() == (results / f"{rule}-forks-5k-2.json").read_bytes()
        ev = make_evaluator(f"gomoku.forks(weights={name})")
        doc = json.loads((SHIPPED / f"{name}.json").read_text())
        assert ev.weight_map() == pytest.approx(doc["weights"]) and doc["game"] == rule
    with pytest.raises(SpecError, match="shipped: .*gomoku-forks"):
        make_evaluator("gomoku.forks(weights=no-such-weights)")


def test_values_of_one_player_are_fitted_on_their_own_scale(tmp_path):
    """``values_of``: only that player's moves carry a value, and the fit does not depend on
    the units of those values (another program's scale is fitted to the results)."""
    import pandas as pd
    out = tmp_path / "t"
    assert main(["tournament", "--game", "gomoku", "--player", "alphabeta(eval=gomoku.patterns)",
                 "--player", "alphabeta(eval=gomoku.position)", "--name", "pat", "--name", "pos",
                 "--depth", "1", "--games", "12", "--jobs", "1", "--no-progress",
                 "--out", str(out)]) == 0
    moves = pd.read_parquet(out / "moves.parquet")
    recs = read_records([out], "gomoku", values_of="pos")
    kept = {(r.source, ply) for r in recs.games for ply in r.values}
    assert kept and len(kept) == int((moves.player == "pos").sum())
    base = tune("gomoku", out, score_weight=0.5, values_of="pos", max_iter=50)
    scaled = tmp_path / "scaled"                              # the same games, values x 100
    scaled.mkdir()
    for f in ("games.parquet", "manifest.json"):
        (scaled / f).write_bytes((out / f).read_bytes())
    m = moves.copy()
    m.loc[m.player == "pos", "value"] *= 100.0
    m.to_parquet(scaled / "moves.parquet")
    other = tune("gomoku", scaled, score_weight=0.5, values_of="pos", max_iter=50)
    assert other.weights == pytest.approx(base.weights, rel=1e-3, abs=1e-3)
    assert other.optimiser["value_scale"] == pytest.approx(base.optimiser["value_scale"] / 100, rel=1e-3)
    with pytest.raises(RecordError, match="no move of a player named 'nobody'"):
        tune("gomoku", out, score_weight=0.5, values_of="nobody")
    with pytest.raises(SpecError, match="needs score_weight"):
        tune("gomoku", out, values_of="pos")
