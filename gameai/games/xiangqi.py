"""Xiangqi (Chinese chess) with full movement rules, FEN, ICCS moves and repetition rules.

Board and moves
---------------
``board`` is a flat list of 90 piece codes, ``sq = rank * 9 + file`` (file 0..8 = ``a``..``i``
from Red's left, rank 0..9 from Red's side); codes are ``colour * 8 + type`` (Red 1..7, Black
9..15; see :mod:`gameai.games.xiangqi_tables`). ``piece_at(file, rank)`` gives the FEN letter
(upper case Red), which is all a drawer needs. A move is the int ``from_sq << 8 | to_sq``;
its text is ICCS/UCCI ``h2e2`` (``H2-E2`` is read too).

Player 0 is Red (moves first), player 1 Black.

Rules implemented (and why)
---------------------------
* Every movement rule: horse leg, elephant eye and river, palace for king and advisors,
  pawns sideways only after crossing the river, cannon captures over exactly one screen,
  no capture of one's own pieces, one's own king never left attacked, and the two kings
  never facing each other on an open file (treated as the kings attacking each other).
* Checkmate and stalemate both lose for the side to move (the Xiangqi rule, unlike chess).
* Move-count rule: ``max_plies_without_capture`` plies (default 120, i.e. the common
  "60 moves each without a capture" limit) without a capture is a draw; ``None`` disables.
* Repetition, a simplified Asian/Chinese rule as used by common engines: when the current
  position (same side to move) has occurred ``repetitions`` times (default 3, counting the
  current one) since the last capture, the game ends. Over the span from the first of
  those occurrences, if every move of one side gave check and not every move of the other
  did, the checking side loses ("perpetual check"); otherwise it is a draw (including
  mutual perpetual check). Limits: perpetual *chasing* (attacking an unprotected piece
  without check) is not judged, and idle/check mixtures count as a draw; the full WXF or
  Chinese rule books judge more cases.
* ``result()`` checks, in this order: no legal move (the side to move loses), repetition,
  move count. It is cached per position and only asks "is there any legal move?" with an
  early exit, so searchers may call it at every node.

Speed design
------------
Make/unmake on the flat board; precomputed per-square move tables; a piece list per side
(``_men``: the squares its pieces stand on, with ``_slot[sq]`` the index of the piece on
``sq``, so push/pop update it in O(1); generation walks it sorted, keeping the
ascending-square move order, instead of scanning 90 squares); the Zobrist key and a
material and position-value score (``pst_score``/``material_score``, Red minus Black, read by
the ``xiangqi.pst``/``xiangqi.material`` evaluators) updated incrementally by ``push``/``pop``.
Legality: pseudo-legal moves are filtered by local tests from the mover's king, and only
for moves that can expose it (the king itself, moves from/to the king's rank or file, moves
from a horse-leg square next to the king) unless the side is in check.
"""
from __future__ import annotations

import re
from typing import Annotated

from ..errors import IllegalMoveError, PositionError
from ..spec import Range
from .protocol import CheckedPush, Outcome, play
from .xiangqi_tables import (ADVISOR, ADVISOR_T, CANNON, ELEPHANT, ELEPHANT_T, HORSE, HORSE_FROM,
                             HORSE_T, KING, KING_T, LEG_OF, MAT, MAX_COUNT, MOVE_RULE, PAWN,
                             PAWN_FROM, PAWN_T, PST, RAY_INDEX, RAYS, READ_LETTER, ROOK,
                             SEE_VALUE, WRITE_LETTER, Z_PIECE, Z_SIDE, in_palace, own_half)

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
FILES = "abcdefghi"
NULL_MOVE = 0          #: the pass of push_null (no real move has equal from and to squares)
_MOVE_RE = re.compile(r"([a-i])([0-9])-?([a-i])([0-9])", re.ASCII)
_COUNTER = re.compile(r"[0-9]{1,9}", re.ASCII)

# LAND[side][code]: may a piece of ``side`` move onto a square holding ``code``?
LAND = (tuple(c == 0 or c > 8 for c in range(16)), tuple(c < 8 for c in range(16)))
OWN = (tuple(0 < c < 8 for c in range(16)), tuple(c > 8 for c in range(16)))


def _piece_letter(code: int) -> str:
    letter = WRITE_LETTER[code & 7]
    return letter.upper() if code < 8 else letter


