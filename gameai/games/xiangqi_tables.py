"""Precomputed Xiangqi geometry, Zobrist keys and position-value tables.

Square layout (shared by the game, the evaluator and any drawer)
----------------------------------------------------------------
``sq = rank * 9 + file`` with ``file`` 0..8 = ICCS ``a``..``i`` (Red's left to right) and
``rank`` 0..9 counted from Red's side (rank 0 is Red's back rank, rank 9 Black's). The
river lies between ranks 4 and 5. A piece code is ``colour * 8 + type`` with colour 0 Red,
1 Black and type 1..7 = king, advisor, elephant, horse, rook, cannon, pawn; 0 is empty. So
Red pieces are 1..7 and Black pieces 9..15 (``code >> 3`` is the colour).

Every move table is computed once here, per square (and per colour where the rule depends
on the side), so move generation is table lookups plus emptiness tests: no bounds checks.
"""
from __future__ import annotations

from .zobrist import zobrist_keys

KING, ADVISOR, ELEPHANT, HORSE, ROOK, CANNON, PAWN = range(1, 8)
TYPE_NAMES = {KING: "king", ADVISOR: "advisor", ELEPHANT: "elephant", HORSE: "horse",
              ROOK: "rook", CANNON: "cannon", PAWN: "pawn"}
# FEN letters written (upper case = Red). Both common letter sets are read:
# r n/h b/e a k c p (chess-style "knight/bishop" or Chinese "horse/elephant").
WRITE_LETTER = {KING: "k", ADVISOR: "a", ELEPHANT: "b", HORSE: "n", ROOK: "r", CANNON: "c", PAWN: "p"}
READ_LETTER = {"k": KING, "a": ADVISOR, "b": ELEPHANT, "e": ELEPHANT, "n": HORSE, "h": HORSE,
               "r": ROOK, "c": CANNON, "p": PAWN}
MAX_COUNT = {KING: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 2, ROOK: 2, CANNON: 2, PAWN: 5}

NSQ = 90


def sq_of(file: int, rank: int) -> int:
    return rank * 9 + file


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < 9 and 0 <= rank < 10


def in_palace(colour: int, file: int, rank: int) -> bool:
    return 3 <= file <= 5 and (rank <= 2 if colour == 0 else rank >= 7)


def own_half(colour: int, rank: int) -> bool:
    return rank <= 4 if colour == 0 else rank >= 5


def _fr(sq: int) -> tuple[int, int]:
    return sq % 9, sq // 9


ORTHO = ((0, 1), (0, -1), (1, 0), (-1, 0))  # (dfile, drank): up, down, right, left
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _build():
    king = [[(), ] * NSQ for _ in range(2)]
    advisor = [[(), ] * NSQ for _ in range(2)]
    elephant = [[(), ] * NSQ for _ in range(2)]
    pawn = [[(), ] * NSQ for _ in range(2)]
    horse = [()] * NSQ
    rays = [()] * NSQ
    for sq in range(NSQ):
        f, r = _fr(sq)
        base = sq << 8
        rays[sq] = tuple(tuple(sq_of(f + df * i, r + dr * i) for i in range(1, 10)
                               if on_board(f + df * i, r + dr * i)) for df, dr in ORTHO)
        hs = []
        for df, dr in ORTHO:  # leg one step orthogonally, then one step diagonally outward
            lf, lr = f + df, r + dr
            if not on_board(lf, lr):
                continue
            for side in (-1, 1):
                tf, tr = (lf + df + (side if df == 0 else 0), lr + dr + (side if dr == 0 else 0))
                if on_board(tf, tr):
                    hs.append((sq_of(tf, tr), sq_of(lf, lr), base | sq_of(tf, tr)))
        horse[sq] = tuple(hs)
        for c in (0, 1):
            if in_palace(c, f, r):
                king[c][sq] = tuple((t, base | t) for t in
                                    (sq_of(f + df, r + dr) for df, dr in ORTHO
                                     if on_board(f + df, r + dr) and in_palace(c, f + df, r + dr)))
                advisor[c][sq] = tuple((t, base | t) for t in
                                       (sq_of(f + df, r + dr) for df, dr in DIAG
                                        if on_board(f + df, r + dr) and in_palace(c, f + df, r + dr)))
            if own_half(c, r):
                elephant[c][sq] = tuple(
                    (sq_of(f + 2 * df, r + 2 * dr), sq_of(f + df, r + dr), base | sq_of(f + 2 * df, r + 2 * dr))
                    for df, dr in DIAG
                    if on_board(f + 2 * df, r + 2 * dr) and own_half(c, r + 2 * dr))
            fwd = 1 if c == 0 else -1
            ts = []
            if on_board(f, r + fwd):
                ts.append(sq_of(f, r + fwd))
            if not own_half(c, r):
                ts += [sq_of(f + d, r) for d in (-1, 1) if on_board(f + d, r)]
            pawn[c][sq] = tuple((t, base | t) for t in ts)
    return ([tuple(x) for x in king], [tuple(x) for x in advisor], [tuple(x) for x in elephant],
            [tuple(x) for x in pawn], tuple(horse), tuple(rays))


KING_T, ADVISOR_T, ELEPHANT_T, PAWN_T, HORSE_T, RAYS = _build()


def _attack_tables():
    """Reverse tables for "is square k attacked?" tests, looked at from the target square."""
    # Horse: the leg square of a horse attacking k is a diagonal neighbour of k.
    horse_from = [None] * NSQ
    for k in range(NSQ):
        by_leg: dict[int, list[int]] = {}
        for s in range(NSQ):
            for t, leg, _ in HORSE_T[s]:
                if t == k:
                    by_leg.setdefault(leg, []).append(s)
        horse_from[k] = tuple((leg, tuple(srcs)) for leg, srcs in sorted(by_leg.items()))
    # Pawn: squares from which a pawn of colour c attacks k.
    pawn_from = [[()] * NSQ for _ in range(2)]
    for c in (0, 1):
        for k in range(NSQ):
            pawn_from[c][k] = tuple(s for s in range(NSQ) if any(t == k for t, _ in PAWN_T[c][s]))
    return tuple(horse_from), [tuple(x) for x in pawn_from]


