"""The compiled Xiangqi kernel: the rules of :mod:`gameai.games.xiangqi` as numba functions.

It implements the game-kernel contract of :mod:`gameai.compiled` and must give exactly
the Python reference's numbers: ``legal_moves()``/``noisy_moves()`` in the same order
(squares 0..89, per piece the same table and ray order, then the same order-keeping
legality filter), the same 64-bit Zobrist key, the same incremental material and
position scores, and the same ``result()`` (no legal move loses, repetition with the
perpetual-check judgement, the move limit, checked in that order).

Layout (flat int64 arrays, no allocation per node)
--------------------------------------------------
``G`` is a tuple of int64 arrays ``(board, st, umove, ucap, upst, uclock, hist, scratch,
T)``: the 90 squares (``sq = rank * 9 + file``, codes ``colour * 8 + type``), the scalar
state ``st`` (indices ``S_*``), the undo stack (move, captured piece, pst score and
clock before each move) with the key history ``hist`` beside it, scratch space for the
repetition judgement, and ``T``: every move/attack/Zobrist/score table of
:mod:`gameai.games.xiangqi_tables` packed into one read-only array at offsets ``O_*``.
The undo and key history start with the Python game's whole past (:func:`load`), so the
perpetual-check judgement may pop moves back past the search root exactly as the Python
``_repetition_outcome`` does. Keys are stored as int64 two's complement of the Python
unsigned 64-bit ints (``key & mask`` picks the same TT slot).
"""
from __future__ import annotations

import numpy as np

from ..games.xiangqi_tables import (ADVISOR, ADVISOR_T, CANNON, ELEPHANT, ELEPHANT_T, HORSE,
                                    HORSE_FROM, HORSE_T, KING, KING_T, LEG_OF, MAT, PAWN,
                                    PAWN_FROM, PAWN_T, PST, RAY_INDEX, RAYS, ROOK, Z_PIECE,
                                    Z_SIDE)
from .jit import jit

NAME = "xiangqi"
MAX_MOVES = 128        #: 2 rooks and 2 cannons x 17, 2 horses x 8, 5 pawns x 3, king 4, 4 guards x 4 = 119
HISTORY_SIZE = 15 * 8100   #: history_key(m, True) < (15 - 1) * 8100 + 8100
MARGIN = 4096          #: undo-stack room for plies pushed after load (search depth, quiescence)

HAS_CHECK = True
HAS_NULL = True
HAS_NOISY = True
HAS_CAPTURE = True
HAS_REPEAT = True

# st[]: the scalar state.
S_SIDE, S_CLOCK, S_N, S_KING0, S_KING1, S_KEY, S_PST, S_MAT, S_REP, S_LIMIT = range(10)
S_SIZE = 10

# T[]: the tables, at fixed offsets (sizes independent of the tables' contents).
RAY_LEN = 10                       # a ray has at most 9 squares
O_RAY = 0                          # [sq][dir][i] ray squares, outward from sq
O_RAYN = O_RAY + 90 * 4 * RAY_LEN  # [sq][dir] ray length
O_HT = O_RAYN + 90 * 4             # [sq][i] (to, leg) horse moves
O_HTN = O_HT + 90 * 8 * 2
O_KT = O_HTN + 90                  # [side][sq][i] king targets
O_KTN = O_KT + 2 * 90 * 4
O_AT = O_KTN + 2 * 90              # advisor targets
O_ATN = O_AT + 2 * 90 * 4
O_ET = O_ATN + 2 * 90              # [side][sq][i] (to, eye) elephant moves
O_ETN = O_ET + 2 * 90 * 4 * 2
O_PT = O_ETN + 2 * 90              # [side][sq][i] pawn targets
O_PTN = O_PT + 2 * 90 * 3
O_HF = O_PTN + 2 * 90              # [k][j] (leg, src0, src1) horses attacking k
O_HFC = O_HF + 90 * 4 * 3          # [k][j] number of srcs
O_HFN = O_HFC + 90 * 4             # [k] number of legs
O_PF = O_HFN + 90                  # [colour][k][i] squares a pawn of colour attacks k from
O_PFN = O_PF + 2 * 90 * 3
O_RI = O_PFN + 2 * 90              # [k][s] RAY_INDEX
O_LG = O_RI + 90 * 90              # [k][s] LEG_OF
O_ZP = O_LG + 90 * 90              # [piece][sq] Zobrist (int64 two's complement)
O_ZS = O_ZP + 16 * 90              # side-to-move key
O_PST = O_ZS + 1                   # [piece][sq] position value, Red positive
O_MAT = O_PST + 16 * 90            # [piece] material, Red positive
T_SIZE = O_MAT + 16


