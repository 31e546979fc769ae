"""minimal_tree(backend="compiled") gives exactly the Python oracle's MinimalTree.

Every field (value, leaves, terminals, nodes, graph_leaves, graph_nodes and the oracle's
own cost) on suite positions of Xiangqi, Gomoku and Renju at every depth where the Python
oracle takes a few seconds, including wins within the horizon (a mate in one, fives at
depth 3), with and without ``mate_ply``; the tables' regrowth; the SpecError cases.

The Xiangqi and tic-tac-toe oracle kernels are behind the ``slow`` marker: compiling them
costs about a minute, and the default run checks the same template on Gomoku and Renju.
"""
import pytest

import gameai
from experiments import suites
from gameai.compiled import AVAILABLE, REASON
from gameai.search import MATE, minimal_tree

pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"backend=compiled not tested: {REASON}")

SLOW = pytest.mark.slow


def _marked(game: str, *values):
    """A parameter set, behind the slow marker for the games whose kernels compile slowly."""
    return pytest.param(game, *values, marks=SLOW) if game in ("xiangqi", "tictactoe") \
        else (game, *values)


CASES = [_marked(game, name, d) for game, depths in (("xiangqi", (1, 2, 3)), ("gomoku", (1, 2)),
                                                     ("renju", (1, 2)))
         for name in list(suites.load(game))[:3] for d in depths]
WINS = [  # a mate in one; fives found at depth 3
    _marked("xiangqi", "fen=1nbak1b2/4a4/5c3/p1P1p1p1p/9/9/P3c1P1P/1C2B1r1R/4A4/1RBAK4 b - - 0 12", 3),
    ("gomoku", "moves=h8 j6 g7 i5 j10 f6 g8 l8 f8 e8 k7 j5 g9 l5", 3),
    ("renju", "moves=h8 j6 h9 i5 g8 l8 e6 i10 e8 f8 e5", 3),
]
XQ_MATE = WINS[0].values[1]
XQ_START = list(suites.load("xiangqi"))[0]


def _state(game: str, name: str):
    return suites.state(game, suites.load(game)[name])


def _load(game: str, spec: str):
    field, text = spec.split("=", 1)
    if game == "xiangqi":
        return gameai.load_game(game, **{field: text})
    return gameai.load_game("gomoku", rule="renju" if game == "renju" else "freestyle", moves=text)


def _both(s, depth: int, **kw):
    ev = gameai.make_evaluator(s.default_eval)
    key = s.key
    compiled = minimal_tree(s, depth, ev, backend="compiled", **kw)
    assert s.key == key
    return minimal_tree(s, depth, ev, **kw), compiled


@pytest.mark.parametrize("game,name,depth", CASES)
def test_suite_positions_equal_the_python_oracle(game, name, depth):
    py, compiled = _both(_state(game, name), depth)
    assert compiled == py


@pytest.mark.parametrize("game,spec,depth", WINS)
def test_wins_within_the_horizon(game, spec, depth):
    py, compiled = _both(_load(game, spec), depth)
    assert compiled == py
    assert py.value >= MATE - depth and py.terminals > 0      # the position is a real test


@pytest.mark.parametrize("game,spec,depth", [_marked("xiangqi", XQ_MATE, 2), WINS[1]])
def test_without_mate_ply(game, spec, depth):
    py, compiled = _both(_load(game, spec), depth, mate_ply=False)
    assert compiled == py and py.value == MATE


@pytest.mark.parametrize("game,moves,depth", [_marked("tictactoe", "b2 a1", 7),
                                              _marked("tictactoe", "", 0)])
def test_small_games(game, moves, depth):
    py, compiled = _both(gameai.load_game(game, moves=moves), depth)
    assert compiled == py


def test_full_tables_grow_and_the_numbers_stay(monkeypatch):
    from gameai.compiled import minimal
    monkeypatch.setattr(minimal, "_BITS", [4, 4, 4])
    py, compiled = _both(_state("gomoku", list(suites.load("gomoku"))[0]), 2)
    assert compiled == py
    assert min(minimal._BITS) > 4


def test_what_the_kernels_cannot_run_is_refused():
    with pytest.raises(gameai.SpecError, match="no compiled kernel"):
        minimal_tree(gameai.load_game("connect4"), 2, gameai.make_evaluator("connect4.threats"),
                     backend="compiled")
    with pytest.raises(gameai.SpecError, match="no compiled form"):
        minimal_tree(_state("xiangqi", XQ_START), 2, gameai.make_evaluator("zero"), backend="compiled")
    with pytest.raises(gameai.SpecError, match="backend"):
        minimal_tree(_state("xiangqi", XQ_START), 2, gameai.make_evaluator("zero"), backend="cuda")
