"""The compiled backend: numba kernels for Xiangqi and Gomoku/Renju and the negamax core.

The Python reference (:mod:`gameai.games`, :mod:`gameai.search.core`) stays the readable
definition; every kernel here must give exactly its numbers (moves in the same order,
the same keys, values and counters). See :mod:`gameai.compiled.jit` for caching and the
fallback without numba.
"""
from __future__ import annotations

import importlib
from types import ModuleType

from .jit import AVAILABLE, REASON

__all__ = ["AVAILABLE", "REASON", "builtin_form", "kernel_for"]

#: game name -> kernel module in this package (gomoku.py covers gomoku and renju); the one
#: lookup perft, the search and the benchmarks share
KERNELS = {"xiangqi": "xiangqi", "gomoku": "gomoku", "renju": "gomoku",
           "synthetic": "synthetic", "tictactoe": "tictactoe"}


#: game name -> the modules (in this package) of the kernel evaluators its own core does not
#: know: ``form(ev, state)`` gives ``(function, data)`` for the evaluator it ports
#: (``xiangqi.tuned``, ``gomoku.tuned``, ``gomoku.forks``), else None
#: (:mod:`gameai.compiled.evaluator`)
FORMS = {"xiangqi": ("xiangqi_tuned",), "gomoku": ("gomoku_tuned", "gomoku_forks"),
         "renju": ("gomoku_tuned", "gomoku_forks")}


def builtin_form(ev, state) -> tuple | None:
    """The kernel evaluator and data of a built-in evaluator ported to ``state``'s kernel
    outside its core (:data:`FORMS`), or None."""
    for mod in FORMS.get(getattr(state, "name", None), ()):
        made = importlib.import_module(f"{__name__}.{mod}").form(ev, state)
        if made is not None:
            return made
    return None


def kernel_for(state) -> ModuleType | None:
    """The game-kernel module for a game object, or None when its game has none
    (:func:`gameai.compiled.search.kernel_for` turns None into a SpecError)."""
    mod = KERNELS.get(getattr(state, "name", None))
    if mod is None:
        return None
    try:
        return importlib.import_module(f"{__name__}.{mod}")
    except ModuleNotFoundError as exc:
        if exc.name == f"{__name__}.{mod}":
            return None
        raise
