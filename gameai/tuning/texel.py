"""Texel's method (Österlund 2014): fit a linear evaluator's weights so that
``sigmoid(K · eval(position))`` predicts the game's result.

The loss is the mean logistic loss (cross-entropy) between ``p = σ(K·w·φ)`` and the
target ``y`` (the side to move's score, 1 / ½ / 0; or, with ``score_weight`` λ > 0,
``(1 − λ)·result + λ·σ(K·value)`` where ``value`` is the recording searcher's score).
``K`` is fitted first, on the starting weights alone, as Texel does, and then held fixed:
otherwise ``K`` and the weights trade scale freely. The weights are fitted by scipy's
L-BFGS-B with the analytic gradient, in standardised units (each feature column divided
by its root mean square) so features of very different sizes (a PST sum in hundreds,
a 0/1 combination) converge together; a small ridge term ``l2`` pulls towards the
starting weights so features that barely occur stay near them.

The held-out split is by game (a game's positions are strongly correlated: splitting
positions would leak), drawn from ``seed``.
"""
from __future__ import annotations

import math
import platform
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from ..errors import GameError, RecordError, SpecError
from .positions import Records, game_kind, read_records, replay


@dataclass
class Dataset:
    """Feature rows (side to move's view) with their targets, game index and values."""

    X: np.ndarray            # (n, k) features
    result: np.ndarray       # (n,) side to move's game score: 1, 0.5, 0
    value: np.ndarray        # (n,) the recording searcher's score (NaN when none)
    game: np.ndarray         # (n,) index of the game the row came from
    features: tuple[str, ...]
    n_games: int
    skipped: dict[str, int] = field(default_factory=dict)


def build_dataset(records: Records, spec: str, evaluator, *, min_ply: int = 0,
                  every: int = 1) -> Dataset:
    """Replay every game and keep its tunable positions: past the forced opening and
    ``min_ply``, every ``every``-th ply, not decided (not terminal, and the evaluator's
    ``tunable`` test, e.g. not in check / no four on the board)."""
    rows: list[list[float]] = []
    res: list[float] = []
    val: list[float] = []
    gid: list[int] = []
    skipped = dict(records.skipped)
    tunable = getattr(evaluator, "tunable", None)
    n_games = 0
    for g in records.games:
        start = len(rows)
        sides: list[int] = []
        for ply, state in replay(g, spec):
            if ply < max(g.opening_plies, min_ply) or (ply - min_ply) % every:
                continue
            if state.result() is not None or (tunable is not None and not tunable(state)):
                continue
            rows.append(evaluator.features(state))
            sides.append(state.to_move)
            val.append(g.values.get(ply, math.nan))
        if g.result < 0:                    # a move list whose end decided nothing
            del rows[start:], val[start:]
            skipped["no result"] = skipped.get("no result", 0) + 1
            continue
        res += [g.result if s == 0 else 1.0 - g.result for s in sides]
        gid += [n_games] * len(sides)
        n_games += 1
    k = len(evaluator.FEATURES)
    X = np.asarray(rows, dtype=np.float64).reshape(-1, k)
    return Dataset(X, np.asarray(res), np.asarray(val, dtype=np.float64), np.asarray(gid, dtype=np.int64),
                   tuple(evaluator.FEATURES), n_games, skipped)


def split_games(n_games: int, held_out: float, seed: int) -> np.ndarray:
    """Boolean mask over game indices: True for the held-out games (at least one when
    ``held_out > 0`` and there are two games or more, never all of them)."""
    if not 0 <= held_out < 1:
        raise SpecError(f"held_out={held_out}: expected a fraction in [0, 1)")
    mask = np.zeros(n_games, dtype=bool)
    if held_out == 0 or n_games < 2:
        return mask
    n = min(n_games - 1, max(1, round(held_out * n_games)))
    mask[np.random.default_rng(seed).permutation(n_games)[:n]] = True
    return mask


def log_loss(logits: np.ndarray, y: np.ndarray) -> float:
    """Mean logistic loss of ``σ(logits)`` against targets ``y`` in [0, 1] (stable form)."""
    if len(y) == 0:
        return math.nan
    return float(np.mean(np.logaddexp(0.0, logits) - y * logits))


#: with ``robust``: a value this many times the ordinary size is a mate score
MATE_SIZE = 100.0


