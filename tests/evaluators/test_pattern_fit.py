"""gameai bench pattern_fit: the logistic fits recover known weights, and the data are
what the evaluator scores."""
import numpy as np
import pandas as pd

import gameai
from experiments.bench_pattern_fit import FEATURES, fits, play_one


def _synthetic(n: int, me_w, op_w, colour, seed: int = 5) -> pd.DataFrame:
    """Positions whose results follow a known logistic model (1,000 units = one logit)."""
    rng = np.random.default_rng(seed)
    me = np.zeros((n, 7), int)
    op = np.zeros((n, 7), int)
    me[:, 3:] = rng.poisson([0.8, 1.5, 3.0, 6.0], size=(n, 4))
    op[:, 3:] = rng.poisson([0.8, 1.5, 3.0, 6.0], size=(n, 4))
    op[:, 2] = rng.random(n) < 0.3
    wtm = (rng.random(n) < 0.5).astype(int)
    v = me[:, 3:] @ me_w - op[:, 2:] @ op_w + np.asarray(colour)[wtm]
    y = (rng.random(n) < 1 / (1 + np.exp(-v / 1000))).astype(float)
    black = np.where(wtm[:, None] == 1, op, me)
    white = np.where(wtm[:, None] == 1, me, op)
    df = pd.DataFrame(np.c_[black, white], columns=[f"black_{f}" for f in FEATURES]
                      + [f"white_{f}" for f in FEATURES])
    df.insert(0, "white_to_move", wtm)
    df.insert(0, "game", np.arange(n) // 20)
    df["result"] = y
    return df


def test_the_side_to_move_fit_recovers_known_weights():
    me_w, op_w, colour = [900, 300, -50, 100], [800, 700, 250, 60, 40], [-100, 400]
    out = fits(_synthetic(40000, me_w, op_w, colour), (10 ** 6, 10 ** 5, 2500, 3000, 500, 120, 20))
    info = out.pop()
    assert info["positions"] == 40000
    by = {r["model"]: r for r in out}
    w = by["fitted, me/op"]["weights"]
    got = [w[f"me {f}"] for f in FEATURES[3:]] + [w[f"op {f}"] for f in FEATURES[2:]]
    assert np.allclose(got, me_w + op_w, atol=80), got
    assert abs(w["white to move"] - w["black to move"] - (colour[1] - colour[0])) < 120
    # the true model fits the held-out games better than the wrong ones
    assert by["fitted, me/op"]["held_out"] < by["fitted"]["held_out"] < by["constant"]["held_out"]


def test_self_play_rows_are_the_evaluators_features():
    """Each row holds the features of the position it stands for (replayed from the game's
    moves), from the fifth stone on, and the result for the side to move."""
    from gameai.evaluators.gomoku_patterns import features
    moves: list[str] = []
    rows = play_one("renju", 0, 3, "alphabeta(depth=1)", max_plies=30, moves=moves)
    assert len(rows) == len(moves) - 5 + (gameai.load_game("renju", moves=" ".join(moves)).result() is None)
    for k, row in enumerate(rows):
        state = gameai.load_game("renju", moves=" ".join(moves[:5 + k]))
        black, white = features(state)
        assert row[0] == 0 and row[1] == (5 + k) % 2 and list(row[2:16]) == black + white
    end = gameai.load_game("renju", moves=" ".join(moves)).result()
    for row in rows:
        want = 0.5 if end is None else float(end.winner == row[1])
        assert row[-1] == want
