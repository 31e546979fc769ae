"""The compiled Gomoku/Renju kernel against the Python reference (an independent,
readable implementation): after every push and pop of seeded random games, the move
list (in order), the noisy list, the key, the result code, Renju's forbidden judgement on
every empty point and the evaluators' values must be equal. Also the published Renju
forbidden-point positions of tests/games/test_renju.py, judged by the kernel.
"""
import random

import numpy as np
import pytest

import gameai
from gameai.compiled import AVAILABLE, REASON
from gameai.games.gomoku_rules import EMPTY
from tests.games.test_renju import ALPHAGOMOKU, REALCORE, diagram, rc_moves, rc_point

pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"compiled backend not tested: {REASON}")


@pytest.fixture(scope="module")
def K():
    from gameai.compiled import gomoku
    return gomoku


def _u64(x: int) -> int:
    return int(x) & ((1 << 64) - 1)


def _code(outcome) -> int:
    if outcome is None:
        return -1
    return 2 if outcome.winner is None else outcome.winner


EVALUATORS = ["gomoku.patterns",
              "gomoku.patterns(open_three=-7,two=3,four=0,win=900001)", "gomoku.position"]


class Pair:
    """A Python game and its kernel state, compared after every change."""

    def __init__(self, K, state, evals, pointweight=False):
        self.K, self.s = K, state
        self.G = K.load(state)
        self.buf = np.empty(K.MAX_MOVES + 8, dtype=np.int64)
        self.evs = [(gameai.make_evaluator(e), e) for e in evals]
        if pointweight:
            self.evs += [(gameai.make_evaluator("gomoku.pointweight"), "pointweight"),
                         (gameai.make_evaluator("gomoku.pointweight(exact_rules=false)"),
                          "pointweight inexact")]
        self.Es = [K.evaluator(ev, state) for ev, _ in self.evs]
        assert all(E is not None for E in self.Es)
        self.forbidden_seen = 0

    def check(self, forbidden_every=1, step=0):
        K, s, G, buf = self.K, self.s, self.G, self.buf
        where = repr(s)
        n = K.gen_moves(G, buf, 0)
        assert list(buf[:n]) == s.legal_moves(), where
        n = K.gen_noisy(G, buf, 0)
        assert list(buf[:n]) == s.noisy_moves(), where
        assert _u64(K.key(G)) == s.key, where
        assert K.side(G) == s.to_move
        assert K.result(G) == _code(s.result()), where
        for m in s.legal_moves()[:5]:
            assert K.history_key(G, m, True) == s.history_key(m, True)
            assert K.history_key(G, m, False) == s.history_key(m, False)
        if s.rule == "renju" and step % forbidden_every == 0:
            b = s.board
            for i in s.geo.cells:
                if b[i] == EMPTY:
                    why = s.forbidden(i)
                    self.forbidden_seen += why is not None
                    assert K.FORBIDDEN_NAMES[K.forbidden(G, i)] == why, (where, s.move_str(i))
        for (ev, name), E in zip(self.evs, self.Es):
            assert K.evaluate(G, E) == ev(s), (where, name)

    def push(self, m):
        self.s.push(m)
        self.K.push(self.G, m)

    def pop(self):
        assert self.K.pop(self.G) == self.s.pop()


def _random_walk(pair, rng, plies, pop_every=7):
    """Random play (with take-backs) to ``plies`` stones or the end, checking every step."""
    s = pair.s
    pair.check()
    step = 0
    while s.ply < plies and s.result() is None:
        moves = s.legal_moves()
        if not moves:
            break
        pair.push(rng.choice(moves))
        step += 1
        pair.check(forbidden_every=3, step=step)
        if step % pop_every == 0:
            for _ in range(rng.randint(1, min(3, s.ply))):
                pair.pop()
                pair.check(forbidden_every=3, step=step)


