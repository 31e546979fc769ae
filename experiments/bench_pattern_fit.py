"""gameai bench pattern_fit: how far the ``gomoku.patterns`` weights are from the best fit.

Why: the threat player's Renju losses come from positions its evaluation misjudges
(README, Strength). Before writing a new evaluation, ask whether the present one is held
back by its hand-set weights or by its features. The usual way to ask (Texel tuning,
Österlund 2014; logistic regression of game results on evaluation features, as Buro
1995 did for Othello) is to fit the weights to the results of many games and compare
the held-out log-loss.

Data: ``--games`` self-play games per rule from random openings (a standard opening plus
one White stone in the central 7x7 and one Black stone in the central 9x9), both sides
``--player``; every position from the sixth stone on, with the features of
:func:`gameai.evaluators.gomoku_patterns.features` for the side to move ("me") and the
other ("op"), and the result for the side to move (1, 1/2, 0). Positions the evaluator
decides by rule (a five, a four of the side to move, an open four or two fours of the
other) are left out: the weights never score them.

Models, each a logistic regression ``P(win) = 1 / (1 + exp(-v / 1000))`` fitted on the
games whose number is not a multiple of 5 and scored on the others (held out):

* ``hand``: the hand-set weights, only their scale fitted;
* ``hand+colour``: the same plus one constant per colour to move (who is ahead at the
  start; it never changes a move choice, since every leaf of one search iteration has the
  same side to move);
* ``fitted``: the weights of four, open three, three, open two and two fitted, one set
  for both sides, plus the colour constants;
* ``fitted, me/op``: separate weights for the side to move's features and the other's
  (the tempo: an open three of the side to move is more than one of the opponent).

A benchmark, not a test: it prints the table and the fitted weights. With ``--out DIR``
it also writes the positions (``positions_<rule>.parquet``), the fits (``fits.csv``) and a
manifest.

    gameai bench pattern_fit -- --rules renju --games 3000 --jobs 2
"""
from __future__ import annotations

import argparse
import os
import random

import numpy as np

FEATURES = ("five", "open_four", "four", "open_three", "three", "open_two", "two")
PLAYER = "negascout(depth=4,tt=true,history=true,id=true,threat_order=true,threat_forced=true,backend=compiled)"
SCALE = 1000.0


def play_one(rule: str, i: int, seed: int, player: str, max_plies: int = 225,
             moves: list | None = None) -> list[tuple]:
    """One self-play game's rows: (game, colour to move, 7 black features, 7 white, result).
    ``moves``, when given, receives the game's move texts."""
    import gameai
    from gameai.evaluators.gomoku_patterns import features
    from gameai.games.gomoku_openings import standard_openings

    from .bench_threat_strength import central_stones
    rng = random.Random(f"{seed}/pattern_fit/{rule}/{i}")
    starts = standard_openings()
    state = gameai.load_game(rule, moves=" ".join(starts[rng.randrange(len(starts))]))
    central_stones(state, rng)
    searcher = gameai.make_searcher(player)
    rows = []
    while state.result() is None and len(state.move_stack) < max_plies:
        black, white = features(state)
        rows.append((len(state.move_stack) & 1, *black, *white))
        state.push(searcher.search(state).move)
    if moves is not None:
        moves.extend(state.move_str(m) for m in state.move_stack)
    outcome = state.result()
    winner = None if outcome is None else outcome.winner
    return [(i, side, *f, 0.5 if winner is None else float(winner == side)) for side, *f in rows]


def positions(rule: str, games: int, seed: int, player: str, jobs: int):
    """The self-play positions of one rule as a DataFrame (one row per position)."""
    import pandas as pd
    from joblib import Parallel, delayed
    from tqdm import tqdm
    out = Parallel(n_jobs=jobs)(delayed(play_one)(rule, i, seed, player)
                                for i in tqdm(range(games), desc=f"{rule} self-play"))
    cols = ["game", "white_to_move"] + [f"black_{f}" for f in FEATURES] + \
        [f"white_{f}" for f in FEATURES] + ["result"]
    return pd.DataFrame([r for g in out for r in g], columns=cols)


def _design(df):
    """(me, op, white_to_move, result, game) arrays, the positions the weights score."""
    b = df[[f"black_{f}" for f in FEATURES]].to_numpy(float)
    w = df[[f"white_{f}" for f in FEATURES]].to_numpy(float)
    wtm = df["white_to_move"].to_numpy() == 1
    me = np.where(wtm[:, None], w, b)
    op = np.where(wtm[:, None], b, w)
    ruled = (me[:, 0] > 0) | (op[:, 0] > 0) | (me[:, 1] > 0) | (me[:, 2] > 0) | \
        (op[:, 1] > 0) | (op[:, 2] >= 2)
    keep = ~ruled
    return me[keep], op[keep], wtm[keep], df["result"].to_numpy(float)[keep], \
        df["game"].to_numpy()[keep]


