"""The compiled Xiangqi kernel: the rules of :mod:`gameai.games.xiangqi` as numba functions.

It implements the game-kernel contract of :mod:`gameai.compiled` and must give exactly
the Python reference's numbers: ``legal_moves()``/``noisy_moves()`` in the same order
(own pieces by ascending square, per piece the same table and ray order, then an
order-keeping legality filter that keeps the same moves as the Python one with less
work), the same 64-bit Zobrist key, the same incremental material and position scores,
and the same ``result()`` (no legal move loses, repetition with the perpetual-check
judgement, the move limit, checked in that order).

Layout (one flat int64 array, no allocation per node)
-----------------------------------------------------
``G`` is ONE int64 array (not a tuple: numba reference-counts every array taken out of a
tuple, which cost more than the move generation itself). It holds, at fixed offsets:
every move/attack/Zobrist/score table of :mod:`gameai.games.xiangqi_tables` (``O_*``,
copied from ``TABLES``), the 90 squares at ``B`` (``sq = rank * 9 + file``, codes
``colour * 8 + type``), the scalars ``I_*``, the piece sets at ``MEN`` (per side two
45-bit words, bit ``sq`` / ``sq - 45`` set where its pieces stand: push/pop flip bits,
generation lists the set bits lowest first, the ascending order, instead of scanning 90
squares), scratch space, and from ``U0`` one undo record per move (move, captured
piece, pst score, clock and key before it). The records
start with the Python game's whole past (:func:`load`), so the perpetual-check judgement
may pop moves back past the search root exactly as the Python ``_repetition_outcome``
does. Keys are stored as int64 two's complement of the Python unsigned 64-bit ints
(``key & mask`` picks the same TT slot).
"""
from __future__ import annotations

import numpy as np

from ..games.xiangqi_tables import (ADVISOR, ADVISOR_T, CANNON, ELEPHANT, ELEPHANT_T, HORSE,
                                    HORSE_FROM, HORSE_T, KING, KING_T, LEG_OF, MAT, PAWN,
                                    PAWN_FROM, PAWN_T, PST, RAY_INDEX, RAYS, ROOK, SEE_VALUE,
                                    Z_PIECE, Z_SIDE)
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

# G[]: the tables first (fixed offsets, sizes independent of the tables' contents) ...
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
O_LOW = O_MAT + 16                 # [(1 << i) % 67] i: the index of a word's lowest set bit
O_SEE = O_LOW + 67                 # [piece] value in a static exchange
T_SIZE = O_SEE + 16
# ... then the position: board, scalars, piece sets, scratch for _any_legal, the undo records.
B = T_SIZE                         # [sq] piece code
# side to move, plies since capture, undo records, the kings (I_KING + side), key,
# pst and material scores (Red minus Black), repetitions, move limit (-1: none)
I_SIDE, I_CLOCK, I_N, I_KING, I_KING1, I_KEY, I_PST, I_MAT, I_REP, I_LIMIT = range(B + 90, B + 100)
MEN = B + 100                      # [side][word] squares 45 * word + bit of the side's pieces
SCRATCH = MEN + 4                  # MAX_MOVES slots
U0 = SCRATCH + MAX_MOVES           # undo record i at U0 + i * U_SIZE: U_MOVE, U_CAP, ...
U_MOVE, U_CAP, U_PST, U_CLOCK, U_KEY = range(5)
U_SIZE = 5


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
    for i in range(45):                # 2 is a primitive root mod 67: the remainders differ
        t[O_LOW + (1 << i) % 67] = i
    for p in range(16):
        t[O_ZP + p * 90:][:90] = [_i64(z) for z in Z_PIECE[p]]
        t[O_PST + p * 90:][:90] = PST[p]
        t[O_MAT + p] = MAT[p]
        t[O_SEE + p] = SEE_VALUE[p]
    t[O_ZS] = _i64(Z_SIDE)
    return t


TABLES = _tables()