HORSE_FROM, PAWN_FROM = _attack_tables()

# For a king on k: which ray (0..3) of RAYS[k] passes through square s (-1 if none), and
# whether s is a horse-leg square of k (a diagonal neighbour). A non-king move that is
# neither from/to one of k's lines nor from a leg square cannot expose k.
RAY_INDEX = tuple(tuple(next((i for i, ray in enumerate(RAYS[k]) if s in ray), -1)
                        for s in range(NSQ)) for k in range(NSQ))
LEG_OF = tuple(tuple(any(leg == s for leg, _ in HORSE_FROM[k]) for s in range(NSQ))
               for k in range(NSQ))


def _move_rules():
    """``MOVE_RULE[side][code]``: for each piece code of ``side`` (an empty dict for the
    other codes), every move its movement rule allows on some board, mapped to what the
    board must show for it: a stepping piece's square that must be empty (horse leg,
    elephant eye; -1 for none), or a rook's or cannon's path (the squares strictly
    between, a tuple). One move tested without generating the move list; read off the
    move tables above, so it agrees with move generation by construction."""
    rule: list[list[dict]] = [[{} for _ in range(16)] for _ in range(2)]
    for c in (0, 1):
        mine = rule[c]
        for sq in range(NSQ):
            for t, rows in ((KING, KING_T), (ADVISOR, ADVISOR_T), (PAWN, PAWN_T)):
                for _to, m in rows[c][sq]:
                    mine[c * 8 + t][m] = -1
            for _to, eye, m in ELEPHANT_T[c][sq]:
                mine[c * 8 + ELEPHANT][m] = eye
            for _to, leg, m in HORSE_T[sq]:
                mine[c * 8 + HORSE][m] = leg
            for ray in RAYS[sq]:
                for i, to in enumerate(ray):
                    mine[c * 8 + ROOK][sq << 8 | to] = mine[c * 8 + CANNON][sq << 8 | to] = ray[:i]
    return tuple(tuple(x) for x in rule)


MOVE_RULE = _move_rules()

ZOBRIST = zobrist_keys(16 * NSQ + 1, seed=0x5851_4E47)  # "XQNG"
Z_PIECE = tuple(tuple(ZOBRIST[p * NSQ + s] if p & 7 else 0 for s in range(NSQ)) for p in range(16))
Z_SIDE = ZOBRIST[16 * NSQ]

# ---------------------------------------------------------------- position values
# Our own simple tables (not taken from any engine), in "centipawns" with a pawn at home
# worth 100, written from Red's point of view (rank 0 = own back rank) and mirrored for
# Black. Each entry is material + placement, so the incremental score is one table.
MATERIAL = {KING: 0, ADVISOR: 200, ELEPHANT: 200, HORSE: 400, ROOK: 900, CANNON: 450, PAWN: 100}


def _placement(t: int, f: int, r: int) -> int:
    """Bonus for a piece of type ``t`` on (file, rank) seen from its own side."""
    centre = 4 - abs(f - 4)  # 0 on the edge files, 4 on the middle file
    if t == PAWN:
        if r <= 4:
            return 0
        bonus = 90 + 10 * min(r - 5, 2)  # crossed the river: it gains sideways moves
        if 6 <= r <= 8:
            bonus += 12 * min(centre, 3)  # near the enemy palace
        if r == 9:
            bonus -= 30  # on the last rank it can only move sideways
        return bonus
    if t == HORSE:
        return 8 * min(centre, 3) + 6 * min(r, 6) - (25 if f in (0, 8) else 0) - (15 if r == 0 else 0)
    if t == ROOK:
        return 4 * min(centre, 3) + 4 * min(r, 7) + (15 if r in (6, 7) else 0)
    if t == CANNON:
        return (20 if f == 4 else 3 * centre) + (10 if r == 2 else 0) + (8 if r >= 7 else 0)
    if t == ADVISOR:
        return 10 if (f, r) == (4, 1) else 0
    if t == ELEPHANT:
        return 10 if (f, r) == (4, 2) else (-5 if f in (0, 8) else 0)
    if t == KING:
        return 10 if (f, r) == (4, 0) else -8 * r - 3 * abs(f - 4)
    raise ValueError(t)


def _pst() -> tuple[tuple[int, ...], ...]:
    rows = [(0,) * NSQ]
    for p in range(1, 16):
        t, c = p & 7, p >> 3
        if t == 0:
            rows.append((0,) * NSQ)
            continue
        row = []
        for s in range(NSQ):
            f, r = _fr(s)
            rr = r if c == 0 else 9 - r
            v = MATERIAL[t] + _placement(t, f, rr)
            row.append(v if c == 0 else -v)
        rows.append(tuple(row))
    return tuple(rows)


PST = _pst()  # PST[piece][sq]: Red-positive value (Black entries are negative)
MAT = tuple((MATERIAL[p & 7] if p & 7 else 0) * (1 if p < 8 else -1) for p in range(16))
#: a piece's value in a static exchange (:meth:`Xiangqi.see`): its material, the king's so
#: large that no exchange takes it (0 for an empty square)
SEE_KING = 10000
SEE_VALUE = tuple(0 if not p & 7 else SEE_KING if p & 7 == KING else MATERIAL[p & 7]
                  for p in range(16))
