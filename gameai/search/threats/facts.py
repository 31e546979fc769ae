"""Threat facts of a Gomoku/Renju position, read from its line codes: which points make
or stop a five, four or three, for either colour (:func:`scan`), and the two move filters
the negamax core uses through the threat part: threats first (:func:`order_by_threat`) and
only the replies the threats force (:func:`forced_replies`)."""
from __future__ import annotations

from ...games.gomoku_lines import RULE_EXACT, analyse, memo_for

_UNSET = object()

def scan(state, memo: dict | None = None, exact: tuple[bool, bool] | None = None) -> list:
    """(line id, code, facts) for every line of ``state`` with a threat fact for either colour."""
    if exact is None:
        exact = RULE_EXACT[state.rule]
        memo = memo_for(exact)
    assert memo is not None, "scan: a memo goes with exact"
    codes = state.line_codes
    get = memo.get
    out = [(lid, code, t) for lid, code in enumerate(codes) if (t := get(code, _UNSET)) is not None]
    if any(t is _UNSET for _l, _c, t in out):    # new line codes: fill the memo, read again
        for code in codes:
            if code not in memo:
                memo[code] = analyse(code, exact)
        out = [(lid, code, t) for lid, code in enumerate(codes) if (t := memo[code]) is not None]
    return out


#: Ordering weights: (colour is the side to move?, fact kind) -> score. Own five, then
#: stopping the opponent's five, own straight four, stopping the opponent's three, own
#: four, own three, stopping the opponent's fours and threes.
_ORDER = {(True, 0): 1 << 20, (False, 0): 1 << 19, (True, 2): 1 << 17, (False, 2): 1 << 15,
          (True, 1): 1 << 14, (True, 3): 1 << 11, (False, 1): 1 << 9, (False, 3): 1 << 7}


def threat_scores(state) -> dict[int, int]:
    """Point -> how much a stone there makes or stops (a sum of :data:`_ORDER` weights)."""
    me = state.to_move
    lines = state.geo.lines
    score: dict[int, int] = {}
    for lid, _code, t in scan(state):
        cells = lines[lid]
        for colour in (0, 1):
            facts = t[colour]
            own = colour == me
            for kind in range(4):
                w = _ORDER[own, kind]
                for p in facts[kind]:
                    q = cells[p]
                    score[q] = score.get(q, 0) + w
    return score


def order_by_threat(state, moves: list) -> list:
    """``moves`` with the strongest threats first (stable: ties keep their order).

    For Gomoku/Renju positions; other games' moves are returned unchanged.
    """
    if not hasattr(state, "line_codes"):
        return moves
    score = threat_scores(state)
    if score:
        moves.sort(key=lambda m: -score.get(m, 0))
    return moves


def forced_replies(state, moves: list) -> list:
    """``moves`` cut to the replies the threats on the board force (order kept).

    Why: a move that ignores a threat loses beyond a shallow horizon (an open three wins
    two moves later), so alpha-beta wastes its width on moves the threat space already
    refutes; strong Gomoku programs search only the answers. With a five-point of its own
    the side to move keeps only those; else, facing a five-point, only the points that
    stop it; else, facing a three (a straight-four point of the opponent), only four-points
    of either colour: its own fours (every counter-VCF starts with one) and the opponent's
    four-points, which hold every defence of a three (a stone that stops the three's
    straight four shares a five-window with its three stones and the straight-four point,
    so the opponent's stone there would make a four). When none of them is a legal move,
    every move is kept. In Renju this is a heuristic where a Black straight-four point is
    forbidden (the line facts do not know it); ``tests/threats/test_threats.py`` checks sampled
    cuts against full-width search under all three rules.
    For Gomoku/Renju positions; other games' moves are returned unchanged.
    """
    if not hasattr(state, "line_codes"):
        return moves
    me = state.to_move
    lines = state.geo.lines
    own5: set[int] = set()
    opp5: set[int] = set()
    fours: set[int] = set()
    three = False
    for lid, _code, t in scan(state):
        cells = lines[lid]
        mine, theirs = t[me], t[me ^ 1]
        own5.update(cells[p] for p in mine[0])
        opp5.update(cells[p] for p in theirs[0])
        three = three or bool(theirs[2])
        fours.update(cells[p] for p in mine[1])        # (straight-four points are four-points)
        fours.update(cells[p] for p in theirs[1])
    keep = own5 or opp5 or (fours if three else None)
    if keep is None:
        return moves
    return [m for m in moves if m in keep] or moves


def _pass(state) -> None:
    """A null move on a Gomoku position (the side to move changes, no stone): the game has
    no public null move, so the threat search keeps its parity and key by hand."""
    state.placed.append(-1)
    state._key ^= state._zside


def _unpass(state) -> None:
    assert state.placed.pop() == -1
    state._key ^= state._zside

