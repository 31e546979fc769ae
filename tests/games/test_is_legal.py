"""``is_legal(move)``, the public ``push``'s check: exactly ``move in legal_moves()`` while
the game is on (nothing once it is over), tested on every move code of random reachable
positions, in check and finished ones included; and it never generates the move list."""
import random

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

import gameai
from gameai.games import gomoku as gomoku_module

SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
XQ_FENS = [
    None,                                                   # the start
    "r1b1kab1r/2c1a4/2n2cn2/3C5/p3p1p1p/2B6/P1P1P1P1P/5R2N/8R/1NBAKAC2 w - - 5 16",
    "3k5/9/4P4/9/2n6/9/4c4/4C4/4A4/3AK4 w",                 # checks and a screen on the e-file
    "4k4/4a4/3c5/9/9/2R6/9/4N4/4p4/3K5 b",                  # horse legs, pawn and rook checks
    "3ak4/9/4b4/9/9/9/9/9/9/3K5 w",                         # kings facing across open files
    "R2k5/R8/9/9/9/9/9/9/9/4K4 b",                          # checkmate
    "3k5/R8/9/9/9/9/9/9/9/4K4 b",                           # stalemate
]
JUNK = [-1, 90 << 8, 1 << 16, 10 ** 20, True, False, 1.0, None, "h2e2", (1, 2)]


def _walk(state, plies: int, seed: int, pick=None):
    """``plies`` random legal moves (fewer if the game ends): a reachable position."""
    rng = random.Random(seed)
    for _ in range(plies):
        if state.result() is not None:
            break
        moves = pick(state) if pick else state.legal_moves()
        if not moves:
            break
        state.push_unchecked(rng.choice(moves))
    return state


def _assert_is_legal_is_membership(state, codes) -> None:
    legal = set(state.legal_moves()) if state.result() is None else set()
    before = (state.key, state.ply, str(state))
    wrong = [m for m in codes if state.is_legal(m) != (m in legal)]
    assert not wrong, [state.move_str(m) for m in wrong[:10]]
    assert not any(state.is_legal(m) for m in JUNK)
    assert (state.key, state.ply, str(state)) == before


@settings(max_examples=60, **SETTINGS)
@given(st.sampled_from(XQ_FENS), st.integers(0, 90), st.integers(0, 2 ** 32),
       st.sampled_from([None, 120, 6]))
@example(XQ_FENS[5], 0, 0, None)
@example("4k4/9/9/9/9/9/9/9/9/r2K5 w", 0, 0, None)          # in check at the root
def test_xiangqi_is_legal_is_legal_moves_membership(fen, plies, seed, limit):
    s = gameai.load_game("xiangqi", fen=fen, max_plies_without_capture=limit) if fen else \
        gameai.load_game("xiangqi", max_plies_without_capture=limit)
    _walk(s, plies, seed)
    _assert_is_legal_is_membership(s, [fr << 8 | to for fr in range(90) for to in range(90)])
    copy = s.copy()                                     # the copy's caches start afresh
    _assert_is_legal_is_membership(copy, [m for m in s.legal_moves()][:20])


def test_xiangqi_walk_reaches_checks_and_finished_games():
    """The positions the property draws from include checks and every kind of ending."""
    seen = set()
    for fen in XQ_FENS:
        for seed in range(20):
            for limit in (None, 6):
                s = gameai.load_game("xiangqi", fen=fen, max_plies_without_capture=limit) if fen \
                    else gameai.load_game("xiangqi", max_plies_without_capture=limit)
                for plies in range(60):
                    res = s.result()
                    seen.add(res.reason if res else "check" if s.in_check() else "on")
                    if res is not None:
                        break
                    _walk(s, 1, seed * 100 + plies)
    assert {"check", "checkmate", "stalemate", "move-limit", "on"} <= seen


def _code(text: str) -> int:
    """An ICCS move's code, read without the position."""
    fr, to = (ord(text[i]) - 97 + 9 * int(text[i + 1]) for i in (0, 2))
    return fr << 8 | to


def test_xiangqi_push_checks_without_generating_the_move_list():
    s = gameai.load_game("xiangqi")
    line = [_code(t) for t in "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 e2e6 c6c5".split()]

    def refuse():
        raise AssertionError("push generated the move list")

    s.legal_moves = refuse
    for m in line:
        s.push(m)
    with pytest.raises(gameai.IllegalMoveError, match="cannot push move 'e6e9'"):
        s.push(_code("e6e9"))                           # a cannon capture with no screen
    assert s.ply == len(line)


def _near(state):
    """Empty points next to a stone (the centre first): stones cluster, so fives and
    renju's forbidden shapes occur."""
    b, geo = state.board, state.geo
    near = {q for i in state.placed for q in geo.neighbours(1)[i] if b[q] == 2}
    return sorted(near) or [q for q in geo.cells if b[q] == 2][:1]


@settings(max_examples=60, **SETTINGS)
@given(st.sampled_from(["freestyle", "standard", "renju"]), st.sampled_from([7, 9, 15]),
       st.integers(0, 81), st.integers(0, 2 ** 32))
@example("renju", 15, 0, 0)
@example("freestyle", 7, 49, 1)                         # a full board
def test_gomoku_is_legal_is_full_board_membership(rule, size, plies, seed):
    s = gameai.load_game("gomoku", size=size, rule=rule, full_board=True)
    _walk(s, plies, seed, _near)
    _assert_is_legal_is_membership(s, range(len(s.board)))


def test_gomoku_walk_reaches_fives_forbidden_points_and_full_boards():
    seen = set()
    for rule, size in (("freestyle", 7), ("renju", 15), ("standard", 9)):
        for seed in range(60):
            s = _walk(gameai.load_game("gomoku", size=size, rule=rule, full_board=True), 81, seed, _near)
            res = s.result()
            seen.add(res.reason if res else "on")
            for k in range(s.ply):
                if rule == "renju" and s.forbidden_points():
                    seen.add("forbidden")
                s.pop()
    assert {"five", "board-full", "forbidden"} <= seen


def test_renju_push_judges_only_points_that_could_be_forbidden(monkeypatch):
    """The full RIF judgement runs only where four black stones are near on the point's
    lines and the cheap shape test allows a forbidden shape (as ``legal_moves`` filters)."""
    calls = []
    judge = gomoku_module.forbidden_at
    monkeypatch.setattr(gomoku_module, "forbidden_at",
                        lambda *a, **k: calls.append(a[1]) or judge(*a, **k))
    s = gameai.load_game("renju", moves="h8 h9 i9 g7")
    calls.clear()
    s.push(s.move_at(0, 0))                             # a1: no black stone near
    assert calls == []
    r = gameai.load_game("renju", black="f8 g8 h9 h10", white="a1 a3 a5 a7")
    calls.clear()
    with pytest.raises(gameai.IllegalMoveError):
        r.push(r.move_at(7, 7))                         # h8: double-three, judged
    assert calls == [r.move_at(7, 7)]
