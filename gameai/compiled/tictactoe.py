"""Kernel of noughts and crosses (:mod:`gameai.games.tictactoe`), exactly.

The smallest game with wins, losses and draws: it checks the compiled core's terminal
scoring (``mate_ply``, mate-distance pruning) against the Python reference. State ``G``:
``(board, stack, winners, st, z, lines)``: ``st = [plies, winner (-1 none), key]``,
``winners`` the winner before each push, ``z`` the Python game's Zobrist keys.
"""
from __future__ import annotations

import numpy as np

from ..games import tictactoe as py
from .jit import jit
from .stubs import (gen_noisy, in_check, is_capture, mvv_lva, pop_null,  # noqa: F401
                    push_null, repeated, repetition)

MAX_MOVES = 9
HISTORY_SIZE = 18
HAS_CHECK = HAS_NULL = HAS_NOISY = HAS_CAPTURE = HAS_REPEAT = False
_LINES = np.array(py._LINES, np.int64)
_Z = np.array([np.int64(np.uint64(k)) for k in py._Z], np.int64)


def load(state):
    """The kernel state of a Python :class:`~gameai.games.tictactoe.TicTacToe`."""
    board = np.array(state.board, np.int64)
    stack = np.zeros(10, np.int64)
    stack[:len(state.stack)] = state.stack
    winners = np.full(10, -1, np.int64)
    winners[:len(state._winners)] = [-1 if w is None else w for w in state._winners]
    w = -1 if state._winner is None else state._winner
    key = np.int64(np.uint64(state.key))
    return board, stack, winners, np.array([len(state.stack), w, key], np.int64), _Z, _LINES


def evaluator(ev, state):
    """Only the zero evaluator (``tictactoe.zero``, ``zero``) has a kernel form."""
    if getattr(ev, "name", None) in ("zero", "tictactoe.zero") \
            and type(ev).__module__ == "gameai.evaluators.basic":
        return (0,)
    return None


@jit
def side(G):
    return G[3][0] & 1


@jit
def key(G):
    return G[3][2]


@jit
def gen_moves(G, buf, n0):
    board, st = G[0], G[3]
    if st[1] >= 0:
        return n0
    n = n0
    for c in range(9):
        if board[c] < 0:
            buf[n] = c
            n += 1
    return n


@jit
def push(G, m):
    board, stack, winners, st, z, lines = G
    p = st[0] & 1
    board[m] = p
    stack[st[0]] = m
    winners[st[0]] = st[1]
    st[0] += 1
    st[2] ^= z[2 * m + p] ^ z[18]
    if st[1] < 0:
        for li in range(8):
            a, b, d = lines[li, 0], lines[li, 1], lines[li, 2]
            if (a == m or b == m or d == m) and board[a] == p and board[b] == p and board[d] == p:
                st[1] = p
                break


@jit
def pop(G):
    board, stack, winners, st, z, _ = G
    st[0] -= 1
    m = stack[st[0]]
    p = st[0] & 1
    board[m] = -1
    st[2] ^= z[2 * m + p] ^ z[18]
    st[1] = winners[st[0]]


@jit
def result(G):
    st = G[3]
    if st[1] >= 0:
        return st[1]
    return 2 if st[0] == 9 else -1


@jit
def history_key(G, m, with_piece):
    return m + 9 * (G[3][0] & 1) if with_piece else m


@jit
def evaluate(G, E):
    return 0


@jit
def perft(G, depth):
    if depth == 0:
        return 1
    buf = np.empty(9, np.int64)
    n = gen_moves(G, buf, 0)
    if depth == 1:
        return n
    total = 0
    for j in range(n):
        push(G, buf[j])
        total += perft(G, depth - 1)
        pop(G)
    return total
