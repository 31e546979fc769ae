"""``xiangqi.tuned``: material + piece-square base plus the terms real programs add, as
linear features whose weights ``gameai tune`` fits (Texel's method).

Every feature is a number seen from the side to move; most are "mine minus the
opponent's" (so they change sign under a colour swap), two are side-to-move terms
(``hanging_me``, ``hanging_op``: a hanging piece of the side to move can be saved, one of
the opponent's can be taken now) and ``tempo`` is the constant 1. The groups:

* base: ``pst`` (the state's incremental material + placement score, what
  ``xiangqi.pst`` returns) and per-type material corrections (``rook`` ... ``pawn``:
  piece-count differences, 0 by default because ``pst`` already holds material);
* mobility: pseudo-legal moves of rooks, horses and cannons (to empty or enemy squares);
* king safety: enemy rook/horse/cannon/pawn moves landing in one's palace
  (``palace_attack``: mine on theirs minus theirs on mine), an open king file
  (``king_open_file``), a cannon aimed at the enemy king over two pieces, one move from
  check (``cannon_aim``), missing advisors/elephants while the enemy still has attackers
  (``bare_king``);
* coordination: defended pieces (``defended``), rooks that see each other
  (``rooks_linked``), pieces attacked and not defended (``hanging_me``/``hanging_op``);
* pawn structure: crossed pawns (``pawn_crossed``), crossed pawns side by side
  (``pawn_linked``);
* ``tempo``.

With no weights file the weights are ``pst = 1`` and 0 elsewhere, so the evaluator
equals ``xiangqi.pst`` on every position (tested). ``backend=compiled`` runs the same
values with any weights (:mod:`gameai.compiled.xiangqi_tuned`, the weights as data).
"""
from __future__ import annotations

from ..games.xiangqi_tables import (ADVISOR, CANNON, ELEPHANT, HORSE, HORSE_T, KING, PAWN,
                                    PAWN_T, RAYS, ADVISOR_T, ELEPHANT_T, KING_T, ROOK)
from .linear import LinearEvaluator

FEATURES = ("pst", "rook", "horse", "cannon", "advisor", "elephant", "pawn",
            "mob_rook", "mob_horse", "mob_cannon",
            "palace_attack", "king_open_file", "cannon_aim", "bare_king",
            "defended", "rooks_linked", "hanging_me", "hanging_op",
            "pawn_crossed", "pawn_linked", "tempo")
_TYPE_FEATURE = {ROOK: 1, HORSE: 2, CANNON: 3, ADVISOR: 4, ELEPHANT: 5, PAWN: 6}
_PALACE = (frozenset(r * 9 + f for r in range(3) for f in range(3, 6)),
           frozenset(r * 9 + f for r in range(7, 10) for f in range(3, 6)))
_ATTACKERS = (ROOK, HORSE, CANNON, PAWN)


def _targets(b: list[int], s: int, p: int) -> tuple[list[int], int]:
    """Squares the piece ``p`` on ``s`` attacks (occupied by either side, so own pieces
    count as defended) and its number of pseudo-legal moves to empty or enemy squares."""
    t, c = p & 7, p >> 3
    hits: list[int] = []
    mob = 0
    if t == ROOK:
        for ray in RAYS[s]:
            for to in ray:
                q = b[to]
                if q:
                    hits.append(to)
                    mob += (q >> 3) != c
                    break
                mob += 1
    elif t == CANNON:
        for ray in RAYS[s]:
            i = next((j for j, to in enumerate(ray) if b[to]), len(ray))
            mob += i                             # quiet moves up to the screen
            hit = next((to for to in ray[i + 1:] if b[to]), -1)
            if hit >= 0:
                hits.append(hit)
                mob += (b[hit] >> 3) != c
    elif t == HORSE:
        for to, leg, _ in HORSE_T[s]:
            if not b[leg]:
                q = b[to]
                if q:
                    hits.append(to)
                    mob += (q >> 3) != c
                else:
                    mob += 1
    elif t == ELEPHANT:
        for to, eye, _ in ELEPHANT_T[c][s]:
            if not b[eye] and b[to]:
                hits.append(to)
    else:
        table = PAWN_T if t == PAWN else (ADVISOR_T if t == ADVISOR else KING_T)
        for to, _ in table[c][s]:
            if b[to]:
                hits.append(to)
    return hits, mob


