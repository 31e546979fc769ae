"""The compiled backend: numba kernels for Xiangqi and Gomoku/Renju and the negamax core.

The Python reference (:mod:`gameai.games`, :mod:`gameai.search.core`) stays the readable
definition; every kernel here must give exactly its numbers (moves in the same order,
the same keys, values and counters). See :mod:`gameai.compiled.jit` for caching and the
fallback without numba.
"""
from .jit import AVAILABLE, REASON

__all__ = ["AVAILABLE", "REASON"]
