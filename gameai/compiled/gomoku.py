"""Compiled Gomoku/Renju kernel: the game kernel contract of :mod:`gameai.compiled` for
:class:`gameai.games.gomoku.Gomoku` (freestyle, standard and renju, any size 5..26).

Every function gives exactly the Python reference's answer (moves in the same order, the
same keys, results and Renju judgements); :mod:`gameai.games.gomoku_rules` is the
readable definition of the rules ported here step by step.

Layout (why): ``G`` is a tuple of 1-D int64 arrays (one numba type for every board size,
rule and radius, so each function compiles once), with the Python game's flat board and
sentinel border (``geometry(size)``: stride ``W = size + 1``, ``WALL`` cells), so a line
walk stops at the border without bounds checks. The candidate set of the Python game
(empty points within ``radius`` of a stone) is kept as a per-cell stone count ``near``:
generating moves is one scan of the board in index order, which *is* ``sorted(cand)``.
No per-node allocation: the caller passes the move buffer.
"""
from __future__ import annotations

import numpy as np

from ..games.gomoku_rules import BLACK, EMPTY, geometry
from .jit import jit

MAX_MOVES = 26 * 26                         # every point of the largest board
HISTORY_SIZE = 2 * geometry(26).ncells      # history_key < 2 * ncells for every size
HAS_CHECK = False
HAS_NULL = False                            # the Python game offers no pass
HAS_NOISY = True
HAS_CAPTURE = False
HAS_REPEAT = False

RULE_IDS = {"freestyle": 0, "standard": 1, "renju": 2}
FORBIDDEN_NAMES = (None, "overline", "double-four", "double-three")

# G = (PAR, BOARD, NEAR, BNEAR, CODES, ST, PLACED, WSTACK, NEIGH, LNEIGH, CLINE, ZOB, CELLS)
PAR, BOARD, NEAR, BNEAR, CODES, ST, PLACED, WSTACK, NEIGH, LNEIGH, CLINE, ZOB, CELLS = range(13)
# PAR fields
P_SIZE, P_W, P_NCELLS, P_RULE, P_RADIUS, P_FULL, P_CENTRE, P_EXW, P_EXB, P_NLINES, \
    P_NSTRIDE, P_AREA, P_DIR = range(13)   # P_DIR..P_DIR+3: the four directions
NPAR = P_DIR + 4
# ST fields: key, stones placed, moves pushed, winner (-1 none)
S_KEY, S_NPLACED, S_NMOVES, S_WINNER = range(4)
LSTRIDE = 33                                # LNEIGH per cell: count, then <= 32 cells
# forbidden_at codes
F_NONE, F_OVERLINE, F_DOUBLE_FOUR, F_DOUBLE_THREE = range(4)


# ------------------------------------------------------------------ loading (Python level)
def _i64(values) -> np.ndarray:
    return np.array([v - (1 << 64) if v >= 1 << 63 else v for v in values], dtype=np.int64)