def red_features(state) -> list[float]:
    """The features from Red's side (Red minus Black; ``hanging_me``/``hanging_op`` hold
    Red's and Black's hanging counts, ``tempo`` is 0): the side-to-move view is derived."""
    b = state.board
    f = [0.0] * len(FEATURES)
    f[0] = state.pst_score
    attacked = ([0] * 90, [0] * 90)          # per colour: how many of its pieces hit a square
    palace_hits = [0, 0]
    kings = [-1, -1]
    guards = [0, 0]
    attackers = [0, 0]
    pieces = []
    for s, p in enumerate(b):
        if not p:
            continue
        t, c = p & 7, p >> 3
        sign = 1 if c == 0 else -1
        if t == KING:
            kings[c] = s
        else:
            pieces.append((s, p))
        if t in _TYPE_FEATURE:
            f[_TYPE_FEATURE[t]] += sign
        if t in (ADVISOR, ELEPHANT):
            guards[c] += 1
        hits, mob = _targets(b, s, p)
        mine = attacked[c]
        for to in hits:
            mine[to] += 1
        if t == ROOK:
            f[7] += sign * mob
        elif t == HORSE:
            f[8] += sign * mob
        elif t == CANNON:
            f[9] += sign * mob
        if t in _ATTACKERS:
            attackers[c] += 1
            palace_hits[c] += _palace_moves(b, s, p, _PALACE[c ^ 1])
        if t == PAWN and ((s // 9) >= 5 if c == 0 else (s // 9) <= 4):
            f[18] += sign
            side = s + 1 if s % 9 < 8 else -1
            if side >= 0 and b[side] == p:
                f[19] += sign
        if t == ROOK:
            for ray in RAYS[s]:
                for to in ray:
                    if b[to]:
                        if b[to] == p and to > s:
                            f[15] += sign
                        break
    f[10] = palace_hits[0] - palace_hits[1]
    for c in (0, 1):
        sign = 1 if c == 0 else -1
        k = kings[c]
        if k < 0:
            continue
        ray = RAYS[k][0 if c == 0 else 1]    # towards the enemy: up for Red, down for Black
        if not any(b[to] for to in ray):
            f[11] -= sign
        # a cannon of the other side aimed at this king over two pieces (one screen is
        # check, which tuning skips; two is the central-cannon pressure one move away)
        for r in RAYS[k]:
            seen = 0
            for to in r:
                q = b[to]
                if q:
                    if seen == 2 and q == (CANNON | ((c ^ 1) << 3)):
                        f[12] -= sign
                    seen += 1
                    if seen == 3:
                        break
        if attackers[c ^ 1] and guards[c] < 4:
            f[13] -= sign * (4 - guards[c])
    hanging = [0, 0]
    for s, p in pieces:
        c = p >> 3
        sign = 1 if c == 0 else -1
        own, theirs = attacked[c][s], attacked[c ^ 1][s]
        if own:
            f[14] += sign
        elif theirs:
            hanging[c] += 1
    f[16], f[17] = hanging
    return f


def _palace_moves(b: list[int], s: int, p: int, palace: frozenset) -> int:
    """Pseudo-moves (quiet or capture) of a rook, cannon, horse or pawn that land in ``palace``."""
    t, c = p & 7, p >> 3
    n = 0
    if t == PAWN:
        return sum(1 for to, _ in PAWN_T[c][s] if to in palace and (not b[to] or (b[to] >> 3) != c))
    if t == HORSE:
        for to, leg, _ in HORSE_T[s]:
            if to in palace and not b[leg] and (not b[to] or (b[to] >> 3) != c):
                n += 1
        return n
    for ray in RAYS[s]:
        screen = False
        for to in ray:
            q = b[to]
            if t == ROOK:
                if q:
                    n += to in palace and (q >> 3) != c
                    break
                n += to in palace
            elif screen:
                if q:
                    n += to in palace and (q >> 3) != c
                    break
            elif q:
                screen = True
            else:
                n += to in palace
    return n


def stm_features(red: list[float], side: int) -> list[float]:
    """The side-to-move view of :func:`red_features` (``side`` 0 Red, 1 Black)."""
    f = list(red) if side == 0 else [-x for x in red]
    me, op = (red[16], red[17]) if side == 0 else (red[17], red[16])
    f[16], f[17], f[20] = me, op, 1.0
    return f


class XiangqiTuned(LinearEvaluator):
    """Material + PST plus mobility, king safety, coordination and pawn terms, weighted by
    a weights file (``weights=FILE``, from ``gameai tune``) or the defaults (= ``xiangqi.pst``)."""

    name = "xiangqi.tuned"
    games = ("xiangqi",)  # the games it can score (checked by make_evaluator)
    FEATURES = FEATURES
    DEFAULTS = {"pst": 1.0}
    #: 100,000 score units per unit of a feature: times a feature (a count of tens, the
    #: PST's thousands) still below the scores of forced mates (10**9); beyond, refused
    MAX_WEIGHT = 1e5

    def __init__(self, weights: str | None = None) -> None:
        super().__init__(weights)
        self._pure_pst = all(w == 0 for f, w in self.weight_map().items() if f != "pst")

    def features(self, state) -> list[float]:
        """The feature vector from the side to move's view (what tuning fits)."""
        return stm_features(red_features(state), state.to_move)

    def tunable(self, state) -> bool:
        """Positions worth fitting on: not in check (a check's score is its reply's)."""
        return not state.in_check()

    def __call__(self, state) -> int:
        if self._pure_pst:                   # defaults: one attribute read, like xiangqi.pst
            v = self.weights[0] * state.pst_score
            return int(round(-v if state.to_move else v))
        return int(round(self.linear(state)))