class Xiangqi(CheckedPush):
    """A mutable Xiangqi position (see the module docstring for layout and rules).

    ``fen`` sets the position (default: the start), ``moves`` plays ICCS moves from it.
    """

    name = "xiangqi"
    default_eval = "xiangqi.pst"

    def __init__(self, fen: str | None = None, moves: str = "",
                 max_plies_without_capture: Annotated[int, Range(1, 10 ** 9)] | None = 120,
                 repetitions: Annotated[int, Range(2, 10 ** 9)] = 3) -> None:
        if max_plies_without_capture is not None and (
                not isinstance(max_plies_without_capture, int) or max_plies_without_capture < 1):
            raise PositionError(f"xiangqi: max_plies_without_capture must be a positive int or None, "
                                f"got {max_plies_without_capture!r}")
        if not isinstance(repetitions, int) or repetitions < 2:
            raise PositionError(f"xiangqi: repetitions must be an int >= 2, got {repetitions!r}")
        self.max_plies_without_capture = max_plies_without_capture
        self.repetitions = repetitions
        self._set_fen(START_FEN if fen is None else fen)
        play(self, moves.split())

    # ------------------------------------------------------------------ set-up / FEN
    def _set_fen(self, fen: str) -> None:
        board, side, clock, fullmove = _parse_fen(fen)
        self.board = board
        self._side = side
        self._clock = clock
        self._fullmove0 = fullmove
        self._side0 = side
        self._undo: list[tuple] = []
        self._hist: list[int] = []
        self._kings = [board.index(KING), board.index(KING + 8)]
        self._men, self._slot = _men_of(board)
        self._key = _key_of(board, side)
        self._pst = sum(PST[p][s] for s, p in enumerate(board))
        self._mat = sum(MAT[p] for p in board)
        self._pm_top: object = None
        self._pm: list[int] = []
        self._rc_top: object = None
        self._rc: Outcome | None = None
        self._ck_top: object = None
        self._ck = False
        if self._attacked(self._kings[side ^ 1], side ^ 1):
            raise PositionError(f"xiangqi FEN {fen!r}: the side not to move "
                                f"({'red' if side else 'black'}) is in check (or the kings face each other)")

    def fen(self) -> str:
        """FEN with the ``rnbakabnr`` letter set, side ``w``/``b``, plies since capture, move number."""
        rows = []
        b = self.board
        for r in range(9, -1, -1):
            row, empty = [], 0
            for f in range(9):
                p = b[r * 9 + f]
                if p:
                    if empty:
                        row.append(str(empty))
                        empty = 0
                    row.append(_piece_letter(p))
                else:
                    empty += 1
            if empty:
                row.append(str(empty))
            rows.append("".join(row))
        fullmove = self._fullmove0 + (len(self._undo) + self._side0) // 2
        return f"{'/'.join(rows)} {'wb'[self._side]} - - {self._clock} {fullmove}"

    # ------------------------------------------------------------------ protocol
    @property
    def to_move(self) -> int:
        return self._side

    @property
    def key(self) -> int:
        return self._key

    @property
    def ply(self) -> int:
        return len(self._undo)

    @property
    def move_stack(self) -> list[int]:
        return [u[0] for u in self._undo]

    @property
    def plies_without_capture(self) -> int:
        return self._clock

    @property
    def pst_score(self) -> int:
        """Material + position value, Red minus Black (kept incrementally by push/pop)."""
        return self._pst

    @property
    def material_score(self) -> int:
        """Material only, Red minus Black (kept incrementally by push/pop)."""
        return self._mat

    def push_unchecked(self, move: int) -> None:
        """Play ``move`` without checking it (it must come from ``legal_moves``)."""
        fr = move >> 8
        to = move & 255
        b = self.board
        p = b[fr]
        c = b[to]
        k = self._key
        self._hist.append(k)
        self._undo.append((move, c, self._pst, self._clock))
        b[to] = p
        b[fr] = 0
        men = self._men
        slot = self._slot
        if c:                  # the victim leaves its side's list: the last entry fills its slot
            other = men[c >> 3]
            last = other.pop()
            if last != to:
                j = slot[to]
                other[j] = last
                slot[last] = j
        i = slot[fr]
        men[p >> 3][i] = to
        slot[to] = i
        zp = Z_PIECE[p]
        k ^= zp[fr] ^ zp[to] ^ Z_SIDE
        pv = PST[p]
        if c:
            self._key = k ^ Z_PIECE[c][to]
            self._pst += pv[to] - pv[fr] - PST[c][to]
            self._mat -= MAT[c]
            self._clock = 0
        else:
            self._key = k
            self._pst += pv[to] - pv[fr]
            self._clock += 1
        if p & 7 == KING:
            self._kings[p >> 3] = to
        self._side ^= 1

    def pop(self) -> int:
        """Take back the last move and return it."""
        try:
            move, c, self._pst, self._clock = self._undo.pop()
        except IndexError:
            raise IllegalMoveError("xiangqi: no move to take back") from None
        self._key = self._hist.pop()
        fr = move >> 8
        to = move & 255
        b = self.board
        p = b[to]
        b[fr] = p
        b[to] = c
        slot = self._slot
        i = slot[to]
        self._men[p >> 3][i] = fr
        slot[fr] = i
        if c:
            other = self._men[c >> 3]
            slot[to] = len(other)
            other.append(to)
            self._mat += MAT[c]
        if p & 7 == KING:
            self._kings[p >> 3] = fr
        self._side ^= 1
        return move

    def legal_moves(self) -> list[int]:
        """All legal moves (movement rules only; ask ``result()`` for draws by rule)."""
        return self._legal_subset(self._pseudo())

    def noisy_moves(self) -> list[int]:
        """Legal captures (for quiescence search): only captures are generated and tested."""
        top = self._undo[-1] if self._undo else None
        if self._pm_top is top and top is not None:
            b = self.board
            return self._legal_subset([m for m in self._pm if b[m & 255]])
        return self._legal_subset(self._captures())

    def _legal_subset(self, pseudo) -> list[int]:
        """The legal moves among pseudo-legal ``pseudo`` (order kept)."""
        side = self._side
        k = self._kings[side]
        if self.in_check():
            return [m for m in pseudo if self._safe_full(m, k, side)]
        return self._unexposing(pseudo, k, side)

    def _unexposing(self, pseudo, k: int, side: int) -> list[int]:
        """The moves among pseudo-legal ``pseudo`` that leave ``side``'s king on ``k``
        (not in check) safe (order kept)."""
        b = self.board
        out = []
        app = out.append
        ri = RAY_INDEX[k]
        leg = LEG_OF[k]
        rays = RAYS[k]
        er, ec, ek, eh = (ROOK + 8, CANNON + 8, KING + 8, HORSE + 8) if side == 0 else (ROOK, CANNON, KING, HORSE)
        for m in pseudo:
            fr = m >> 8
            to = m & 255
            d1 = ri[fr]
            d2 = ri[to]
            if fr == k:
                if self._safe_full(m, k, side):
                    app(m)
                continue
            if d1 < 0 and d2 < 0 and not leg[fr]:
                app(m)
                continue
            # Make the move on the board, test only the lines/leg it touches, unmake.
            p = b[fr]
            c = b[to]
            b[to] = p
            b[fr] = 0
            bad = False
            for d in ((d1,) if d2 < 0 or d2 == d1 else (d2,) if d1 < 0 else (d1, d2)):
                if d < 0:
                    continue
                n = 0
                for s in rays[d]:
                    q = b[s]
                    if q:
                        if n == 0:
                            if q == er or q == ek:
                                bad = True
                                break
                            n = 1
                        else:
                            if q == ec:
                                bad = True
                            break
                if bad:
                    break
            if not bad and leg[fr]:
                for lg, srcs in HORSE_FROM[k]:
                    if lg == fr:
                        for s in srcs:
                            if b[s] == eh:
                                bad = True
                        break
            b[fr] = p
            b[to] = c
            if not bad:
                app(m)
        return out

    def _safe_full(self, m: int, k: int, side: int) -> bool:
        """Make ``m`` on the board only, test the (possibly moved) king fully, unmake."""
        b = self.board
        fr = m >> 8
        to = m & 255
        p = b[fr]
        c = b[to]
        b[to] = p
        b[fr] = 0
        bad = self._attacked(to if fr == k else k, side)
        b[fr] = p
        b[to] = c
        return not bad

    def _attacked(self, k: int, side: int) -> bool:
        """Is square ``k`` (``side``'s king) attacked by the other side on the current board?"""
        b = self.board
        if side == 0:
            er, ec, ek, eh, ep = ROOK + 8, CANNON + 8, KING + 8, HORSE + 8, PAWN + 8
        else:
            er, ec, ek, eh, ep = ROOK, CANNON, KING, HORSE, PAWN
        for ray in RAYS[k]:
            n = 0
            for s in ray:
                q = b[s]
                if q:
                    if n == 0:
                        if q == er or q == ek:
                            return True
                        n = 1
                    else:
                        if q == ec:
                            return True
                        break
        for leg, srcs in HORSE_FROM[k]:
            if not b[leg]:
                for s in srcs:
                    if b[s] == eh:
                        return True
        for s in PAWN_FROM[side ^ 1][k]:
            if b[s] == ep:
                return True
        return False

    def _pseudo(self) -> list[int]:
        """Pseudo-legal moves (movement rules, no self-capture), cached per position."""
        top = self._undo[-1] if self._undo else None
        if self._pm_top is top and top is not None:
            return self._pm
        out = list(self._gen_pseudo(sorted(self._men[self._side])))
        self._pm_top = top
        self._pm = out
        return out

    def _gen_pseudo(self, squares):
        """Yield the pseudo-legal moves of the pieces on ``squares`` (the side to move's),
        square by square in the order given, lazily (so "is there any legal move?" can stop
        early). Move lists pass the squares ascending: that order is part of the contract
        (the compiled kernel and pinned node counts follow it)."""
        b = self.board
        side = self._side
        land = LAND[side]
        kt = KING_T[side]
        at = ADVISOR_T[side]
        et = ELEPHANT_T[side]
        pt = PAWN_T[side]
        for fr in squares:
            t = b[fr] & 7
            if t == ROOK:
                base = fr << 8
                for ray in RAYS[fr]:
                    for to in ray:
                        q = b[to]
                        if q:
                            if land[q]:
                                yield base | to
                            break
                        yield base | to
            elif t == HORSE:
                for to, lg, m in HORSE_T[fr]:
                    if not b[lg] and land[b[to]]:
                        yield m
            elif t == CANNON:
                base = fr << 8
                for ray in RAYS[fr]:
                    screen = False
                    for to in ray:
                        q = b[to]
                        if screen:
                            if q:
                                if land[q]:
                                    yield base | to
                                break
                        elif q:
                            screen = True
                        else:
                            yield base | to
            elif t == PAWN:
                for to, m in pt[fr]:
                    if land[b[to]]:
                        yield m
            elif t == ELEPHANT:
                for to, eye, m in et[fr]:
                    if not b[eye] and land[b[to]]:
                        yield m
            elif t == ADVISOR:
                for to, m in at[fr]:
                    if land[b[to]]:
                        yield m
            else:
                for to, m in kt[fr]:
                    if land[b[to]]:
                        yield m

    def _captures(self) -> list[int]:
        """Pseudo-legal captures only: rays stop at the first piece (rook) or the piece after
        the screen (cannon), so a quiescence node costs far less than full generation."""
        b = self.board
        side = self._side
        enemy = OWN[side ^ 1]
        out: list[int] = []
        app = out.append
        for fr in sorted(self._men[side]):    # ascending squares, as _gen_pseudo
            t = b[fr] & 7
            if t == ROOK:
                base = fr << 8
                for ray in RAYS[fr]:
                    for to in ray:
                        q = b[to]
                        if q:
                            if enemy[q]:
                                app(base | to)
                            break
            elif t == CANNON:
                base = fr << 8
                for ray in RAYS[fr]:
                    screen = False
                    for to in ray:
                        if b[to]:
                            if screen:
                                if enemy[b[to]]:
                                    app(base | to)
                                break
                            screen = True
            elif t == HORSE:
                for to, lg, m in HORSE_T[fr]:
                    if enemy[b[to]] and not b[lg]:
                        app(m)
            elif t == PAWN:
                for to, m in PAWN_T[side][fr]:
                    if enemy[b[to]]:
                        app(m)
            elif t == ELEPHANT:
                for to, eye, m in ELEPHANT_T[side][fr]:
                    if enemy[b[to]] and not b[eye]:
                        app(m)
            else:
                for to, m in (ADVISOR_T if t == ADVISOR else KING_T)[side][fr]:
                    if enemy[b[to]]:
                        app(m)
        return out

    def _any_legal(self) -> bool:
        """Early-exit test: does the side to move have at least one legal move?"""
        side = self._side
        k = self._kings[side]
        top = self._undo[-1] if self._undo else None
        if self._pm_top is top and top is not None:
            moves = self._pm
        else:                  # any order will do for a yes/no answer: no sort
            moves = self._gen_pseudo(self._men[side])
        for m in moves:
            if self._safe_full(m, k, side):
                return True
        return False

    def push_null(self) -> None:
        """Pass: the other side moves (for null-move pruning; never call it in check).
        Undo it with :meth:`pop_null`, not :meth:`pop`. A repetition never spans it."""
        self._hist.append(self._key)
        self._undo.append((NULL_MOVE, 0, self._pst, self._clock))
        self._key ^= Z_SIDE
        self._clock = 0
        self._side ^= 1

    def pop_null(self) -> None:
        """Take back :meth:`push_null`."""
        if not self._undo or self._undo[-1][0] != NULL_MOVE:
            raise IllegalMoveError("xiangqi: pop_null without a null move on top")
        _, _, self._pst, self._clock = self._undo.pop()
        self._key = self._hist.pop()
        self._side ^= 1

    def repeated(self) -> bool:
        """Has this position (same side to move) occurred since the last capture?"""
        clock = self._clock
        if clock < 4:
            return False
        hist = self._hist       # a FEN clock may exceed the moves this game object knows
        return self._key in hist[max(0, len(hist) - clock):]

    def mvv_lva(self, move: int) -> int:
        """Capture order: victim's material first, then the cheaper attacker; 0 if quiet."""
        b = self.board
        c = b[move & 255]
        if not c:
            return 0
        return (abs(MAT[c]) << 16) - abs(MAT[b[move >> 8]])

    def in_check(self) -> bool:
        """Is the side to move in check (including a facing-kings file)? Cached per
        position, as ``result()``: ``is_legal`` asks it for every move of a position."""
        top = self._undo[-1] if self._undo else None
        if self._ck_top is top and top is not None:
            return self._ck
        side = self._side
        self._ck = checked = self._attacked(self._kings[side], side)
        self._ck_top = top
        return checked

    def is_legal(self, move: int) -> bool:
        """Is ``move`` legal here (and the game not over)? The moving piece's own rule
        (its leg, eye, path or screen), then the mover's king left safe, flying general
        included; no move list is generated, so the public ``push`` costs about one move."""
        if type(move) is not int or not 0 <= move < 90 << 8:
            return False
        b = self.board
        side = self._side
        fr = move >> 8
        rule = MOVE_RULE[side][b[fr]].get(move)     # None: not a move of the piece on fr
        if rule is None:
            return False
        to = move & 255
        if not LAND[side][b[to]]:
            return False
        if type(rule) is tuple:                     # rook or cannon: count the screens
            screens = 0
            for s in rule:
                if b[s]:
                    screens += 1
            if screens != (1 if b[to] and b[fr] & 7 == CANNON else 0):
                return False
        elif rule >= 0 and b[rule]:                 # a blocked horse leg or elephant eye
            return False
        top = self._undo[-1] if self._undo else None   # result() and in_check(), cached
        if top is None or self._rc_top is not top:
            if self.result() is not None:
                return False
        elif self._rc is not None:
            return False
        k = self._kings[side]
        if fr == k or (self._ck if top is not None and self._ck_top is top else self.in_check()):
            return self._safe_full(move, k, side)
        if RAY_INDEX[k][fr] < 0 and RAY_INDEX[k][to] < 0 and not LEG_OF[k][fr]:
            return True          # a move off the king's lines and legs cannot expose it
        return bool(self._unexposing((move,), k, side))

    def gives_check(self, move: int) -> bool:
        """Would ``move`` (legal here) put the opponent in check? Tested on the board alone
        (the piece moved and put back, nothing pushed), so futility pruning can ask it of
        every move it skips without making the move."""
        other = self._side ^ 1
        return not self._safe_full(move, self._kings[other], other)

    def capture_value(self, move: int) -> int:
        """The exchange value of the piece ``move`` captures (0 for a quiet move): what
        delta pruning adds to the stand-pat score."""
        return SEE_VALUE[self.board[move & 255]]

    def see(self, move: int) -> int:
        """Static exchange evaluation of ``move`` (legal here): the material the mover
        ends with when both sides keep recapturing on its target square with their least
        valuable attacker, each free to stop (a quiet move: 0, or minus the piece when
        the square is attacked). Pins are ignored, as in Stockfish; the pieces are moved
        on the board, so cannon screens and horse legs change as the exchange goes, and
        the board is put back. Ordering and quiescence use its sign."""
        b = self.board
        fr = move >> 8
        to = move & 255
        p = b[fr]
        gains = [SEE_VALUE[b[to]]]
        saved = [(to, b[to]), (fr, p)]
        b[to] = p
        b[fr] = 0
        on_to = SEE_VALUE[p]
        side = (p >> 3) ^ 1
        while True:
            a = self._least_attacker(to, side)
            if a < 0:
                break
            gains.append(on_to - gains[-1])
            q = b[a]
            saved.append((a, q))
            b[to] = q
            b[a] = 0
            on_to = SEE_VALUE[q]
            side ^= 1
        for sq, piece in reversed(saved):
            b[sq] = piece
        for d in range(len(gains) - 1, 0, -1):
            gains[d - 1] = -max(-gains[d - 1], gains[d])
        return gains[0]

    def _least_attacker(self, k: int, side: int) -> int:
        """The square of ``side``'s least valuable piece attacking square ``k`` (pawn,
        advisor, elephant, horse, cannon, rook, king; -1 if none) on the current board."""
        b = self.board
        o = side << 3
        pawn = PAWN + o
        for s in PAWN_FROM[side][k]:
            if b[s] == pawn:
                return s
        adv = ADVISOR + o
        for s, _ in ADVISOR_T[side][k]:
            if b[s] == adv:
                return s
        ele = ELEPHANT + o
        for s, eye, _ in ELEPHANT_T[side][k]:
            if b[s] == ele and not b[eye]:
                return s
        horse = HORSE + o
        for leg, srcs in HORSE_FROM[k]:
            if not b[leg]:
                for s in srcs:
                    if b[s] == horse:
                        return s
        rook, cannon, best = ROOK + o, CANNON + o, -1
        for ray in RAYS[k]:
            screen = False
            for s in ray:
                q = b[s]
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
        for s, _ in KING_T[side][k]:
            if b[s] == king:
                return s
        return -1

    def has_attackers(self) -> bool:
        """Has the side to move a rook, horse or cannon? Null-move pruning is unsound in
        the zugzwang-prone endings of kings, advisors, elephants and pawns (Stockfish asks
        the same of non-pawn material)."""
        b = self.board
        for s in self._men[self._side]:
            if b[s] & 7 in (ROOK, HORSE, CANNON):
                return True
        return False

    def is_capture(self, move: int) -> bool:
        return self.board[move & 255] != 0

    def result(self) -> Outcome | None:
        """None while the game goes on, else the Outcome (cached per position)."""
        top = self._undo[-1] if self._undo else None
        if self._rc_top is top and top is not None:
            return self._rc
        res = self._compute_result()
        self._rc_top = self._undo[-1] if self._undo else None  # replay may renew the top
        self._rc = res
        return res

    def _compute_result(self) -> Outcome | None:
        side = self._side
        if not self._any_legal():
            return Outcome(side ^ 1, "checkmate" if self.in_check() else "stalemate")
        clock = self._clock
        if clock >= 4:
            n = len(self._hist)
            lo = max(0, n - clock)
            hist = self._hist
            key = self._key
            if hist[lo:].count(key) + 1 >= self.repetitions:
                return self._repetition_outcome(lo)
        limit = self.max_plies_without_capture
        if limit is not None and clock >= limit:
            return Outcome(None, "move-limit")
        return None

    def _repetition_outcome(self, lo: int) -> Outcome:
        """Judge the game's repetition: the span from the first counted occurrence."""
        hist = self._hist
        key = self._key
        occ = [i for i in range(lo, len(hist)) if hist[i] == key]
        return self._judge_cycle(occ[-(self.repetitions - 1)])

    def repetition_outcome(self) -> Outcome | None:
        """How the search scores a repetition inside its line: None if this position (same
        side to move) has not occurred since the last capture; else the moves since its
        latest occurrence judged by the game's own rule (perpetual check loses for the
        checking side, anything else draws). A search that scored every repetition as a
        draw would happily give perpetual check and lose the game by it."""
        clock = self._clock
        if clock < 4:
            return None
        hist = self._hist
        key = self._key
        for i in range(len(hist) - 1, max(0, len(hist) - clock) - 1, -1):
            if hist[i] == key:
                return self._judge_cycle(i)
        return None

    def _judge_cycle(self, start: int) -> Outcome:
        """Perpetual check loses, anything else is a draw, over the moves from ``start``:
        pop back to it and replay, noting whether each move gave check."""
        moves = [self.pop() for _ in range(len(self._hist) - start)]
        all_check = [True, True]
        for m in reversed(moves):
            mover = self._side
            self.push_unchecked(m)
            if not self.in_check():
                all_check[mover] = False
        if all_check[0] != all_check[1]:
            return Outcome(1 if all_check[0] else 0, "perpetual-check")
        return Outcome(None, "repetition")

    # ------------------------------------------------------------------ text
    def move_str(self, move: int) -> str:
        """ICCS text (``h2e2``) of a move between two squares; a value that is not one
        raises :class:`IllegalMoveError` (legality in the position is not checked)."""
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < 1 << 16 \
                or (move >> 8) >= 90 or (move & 255) >= 90 or move >> 8 == move & 255:
            raise IllegalMoveError(f"xiangqi: {move!r} is not a move between two squares")
        fr = move >> 8
        to = move & 255
        return f"{FILES[fr % 9]}{fr // 9}{FILES[to % 9]}{to // 9}"

    def parse_move(self, text: str) -> int:
        """ICCS text -> move; raises IllegalMoveError naming the move and position."""
        t = str(text).strip()
        mt = _MOVE_RE.fullmatch(t.lower()) if t.isascii() else None
        t = t.lower()
        if not mt:
            raise IllegalMoveError(f"xiangqi: {text!r} is not an ICCS move like 'h2e2' "
                                   f"(position {self.fen()})")
        fr = FILES.index(mt.group(1)) + 9 * int(mt.group(2))
        to = FILES.index(mt.group(3)) + 9 * int(mt.group(4))
        move = fr << 8 | to
        res = self.result()
        if res is not None:
            raise IllegalMoveError(f"xiangqi: game is over ({res}); cannot play {text!r} "
                                   f"(position {self.fen()})")
        if not self.is_legal(move):
            p = self.board[fr]
            what = "no piece" if not p else f"{'red' if p < 8 else 'black'} {_piece_letter(p)}"
            raise IllegalMoveError(f"xiangqi: move {text!r} ({what} on {t[:2]}) is not legal for "
                                   f"{'red' if self._side == 0 else 'black'} in position {self.fen()}")
        return move

    def history_key(self, move: int, with_piece: bool = False) -> int:
        """Index for history tables: from*90+to (< 8100); with_piece adds colour and type.

        With the piece (the 000 document's refinement): ``(code - 1) * 8100 + from*90 + to``
        with code 1..15 the moving piece's colour*8+type, so keys stay below 121,500.
        """
        fr = move >> 8
        base = fr * 90 + (move & 255)
        if with_piece:
            return (self.board[fr] - 1) * 8100 + base
        return base

    def key_from_scratch(self) -> int:
        """The Zobrist key recomputed from the board (``key`` must always equal it)."""
        return _key_of(self.board, self._side)

    def piece_at(self, file: int, rank: int) -> str | None:
        """FEN letter of the piece on (file 0..8, rank 0..9), upper case Red; None if empty."""
        p = self.board[rank * 9 + file]
        return _piece_letter(p) if p else None

    def perft(self, depth: int) -> int:
        """Bulk perft: like gameai.perft but counts the last ply without making the moves."""
        if depth <= 0:
            return 1
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        push, pop = self.push_unchecked, self.pop
        for m in moves:
            push(m)
            total += self.perft(depth - 1)
            pop()
        return total

    def copy(self) -> "Xiangqi":
        other = object.__new__(Xiangqi)
        other.__dict__.update(self.__dict__)
        other.board = list(self.board)
        other._undo = list(self._undo)
        other._hist = list(self._hist)
        other._kings = list(self._kings)
        other._men = [list(self._men[0]), list(self._men[1])]
        other._slot = list(self._slot)
        other._pm_top = other._rc_top = other._ck_top = None
        return other

    def __str__(self) -> str:
        lines = []
        for r in range(9, -1, -1):
            cells = " ".join(self.piece_at(f, r) or "." for f in range(9))
            lines.append(f"{r} {cells}")
            if r == 5:
                lines.append("  " + "-" * 17)
        lines.append("  " + " ".join(FILES))
        lines.append(f"{'red' if self._side == 0 else 'black'} to move")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Xiangqi(fen={self.fen()!r})"


