"""The weighted sum of a linear evaluator, as Python computes it, for the compiled kernels.

:class:`gameai.evaluators.linear.LinearEvaluator` scores ``int(round(sum(w * f for w, f in
zip(weights, features) if w)))``. A float sum depends on its order and on how it adds:
CPython's ``sum`` adds plainly before 3.12 and with Neumaier's compensation from 3.12 on
(the first float term is taken as it is, each later one compensated, the compensation
added at the end when finite). :func:`linear_sum` does exactly that, so that a kernel's
value is the Python value bit for bit (``compensated`` is :data:`COMPENSATED`, passed in
the evaluator's data so that the kernel does not depend on the Python it was cached by).
Rounding is half to even in both (``round`` and ``np.rint``).
"""
from __future__ import annotations

import sys

import numpy as np

from .jit import jit

#: does this Python's ``sum`` of floats compensate (Neumaier, CPython 3.12+)?
COMPENSATED = sys.version_info >= (3, 12)


@jit(_nrt=False, inline="always")
def linear_sum(w, f, n, compensated):
    """``sum(w[i] * f[i] for i in range(n) if w[i])`` in CPython's order and arithmetic."""
    s = 0.0
    c = 0.0
    first = True
    for i in range(n):
        if w[i] != 0.0:
            x = w[i] * f[i]
            if first:
                s = x
                first = False
            elif compensated:
                t = s + x
                if abs(s) >= abs(x):
                    c += (s - t) + x
                else:
                    c += (x - t) + s
                s = t
            else:
                s += x
    if compensated and c != 0.0 and np.isfinite(c):
        s += c
    return s


@jit(_nrt=False, inline="always")
def round_half_even(x):
    """Python's ``int(round(x))`` for a float far inside the int64 range."""
    return np.int64(np.rint(x))