def _i64(x: int) -> int:
    """A Python unsigned 64-bit int as the int64 with the same bits."""
    return x - (1 << 64) if x >= 1 << 63 else x


def _tables() -> np.ndarray:
    """Pack :mod:`gameai.games.xiangqi_tables` into the flat array ``T`` (read, not retyped)."""
    t = np.zeros(T_SIZE, dtype=np.int64)
    for sq in range(90):
        for d, ray in enumerate(RAYS[sq]):
            t[O_RAYN + sq * 4 + d] = len(ray)
            t[O_RAY + (sq * 4 + d) * RAY_LEN:][:len(ray)] = ray
        t[O_HTN + sq] = len(HORSE_T[sq])
        for i, (to, leg, _) in enumerate(HORSE_T[sq]):
            t[O_HT + (sq * 8 + i) * 2:][:2] = (to, leg)
        for c in (0, 1):
            j = c * 90 + sq
            for table, off, offn in ((KING_T, O_KT, O_KTN), (ADVISOR_T, O_AT, O_ATN)):
                t[offn + j] = len(table[c][sq])
                for i, (to, _) in enumerate(table[c][sq]):
                    t[off + j * 4 + i] = to
            t[O_ETN + j] = len(ELEPHANT_T[c][sq])
            for i, (to, eye, _) in enumerate(ELEPHANT_T[c][sq]):
                t[O_ET + (j * 4 + i) * 2:][:2] = (to, eye)
            t[O_PTN + j] = len(PAWN_T[c][sq])
            for i, (to, _) in enumerate(PAWN_T[c][sq]):
                t[O_PT + j * 3 + i] = to
            t[O_PFN + j] = len(PAWN_FROM[c][sq])
            t[O_PF + j * 3:][:len(PAWN_FROM[c][sq])] = PAWN_FROM[c][sq]
        t[O_HFN + sq] = len(HORSE_FROM[sq])
        for j, (leg, srcs) in enumerate(HORSE_FROM[sq]):
            t[O_HFC + sq * 4 + j] = len(srcs)
            t[O_HF + (sq * 4 + j) * 3:][:1 + len(srcs)] = (leg, *srcs)
        t[O_RI + sq * 90:][:90] = RAY_INDEX[sq]
        t[O_LG + sq * 90:][:90] = LEG_OF[sq]
    for p in range(16):
        t[O_ZP + p * 90:][:90] = [_i64(z) for z in Z_PIECE[p]]
        t[O_PST + p * 90:][:90] = PST[p]
        t[O_MAT + p] = MAT[p]
    t[O_ZS] = _i64(Z_SIDE)
    return t


TABLES = _tables()


def load(state) -> tuple:
    """The kernel state ``G`` for a Python :class:`~gameai.games.xiangqi.Xiangqi`, with its
    whole move and key history (the repetition judgement may look past the search root)."""
    from ..errors import GameError
    from ..games.xiangqi import Xiangqi
    if not isinstance(state, Xiangqi):
        raise GameError(f"compiled xiangqi kernel: cannot load a {type(state).__name__}")
    undo = state._undo
    n = len(undo)
    cap = n + MARGIN
    board = np.array(state.board, dtype=np.int64)
    st = np.zeros(S_SIZE, dtype=np.int64)
    st[S_SIDE] = state._side
    st[S_CLOCK] = state._clock
    st[S_N] = n
    st[S_KING0], st[S_KING1] = state._kings
    st[S_KEY] = _i64(state._key)
    st[S_PST] = state._pst
    st[S_MAT] = state._mat
    st[S_REP] = state.repetitions
    st[S_LIMIT] = -1 if state.max_plies_without_capture is None else state.max_plies_without_capture
    umove, ucap, upst, uclock, hist = (np.zeros(cap, dtype=np.int64) for _ in range(5))
    for i, (m, c, pst, clock) in enumerate(undo):
        umove[i], ucap[i], upst[i], uclock[i] = m, c, pst, clock
    hist[:n] = [_i64(k) for k in state._hist]
    scratch = np.zeros(cap + MAX_MOVES, dtype=np.int64)
    return (board, st, umove, ucap, upst, uclock, hist, scratch, TABLES)