def _men_of(board: list[int]) -> tuple[list[list[int]], list[int]]:
    """The piece lists from scratch: per side the squares its pieces stand on (ascending
    here, in any order after moves), and per occupied square its index in its side's list."""
    men: list[list[int]] = [[], []]
    slot = [0] * 90
    for s, p in enumerate(board):
        if p:
            slot[s] = len(men[p >> 3])
            men[p >> 3].append(s)
    return men, slot


def _key_of(board: list[int], side: int) -> int:
    """Zobrist key computed from scratch (the incremental key must always equal this)."""
    k = Z_SIDE if side else 0
    for s, p in enumerate(board):
        if p:
            k ^= Z_PIECE[p][s]
    return k


def _parse_fen(fen: str) -> tuple[list[int], int, int, int]:
    """FEN -> (board, side, plies without capture, move number); PositionError names the field."""
    if not isinstance(fen, str) or not fen.strip():
        raise PositionError(f"xiangqi FEN {fen!r}: empty")
    if not fen.isascii():
        bad = next(ch for ch in fen if not ch.isascii())
        raise PositionError(f"xiangqi FEN {fen[:120]!r}: character {bad!r} (U+{ord(bad):04X}) "
                            "is not ASCII; a FEN uses ASCII letters and digits only")
    fields = fen.split()
    if len(fields) > 6:
        raise PositionError(f"xiangqi FEN {fen[:120]!r}: {len(fields)} fields, at most 6 "
                            "(placement, side, -, -, plies since capture, move number)")
    placement = fields[0]
    ranks = placement.split("/")
    if len(ranks) != 10:
        raise PositionError(f"xiangqi FEN {fen!r}: placement has {len(ranks)} ranks, expected 10")
    board = [0] * 90
    counts: dict[int, int] = {}
    for i, row in enumerate(ranks):
        r = 9 - i
        f = 0
        run = ""  # a run of digits ("10") is one count of empty files
        for ch in row + " ":
            if ch in "0123456789":
                run += ch
                if int(run) > 9 - f:  # (so a run never grows past two digits)
                    raise PositionError(f"xiangqi FEN {fen[:120]!r}: rank {r} ({row[:40]!r}) "
                                        f"has at least {f + int(run)} files, expected 9")
                continue
            if run:
                if run[0] == "0":
                    raise PositionError(f"xiangqi FEN {fen[:120]!r}: rank {r} ({row!r}) has "
                                        f"the empty-file count {run!r}; counts are 1..9")
                f += int(run)
                run = ""
            if ch == " ":
                break
            t = READ_LETTER.get(ch.lower())
            if t is None:
                raise PositionError(f"xiangqi FEN {fen!r}: unknown piece letter {ch!r} in rank {r} "
                                    f"(field {i + 1} of the placement)")
            if f >= 9:
                raise PositionError(f"xiangqi FEN {fen!r}: rank {r} ({row!r}) has more than 9 files")
            c = 0 if ch.isupper() else 1
            code = c * 8 + t
            _check_placement(fen, t, c, f, r)
            board[r * 9 + f] = code
            counts[code] = counts.get(code, 0) + 1
            f += 1
        if f != 9:
            raise PositionError(f"xiangqi FEN {fen!r}: rank {r} ({row!r}) has {f} files, expected 9")
    _check_pawn_files(fen, board)
    for c, colour in ((0, "red"), (1, "black")):
        for t, most in MAX_COUNT.items():
            n = counts.get(c * 8 + t, 0)
            if t == KING and n != 1:
                raise PositionError(f"xiangqi FEN {fen!r}: {colour} has {n} kings, expected 1")
            if n > most:
                raise PositionError(f"xiangqi FEN {fen!r}: {colour} has {n} of piece "
                                    f"{WRITE_LETTER[t]!r}, at most {most} allowed")
    side_text = fields[1].lower() if len(fields) > 1 else "w"
    if side_text not in ("w", "r", "b"):
        raise PositionError(f"xiangqi FEN {fen!r}: side to move {fields[1]!r} is not w, r or b")
    side = 1 if side_text == "b" else 0
    clock, fullmove = 0, 1
    nums = [x for x in fields[2:] if x != "-"]
    if len(nums) > 2 or not all(_COUNTER.fullmatch(x) for x in nums):
        raise PositionError(f"xiangqi FEN {fen!r}: move counters {nums} are not one or two "
                            "integers (plies since capture, move number)")
    if len(nums) >= 1:
        clock = int(nums[0])
    if len(nums) >= 2:
        fullmove = int(nums[1])
    if clock < 0 or fullmove < 1:
        raise PositionError(f"xiangqi FEN {fen!r}: bad move counters (halfmove {clock}, fullmove {fullmove})")
    return board, side, clock, fullmove