def _fit(X, y):
    """Logistic regression of y on the columns of X (no intercept: the models carry theirs)."""
    from scipy.optimize import minimize

    def loss(th):
        z = np.clip(X @ th, -30, 30)
        p = 1 / (1 + np.exp(-z))
        eps = 1e-12
        ll = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
        return ll, X.T @ (p - y) / len(y)
    r = minimize(loss, np.zeros(X.shape[1]), jac=True, method="L-BFGS-B")
    return r.x


def _logloss(X, y, th) -> float:
    p = 1 / (1 + np.exp(-np.clip(X @ th, -30, 30)))
    return float(-np.mean(y * np.log(p + 1e-12) + (1 - y) * np.log(1 - p + 1e-12)))


def fits(df, hand: tuple[int, ...]) -> list[dict]:
    """Every model's held-out log-loss and its weights (in evaluation units)."""
    me, op, wtm, y, game = _design(df)
    colour = np.c_[~wtm, wtm].astype(float)
    hand_diff = (me - op) @ np.asarray(hand, float) / SCALE
    # columns in logits per unit: counts and colour terms come out ×SCALE in evaluation
    # units (1,000 = one logit); the hand-set weights' column is in thousands, so its
    # coefficient is the scale itself
    models = {
        "hand": (np.c_[hand_diff], ["scale"]),
        "hand+colour": (np.c_[hand_diff, colour], ["scale", "black to move", "white to move"]),
        "fitted": (np.c_[me[:, 2:] - op[:, 2:], colour],
                   list(FEATURES[2:]) + ["black to move", "white to move"]),
        "fitted, me/op": (np.c_[me[:, 3:], -op[:, 2:], colour],
                          [f"me {f}" for f in FEATURES[3:]] + [f"op {f}" for f in FEATURES[2:]]
                          + ["black to move", "white to move"]),
    }
    train = game % 5 != 0
    out = []
    base = float(np.mean(y[train]))
    const = -np.mean(y[~train] * np.log(base) + (1 - y[~train]) * np.log(1 - base))
    out.append({"model": "constant", "train": None, "held_out": float(const), "weights": {}})
    for name, (X, cols) in models.items():
        th = _fit(X[train], y[train])
        out.append({"model": name, "train": _logloss(X[train], y[train], th),
                    "held_out": _logloss(X[~train], y[~train], th),
                    "weights": {c: float(v) * (1 if c == "scale" else SCALE)
                                for c, v in zip(cols, th)}})
    out.append({"positions": int(len(y)), "games": int(len(np.unique(game)))})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="gameai bench pattern_fit", description=__doc__.split("\n")[0])
    ap.add_argument("--rules", nargs="+", default=["renju", "gomoku"], choices=["gomoku", "renju"])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--player", default=PLAYER)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    from gameai.evaluators.gomoku_patterns import PatternWeights
    w = PatternWeights()
    hand = tuple(getattr(w, f) for f in FEATURES)
    print(f"player (both sides): {args.player}; {args.games} games per rule, seed {args.seed}")
    print(f"hand-set weights: {dict(zip(FEATURES, hand))}")
    rows = []
    for rule in args.rules:
        df = positions(rule, args.games, args.seed, args.player, args.jobs)
        res = fits(df, hand)
        info = res.pop()
        print(f"\n{rule}: {info['positions']} positions the weights score, from {info['games']} games "
              f"(held out: the games numbered 0, 5, 10, ...)")
        print(f"  {'model':<16} {'train':>8} {'held out':>9}  weights")
        for r in res:
            tr = "" if r["train"] is None else f"{r['train']:.4f}"
            ws = ", ".join(f"{k} {v:,.2f}" if k == "scale" else f"{k} {v:,.0f}" for k, v in r["weights"].items())
            print(f"  {r['model']:<16} {tr:>8} {r['held_out']:>9.4f}  {ws}")
            rows.append({"rule": rule, **{k: v for k, v in r.items() if k != "weights"},
                         **{f"w_{k}": v for k, v in r["weights"].items()}})
        if args.out:
            from pathlib import Path
            Path(args.out).mkdir(parents=True, exist_ok=True)
            df.to_parquet(Path(args.out) / f"positions_{rule}.parquet", index=False)
    if args.out:
        import pandas as pd
        from pathlib import Path
        from gameai.manifest import write_manifest
        pd.DataFrame(rows).to_csv(Path(args.out) / "fits.csv", index=False)
        write_manifest(Path(args.out) / "manifest.json", config=vars(args), seed=args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