def evaluator(ev, state) -> tuple | None:
    """The kernel form of ``xiangqi.pst`` (kind 0) or ``xiangqi.material`` (kind 1); None
    for any other evaluator (a subclass may score differently, so the type must match)."""
    from ..evaluators.xiangqi import Material, Pst
    if type(ev) is Pst:
        return (0,)
    if type(ev) is Material:
        return (1,)
    return None


# ---------------------------------------------------------------------- the state
@jit
def side(G) -> int:
    return G[1][S_SIDE]


@jit
def key(G) -> int:
    return G[1][S_KEY]


@jit
def ply(G) -> int:
    """Moves on the undo stack (including the game's moves before :func:`load`)."""
    return G[1][S_N]


@jit
def _land(q, sd):
    """May a piece of side ``sd`` move onto a square holding ``q`` (empty or enemy)?"""
    return q == 0 or (q >> 3) != sd


# ---------------------------------------------------------------------- attacks
@jit
def _ray_attacks(G, k, d, er, ec, ek) -> bool:
    """Does ray ``d`` from ``k`` start with an enemy rook or king, or hold an enemy cannon
    behind exactly one screen?"""
    b = G[0]
    T = G[8]
    o = O_RAY + (k * 4 + d) * RAY_LEN
    screen = False
    for i in range(T[O_RAYN + k * 4 + d]):
        q = b[T[o + i]]
        if q:
            if not screen:
                if q == er or q == ek:
                    return True
                screen = True
            else:
                return q == ec
    return False


@jit
def _attacked(G, k, sd) -> bool:
    """Is square ``k`` (``sd``'s king) attacked by the other side? (Python ``_attacked``)"""
    b = G[0]
    T = G[8]
    e = (sd ^ 1) << 3
    er, ec, ek, eh, ep = e | ROOK, e | CANNON, e | KING, e | HORSE, e | PAWN
    for d in range(4):
        if _ray_attacks(G, k, d, er, ec, ek):
            return True
    for j in range(T[O_HFN + k]):
        o = O_HF + (k * 4 + j) * 3
        if b[T[o]] == 0:
            for i in range(T[O_HFC + k * 4 + j]):
                if b[T[o + 1 + i]] == eh:
                    return True
    j = (sd ^ 1) * 90 + k
    for i in range(T[O_PFN + j]):
        if b[T[O_PF + j * 3 + i]] == ep:
            return True
    return False


@jit
def in_check(G) -> bool:
    """Is the side to move in check (including a facing-kings file)?"""
    st = G[1]
    sd = st[S_SIDE]
    return _attacked(G, st[S_KING0 + sd], sd)


@jit
def _safe_full(G, m, k, sd) -> bool:
    """Make ``m`` on the board only, test the (possibly moved) king fully, unmake."""
    b = G[0]
    fr = m >> 8
    to = m & 255
    p = b[fr]
    c = b[to]
    b[to] = p
    b[fr] = 0
    bad = _attacked(G, to if fr == k else k, sd)
    b[fr] = p
    b[to] = c
    return not bad


