"""Perft: count the leaf nodes of the legal-move tree to a fixed depth (move-generator check).

Counts follow the movement rules only (no draw-by-rule cut-offs), as published perft
tables do. A game may offer a faster ``perft(depth)`` method (bulk counting at the last
ply); :func:`perft` uses full make/unmake at every leaf unless ``bulk=True``.
``backend="compiled"`` counts with the game's numba kernel (:mod:`gameai.compiled`): the
same numbers, bulk or not, much faster.
"""
from __future__ import annotations

import typing

from ..errors import SpecError
from ..spec import Depth
from .protocol import GameState, fast_push


BACKENDS = ("python", "compiled")
#: Deepest perft counted: the spec system's depth bound (a count that deep never ends
#: anyway; beyond it a typo such as 10**20 would run for ever).
MAX_DEPTH = int(typing.get_args(Depth)[1].hi)


def check_depth(depth: typing.Any, lo: int = 0) -> int:
    """``depth`` if it is an integer in ``[lo, MAX_DEPTH]``; a :class:`SpecError` naming
    it otherwise (so a CLI can refuse it before counting the shallower depths)."""
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise SpecError(f"perft depth must be an integer, got {depth!r}")
    if not lo <= depth <= MAX_DEPTH:
        raise SpecError(f"perft depth must be >= {lo} and <= {MAX_DEPTH}, got {depth}")
    return depth


def perft(state: GameState, depth: int, bulk: bool = False, backend: str = "python") -> int:
    """Number of legal move sequences of length ``depth`` from ``state`` (state unchanged).

    ``backend="compiled"`` uses the game's compiled kernel (SpecError for a game without
    one); without numba it falls back to the Python count with one warning."""
    if backend not in BACKENDS:
        raise SpecError(f"perft backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    check_depth(depth)
    if backend == "compiled":     # the compiled backend's one seam, loaded by name
        from .. import registry
        count = registry.BACKENDS.factory("compiled")().perft(state, depth, bulk)
        if count is not None:
            return count
    if bulk and hasattr(state, "perft"):
        return state.perft(depth)
    return _perft(state, depth)


def _perft(state: GameState, depth: int) -> int:
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        # Full make/unmake at each leaf, so the count measures push/pop too.
        push, pop = fast_push(state), state.pop
        for m in moves:
            push(m)
            pop()
        return len(moves)
    total = 0
    push, pop = fast_push(state), state.pop
    for m in moves:
        push(m)
        total += _perft(state, depth - 1)
        pop()
    return total


def divide(state: GameState, depth: int) -> dict[str, int]:
    """Perft per root move (move text -> count), for comparing with another generator."""
    check_depth(depth, lo=1)
    out: dict[str, int] = {}
    push = fast_push(state)
    for m in state.legal_moves():
        push(m)
        out[state.move_str(m)] = _perft(state, depth - 1)
        state.pop()
    return out
