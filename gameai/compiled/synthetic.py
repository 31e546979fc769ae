"""Kernel of the synthetic uniform trees (:mod:`gameai.games.synthetic`), exactly.

The same keys (splitmix64 of the path), the same goodness permutations (CPython's
Mersenne Twister seeded as ``random.Random(key ^ seed)``, its ``shuffle``, ``random`` and
``randrange``, mirrored here) and the same leaf values, so a compiled search of a
synthetic tree visits exactly the nodes the Python one does. It exercises the core's TT,
history, killers, deepening, aspiration and MTD(f) without any game rules.

State ``G`` (see :func:`load`): ``(p, prob, pw, tail, path, ranks, keys, perms, pvalid, mt)``;
``p = [B, D, seed, ordering kind, K, coarse, offset, leaves, n]`` with ``n`` the path length.
"""
from __future__ import annotations

import numpy as np

from ..errors import SpecError
from .jit import jit
from .stubs import (gen_noisy, in_check, is_capture, mvv_lva, pop_null,  # noqa: F401
                    push_null, repeated, repetition)

MAX_MOVES = 256          #: widest tree the kernel takes (buffer sizing)
HAS_CHECK = HAS_NULL = HAS_NOISY = HAS_CAPTURE = HAS_REPEAT = False
_B, _D, _SEED, _KIND, _K, _COARSE, _OFFSET, _LEAVES, _N = range(9)
_BEST, _WORST, _RANDOM, _PROB = range(4)
_LIMIT = 10 ** 8
_M32 = np.uint64(0xFFFFFFFF)
EXACT_KIND = 0           #: evaluator kind ids
ZERO_KIND = 1


def load(state):
    """The kernel state of a Python :class:`~gameai.games.synthetic.Synthetic` tree."""
    B, D, seed, o = state.B, state.D, state.seed, state.ordering
    if B > MAX_MOVES:
        raise SpecError(f"backend=compiled: synthetic branching {B} exceeds the kernel's {MAX_MOVES}")
    if not -(1 << 63) <= seed < 1 << 63:
        raise SpecError("backend=compiled: synthetic seed must fit in 64 bits")
    if state._leaves * 2 * _LIMIT >= 1 << 63:
        raise SpecError(f"backend=compiled: synthetic tree {B}**{D} is too large for 64-bit values")
    kind = {"best": _BEST, "worst": _WORST, "random": _RANDOM}.get(o, _PROB) if isinstance(o, str) \
        else _PROB
    n = len(state.path)
    p = np.array([B, D, seed, kind, state.K, int(state.coarse), state.offset, state._leaves, n],
                 np.int64)
    prob = np.array([0.0 if isinstance(o, str) else float(o)])
    pw = np.array(state._pow + [0], np.int64)
    tail = np.array(state._tail, np.int64)
    path = np.zeros(D + 1, np.int64)
    path[:n] = state.path
    ranks = np.zeros(D + 2, np.int64)
    ranks[:n + 1] = state._ranks
    keys = np.zeros(D + 2, np.uint64)
    keys[:n + 1] = [np.uint64(k) for k in state._keys]
    return (p, prob, pw, tail, path, ranks, keys, np.zeros((D + 3, B), np.int64),
            np.zeros(D + 2, np.int8), np.zeros(628, np.uint64))


def evaluator(ev, state):
    """``synthetic.exact`` and ``zero`` have a kernel form."""
    name = getattr(ev, "name", None)
    if name == "synthetic.exact" and type(ev).__module__ == "gameai.evaluators.synthetic":
        return (EXACT_KIND,)
    if name == "zero" and type(ev).__module__ == "gameai.evaluators.basic":
        return (ZERO_KIND,)
    return None


# --- CPython's Mersenne Twister (Modules/_randommodule.c) -----------------------------

@jit
def _init_genrand(mt, s):
    mt[0] = s & _M32
    for i in range(1, 624):
        mt[i] = (np.uint64(1812433253) * (mt[i - 1] ^ (mt[i - 1] >> np.uint64(30)))
                 + np.uint64(i)) & _M32


@jit
def _seed(mt, lo, neg):
    """``random.Random(x)`` for ``x`` with low 64 bits ``lo`` (``neg``: x < 0, |x| <= 2**64)."""
    if neg:
        lo = ~lo + np.uint64(1)                 # |x| (2**64 when lo == 0: three words)
    w = 625                                     # key words in mt[625:628] (no allocation:
    mt[w], mt[w + 1], mt[w + 2] = lo & _M32, lo >> np.uint64(32), 0   # the core has no NRT)
    nk = 1 if mt[w + 1] == 0 else 2
    if neg and lo == 0:
        mt[w + 2], nk = 1, 3
    _init_genrand(mt, np.uint64(19650218))
    i, j = 1, 0
    for _ in range(max(624, nk)):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> np.uint64(30))) * np.uint64(1664525)))
                 + mt[w + j] + np.uint64(j)) & _M32
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= nk:
            j = 0
    for _ in range(623):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> np.uint64(30))) * np.uint64(1566083941)))
                 - np.uint64(i)) & _M32
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
    mt[0] = np.uint64(0x80000000)
    mt[624] = 624                               # next index