# ---------------------------------------------------------------------- move generation
@jit
def _gen_piece(G, fr, buf, n, captures):
    """Pseudo-legal moves of the piece on ``fr`` (all, or only ``captures``) into
    ``buf[n:]``, in the Python ``_gen_pseudo``/``_captures`` order; returns the new end."""
    b = G[0]
    T = G[8]
    p = b[fr]
    sd = p >> 3
    t = p & 7
    base = fr << 8
    if t == ROOK:
        for d in range(4):
            o = O_RAY + (fr * 4 + d) * RAY_LEN
            for i in range(T[O_RAYN + fr * 4 + d]):
                to = T[o + i]
                q = b[to]
                if q:
                    if (q >> 3) != sd:
                        buf[n] = base | to
                        n += 1
                    break
                if not captures:
                    buf[n] = base | to
                    n += 1
    elif t == HORSE:
        for i in range(T[O_HTN + fr]):
            o = O_HT + (fr * 8 + i) * 2
            to = T[o]
            q = b[to]
            if b[T[o + 1]] == 0 and (q != 0 if captures else True) and _land(q, sd):
                buf[n] = base | to
                n += 1
    elif t == CANNON:
        for d in range(4):
            o = O_RAY + (fr * 4 + d) * RAY_LEN
            screen = False
            for i in range(T[O_RAYN + fr * 4 + d]):
                to = T[o + i]
                q = b[to]
                if screen:
                    if q:
                        if (q >> 3) != sd:
                            buf[n] = base | to
                            n += 1
                        break
                elif q:
                    screen = True
                elif not captures:
                    buf[n] = base | to
                    n += 1
    else:
        j = sd * 90 + fr
        if t == PAWN:
            o, cnt, step = O_PT + j * 3, T[O_PTN + j], 1
        elif t == ELEPHANT:
            o, cnt, step = O_ET + j * 8, T[O_ETN + j], 2
        elif t == ADVISOR:
            o, cnt, step = O_AT + j * 4, T[O_ATN + j], 1
        else:
            o, cnt, step = O_KT + j * 4, T[O_KTN + j], 1
        for i in range(cnt):
            to = T[o + i * step]
            q = b[to]
            if (step == 1 or b[T[o + i * step + 1]] == 0) and (q != 0 if captures else True) \
                    and _land(q, sd):
                buf[n] = base | to
                n += 1
    return n


@jit
def _legal_filter(G, buf, n0, n1):
    """Keep the legal moves of ``buf[n0:n1]`` in order (Python ``_legal_subset``): in
    check every move is tested fully; otherwise only moves that can expose the king (the
    king's own, from/to its rank or file, from one of its horse-leg squares) are tested,
    and only on the lines and leg they touch. Returns the new end."""
    b = G[0]
    st = G[1]
    T = G[8]
    sd = st[S_SIDE]
    k = st[S_KING0 + sd]
    j = n0
    if _attacked(G, k, sd):
        for i in range(n0, n1):
            m = buf[i]
            if _safe_full(G, m, k, sd):
                buf[j] = m
                j += 1
        return j
    e = (sd ^ 1) << 3
    er, ec, ek, eh = e | ROOK, e | CANNON, e | KING, e | HORSE
    ri = O_RI + k * 90
    for i in range(n0, n1):
        m = buf[i]
        fr = m >> 8
        to = m & 255
        if fr == k:
            if _safe_full(G, m, k, sd):
                buf[j] = m
                j += 1
            continue
        d1 = T[ri + fr]
        d2 = T[ri + to]
        leg = T[O_LG + k * 90 + fr]
        if d1 < 0 and d2 < 0 and leg == 0:
            buf[j] = m
            j += 1
            continue
        # Make the move on the board, test only the lines/leg it touches, unmake.
        p = b[fr]
        c = b[to]
        b[to] = p
        b[fr] = 0
        bad = False
        da = d1
        db = -1
        if d2 >= 0 and d2 != d1:
            if d1 < 0:
                da = d2
            else:
                db = d2
        for d in (da, db):
            if d >= 0 and not bad:
                bad = _ray_attacks(G, k, d, er, ec, ek)
        if not bad and leg:
            for y in range(T[O_HFN + k]):
                o = O_HF + (k * 4 + y) * 3
                if T[o] == fr:
                    for x in range(T[O_HFC + k * 4 + y]):
                        if b[T[o + 1 + x]] == eh:
                            bad = True
                    break
        b[fr] = p
        b[to] = c
        if not bad:
            buf[j] = m
            j += 1
    return j


@jit
def _gen(G, buf, n0, captures) -> int:
    """Pseudo-legal moves (or captures) of every own piece, squares 0..89, then the filter."""
    b = G[0]
    sd = G[1][S_SIDE]
    n = n0
    for fr in range(90):
        p = b[fr]
        if p != 0 and (p >> 3) == sd:
            n = _gen_piece(G, fr, buf, n, captures)
    return _legal_filter(G, buf, n0, n)


@jit
def gen_moves(G, buf, n0) -> int:
    """The legal moves, exactly ``legal_moves()`` in order, written to ``buf[n0:]``."""
    return _gen(G, buf, n0, False)


