"""Kernel functions for the capabilities a game does not have (its flag is False).

The core compiles the calls only where a kernel's flag is True, but every name of the
contract must exist; a kernel without checks, null moves, noise, captures or
repetitions imports these (``from .stubs import in_check, ...``). The threat part's
(``HAS_THREATS``: ``threat_horizon``, ``threat_order``, ``threat_forced``) and the check
probes of the pruning parts (``gives_check``, ``has_attackers``, ``see``,
``capture_value``) the core takes from here
itself when a kernel does not define them.
"""
from __future__ import annotations

from .jit import jit


@jit
def gen_noisy(G, buf, n0):
    return n0


@jit
def in_check(G):
    return False


@jit
def push_null(G):
    pass


@jit
def pop_null(G):
    pass


@jit
def repeated(G):
    return False


@jit
def repetition(G):
    return -1


@jit
def is_capture(G, m):
    return False


@jit
def mvv_lva(G, m):
    return 0


@jit
def threat_horizon(G, T, ply):
    return 0, 0, -1


@jit
def threat_order(G, T, buf, sc, n0, n1, marked):
    pass


@jit
def threat_forced(G, T, buf, n0, n1):
    return n1



@jit
def gives_check(G, m):
    return False


@jit
def has_attackers(G):
    return True


@jit
def see(G, m):
    return 0


@jit
def capture_value(G, m):
    return 0