CONFIGS = [  # size, radius, full_board, plies
    (15, 2, False, 90),
    (15, 1, False, 120),
    (7, 1, False, 49),
    (9, 3, True, 40),
    (6, 2, False, 36),
    (5, 1, False, 25),
    (26, 8, False, 40),      # the largest board and radius the spec allows
]


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
@pytest.mark.parametrize("size,radius,full,plies", CONFIGS)
def test_random_games_match_python(K, rule, size, radius, full, plies):
    rng = random.Random(f"{rule}-{size}-{radius}-{full}")
    pair = Pair(K, gameai.load_game(f"gomoku(rule={rule},size={size},radius={radius},"
                                    f"full_board={'true' if full else 'false'})"),
                EVALUATORS, pointweight=size <= 7)
    ends = 0
    for _ in range(1 if size > 15 else 2 if size > 9 else 4):
        _random_walk(pair, rng, plies)
        ends += pair.s.result() is not None
        while pair.s.ply:
            pair.pop()
        pair.check()
    if rule == "renju" and size == 15 and radius == 1:
        assert pair.forbidden_seen > 0       # the dense games did meet forbidden points


def test_loaded_positions_and_pointweight(K):
    """Loading mid-game (moves= and stone lists) and popping back past the load point."""
    s = gameai.load_game("renju", moves=rc_moves(REALCORE[-2][1]))
    pair = Pair(K, s, EVALUATORS, pointweight=True)
    pair.check()
    for _ in range(6):
        pair.pop()
        pair.check()
    s = gameai.load_game("gomoku(rule=standard)", black="h8 h9 h10 h11",
                        white="a1 b2 c3 d5")
    pair = Pair(K, s, EVALUATORS, pointweight=True)
    pair.check()
    m = s.parse_move("h12")
    pair.push(m)
    pair.check()
    assert K.result(pair.G) == 0


@pytest.mark.parametrize("name,ml,expected", REALCORE, ids=[c[0] for c in REALCORE])
def test_realcore_forbidden_points(K, name, ml, expected):
    s = gameai.load_game("renju", moves=rc_moves(ml))
    G = K.load(s)
    got = {s.move_str(i): K.FORBIDDEN_NAMES[K.forbidden(G, i)] for i in s.geo.cells
           if s.board[i] == EMPTY and K.forbidden(G, i)}
    assert got == {rc_point(p): why for p, why in expected.items()}
    buf = np.empty(K.MAX_MOVES, dtype=np.int64)
    assert list(buf[:K.gen_moves(G, buf, 0)]) == s.legal_moves()


@pytest.mark.parametrize("name,black,white,expected", ALPHAGOMOKU, ids=[c[0] for c in ALPHAGOMOKU])
def test_alphagomoku_forbidden_points(K, name, black, white, expected):
    s = diagram(black, white)
    G = K.load(s)
    for point, forbidden in expected.items():
        assert (K.forbidden(G, s._point_index(point)) != 0) == forbidden, (name, point)


def test_perft_matches_python(K):
    from gameai.games.perft import perft
    for spec, depth in (("renju", 3), ("gomoku(size=7,radius=1)", 3)):
        s = gameai.load_game(spec, moves="d4 e5 c3" if "size=7" in spec else "h8 i9 h9 h10 i8")
        assert K.perft(K.load(s), depth) == perft(s, depth)


def test_evaluator_kinds(K):
    s = gameai.load_game("gomoku")
    assert K.evaluator(gameai.make_evaluator("zero"), s) is not None

    class Mine:
        def __call__(self, state):
            return 1
    assert K.evaluator(Mine(), s) is None


def test_public_perft_backend_compiled(K):
    """``gameai.perft(..., backend="compiled")`` reaches this kernel for both game names."""
    for spec in ("gomoku(rule=standard,size=9)", "renju"):
        s = gameai.load_game(spec, moves="e5 f6 e6" if "size=9" in spec else "h8 i9 h9 h10 i8 j8 h7")
        assert gameai.perft(s, 2, backend="compiled") == gameai.perft(s, 2)


def test_one_evaluator_shared_by_positions(K):
    """The kernel evaluator is made once per evaluator object (warm memo across searches):
    alternating positions, rules and sizes must still give the Python values."""
    rng = random.Random(5)
    states = []
    for spec in ("gomoku", "renju", "gomoku(rule=standard)", "gomoku(size=9)"):
        s = gameai.load_game(spec)
        for _ in range(rng.randint(8, 30)):
            s.push(rng.choice(s.legal_moves()))
        states.append(s)
    for name in ("gomoku.patterns", "gomoku.position"):
        ev = gameai.make_evaluator(name)
        for s in states * 3:
            E = K.evaluator(ev, s)
            assert K.evaluate(K.load(s), E) == ev(s), (name, repr(s))
        assert K.evaluator(ev, states[0]) is K.evaluator(ev, states[1])