@jit
def gen_noisy(G, buf, n0) -> int:
    """The legal captures, exactly ``noisy_moves()`` in order, written to ``buf[n0:]``."""
    return _gen(G, buf, n0, True)


@jit
def _any_legal(G) -> bool:
    """Early exit: does the side to move have a legal move? (piece by piece)"""
    b = G[0]
    st = G[1]
    buf = G[7]
    sd = st[S_SIDE]
    k = st[S_KING0 + sd]
    n0 = len(buf) - MAX_MOVES
    for fr in range(90):
        p = b[fr]
        if p != 0 and (p >> 3) == sd:
            n = _gen_piece(G, fr, buf, n0, False)
            for i in range(n0, n):
                if _safe_full(G, buf[i], k, sd):
                    return True
    return False


# ---------------------------------------------------------------------- make / unmake
@jit
def push(G, m) -> None:
    """Play the (legal) move ``m``: board, key, scores, clock, undo and key history."""
    b, st, umove, ucap, upst, uclock, hist, _, T = G
    fr = m >> 8
    to = m & 255
    p = b[fr]
    c = b[to]
    n = st[S_N]
    k = st[S_KEY]
    hist[n] = k
    umove[n] = m
    ucap[n] = c
    upst[n] = st[S_PST]
    uclock[n] = st[S_CLOCK]
    st[S_N] = n + 1
    b[to] = p
    b[fr] = 0
    zp = O_ZP + p * 90
    k ^= T[zp + fr] ^ T[zp + to] ^ T[O_ZS]
    pv = O_PST + p * 90
    if c:
        st[S_KEY] = k ^ T[O_ZP + c * 90 + to]
        st[S_PST] += T[pv + to] - T[pv + fr] - T[O_PST + c * 90 + to]
        st[S_MAT] -= T[O_MAT + c]
        st[S_CLOCK] = 0
    else:
        st[S_KEY] = k
        st[S_PST] += T[pv + to] - T[pv + fr]
        st[S_CLOCK] += 1
    if p & 7 == KING:
        st[S_KING0 + (p >> 3)] = to
    st[S_SIDE] ^= 1


@jit
def pop(G) -> int:
    """Take back the last move and return it."""
    b, st, umove, ucap, upst, uclock, hist, _, T = G
    n = st[S_N] - 1
    st[S_N] = n
    m = umove[n]
    c = ucap[n]
    st[S_PST] = upst[n]
    st[S_CLOCK] = uclock[n]
    st[S_KEY] = hist[n]
    fr = m >> 8
    to = m & 255
    p = b[to]
    b[fr] = p
    b[to] = c
    if c:
        st[S_MAT] += T[O_MAT + c]
    if p & 7 == KING:
        st[S_KING0 + (p >> 3)] = fr
    st[S_SIDE] ^= 1
    return m


@jit
def push_null(G) -> None:
    """Pass (null-move pruning; never in check): the clock restarts, so a repetition
    never spans it. Undo with :func:`pop_null`."""
    b, st, umove, ucap, upst, uclock, hist, _, T = G
    n = st[S_N]
    hist[n] = st[S_KEY]
    umove[n] = 0
    ucap[n] = 0
    upst[n] = st[S_PST]
    uclock[n] = st[S_CLOCK]
    st[S_N] = n + 1
    st[S_KEY] ^= T[O_ZS]
    st[S_CLOCK] = 0
    st[S_SIDE] ^= 1


@jit
def pop_null(G) -> None:
    """Take back :func:`push_null`."""
    st = G[1]
    n = st[S_N] - 1
    st[S_N] = n
    st[S_PST] = G[4][n]
    st[S_CLOCK] = G[5][n]
    st[S_KEY] = G[6][n]
    st[S_SIDE] ^= 1


# ---------------------------------------------------------------------- rules
@jit
def result(G) -> int:
    """-1 while the game goes on, 0/1 the winner, 2 a draw: exactly Python ``result()``
    (no legal move loses; then repetition; then the move limit)."""
    st = G[1]
    sd = st[S_SIDE]
    if not _any_legal(G):
        return sd ^ 1
    clock = st[S_CLOCK]
    if clock >= 4:
        hist = G[6]
        n = st[S_N]
        lo = max(0, n - clock)
        k = st[S_KEY]
        cnt = 1
        for i in range(lo, n):
            if hist[i] == k:
                cnt += 1
        if cnt >= st[S_REP]:
            return _repetition_outcome(G, lo)
    limit = st[S_LIMIT]
    if limit >= 0 and clock >= limit:
        return 2
    return -1