def load(state) -> np.ndarray:
    """The kernel state ``G`` for a Python :class:`~gameai.games.xiangqi.Xiangqi`, with its
    whole move and key history (the repetition judgement may look past the search root)."""
    from ..errors import GameError
    from ..games.xiangqi import Xiangqi
    if not isinstance(state, Xiangqi):
        raise GameError(f"compiled xiangqi kernel: cannot load a {type(state).__name__}")
    undo = state._undo
    n = len(undo)
    G = np.zeros(U0 + (n + MARGIN) * U_SIZE, dtype=np.int64)
    G[:T_SIZE] = TABLES
    G[B:B + 90] = state.board
    G[I_SIDE] = state._side
    G[I_CLOCK] = state._clock
    G[I_N] = n
    G[I_KING], G[I_KING1] = state._kings
    G[I_KEY] = _i64(state._key)
    G[I_PST] = state._pst
    G[I_MAT] = state._mat
    G[I_REP] = state.repetitions
    G[I_LIMIT] = -1 if state.max_plies_without_capture is None else state.max_plies_without_capture
    for sq, p in enumerate(state.board):
        if p:
            G[MEN + 2 * (p >> 3) + sq // 45] |= 1 << sq % 45
    if n:
        rec = G[U0:U0 + n * U_SIZE].reshape(n, U_SIZE)
        rec[:, U_MOVE:U_CLOCK + 1] = undo
        rec[:, U_KEY] = [_i64(k) for k in state._hist]
    return G


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
@jit(_nrt=False)
def side(G) -> int:
    return G[I_SIDE]


@jit(_nrt=False)
def key(G) -> int:
    return G[I_KEY]


@jit(_nrt=False)
def ply(G) -> int:
    """Moves on the undo stack (including the game's moves before :func:`load`)."""
    return G[I_N]


# ---------------------------------------------------------------------- attacks
@jit(_nrt=False)
def _ray_attacks(G, k, d, er, ec, ek) -> bool:
    """Does ray ``d`` from ``k`` start with an enemy rook or king, or hold an enemy cannon
    behind exactly one screen?"""
    o = O_RAY + (k * 4 + d) * RAY_LEN
    screen = False
    for i in range(G[O_RAYN + k * 4 + d]):
        q = G[B + G[o + i]]
        if q:
            if not screen:
                if q == er or q == ek:
                    return True
                screen = True
            else:
                return q == ec
    return False


@jit(_nrt=False)
def _attacked(G, k, sd) -> bool:
    """Is square ``k`` (``sd``'s king) attacked by the other side? (Python ``_attacked``)"""
    e = (sd ^ 1) << 3
    er, ec, ek, eh, ep = e | ROOK, e | CANNON, e | KING, e | HORSE, e | PAWN
    for d in range(4):
        if _ray_attacks(G, k, d, er, ec, ek):
            return True
    for j in range(G[O_HFN + k]):
        o = O_HF + (k * 4 + j) * 3
        if G[B + G[o]] == 0:
            for i in range(G[O_HFC + k * 4 + j]):
                if G[B + G[o + 1 + i]] == eh:
                    return True
    j = (sd ^ 1) * 90 + k
    for i in range(G[O_PFN + j]):
        if G[B + G[O_PF + j * 3 + i]] == ep:
            return True
    return False


@jit(_nrt=False)
def in_check(G) -> bool:
    """Is the side to move in check (including a facing-kings file)?"""
    sd = G[I_SIDE]
    return _attacked(G, G[I_KING + sd], sd)


@jit(_nrt=False)
def _safe_full(G, m, k, sd) -> bool:
    """Make ``m`` on the board only, test the (possibly moved) king fully, unmake."""
    fr = B + (m >> 8)
    to = B + (m & 255)
    p = G[fr]
    c = G[to]
    G[to] = p
    G[fr] = 0
    bad = _attacked(G, (m & 255) if fr - B == k else k, sd)
    G[fr] = p
    G[to] = c
    return not bad


@jit(_nrt=False)
def gives_check(G, m) -> bool:
    """Would ``m`` (legal here) put the opponent in check? On the board alone (Python
    ``gives_check``): nothing is pushed."""
    other = G[I_SIDE] ^ 1
    return not _safe_full(G, m, G[I_KING + other], other)


@jit(_nrt=False)
def _least_attacker(G, k, sd) -> int:
    """The square of side ``sd``'s least valuable piece attacking ``k`` (-1 if none):
    Python ``_least_attacker``, the same order."""
    o = sd << 3
    pawn = PAWN + o
    j = sd * 90 + k
    for i in range(G[O_PFN + j]):
        s = G[O_PF + j * 3 + i]
        if G[B + s] == pawn:
            return s
    adv = ADVISOR + o
    for i in range(G[O_ATN + j]):
        s = G[O_AT + j * 4 + i]
        if G[B + s] == adv:
            return s
    ele = ELEPHANT + o
    for i in range(G[O_ETN + j]):
        s = G[O_ET + (j * 4 + i) * 2]
        if G[B + s] == ele and G[B + G[O_ET + (j * 4 + i) * 2 + 1]] == 0:
            return s
    horse = HORSE + o
    for jj in range(G[O_HFN + k]):
        h = O_HF + (k * 4 + jj) * 3
        if G[B + G[h]] == 0:
            for i in range(G[O_HFC + k * 4 + jj]):
                s = G[h + 1 + i]
                if G[B + s] == horse:
                    return s
    rook = ROOK + o
    cannon = CANNON + o
    best = -1
    for d in range(4):
        r = O_RAY + (k * 4 + d) * RAY_LEN
        screen = False
        for i in range(G[O_RAYN + k * 4 + d]):
            s = G[r + i]
            q = G[B + s]
            if q:
                if screen:
                    if q == cannon:
                        return s
                    break
                if q == rook and best < 0:
                    best = s
                screen = True
    if best >= 0:
        return best
    king = KING + o
    for i in range(G[O_KTN + j]):
        s = G[O_KT + j * 4 + i]
        if G[B + s] == king:
            return s
    return -1


@jit(_nrt=False)
def capture_value(G, m) -> int:
    """Python ``capture_value``: the exchange value of the captured piece (0 if quiet)."""
    return G[O_SEE + G[B + (m & 255)]]


@jit(_nrt=False)
def see(G, m) -> int:
    """Static exchange evaluation of ``m`` (Python ``see``): the swap list and the squares
    to put back live in the scratch slots."""
    fr = m >> 8
    to = m & 255
    p = G[B + fr]
    g0 = SCRATCH                        # gains, then (square, piece) pairs to put back
    s0 = SCRATCH + 40
    G[g0] = G[O_SEE + G[B + to]]
    G[s0], G[s0 + 1], G[s0 + 2], G[s0 + 3] = to, G[B + to], fr, p
    n_saved = 2
    G[B + to] = p
    G[B + fr] = 0
    on_to = G[O_SEE + p]
    sd = (p >> 3) ^ 1
    d = 0
    while True:
        a = _least_attacker(G, to, sd)
        if a < 0:
            break
        d += 1
        G[g0 + d] = on_to - G[g0 + d - 1]
        q = G[B + a]
        G[s0 + 2 * n_saved], G[s0 + 2 * n_saved + 1] = a, q
        n_saved += 1
        G[B + to] = q
        G[B + a] = 0
        on_to = G[O_SEE + q]
        sd ^= 1
    for i in range(n_saved - 1, -1, -1):
        G[B + G[s0 + 2 * i]] = G[s0 + 2 * i + 1]
    while d > 0:
        a = -G[g0 + d - 1]
        b = G[g0 + d]
        G[g0 + d - 1] = -(a if a > b else b)
        d -= 1
    return G[g0]


@jit(_nrt=False)
def has_attackers(G) -> bool:
    """Has the side to move a rook, horse or cannon? (Python ``has_attackers``)"""
    sd = G[I_SIDE]
    for w in range(2):
        bb = G[MEN + 2 * sd + w]
        while bb:
            sq, bb = _lowest(G, bb, w)
            t = G[B + sq] & 7
            if t == ROOK or t == HORSE or t == CANNON:
                return True
    return False


# ---------------------------------------------------------------------- move generation
@jit(_nrt=False)
def _gen_piece(G, fr, buf, n, captures) -> int:
    """Pseudo-legal moves of the piece on ``fr`` (all, or only ``captures``) into
    ``buf[n:]``, in the Python ``_gen_pseudo``/``_captures`` order; returns the new end."""
    p = G[B + fr]
    sd = p >> 3
    t = p & 7
    base = fr << 8
    if t == ROOK or t == CANNON:
        for d in range(4):
            o = O_RAY + (fr * 4 + d) * RAY_LEN
            screen = t == ROOK      # a rook lands on the first piece, a cannon on the second
            for i in range(G[O_RAYN + fr * 4 + d]):
                to = G[o + i]
                q = G[B + to]
                if q:
                    if screen:
                        if (q >> 3) != sd:
                            buf[n] = base | to
                            n += 1
                        break
                    screen = True
                elif not captures and (t == ROOK or not screen):
                    buf[n] = base | to
                    n += 1
    elif t == HORSE:
        for i in range(G[O_HTN + fr]):
            o = O_HT + (fr * 8 + i) * 2
            to = G[o]
            q = G[B + to]
            if G[B + G[o + 1]] == 0 and (q != 0 or not captures) and (q == 0 or (q >> 3) != sd):
                buf[n] = base | to
                n += 1
    else:
        j = sd * 90 + fr
        if t == PAWN:
            o, cnt, step = O_PT + j * 3, G[O_PTN + j], 1
        elif t == ELEPHANT:
            o, cnt, step = O_ET + j * 8, G[O_ETN + j], 2
        elif t == ADVISOR:
            o, cnt, step = O_AT + j * 4, G[O_ATN + j], 1
        else:
            o, cnt, step = O_KT + j * 4, G[O_KTN + j], 1
        for i in range(cnt):
            to = G[o + i * step]
            q = G[B + to]
            if (step == 1 or G[B + G[o + i * step + 1]] == 0) and (q != 0 or not captures) \
                    and (q == 0 or (q >> 3) != sd):
                buf[n] = base | to
                n += 1
    return n


@jit(_nrt=False)
def _legal_filter(G, buf, n0, n1) -> int:
    """Keep the legal moves of ``buf[n0:n1]`` in order (the same moves as Python
    ``_legal_subset``, found with less work). In check every move is tested fully.
    Otherwise a move can expose the king only through one of the king's four rays or a
    horse leg next to it: the first pieces on each ray are noted once, so taking a piece
    off a ray is judged from them, and only moves along a ray, onto a ray whose first
    piece is an enemy cannon (a new screen), from a horse-leg square or of the king
    itself are made on the board and tested. Returns the new end."""
    sd = G[I_SIDE]
    k = G[I_KING + sd]
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
    # Per king ray (not in check: no enemy rook or king first, no enemy cannon second):
    # the first two pieces' squares, whether taking either away uncovers an attack, and
    # whether the first piece is an enemy cannon. A piece taken off beyond the second
    # changes nothing; a piece put on a ray only blocks, unless it screens that cannon.
    first = 0      # 4 x 8 bits: square of the first piece + 1 (0: none)
    second = 0
    bad_rm = 0     # bit 2d: taking the first piece away uncovers an attack; 2d+1: the second
    cannon = 0     # bit d: the first piece is an enemy cannon (a piece moved in screens it)
    for d in range(4):
        o = O_RAY + (k * 4 + d) * RAY_LEN
        cnt = 0
        q2 = 0
        q3 = 0
        for x in range(G[O_RAYN + k * 4 + d]):
            sq = G[o + x]
            q = G[B + sq]
            if q:
                if cnt == 0:
                    first |= (sq + 1) << (8 * d)
                    if q == ec:
                        cannon |= 1 << d
                elif cnt == 1:
                    second |= (sq + 1) << (8 * d)
                    q2 = q
                else:
                    q3 = q
                    break
                cnt += 1
        if q2 == er or q2 == ek or q3 == ec:
            bad_rm |= 1 << (2 * d)
        if q3 == ec:
            bad_rm |= 2 << (2 * d)
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
        d1 = G[ri + fr]
        d2 = G[ri + to]
        leg = G[O_LG + k * 90 + fr]
        slow = leg != 0 or (d1 >= 0 and d1 == d2) or (d2 >= 0 and (cannon >> d2) & 1 != 0)
        if not slow:
            if d1 >= 0:
                if fr + 1 == (first >> (8 * d1)) & 255:
                    if (bad_rm >> (2 * d1)) & 1:
                        continue
                elif fr + 1 == (second >> (8 * d1)) & 255:
                    if (bad_rm >> (2 * d1 + 1)) & 1:
                        continue
            buf[j] = m
            j += 1
            continue
        p = G[B + fr]
        c = G[B + to]
        G[B + to] = p
        G[B + fr] = 0
        bad = False
        if d1 >= 0:
            bad = _ray_attacks(G, k, d1, er, ec, ek)
        if not bad and d2 >= 0 and d2 != d1:
            bad = _ray_attacks(G, k, d2, er, ec, ek)
        if not bad and leg:
            for y in range(G[O_HFN + k]):
                o = O_HF + (k * 4 + y) * 3
                if G[o] == fr:
                    for x in range(G[O_HFC + k * 4 + y]):
                        if G[B + G[o + 1 + x]] == eh:
                            bad = True
                    break
        G[B + fr] = p
        G[B + to] = c
        if not bad:
            buf[j] = m
            j += 1
    return j


@jit(_nrt=False, inline="always")
def _lowest(G, bb, w):
    """The square of the lowest set bit of ``bb`` (word ``w`` of a piece set) and ``bb``
    without it: walking word 0 then word 1 this way gives a side's squares ascending.
    (Callers loop inline: listing the squares into ``G`` first cost 10-30% in search.)"""
    low = bb & -bb
    return 45 * w + G[O_LOW + low % 67], bb ^ low


@jit(_nrt=False)
def _gen(G, buf, n0, captures) -> int:
    """Pseudo-legal moves (or captures) of every own piece, by ascending square, then the filter."""
    sd = G[I_SIDE]
    n = n0
    for w in range(2):
        bb = G[MEN + 2 * sd + w]
        while bb:
            fr, bb = _lowest(G, bb, w)
            n = _gen_piece(G, fr, buf, n, captures)
    return _legal_filter(G, buf, n0, n)


@jit(_nrt=False)
def gen_moves(G, buf, n0) -> int:
    """The legal moves, exactly ``legal_moves()`` in order, written to ``buf[n0:]``."""
    return _gen(G, buf, n0, False)


@jit(_nrt=False)
def gen_noisy(G, buf, n0) -> int:
    """The legal captures, exactly ``noisy_moves()`` in order, written to ``buf[n0:]``."""
    return _gen(G, buf, n0, True)


@jit(_nrt=False)
def _any_legal(G) -> bool:
    """Early exit: does the side to move have a legal move? (piece by piece)"""
    sd = G[I_SIDE]
    k = G[I_KING + sd]
    for w in range(2):
        bb = G[MEN + 2 * sd + w]
        while bb:
            fr, bb = _lowest(G, bb, w)
            n = _gen_piece(G, fr, G, SCRATCH, False)
            for i in range(SCRATCH, n):
                if _safe_full(G, G[i], k, sd):
                    return True
    return False


# ---------------------------------------------------------------------- make / unmake
@jit(_nrt=False, inline="always")
def _flip(G, sd, sq) -> None:
    """Add or remove square ``sq`` in side ``sd``'s piece set."""
    w = 1 if sq >= 45 else 0
    G[MEN + 2 * sd + w] ^= 1 << (sq - 45 * w)


@jit(_nrt=False, inline="always")
def push(G, m) -> None:
    """Play the (legal) move ``m``: board, piece sets, key, scores, clock, undo record."""
    fr = m >> 8
    to = m & 255
    p = G[B + fr]
    c = G[B + to]
    n = G[I_N]
    u = U0 + n * U_SIZE
    k = G[I_KEY]
    G[u + U_MOVE] = m
    G[u + U_CAP] = c
    G[u + U_PST] = G[I_PST]
    G[u + U_CLOCK] = G[I_CLOCK]
    G[u + U_KEY] = k
    G[I_N] = n + 1
    G[B + to] = p
    G[B + fr] = 0
    _flip(G, p >> 3, fr)
    _flip(G, p >> 3, to)
    zp = O_ZP + p * 90
    k ^= G[zp + fr] ^ G[zp + to] ^ G[O_ZS]
    pv = O_PST + p * 90
    if c:
        _flip(G, c >> 3, to)
        G[I_KEY] = k ^ G[O_ZP + c * 90 + to]
        G[I_PST] += G[pv + to] - G[pv + fr] - G[O_PST + c * 90 + to]
        G[I_MAT] -= G[O_MAT + c]
        G[I_CLOCK] = 0
    else:
        G[I_KEY] = k
        G[I_PST] += G[pv + to] - G[pv + fr]
        G[I_CLOCK] += 1
    if p & 7 == KING:
        G[I_KING + (p >> 3)] = to
    G[I_SIDE] ^= 1


@jit(_nrt=False, inline="always")
def pop(G) -> int:
    """Take back the last move and return it."""
    n = G[I_N] - 1
    G[I_N] = n
    u = U0 + n * U_SIZE
    m = G[u + U_MOVE]
    c = G[u + U_CAP]
    G[I_PST] = G[u + U_PST]
    G[I_CLOCK] = G[u + U_CLOCK]
    G[I_KEY] = G[u + U_KEY]
    fr = m >> 8
    to = m & 255
    p = G[B + to]
    G[B + fr] = p
    G[B + to] = c
    _flip(G, p >> 3, fr)
    _flip(G, p >> 3, to)
    if c:
        _flip(G, c >> 3, to)
        G[I_MAT] += G[O_MAT + c]
    if p & 7 == KING:
        G[I_KING + (p >> 3)] = fr
    G[I_SIDE] ^= 1
    return m


@jit(_nrt=False)
def push_null(G) -> None:
    """Pass (null-move pruning; never in check): the clock restarts, so a repetition
    never spans it. Undo with :func:`pop_null`."""
    n = G[I_N]
    u = U0 + n * U_SIZE
    G[u + U_MOVE] = 0
    G[u + U_CAP] = 0
    G[u + U_PST] = G[I_PST]
    G[u + U_CLOCK] = G[I_CLOCK]
    G[u + U_KEY] = G[I_KEY]
    G[I_N] = n + 1
    G[I_KEY] ^= G[O_ZS]
    G[I_CLOCK] = 0
    G[I_SIDE] ^= 1


@jit(_nrt=False)
def pop_null(G) -> None:
    """Take back :func:`push_null`."""
    n = G[I_N] - 1
    G[I_N] = n
    u = U0 + n * U_SIZE
    G[I_PST] = G[u + U_PST]
    G[I_CLOCK] = G[u + U_CLOCK]
    G[I_KEY] = G[u + U_KEY]
    G[I_SIDE] ^= 1


# ---------------------------------------------------------------------- rules
@jit(_nrt=False)
def result(G) -> int:
    """-1 while the game goes on, 0/1 the winner, 2 a draw: exactly Python ``result()``
    (no legal move loses; then repetition; then the move limit)."""
    sd = G[I_SIDE]
    if not _any_legal(G):
        return sd ^ 1
    clock = G[I_CLOCK]
    if clock >= 4:
        n = G[I_N]
        lo = max(0, n - clock)
        k = G[I_KEY]
        cnt = 1
        for i in range(lo, n):
            if G[U0 + i * U_SIZE + U_KEY] == k:
                cnt += 1
        if cnt >= G[I_REP]:
            return _repetition_outcome(G, lo)
    limit = G[I_LIMIT]
    if limit >= 0 and clock >= limit:
        return 2
    return -1


@jit(_nrt=False)
def _repetition_outcome(G, lo) -> int:
    """The game's repetition (Python ``_repetition_outcome``): the span from the first
    counted occurrence, judged by :func:`_judge_cycle`."""
    n = G[I_N]
    k = G[I_KEY]
    need = G[I_REP] - 1
    start = n
    cnt = 0
    for i in range(n - 1, lo - 1, -1):
        if G[U0 + i * U_SIZE + U_KEY] == k:
            cnt += 1
            if cnt == need:
                start = i
                break
    return _judge_cycle(G, start)


@jit(_nrt=False)
def _judge_cycle(G, start) -> int:
    """Perpetual check loses (the checker's opponent, 0/1), anything else draws (2), over
    the moves from ``start``: pop back to it, replay, note who gave check each move."""
    n = G[I_N]
    for i in range(n - start):
        pop(G)
    all0 = True
    all1 = True
    for i in range(start, n):          # pop leaves the moves in their records
        mover = G[I_SIDE]
        push(G, G[U0 + i * U_SIZE + U_MOVE])
        if not in_check(G):
            if mover == 0:
                all0 = False
            else:
                all1 = False
    if all0 != all1:
        return 1 if all0 else 0
    return 2


@jit(_nrt=False)
def repetition(G) -> int:
    """Python ``repetition_outcome()`` as a code: -1 not repeated since the last capture,
    else the moves since the latest occurrence judged (0/1 the winner, 2 a draw)."""
    clock = G[I_CLOCK]
    if clock < 4:
        return -1
    n = G[I_N]
    lo = n - clock
    if lo < 0:
        lo = 0
    k = G[I_KEY]
    for i in range(n - 1, lo - 1, -1):
        if G[U0 + i * U_SIZE + U_KEY] == k:
            return _judge_cycle(G, i)
    return -1


@jit(_nrt=False)
def repeated(G) -> bool:
    """Has this position (same side to move) occurred since the last capture (or since
    the first position known, when the FEN's clock reaches further back)?"""
    clock = G[I_CLOCK]
    if clock < 4:
        return False
    n = G[I_N]
    lo = n - clock
    if lo < 0:
        lo = 0
    k = G[I_KEY]
    for i in range(lo, n):
        if G[U0 + i * U_SIZE + U_KEY] == k:
            return True
    return False


@jit(_nrt=False)
def is_capture(G, m) -> bool:
    return G[B + (m & 255)] != 0


@jit(_nrt=False)
def mvv_lva(G, m) -> int:
    """Capture order: victim's material first, then the cheaper attacker; 0 if quiet."""
    c = G[B + (m & 255)]
    if c == 0:
        return 0
    return (abs(G[O_MAT + c]) << 16) - abs(G[O_MAT + G[B + (m >> 8)]])


@jit(_nrt=False)
def history_key(G, m, with_piece) -> int:
    """from*90+to (< 8100); with the piece ``(code - 1) * 8100 + from*90+to``."""
    fr = m >> 8
    base = fr * 90 + (m & 255)
    if with_piece:
        return (G[B + fr] - 1) * 8100 + base
    return base


@jit(_nrt=False)
def evaluate(G, E) -> int:
    """``xiangqi.pst`` (kind 0) or ``xiangqi.material`` (kind 1) for the side to move."""
    v = G[I_PST] if E[0] == 0 else G[I_MAT]
    return -v if G[I_SIDE] else v


# ---------------------------------------------------------------------- perft
@jit(_nrt=False)
def _perft(G, depth, bulk, buf, lo, hi) -> int:
    """Legal-move leaves to ``depth`` >= 1 without recursion: ``buf`` holds one move list
    per ply (``lo``/``hi``: the next move and the end). With ``bulk`` the last ply is
    counted, else each leaf is pushed and popped (like the Python :func:`gameai.perft`)."""
    total = 0
    ply = 0
    lo[0] = 0
    hi[0] = gen_moves(G, buf, 0)
    while True:
        if ply == depth - 1:
            if not bulk:
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
def _perft_buffers(G, depth, bulk) -> int:
    if depth <= 0:
        return 1
    buf = np.empty(MAX_MOVES * depth, dtype=np.int64)
    return _perft(G, depth, bulk, buf, np.empty(depth, dtype=np.int64), np.empty(depth, dtype=np.int64))


@jit
def perft(G, depth) -> int:
    """Legal-move leaves to ``depth`` (movement rules only), make/unmake at every leaf."""
    return _perft_buffers(G, depth, False)


@jit
def perft_bulk(G, depth) -> int:
    """The same count, the last ply counted without making the moves (Python ``bulk=True``)."""
    return _perft_buffers(G, depth, True)