def load(state) -> tuple:
    """The kernel state for a Python Gomoku/Renju game (its stones, moves, key, winner)."""
    geo = state.geo
    n, nc = geo.size, geo.ncells
    par = np.zeros(NPAR, dtype=np.int64)
    par[P_SIZE], par[P_W], par[P_NCELLS] = n, geo.W, nc
    par[P_RULE], par[P_RADIUS], par[P_FULL] = RULE_IDS[state.rule], state.radius, state.full_board
    par[P_CENTRE] = geo.index(n // 2, n // 2)
    par[P_EXW], par[P_EXB] = state._exact
    par[P_NLINES], par[P_AREA] = len(geo.lines), n * n
    par[P_DIR:P_DIR + 4] = geo.dirs
    board = np.array(state.board, dtype=np.int64)
    neigh_t = geo.neighbours(state.radius)
    stride = (2 * state.radius + 1) ** 2      # count, then <= (2r+1)^2 - 1 cells
    par[P_NSTRIDE] = stride
    neigh = np.zeros(nc * stride, dtype=np.int64)
    lneigh = np.zeros(nc * LSTRIDE, dtype=np.int64)
    cline = np.full(nc * 8, -1, dtype=np.int64)  # per cell 4 x (line id, 3**pos)
    for i in geo.cells:
        t = neigh_t[i]
        neigh[i * stride] = len(t)
        neigh[i * stride + 1:i * stride + 1 + len(t)] = t
        t = geo.line_neigh[i]
        lneigh[i * LSTRIDE] = len(t)
        lneigh[i * LSTRIDE + 1:i * LSTRIDE + 1 + len(t)] = t
        for k, (lid, pw) in enumerate(geo.cell_lines[i]):
            cline[i * 8 + 2 * k], cline[i * 8 + 2 * k + 1] = lid, pw
    near = np.zeros(nc, dtype=np.int64)
    bnear = np.zeros(nc, dtype=np.int64)
    for i in geo.cells:
        if board[i] in (0, 1):
            near[list(neigh_t[i])] += 1
            if board[i] == BLACK and state.rule == "renju":
                np.add.at(bnear, list(geo.line_neigh[i]), 1)
    area = n * n
    placed = np.zeros(area + 1, dtype=np.int64)
    placed[:len(state.placed)] = state.placed
    wstack = np.full(area + 1, -1, dtype=np.int64)
    base = len(state.placed) - len(state.move_stack)
    for k, undo in enumerate(state._undo):
        wstack[base + k] = -1 if undo[2] is None else undo[2]
    st = np.zeros(4, dtype=np.int64)
    st[S_KEY] = _i64([state.key])[0]
    st[S_NPLACED], st[S_NMOVES] = len(state.placed), len(state.move_stack)
    st[S_WINNER] = -1 if state._winner is None else state._winner
    zob = _i64(state._z)
    return (par, board, near, bnear, np.array(state.line_codes, dtype=np.int64), st, placed,
            wstack, neigh, lneigh, cline, zob, np.array(geo.cells, dtype=np.int64))


# ------------------------------------------------------------------ rules (gomoku_rules)
@jit
def run_length(board, p, d, color):
    """Stones of ``color`` in the unbroken row through ``p`` along ``d`` (``p`` counted)."""
    n = 1
    i = p + d
    while board[i] == color:
        n += 1
        i += d
    i = p - d
    while board[i] == color:
        n += 1
        i -= d
    return n


@jit
def makes_five(board, p, par, color, exact):
    """Would a ``color`` stone on ``p`` make five (exactly five if ``exact``)?"""
    for k in range(4):
        n = run_length(board, p, par[P_DIR + k], color)
        if n == 5 or (n > 5 and not exact):
            return True
    return False


@jit
def near_count(board, p, d, color):
    """``_black_near``: stones of ``color`` within 4 steps of ``p`` on line ``d``, not past
    another stone or the wall."""
    n = 0
    for s in (d, -d):
        i = p + s
        for _ in range(4):
            v = board[i]
            if v == color:
                n += 1
            elif v != EMPTY:
                break
            i += s
    return n


@jit
def five_points(board, p, d, color, exact):
    """``five_points``: empty cells completing five through ``p`` (holding ``color``) along
    ``d``; returns (how many, lowest, highest) so that no list is built."""
    n = 0
    lo = hi = -1
    for s in (d, -d):
        i = p + s
        for _ in range(4):
            v = board[i]
            if v == EMPTY:
                board[i] = color
                r = run_length(board, p, d, color)
                board[i] = EMPTY
                if r == 5 or (r > 5 and not exact):
                    n += 1
                    if lo < 0 or i < lo:
                        lo = i
                    if i > hi:
                        hi = i
            elif v != color:
                break
            i += s
    return n, lo, hi


@jit
def count_fours(board, p, d, color, exact):
    """Fours through ``p`` on one line; a straight four (two five-points 5 apart) is one."""
    n, a, b = five_points(board, p, d, color, exact)
    if n == 2 and b - a == 5 * d:
        for k in range(1, 5):
            if board[a + k * d] != color:
                return n
        return 1
    return n


@jit
def is_straight_four(board, p, d, color, exact):
    """Is the row through ``p`` along ``d`` exactly four stones with a five-point at each end?"""
    lo = p
    while board[lo - d] == color:
        lo -= d
    hi = p
    while board[hi + d] == color:
        hi += d
    if hi - lo != 3 * d:
        return False
    a, b = lo - d, hi + d
    if board[a] != EMPTY or board[b] != EMPTY:
        return False
    if exact and (board[a - d] == color or board[b + d] == color):
        return False
    return True


@jit
def maybe_forbidden(board, p, par):
    """Cheap necessary condition for ``forbidden_at`` (as gomoku_rules.maybe_forbidden)."""
    lines2 = 0
    for k in range(4):
        n = near_count(board, p, par[P_DIR + k], BLACK)
        if n >= 4:
            return True
        if n >= 2:
            lines2 += 1
    return lines2 >= 2


@jit
def forbidden_at(board, p, par):
    """RIF judgement of a black stone on empty ``p``: F_NONE or the forbidden shape's code.

    gomoku_rules.forbidden_at with ``_is_three`` inlined (a three's key point q must not be
    forbidden itself: judged recursively with p on the board). Board restored on return.
    """
    board[p] = BLACK
    over = False
    for k in range(4):
        n = run_length(board, p, par[P_DIR + k], BLACK)
        if n == 5:
            board[p] = EMPTY
            return F_NONE  # five wins even with a forbidden shape
        if n > 5:
            over = True
    if over:
        board[p] = EMPTY
        return F_OVERLINE
    fours = 0
    four_dirs = 0                           # bit k: a four on direction k
    for k in range(4):
        d = par[P_DIR + k]
        if near_count(board, p, d, BLACK) >= 3:
            c = count_fours(board, p, d, BLACK, True)
            if c:
                fours += c
                four_dirs |= 1 << k
    if fours >= 2:
        board[p] = EMPTY
        return F_DOUBLE_FOUR
    threes = 0
    for k in range(4):
        d = par[P_DIR + k]
        if (four_dirs >> k) & 1 or near_count(board, p, d, BLACK) < 2:
            continue
        three = False                       # _is_three(board, p, d)
        for s in (d, -d):
            q = p + s
            for _ in range(4):
                v = board[q]
                if v == EMPTY:
                    board[q] = BLACK
                    ok = is_straight_four(board, p, d, BLACK, True)
                    board[q] = EMPTY
                    if ok and not makes_five(board, q, par, BLACK, True) \
                            and forbidden_at(board, q, par) == F_NONE:
                        three = True
                        break
                elif v != BLACK:
                    break
                q += s
            if three:
                break
        if three:
            threes += 1
            if threes >= 2:
                board[p] = EMPTY
                return F_DOUBLE_THREE
    board[p] = EMPTY
    return F_NONE


@jit
def makes_four(board, p, par, color, exact):
    """Would a ``color`` stone on empty ``p`` make a four (or five) on some line?"""
    board[p] = color
    found = False
    for k in range(4):
        d = par[P_DIR + k]
        if near_count(board, p, d, color) >= 3 and five_points(board, p, d, color, exact)[0]:
            found = True
            break
    board[p] = EMPTY
    return found


@jit
def forbidden(G, p):
    """``state.forbidden(p)`` as a code (index into FORBIDDEN_NAMES); ``p`` must be empty."""
    return forbidden_at(G[BOARD], p, G[PAR])


# ------------------------------------------------------------------ the contract
@jit
def side(G):
    return G[ST][S_NPLACED] & 1


@jit
def key(G):
    return G[ST][S_KEY]


@jit
def exact_for(par, color):
    """The Python game's ``_exact[color == BLACK]``: must ``color``'s five be exactly five?"""
    return par[P_EXB] != 0 if color == BLACK else par[P_EXW] != 0


@jit
def _stone(G, m, color, sign):
    """Add (sign 1) or take away (sign -1) a ``color`` stone's traces at ``m``: key,
    candidate counts, line codes and Renju's black counts (the board itself is the caller's)."""
    par = G[PAR]
    zob = G[ZOB]
    G[ST][S_KEY] ^= zob[2 * m + color] ^ zob[2 * par[P_NCELLS]]
    near, neigh, stride = G[NEAR], G[NEIGH], par[P_NSTRIDE]
    b0 = m * stride
    for j in range(b0 + 1, b0 + 1 + neigh[b0]):
        near[neigh[j]] += sign
    codes, cline = G[CODES], G[CLINE]
    for k in range(4):
        lid = cline[m * 8 + 2 * k]
        if lid >= 0:
            codes[lid] += sign * (color + 1) * cline[m * 8 + 2 * k + 1]
    if color == BLACK and par[P_RULE] == 2:
        bnear, ln = G[BNEAR], G[LNEIGH]
        b0 = m * LSTRIDE
        for j in range(b0 + 1, b0 + 1 + ln[b0]):
            bnear[ln[j]] += sign


@jit
def push(G, m):
    """``push_unchecked``: the stone, its traces (``_stone``), and the winner flag."""
    par, board, st = G[PAR], G[BOARD], G[ST]
    n = st[S_NPLACED]
    color = n & 1
    board[m] = color
    G[PLACED][n] = m
    G[WSTACK][n] = st[S_WINNER]
    st[S_NPLACED] = n + 1
    st[S_NMOVES] += 1
    _stone(G, m, color, 1)
    if st[S_WINNER] < 0 and makes_five(board, m, par, color, exact_for(par, color)):
        st[S_WINNER] = color


@jit
def pop(G):
    """Take back the last move (the winner flag comes back from the stack)."""
    st = G[ST]
    n = st[S_NPLACED] - 1
    m = G[PLACED][n]
    G[BOARD][m] = EMPTY
    st[S_WINNER] = G[WSTACK][n]
    st[S_NPLACED] = n
    st[S_NMOVES] -= 1
    _stone(G, m, n & 1, -1)
    return m


@jit
def result(G):
    """-1 while the game goes on, 0/1 the winner (a five per the rule), 2 a full board."""
    st = G[ST]
    if st[S_WINNER] >= 0:
        return st[S_WINNER]
    if st[S_NPLACED] == G[PAR][P_AREA]:
        return 2
    return -1


@jit
def candidates(G, buf, n0):
    """Python ``legal_moves()`` before the Renju filter: sorted candidates, the centre on an
    empty board, or every empty point (full_board, or no candidate left)."""
    par, board, cells = G[PAR], G[BOARD], G[CELLS]
    n = n0
    if par[P_FULL] == 0:
        near = G[NEAR]
        for i in cells:
            if near[i] > 0 and board[i] == EMPTY:
                buf[n] = i
                n += 1
        if n > n0:
            return n
        if G[ST][S_NPLACED] == 0:
            buf[n0] = par[P_CENTRE]
            return n0 + 1
    for i in cells:
        if board[i] == EMPTY:
            buf[n] = i
            n += 1
    return n


@jit
def gen_moves(G, buf, n0):
    """Exactly ``state.legal_moves()`` into ``buf[n0:n1]``; returns n1."""
    par, st = G[PAR], G[ST]
    if st[S_WINNER] >= 0:
        return n0
    n = candidates(G, buf, n0)
    if par[P_RULE] != 2 or st[S_NPLACED] & 1:
        return n
    board, bnear = G[BOARD], G[BNEAR]
    k = n0        # every forbidden shape needs >= 4 other black stones on p's lines nearby
    for j in range(n0, n):
        m = buf[j]
        if bnear[m] < 4 or not maybe_forbidden(board, m, par) or forbidden_at(board, m, par) == F_NONE:
            buf[k] = m
            k += 1
    if k == n0:   # every nearby point forbidden: look at the whole board
        for m in G[CELLS]:
            if board[m] == EMPTY and forbidden_at(board, m, par) == F_NONE:
                buf[k] = m
                k += 1
    return k


@jit
def gen_noisy(G, buf, n0):
    """Exactly ``state.noisy_moves()``: legal moves making a four/five, or blocking a five."""
    n = gen_moves(G, buf, n0)
    par, board = G[PAR], G[BOARD]
    me = G[ST][S_NPLACED] & 1
    ex_me, ex_op = exact_for(par, me), exact_for(par, 1 - me)
    k = n0
    for j in range(n0, n):
        m = buf[j]
        if makes_four(board, m, par, me, ex_me) or makes_five(board, m, par, 1 - me, ex_op):
            buf[k] = m
            k += 1
    return k


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
def is_capture(G, m):
    return False


@jit
def mvv_lva(G, m):
    return 0


@jit
def history_key(G, m, with_piece):
    """Point, or point and colour: < 2 * ncells (HISTORY_SIZE bounds every size)."""
    if with_piece:
        return m + G[PAR][P_NCELLS] * (G[ST][S_NPLACED] & 1)
    return m


@jit
def _perft(G, depth, buf, n0):
    if depth == 0:
        return 1
    n1 = gen_moves(G, buf, n0)
    if depth == 1:
        for j in range(n0, n1):     # full make/unmake at each leaf, like gameai.games.perft
            push(G, buf[j])
            pop(G)
        return n1 - n0
    total = 0
    for j in range(n0, n1):
        push(G, buf[j])
        total += _perft(G, depth - 1, buf, n1)
        pop(G)
    return total


@jit
def perft(G, depth):
    """Legal-move leaves to ``depth`` (as :func:`gameai.games.perft`)."""
    buf = np.empty(MAX_MOVES * (depth + 1), dtype=np.int64)
    # exact int64 arguments: a cached recursive function called with other integer types
    # (a literal 0) crashes when loaded from the cache (numba issue 6713)
    return _perft(G, np.int64(depth), buf, np.int64(0))


# The evaluators live in gomoku_eval (they use the rule kernels above, hence the late import).
from .gomoku_eval import evaluate, evaluator  # noqa: E402,F401
