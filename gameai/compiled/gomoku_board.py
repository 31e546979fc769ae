"""Compiled Gomoku/Renju board and rules: everything of the game kernel contract but the
evaluators (:mod:`gameai.compiled.gomoku` gathers both), for
:class:`gameai.games.gomoku.Gomoku` (freestyle, standard and renju, any size 5..26).

Every function gives exactly the Python reference's answer (moves in the same order, the
same keys, results and Renju judgements); :mod:`gameai.games.gomoku_rules` is the
readable definition of the rules ported here step by step.

Layout (why): ``G = (g,)`` with ``g`` ONE flat int64 array holding every region at a
fixed offset laid out for the largest board. One array because every array a numba
function takes out of a tuple costs an atomic reference-count pair, which measured
several times the work of a push when G was a tuple of 13 arrays; fixed offsets so the
compiler folds them. The board comes first, so ``g[p]`` *is* the Python game's flat
board (``geometry(size)``: stride ``W = size + 1``, ``WALL`` border), and a line walk
stops at the border without bounds checks. The Python game's candidate set (empty points
within ``radius`` of a stone) is a per-cell stone count ``near`` plus a bitset of the
candidates kept on push/pop: moves are read off the bitset in index order, which *is*
``sorted(cand)``. No per-node allocation: the caller passes the move buffer.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..games.gomoku_rules import BLACK, EMPTY, WALL, geometry
from .jit import AVAILABLE, jit

if AVAILABLE:
    from numba.cpython.unsafe.numbers import trailing_zeros
else:  # the module still imports (and runs, slowly) without numba
    def trailing_zeros(x: int) -> int:
        return (x & -x).bit_length() - 1

MAX_MOVES = 26 * 26                         # every point of the largest board
HISTORY_SIZE = 2 * geometry(26).ncells      # history_key < 2 * ncells for every size
HAS_CHECK = False
HAS_NULL = False                            # the Python game offers no pass
HAS_NOISY = True
HAS_CAPTURE = False
HAS_REPEAT = False

RULE_IDS = {"freestyle": 0, "standard": 1, "renju": 2}
RENJU = 2
FORBIDDEN_NAMES = (None, "overline", "double-four", "double-three")
F_NONE, F_OVERLINE, F_DOUBLE_FOUR, F_DOUBLE_THREE = range(4)

# ---- regions of g (sizes for the 26x26 board: ncells = 757)
NCM = 768                                   # >= ncells, a multiple of 64
NWORDS = NCM // 64                          # bitset words
BOARD = 0                                   # g[p]: the board itself
NEAR = BOARD + NCM                          # stones within `radius` (Chebyshev) of p
BNEAR = NEAR + NCM                          # renju: black stones <= 4 steps along p's lines
H = BNEAR + NCM                             # header, fields below
CODES = H + 64                              # line codes (state.line_codes)
PLACED = CODES + 160                        # every stone, setup stones first
WSTACK = PLACED + 680                       # winner before the stone at the same index
CAND = WSTACK + 680                         # bitset: empty and near > 0
EMPT = CAND + NWORDS                        # bitset: empty on-board points
CLINE = EMPT + NWORDS                       # per cell 4 x (line id or -1, 3**pos)
ZOB = CLINE + 8 * NCM                       # Zobrist keys, 2 * ncells + 1 (side last)
LOGSIZE = 256
LOG = ZOB + 2 * NCM                         # ring: ids of the lines push/pop changed
G_SIZE = LOG + LOGSIZE
# header fields (g[H + ...])
SIZE, WIDTH, NCELLS, RULE, RADIUS, FULL, CENTRE, EXW, EXB, NLINES, AREA, NWORD, \
    KEY, NPLACED, NMOVES, WINNER, DIR = range(17)          # DIR..DIR+3: the directions
GID, LOGN = DIR + 4, DIR + 5      # this state's id (one per load), line changes logged so far
_GIDS = itertools.count(1)


# ------------------------------------------------------------------ loading (Python level)
def _i64(v: int) -> int:
    return v - (1 << 64) if v >= 1 << 63 else v


def load(state) -> tuple:
    """The kernel state ``(g,)`` for a Python Gomoku/Renju game (stones, moves, key, winner)."""
    geo = state.geo
    n, nc = geo.size, geo.ncells
    g = np.zeros(G_SIZE, dtype=np.int64)
    g[BOARD:BOARD + nc] = state.board
    g[BOARD + nc:BOARD + NCM] = WALL
    hdr = {SIZE: n, WIDTH: geo.W, NCELLS: nc, RULE: RULE_IDS[state.rule], RADIUS: state.radius,
           FULL: state.full_board, CENTRE: geo.index(n // 2, n // 2), EXW: state._exact[0],
           EXB: state._exact[1], NLINES: len(geo.lines), AREA: n * n, NWORD: (nc + 63) // 64,
           KEY: _i64(state.key), NPLACED: len(state.placed), NMOVES: len(state.move_stack),
           WINNER: -1 if state._winner is None else state._winner, GID: next(_GIDS)}
    for k, v in hdr.items():
        g[H + k] = v
    g[H + DIR:H + DIR + 4] = geo.dirs
    g[CODES:CODES + len(state.line_codes)] = state.line_codes
    g[PLACED:PLACED + len(state.placed)] = state.placed
    g[WSTACK:WSTACK + 680] = -1
    base = len(state.placed) - len(state.move_stack)
    for k, undo in enumerate(state._undo):
        g[WSTACK + base + k] = -1 if undo[2] is None else undo[2]
    g[CLINE:CLINE + 8 * NCM] = -1
    for i in geo.cells:
        for k, (lid, pw) in enumerate(geo.cell_lines[i]):
            g[CLINE + 8 * i + 2 * k], g[CLINE + 8 * i + 2 * k + 1] = lid, pw
    g[ZOB:ZOB + len(state._z)] = [_i64(z) for z in state._z]
    _derive(g)
    return (g,)


@jit(_nrt=False)
def _derive(g):
    """``near``, ``bnear`` and both bitsets from the board (at load)."""
    for i in range(NCM):
        if g[i] == BLACK or g[i] == 1:
            _near_update(g, i, 1)
            if g[i] == BLACK and g[H + RULE] == RENJU:
                _bnear_update(g, i, 1)
    for i in range(NCM):
        if g[i] == EMPTY:
            _bit_set(g, EMPT, i)
            if g[NEAR + i] > 0:
                _bit_set(g, CAND, i)


# ------------------------------------------------------------------ small helpers
@jit(_nrt=False, inline="always")
def _bit_set(g, base, q):
    g[base + (q >> 6)] |= np.int64(1) << (q & 63)


@jit(_nrt=False, inline="always")
def _bit_clear(g, base, q):
    g[base + (q >> 6)] &= ~(np.int64(1) << (q & 63))


@jit(_nrt=False, inline="always")
def _emit(g, base, buf, n):
    """The points of a bitset, in increasing order, appended to ``buf[n:]``."""
    for w in range(g[H + NWORD]):
        x = g[base + w]
        while x != 0:
            buf[n] = (w << 6) + trailing_zeros(x)
            n += 1
            x &= x - 1
    return n


@jit(_nrt=False, inline="always")
def _near_update(g, m, sign):
    """Add ``sign`` to ``near`` of every on-board cell within ``radius`` of ``m`` (self
    excluded), keeping the candidate bitset: set when an empty cell gets a stone near it,
    cleared when its last one goes."""
    w, n, rad = g[H + WIDTH], g[H + SIZE], g[H + RADIUS]
    c, r = m % w - 1, m // w - 1
    for dr in range(max(-rad, -r), min(rad, n - 1 - r) + 1):
        row = m + dr * w
        for dc in range(max(-rad, -c), min(rad, n - 1 - c) + 1):
            if dr == 0 and dc == 0:
                continue
            q = row + dc
            k = g[NEAR + q] + sign
            g[NEAR + q] = k
            if sign > 0:
                if g[q] == EMPTY:
                    _bit_set(g, CAND, q)
            elif k == 0:
                _bit_clear(g, CAND, q)


@jit(_nrt=False)
def _bnear_update(g, m, sign):
    """Renju: ``sign`` to ``bnear`` of the on-board cells <= 4 steps from ``m`` along a line."""
    for k in range(4):
        d = g[H + DIR + k]
        for s in (d, -d):
            j = m + s
            for _ in range(4):
                if g[j] == WALL:
                    break
                g[BNEAR + j] += sign
                j += s


# ------------------------------------------------------------------ rules (gomoku_rules)
@jit(_nrt=False, inline="always")
def run_length(g, p, d, color):
    """Stones of ``color`` in the unbroken row through ``p`` along ``d`` (``p`` counted)."""
    n = 1
    i = p + d
    while g[i] == color:
        n += 1
        i += d
    i = p - d
    while g[i] == color:
        n += 1
        i -= d
    return n


@jit(_nrt=False, inline="always")
def makes_five(g, p, color, exact):
    """Would a ``color`` stone on ``p`` make five (exactly five if ``exact``)?"""
    for k in range(4):
        n = run_length(g, p, g[H + DIR + k], color)
        if n == 5 or (n > 5 and not exact):
            return True
    return False


@jit(_nrt=False, inline="always")
def near_count(g, p, d, color):
    """``_black_near``: stones of ``color`` within 4 steps of ``p`` on line ``d``, not past
    another stone or the wall."""
    n = 0
    for s in (d, -d):
        i = p + s
        for _ in range(4):
            v = g[i]
            if v == color:
                n += 1
            elif v != EMPTY:
                break
            i += s
    return n


@jit(_nrt=False)
def five_points(g, p, d, color, exact):
    """``five_points``: empty cells completing five through ``p`` (holding ``color``) along
    ``d``; returns (how many, lowest, highest) so that no list is built."""
    n = 0
    lo = hi = -1
    for s in (d, -d):
        i = p + s
        for _ in range(4):
            v = g[i]
            if v == EMPTY:
                g[i] = color
                r = run_length(g, p, d, color)
                g[i] = EMPTY
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


@jit(_nrt=False)
def count_fours(g, p, d, color, exact):
    """Fours through ``p`` on one line; a straight four (two five-points 5 apart) is one."""
    n, a, b = five_points(g, p, d, color, exact)
    if n == 2 and b - a == 5 * d:
        for k in range(1, 5):
            if g[a + k * d] != color:
                return n
        return 1
    return n


@jit(_nrt=False)
def is_straight_four(g, p, d, color, exact):
    """Is the row through ``p`` along ``d`` exactly four stones with a five-point at each end?"""
    lo = p
    while g[lo - d] == color:
        lo -= d
    hi = p
    while g[hi + d] == color:
        hi += d
    if hi - lo != 3 * d:
        return False
    a, b = lo - d, hi + d
    if g[a] != EMPTY or g[b] != EMPTY:
        return False
    if exact and (g[a - d] == color or g[b + d] == color):
        return False
    return True


@jit(_nrt=False)
def maybe_forbidden(g, p):
    """Cheap necessary condition for ``forbidden_at`` (as gomoku_rules.maybe_forbidden)."""
    lines2 = 0
    for k in range(4):
        n = near_count(g, p, g[H + DIR + k], BLACK)
        if n >= 4:
            return True
        if n >= 2:
            lines2 += 1
    return lines2 >= 2


@jit(_nrt=False)
def forbidden_at(g, p):
    """RIF judgement of a black stone on empty ``p``: F_NONE or the forbidden shape's code.

    gomoku_rules.forbidden_at with ``_is_three`` inlined (a three's key point q must not be
    forbidden itself: judged recursively with p on the board). Board restored on return.
    Recursive: always call it with int64 arguments (see ``perft``).
    """
    g[p] = BLACK
    over = False
    for k in range(4):
        n = run_length(g, p, g[H + DIR + k], BLACK)
        if n == 5:
            g[p] = EMPTY
            return F_NONE  # five wins even with a forbidden shape
        if n > 5:
            over = True
    if over:
        g[p] = EMPTY
        return F_OVERLINE
    fours = 0
    four_dirs = 0                           # bit k: a four on direction k
    for k in range(4):
        d = g[H + DIR + k]
        if near_count(g, p, d, BLACK) >= 3:
            c = count_fours(g, p, d, BLACK, True)
            if c:
                fours += c
                four_dirs |= 1 << k
    if fours >= 2:
        g[p] = EMPTY
        return F_DOUBLE_FOUR
    threes = 0
    for k in range(4):
        d = g[H + DIR + k]
        if (four_dirs >> k) & 1 or near_count(g, p, d, BLACK) < 2:
            continue
        three = False                       # _is_three(board, p, d)
        for s in (d, -d):
            q = p + s
            for _ in range(4):
                v = g[q]
                if v == EMPTY:
                    g[q] = BLACK
                    ok = is_straight_four(g, p, d, BLACK, True)
                    g[q] = EMPTY
                    if ok and not makes_five(g, q, BLACK, True) and forbidden_at(g, q) == F_NONE:
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
                g[p] = EMPTY
                return F_DOUBLE_THREE
    g[p] = EMPTY
    return F_NONE


@jit(_nrt=False)
def makes_four(g, p, color, exact):
    """Would a ``color`` stone on empty ``p`` make a four (or five) on some line?"""
    g[p] = color
    found = False
    for k in range(4):
        d = g[H + DIR + k]
        if near_count(g, p, d, color) >= 3 and five_points(g, p, d, color, exact)[0]:
            found = True
            break
    g[p] = EMPTY
    return found


@jit(_nrt=False, inline="always")
def exact_for(g, color):
    """The Python game's ``_exact[color == BLACK]``: must ``color``'s five be exactly five?"""
    return g[H + EXB] != 0 if color == BLACK else g[H + EXW] != 0


@jit(_nrt=False)
def forbidden(G, p):
    """``state.forbidden(p)`` as a code (index into FORBIDDEN_NAMES); ``p`` must be empty."""
    return forbidden_at(G[0], np.int64(p))


# ------------------------------------------------------------------ the contract
@jit(_nrt=False)
def side(G):
    return G[0][H + NPLACED] & 1


@jit(_nrt=False)
def key(G):
    return G[0][H + KEY]


@jit(_nrt=False, inline="always")
def _stone(g, m, color, sign):
    """Add (sign 1) or take away (sign -1) a ``color`` stone's traces at ``m``: key,
    candidate counts and bits, line codes (each change logged) and Renju's black counts
    (the board and the stone's own bits are the caller's)."""
    g[H + KEY] ^= g[ZOB + 2 * m + color] ^ g[ZOB + 2 * g[H + NCELLS]]
    _near_update(g, m, sign)
    logn = g[H + LOGN]
    for k in range(4):
        lid = g[CLINE + 8 * m + 2 * k]
        if lid >= 0:
            g[CODES + lid] += sign * (color + 1) * g[CLINE + 8 * m + 2 * k + 1]
            g[LOG + (logn & (LOGSIZE - 1))] = lid    # for evaluators' incremental sums
            logn += 1
    g[H + LOGN] = logn
    if color == BLACK and g[H + RULE] == RENJU:
        _bnear_update(g, m, sign)


@jit(_nrt=False)
def push(G, m):
    """``push_unchecked``: the stone, its traces (``_stone``), and the winner flag."""
    g = G[0]
    n = g[H + NPLACED]
    color = n & 1
    g[m] = color
    _bit_clear(g, EMPT, m)
    _bit_clear(g, CAND, m)
    g[PLACED + n] = m
    g[WSTACK + n] = g[H + WINNER]
    g[H + NPLACED] = n + 1
    g[H + NMOVES] += 1
    _stone(g, m, color, 1)
    if g[H + WINNER] < 0 and makes_five(g, m, color, exact_for(g, color)):
        g[H + WINNER] = color


@jit(_nrt=False)
def pop(G):
    """Take back the last move (the winner flag comes back from the stack)."""
    g = G[0]
    n = g[H + NPLACED] - 1
    m = g[PLACED + n]
    g[m] = EMPTY
    g[H + WINNER] = g[WSTACK + n]
    g[H + NPLACED] = n
    g[H + NMOVES] -= 1
    _stone(g, m, n & 1, -1)
    _bit_set(g, EMPT, m)
    if g[NEAR + m] > 0:
        _bit_set(g, CAND, m)
    return m


@jit(_nrt=False)
def result(G):
    """-1 while the game goes on, 0/1 the winner (a five per the rule), 2 a full board."""
    g = G[0]
    if g[H + WINNER] >= 0:
        return g[H + WINNER]
    if g[H + NPLACED] == g[H + AREA]:
        return 2
    return -1


@jit(_nrt=False)
def candidates(g, buf, n0):
    """Python ``legal_moves()`` before the Renju filter: sorted candidates, the centre on an
    empty board, or every empty point (full_board, or no candidate left)."""
    if g[H + FULL] == 0:
        n = _emit(g, CAND, buf, n0)
        if n > n0:
            return n
        if g[H + NPLACED] == 0:
            buf[n0] = g[H + CENTRE]
            return n0 + 1
    return _emit(g, EMPT, buf, n0)


@jit(_nrt=False)
def legal(g, buf, n0):
    """``legal_moves()`` on the flat array (see ``gen_moves``)."""
    if g[H + WINNER] >= 0:
        return n0
    n = candidates(g, buf, n0)
    if g[H + RULE] != RENJU or g[H + NPLACED] & 1:
        return n
    k = n0        # every forbidden shape needs >= 4 other black stones on p's lines nearby
    for j in range(n0, n):
        m = buf[j]
        if g[BNEAR + m] < 4 or not maybe_forbidden(g, m) or forbidden_at(g, m) == F_NONE:
            buf[k] = m
            k += 1
    if k == n0:   # every nearby point forbidden: look at the whole board
        n = _emit(g, EMPT, buf, n0)
        for j in range(n0, n):
            m = buf[j]
            if forbidden_at(g, m) == F_NONE:
                buf[k] = m
                k += 1
    return k


@jit(_nrt=False)
def gen_moves(G, buf, n0):
    """Exactly ``state.legal_moves()`` into ``buf[n0:n1]``; returns n1."""
    return legal(G[0], buf, n0)


@jit(_nrt=False)
def gen_noisy(G, buf, n0):
    """Exactly ``state.noisy_moves()``: legal moves making a four/five, or blocking a five."""
    g = G[0]
    n = legal(g, buf, n0)
    me = g[H + NPLACED] & 1
    ex_me, ex_op = exact_for(g, me), exact_for(g, 1 - me)
    k = n0
    for j in range(n0, n):
        m = buf[j]
        if makes_four(g, m, me, ex_me) or makes_five(g, m, 1 - me, ex_op):
            buf[k] = m
            k += 1
    return k


@jit(_nrt=False)
def in_check(G):
    return False


@jit(_nrt=False)
def push_null(G):
    pass


@jit(_nrt=False)
def pop_null(G):
    pass


@jit(_nrt=False)
def repeated(G):
    return False


@jit(_nrt=False)
def repetition(G):
    return -1


@jit(_nrt=False)
def is_capture(G, m):
    return False


@jit(_nrt=False)
def mvv_lva(G, m):
    return 0


@jit(_nrt=False)
def history_key(G, m, with_piece):
    """Point, or point and colour: < 2 * ncells (HISTORY_SIZE bounds every size)."""
    if with_piece:
        g = G[0]
        return m + g[H + NCELLS] * (g[H + NPLACED] & 1)
    return m


@jit(_nrt=False)
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