def _check_pawn_files(fen: str, board: list[int]) -> None:
    """A pawn moves only forward until it crosses the river, so on its own side of the
    river a file holds at most one pawn of each colour (the one that started there)."""
    for c, colour in ((0, "red"), (1, "black")):
        home = range(0, 5) if c == 0 else range(5, 10)
        for f in range(9):
            ranks = [r for r in home if board[r * 9 + f] == c * 8 + PAWN]
            if len(ranks) > 1:
                where = " and ".join(f"{FILES[f]}{r}" for r in ranks)
                raise PositionError(f"xiangqi FEN {fen!r}: {colour} pawns at {where}: pawns "
                                    "cannot leave their file before crossing the river, so "
                                    "no game reaches two on one file on their own side")


def _check_placement(fen: str, t: int, c: int, f: int, r: int) -> None:
    """Reject pieces on points they can never reach (they would break the move tables)."""
    where = f"{FILES[f]}{r}"
    colour = "red" if c == 0 else "black"
    ok = True
    if t in (KING, ADVISOR):
        ok = in_palace(c, f, r) and (t == KING or (f + r) % 2 == (1 if c == 0 else 0))
    elif t == ELEPHANT:
        ok = own_half(c, r) and (f, r if c == 0 else 9 - r) in {
            (2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)}
    elif t == PAWN:
        rr = r if c == 0 else 9 - r
        ok = rr >= 5 or (rr in (3, 4) and f % 2 == 0)
    if not ok:
        raise PositionError(f"xiangqi FEN {fen!r}: {colour} {WRITE_LETTER[t]!r} cannot stand on {where}")
