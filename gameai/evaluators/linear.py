"""Shared machinery of the tunable (linear) evaluators: weights and their JSON file.

A linear evaluator scores a position as ``Σ w_i · φ_i(state)`` with every feature
``φ_i`` seen from the side to move, so Texel tuning (:mod:`gameai.tuning`) can fit the
``w_i`` by logistic regression. The weights live in a JSON file written by
``gameai tune``; the file names its evaluator and its features, so a file made for
another evaluator (or with features this version does not know) is refused, never
silently misread.
"""
from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..errors import SpecError

#: ``format`` field of every weights file (bumped if the layout ever changes)
WEIGHTS_FORMAT = "gameai.tuned-weights/1"
#: weights files shipped with the package, named without folder or suffix
#: (``weights=gomoku-forks``); the presets use them, so they work from any folder
SHIPPED = Path(__file__).parent / "weights"


def shipped_weights() -> list[str]:
    """The names of the weights files shipped with the package."""
    return sorted(p.stem for p in SHIPPED.glob("*.json"))


def resolve_weights(name: str | Path) -> Path:
    """A weights file's path: a bare name (no folder, no ``.json``) is a shipped file."""
    p = Path(name)
    if p.suffix or len(p.parts) != 1:
        return p
    if (SHIPPED / f"{p}.json").is_file():
        return SHIPPED / f"{p}.json"
    if p.is_file():
        return p
    raise SpecError(f"weights {str(name)!r}: no such file, nor a weights file shipped with "
                    f"gameai (shipped: {', '.join(shipped_weights()) or 'none'})")


def read_weights(path: str | Path, evaluator: str, features: Sequence[str],
                 limit: float = math.inf) -> dict[str, float]:
    """The ``{feature: weight}`` of a weights file made for ``evaluator`` (a path, or the
    name of a shipped file: :func:`resolve_weights`).

    Features missing from the file keep their defaults (the caller's); a file for another
    evaluator, an unknown feature, a non-number, a weight beyond ``±limit`` or an
    unreadable file is a SpecError naming the file, because a spec must never run with
    weights it did not ask for (a huge weight would otherwise be clamped in silence)."""
    p = resolve_weights(path)
    if not p.is_file():
        raise SpecError(f"{evaluator}: weights file {p} does not exist (or is not a file)")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:   # unreadable, not UTF-8, not JSON
        raise SpecError(f"{evaluator}: cannot read weights file {p} as JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != WEIGHTS_FORMAT:
        raise SpecError(f"{evaluator}: {p} is not a gameai weights file "
                        f"(expected \"format\": \"{WEIGHTS_FORMAT}\")")
    owner = data.get("evaluator")
    if owner != evaluator:
        raise SpecError(f"{evaluator}: weights file {p} was made for the evaluator {owner!r}, "
                        f"not {evaluator!r}; tune {evaluator} to get one")
    weights = data.get("weights")
    problem = None
    if not isinstance(weights, dict):
        problem = 'has no "weights" object'
    elif unknown := sorted(set(weights) - set(features)):
        problem = f"has unknown feature(s) {unknown}; known: {', '.join(features)}"
    elif bad := [f"{k}={v!r}" for k, v in weights.items() if not _finite(v)]:
        problem = f"has weights that are not finite numbers: {', '.join(bad)}"
    elif big := [f"{k}={v!r}" for k, v in weights.items() if abs(v) > limit]:
        problem = (f"has weights too large: {', '.join(big)}; a {evaluator} weight is at most "
                   f"±{limit:g} in magnitude (a larger one scores ordinary positions like "
                   "won ones, and the score would be clamped)")
    if problem:
        raise SpecError(f"{evaluator}: weights file {p} {problem}")
    return {k: float(v) for k, v in weights.items()}


def _finite(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v)


def weights_document(evaluator: str, game: str, features: Sequence[str],
                     weights: Sequence[float], **extra: Any) -> dict[str, Any]:
    """The JSON document of a weights file (``extra``: data, losses, optimiser, ...)."""
    return {"format": WEIGHTS_FORMAT, "evaluator": evaluator, "game": game,
            "features": list(features),
            "weights": {f: float(w) for f, w in zip(features, weights)}, **extra}


class LinearEvaluator:
    """Base of the tuned evaluators: ``FEATURES`` and ``DEFAULTS`` per subclass, weights
    from the defaults overridden by a weights file. ``features(state)`` is what tuning
    reads; ``__call__`` is what search reads (an int, side to move's view)."""

    name = "linear"
    FEATURES: tuple[str, ...] = ()
    DEFAULTS: Mapping[str, float] = {}
    #: the largest weight magnitude a weights file may hold (see :func:`read_weights`)
    MAX_WEIGHT: float = math.inf

    def __init__(self, weights: str | None = None) -> None:
        w = dict(self.DEFAULTS)
        if weights is not None:
            w.update(read_weights(weights, self.name, self.FEATURES, self.MAX_WEIGHT))
        self.weights_file = weights
        self.weights = [float(w.get(f, 0.0)) for f in self.FEATURES]

    def weight_map(self) -> dict[str, float]:
        """``{feature: weight}`` in feature order."""
        return dict(zip(self.FEATURES, self.weights))

    def features(self, state) -> list[float]:  # pragma: no cover - abstract
        raise NotImplementedError

    def linear(self, state) -> float:
        """``Σ w_i φ_i``: the fitted part of the score (side to move's view)."""
        return sum(w * f for w, f in zip(self.weights, self.features(state)) if w)