@jit
def _genrand(mt):
    if mt[624] >= 624:
        for k in range(624):
            y = (mt[k] & np.uint64(0x80000000)) | (mt[(k + 1) % 624] & np.uint64(0x7FFFFFFF))
            v = mt[(k + 397) % 624] ^ (y >> np.uint64(1))
            if y & np.uint64(1):
                v ^= np.uint64(0x9908B0DF)
            mt[k] = v
        mt[624] = 0
    y = mt[mt[624]]
    mt[624] += np.uint64(1)
    y ^= y >> np.uint64(11)
    y ^= (y << np.uint64(7)) & np.uint64(0x9D2C5680)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    y ^= y >> np.uint64(18)
    return y & _M32


@jit
def _randbelow(mt, n):
    k = 0
    while (n >> k) > 0:
        k += 1
    r = np.int64(_genrand(mt) >> np.uint64(32 - k))
    while r >= n:
        r = np.int64(_genrand(mt) >> np.uint64(32 - k))
    return r


@jit
def _random(mt):
    a = _genrand(mt) >> np.uint64(5)
    b = _genrand(mt) >> np.uint64(6)
    return (float(a) * 67108864.0 + float(b)) * (1.0 / 9007199254740992.0)


@jit
def _shuffle(x, n, mt):
    for i in range(n - 1, 0, -1):
        j = _randbelow(mt, i + 1)
        x[i], x[j] = x[j], x[i]


# --- the tree --------------------------------------------------------------------------

@jit
def _mix(x):
    """splitmix64 finaliser (as gameai.games.synthetic._mix), on uint64."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@jit
def _goodness(G, m):
    """Goodness rank of child ``m`` at the current node (the ranks cached per level)."""
    p, prob, _pw, _tail, _path, _ranks, keys, perms, pvalid, mt = G
    n = p[_N]
    perm = perms[n]
    if pvalid[n]:
        return perm[m]
    B, kind = p[_B], p[_KIND]
    if kind == _BEST:
        for j in range(B):
            perm[j] = B - 1 - j
    elif kind == _WORST:
        for j in range(B):
            perm[j] = j
    else:
        seed = p[_SEED]
        _seed(mt, keys[n] ^ np.uint64(seed), seed < 0)
        if kind == _RANDOM:
            for j in range(B):
                perm[j] = j
            _shuffle(perm, B, mt)
        else:
            best_at = 0
            if B != 1 and not _random(mt) < prob[0]:
                best_at = 1 + _randbelow(mt, B - 1)
            rest = perms[len(perms) - 1]      # scratch row
            for j in range(B - 1):
                rest[j] = j
            _shuffle(rest, B - 1, mt)
            for j in range(best_at):
                perm[j] = rest[j]
            perm[best_at] = B - 1
            for j in range(best_at, B - 1):
                perm[j + 1] = rest[j]
    pvalid[n] = 1
    return perm[m]


@jit
def side(G):
    return G[0][_N] & 1


@jit
def key(G):
    return np.int64(G[6][G[0][_N]])


@jit
def gen_moves(G, buf, n0):
    p = G[0]
    if p[_N] >= p[_D]:
        return n0
    for j in range(p[_B]):
        buf[n0 + j] = j
    return n0 + p[_B]


@jit
def push(G, m):
    p, _prob, pw, _tail, path, ranks, keys, _perms, pvalid, _mt = G
    k = p[_N]
    g = _goodness(G, m)
    digit = g if k % 2 == 0 else p[_B] - 1 - g
    ranks[k + 1] = ranks[k] + digit * pw[k]
    keys[k + 1] = _mix(keys[k] ^ (np.uint64(m + 1) * np.uint64(0x100000001B3)))
    pvalid[k + 1] = 0
    path[k] = m
    p[_N] = k + 1


@jit
def pop(G):
    G[0][_N] -= 1


@jit
def result(G):
    return -1


@jit
def history_key(G, m, with_piece):
    return m + G[0][_B] * (G[0][_N] & 1) if with_piece else m


@jit
def HISTORY_SIZE(G):
    return 2 * G[0][_B]


@jit
def _leaf_value(p, rank):
    if p[_COARSE]:
        return rank * (2 * _LIMIT - 2) // (p[_LEAVES] - 1) - p[_OFFSET]
    K = p[_K]
    noise = 0
    if K > 1:
        noise = np.int64(_mix(np.uint64(rank) * np.uint64(0x9E3779B1) ^ np.uint64(p[_SEED]))
                         % np.uint64(K))
    return K * rank + noise - p[_OFFSET]


@jit
def evaluate(G, E):
    if E[0] != EXACT_KIND:
        return 0
    p, ranks, tail = G[0], G[5], G[3]
    d = p[_N]
    v = _leaf_value(p, ranks[d] + tail[d])
    return v if d % 2 == 0 else -v


@jit
def perft(G, depth):
    if depth == 0:
        return 1
    p = G[0]
    if p[_N] >= p[_D]:
        return 0
    return p[_B] ** depth if p[_D] - p[_N] >= depth else 0