@jit
def _repetition_outcome(G, lo) -> int:
    """Perpetual check loses, anything else is a draw (Python ``_repetition_outcome``):
    pop back to the first counted occurrence, replay, note who gave check each move."""
    st = G[1]
    hist = G[6]
    moves = G[7]
    n = st[S_N]
    k = st[S_KEY]
    need = st[S_REP] - 1
    start = n
    cnt = 0
    for i in range(n - 1, lo - 1, -1):
        if hist[i] == k:
            cnt += 1
            if cnt == need:
                start = i
                break
    npop = n - start
    for i in range(npop):
        moves[i] = pop(G)
    all0 = True
    all1 = True
    for i in range(npop - 1, -1, -1):
        mover = st[S_SIDE]
        push(G, moves[i])
        if not in_check(G):
            if mover == 0:
                all0 = False
            else:
                all1 = False
    if all0 != all1:
        return 1 if all0 else 0
    return 2


@jit
def repeated(G) -> bool:
    """Has this position (same side to move) occurred since the last capture? Python's
    ``hist[len(hist) - clock:]`` slice, negative start included, is reproduced."""
    st = G[1]
    clock = st[S_CLOCK]
    if clock < 4:
        return False
    hist = G[6]
    n = st[S_N]
    lo = n - clock
    if lo < 0:
        lo += n
        if lo < 0:
            lo = 0
    k = st[S_KEY]
    for i in range(lo, n):
        if hist[i] == k:
            return True
    return False


@jit
def is_capture(G, m) -> bool:
    return G[0][m & 255] != 0


@jit
def mvv_lva(G, m) -> int:
    """Capture order: victim's material first, then the cheaper attacker; 0 if quiet."""
    b = G[0]
    T = G[8]
    c = b[m & 255]
    if c == 0:
        return 0
    return (abs(T[O_MAT + c]) << 16) - abs(T[O_MAT + b[m >> 8]])


@jit
def history_key(G, m, with_piece) -> int:
    """from*90+to (< 8100); with the piece ``(code - 1) * 8100 + from*90+to``."""
    fr = m >> 8
    base = fr * 90 + (m & 255)
    if with_piece:
        return (G[0][fr] - 1) * 8100 + base
    return base


@jit
def evaluate(G, E) -> int:
    """``xiangqi.pst`` (kind 0) or ``xiangqi.material`` (kind 1) for the side to move."""
    st = G[1]
    v = st[S_PST] if E[0] == 0 else st[S_MAT]
    return -v if st[S_SIDE] else v


# ---------------------------------------------------------------------- perft
@jit
def _perft(G, depth, bulk) -> int:
    """Legal-move leaves to ``depth`` without recursion: one move buffer per ply. With
    ``bulk`` the last ply is counted, else each leaf is pushed and popped (like Python)."""
    if depth <= 0:
        return 1
    buf = np.empty(MAX_MOVES * depth, dtype=np.int64)
    lo = np.empty(depth, dtype=np.int64)
    hi = np.empty(depth, dtype=np.int64)
    total = 0
    ply = 0
    lo[0] = 0
    hi[0] = gen_moves(G, buf, 0)
    while True:
        if ply == depth - 1:
            if bulk:
                total += hi[ply] - lo[ply]
            else:
                for i in range(lo[ply], hi[ply]):
                    push(G, buf[i])
                    pop(G)
                total += hi[ply] - lo[ply]
            lo[ply] = hi[ply]
        if lo[ply] < hi[ply]:
            m = buf[lo[ply]]
            lo[ply] += 1
            push(G, m)
            ply += 1
            lo[ply] = hi[ply - 1]
            hi[ply] = gen_moves(G, buf, lo[ply])
        else:
            if ply == 0:
                return total
            ply -= 1
            pop(G)


@jit
def perft(G, depth) -> int:
    """Legal-move leaves to ``depth`` (movement rules only), make/unmake at every leaf."""
    return _perft(G, depth, False)


@jit
def perft_bulk(G, depth) -> int:
    """The same count, the last ply counted without making the moves (Python ``bulk=True``)."""
    return _perft(G, depth, True)