def fit_scale(X: np.ndarray, y: np.ndarray, w: np.ndarray, robust: bool = False) -> float:
    """Texel's ``K``: the scale minimising the loss of ``σ(K·X·w)`` (searched on log K).

    ``robust`` is for another program's values, where a share (often most) are mate
    scores in the millions, and some of them wrong (a game the program thought lost and
    won): the scale is fitted on the values below ``MATE_SIZE`` times the median size of
    the smaller half of them (the ordinary scores); larger ones are mate scores, which the
    scale maps to a certain result anyway."""
    from scipy.optimize import minimize_scalar
    e = X @ w
    if robust and len(e):
        size = np.abs(e)
        typical = float(np.median(np.sort(size)[:max(1, len(size) // 2)]))
        keep = size <= MATE_SIZE * max(typical, 1e-12)
        e, y = e[keep], y[keep]
    if not np.any(e):
        return 1.0
    spread = float(np.sqrt(np.mean(e * e)))
    lo, hi = math.log(1e-4 / spread), math.log(100.0 / spread)
    r = minimize_scalar(lambda t: log_loss(math.exp(t) * e, y), bounds=(lo, hi), method="bounded",
                        options={"xatol": 1e-6})
    return math.exp(float(r.x))


@dataclass
class TuneResult:
    """What :func:`tune` found: weights, scale, losses, the curve and the data."""

    evaluator: str
    game: str
    features: tuple[str, ...]
    start: list[float]
    weights: list[float]
    scale: float
    loss: dict[str, float]
    curve: list[dict[str, float]]
    data: dict[str, Any]
    optimiser: dict[str, Any]

    def document(self) -> dict[str, Any]:
        """The weights file's JSON document (see :func:`gameai.evaluators.linear.weights_document`)."""
        from .. import __version__
        from ..evaluators.linear import weights_document
        return weights_document(
            self.evaluator, self.game, self.features, self.weights,
            start={f: float(w) for f, w in zip(self.features, self.start)},
            scale=self.scale, loss=self.loss, curve=self.curve, data=self.data,
            optimiser=self.optimiser,
            made={"gameai": __version__, "python": platform.python_version(),
                  "utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())})

    def write(self, path: str | Path, overwrite: bool = False) -> Path:
        """Write the weights file; an existing file is an error unless ``overwrite``."""
        import json
        from ..manifest import atomic_write_bytes
        p = Path(path)
        if p.exists() and not overwrite:
            raise GameError(f"{p} exists; pass --force (overwrite=True) to replace it")
        if not p.parent.is_dir():
            raise GameError(f"{p}: the folder {p.parent} does not exist")
        atomic_write_bytes(p, (json.dumps(self.document(), indent=1) + "\n").encode())
        return p


def fit(data: Dataset, start: np.ndarray, *, held_out: float = 0.2, seed: int = 0,
        score_weight: float = 0.0, l2: float = 1e-4, max_iter: int = 500,
        fixed: Iterable[str] = (), value_scale: bool = False
        ) -> tuple[np.ndarray, float, dict, list, dict]:
    """L-BFGS-B fit of the weights from ``start``; returns weights, K, losses, curve, optimiser info.

    With ``score_weight`` > 0 the recorded values are mapped to a probability by the
    evaluator's ``K``, or with ``value_scale`` by a scale of their own fitted to the results
    (the values of another program, in its units); ``info["value_scale"]`` holds it."""
    from scipy.optimize import minimize
    if len(data.result) == 0:
        raise RecordError("no tunable positions in the records (games too short, all skipped?)")
    if not 0 <= score_weight <= 1:
        raise SpecError(f"score_weight={score_weight}: expected a number in [0, 1]")
    if not (math.isfinite(l2) and l2 >= 0):   # nan passes a plain l2 < 0 test
        raise SpecError(f"l2={l2}: expected a finite number >= 0")
    test_games = split_games(data.n_games, held_out, seed)
    test = test_games[data.game]
    train = ~test
    X, start = data.X, np.asarray(start, dtype=np.float64)
    K = fit_scale(X[train], data.result[train], start)
    y = data.result.copy()
    Kv = math.nan
    if score_weight > 0:
        has = ~np.isnan(data.value)
        if not has.any():
            raise RecordError("score_weight > 0 needs the searchers' values (tournament records)")
        Kv = K
        if value_scale:
            own = has & train
            if not own.any():
                raise RecordError("value_scale needs recorded values in the training games")
            Kv = fit_scale(data.value[own][:, None], data.result[own], np.ones(1), robust=True)
        target = 1.0 / (1.0 + np.exp(-np.clip(Kv * data.value[has], -50, 50)))
        y[has] = (1 - score_weight) * y[has] + score_weight * target
    Z = K * X
    c = np.sqrt(np.mean(Z[train] ** 2, axis=0))
    c[c == 0] = 1.0
    Zs = Z / c                                  # standardised columns
    v0 = start * c
    free = np.array([f not in set(fixed) for f in data.features])
    Ztr, ytr, Zte, yte = Zs[train], y[train], Zs[test], y[test]
    n = len(ytr)

    def full(u: np.ndarray) -> np.ndarray:
        v = v0.copy()
        v[free] = u
        return v

    def objective(u: np.ndarray) -> tuple[float, np.ndarray]:
        v = full(u)
        z = Ztr @ v
        p = 1.0 / (1.0 + np.exp(-np.clip(z, -500, 500)))
        d = (v - v0)[free]
        loss = log_loss(z, ytr) + l2 * float(d @ d)
        grad = (Ztr.T @ (p - ytr))[free] / n + 2 * l2 * d
        return loss, grad

    curve: list[dict[str, float]] = []

    def record(u: np.ndarray) -> None:
        v = full(u)
        curve.append({"iteration": len(curve), "train": log_loss(Ztr @ v, ytr),
                      "test": log_loss(Zte @ v, yte) if len(yte) else math.nan})

    record(v0[free])
    r = minimize(objective, v0[free], jac=True, method="L-BFGS-B", callback=record,
                 options={"maxiter": max_iter, "gtol": 1e-9, "ftol": 1e-13})
    v = full(r.x)
    w = v / c
    losses = {"train_before": curve[0]["train"], "train_after": log_loss(Ztr @ v, ytr),
              "test_before": curve[0]["test"], "test_after": log_loss(Zte @ v, yte) if len(yte) else math.nan,
              "train_positions": int(train.sum()), "test_positions": int(test.sum()),
              "train_games": int((~test_games).sum()), "test_games": int(test_games.sum())}
    info = {"method": "scipy.optimize.minimize L-BFGS-B", "iterations": int(r.nit),
            "success": bool(r.success), "message": str(r.message), "l2": l2,
            "max_iter": max_iter, "standardised": True}
    if score_weight > 0:
        info["value_scale"] = float(Kv)
    return w, K, losses, curve, info


class TuneWarning(UserWarning):
    """A fit that ran but whose numbers should not be trusted as they stand."""


def fit_warnings(losses: dict, n_weights: int, held_out: float) -> list[str]:
    """Why a fit's losses say little: no held-out game (nothing measures how the weights
    do on games they were not fitted to), or fewer training positions than weights (the
    fit can match them all, whatever the weights mean)."""
    notes = []
    if losses["test_positions"] == 0:
        why = ("--held-out 0" if held_out == 0 else
               f"{losses['train_games']} game(s) leave none to hold out at {held_out:g}")
        notes.append(f"no held-out set ({why}): the training log-loss "
                     f"{losses['train_after']:.4f} is measured on the very positions fitted "
                     "and says nothing about other games; give more games")
    if losses["train_positions"] < n_weights:
        notes.append(f"{losses['train_positions']} training positions for {n_weights} "
                     "weights: the fit can match them all, whatever the weights mean")
    return notes


def tune(game: str, records: str | Path | Iterable[str | Path], eval: str | None = None, *,
         held_out: float = 0.2, seed: int = 0, score_weight: float = 0.0, l2: float = 1e-4,
         max_iter: int = 500, min_ply: int = 0, every: int = 1, values_of: str | None = None,
         log: Callable[[str], None] | None = None) -> TuneResult:
    """Fit a tuned evaluator's weights on recorded games (the library form of ``gameai tune``).

    ``eval`` is a linear evaluator spec (default ``xiangqi.tuned`` or ``gomoku.tuned``;
    ``xiangqi.tuned(weights=FILE)`` starts from that file's weights). ``values_of`` (with
    ``score_weight``) fits towards one player's recorded values only, on a scale of their
    own (another program's scores, e.g. an engine's in ``gameai bench engines``' records).
    Returns a :class:`TuneResult`; ``.write(path)`` saves the weights file a spec loads."""
    from ..registry import EVALUATORS, make_evaluator, load_game
    kind = game_kind(game)
    spec = eval or ("xiangqi.tuned" if kind == "xiangqi" else "gomoku.tuned")
    ev = make_evaluator(spec, load_game(game))
    if not hasattr(ev, "features") or not hasattr(ev, "FEATURES"):
        fits = [n for n in EVALUATORS.names() if n.endswith(".tuned")]
        raise SpecError(f"evaluator {spec!r} has no linear features to tune; use one of: "
                        f"{', '.join(fits)}")
    paths = [records] if isinstance(records, (str, Path)) else list(records)
    if not paths:
        raise RecordError("no records given")
    t0 = time.time()
    if values_of is not None and score_weight <= 0:
        raise SpecError("values_of reads recorded values: it needs score_weight > 0")
    recs = read_records(paths, game, values_of)
    data = build_dataset(recs, game, ev, min_ply=min_ply, every=every)
    if log:
        log(f"{data.n_games} games, {len(data.result)} positions "
            f"({time.time() - t0:.1f} s to read and compute features)")
    w, K, losses, curve, info = fit(data, np.asarray(ev.weights), held_out=held_out, seed=seed,
                                    score_weight=score_weight, l2=l2, max_iter=max_iter,
                                    value_scale=values_of is not None)
    info["seconds"] = round(time.time() - t0, 2)
    for note in fit_warnings(losses, len(ev.FEATURES), held_out):
        warnings.warn(note, TuneWarning, stacklevel=2)
    meta = {"records": [str(p) for p in paths], "game": game, "games": data.n_games,
            "positions": int(len(data.result)), "skipped": data.skipped, "held_out": held_out,
            "split_seed": seed, "score_weight": score_weight, "values_of": values_of,
            "min_ply": min_ply, "every": every,
            "start_eval": spec}
    return TuneResult(ev.name, kind, tuple(ev.FEATURES), list(map(float, ev.weights)),
                      [float(x) for x in w], K, losses, curve, meta, info)
