"""Own evaluators at compiled speed (issue 59, item 2): a user-written numba evaluator and
the tuned evaluators search exactly the same tree on both backends.

The independent checks: a numba evaluator's values equal those of a Python twin written
over the Python game (so the kernel's board is read right), and the compiled search with
it gives every counter, value, move, PV and iteration row of the Python search with the
twin; the same for one over the Gomoku/Renju kernel (its search with ``-m slow``: a core
of its own, minutes on a cold cache); ``xiangqi.tuned`` and ``gomoku.tuned`` with random
weights give the Python values on random positions and the Python searches' numbers.
"""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

import gameai
from gameai import SpecError
from gameai.compiled import AVAILABLE, REASON
from gameai.compiled.jit import numba
from gameai.evaluators.linear import weights_document
from tests.compiled.test_compiled_search import _random_lines, _summary

pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"backend=compiled not tested: {REASON}")

if AVAILABLE:
    from gameai.compiled import xiangqi as xq
    from gameai.compiled.evaluator import FUNCTIONS, NumbaEvaluator, compiled_form, fingerprint
    from gameai.games.xiangqi_tables import PAWN

    @numba.njit
    def crossed(G, w):
        """Material and placement (the kernel's running score), ``w[0]`` per crossed pawn
        and ``w[1]`` per piece on the opponent's half, for the side to move."""
        v = G[xq.I_PST]
        for sq in range(90):
            p = G[xq.B + sq]
            if p == 0:
                continue
            red = (p >> 3) == 0
            ahead = sq // 9 >= 5 if red else sq // 9 <= 4
            if ahead:
                bonus = w[0] if (p & 7) == PAWN else w[1]
                v += bonus if red else -bonus
        return -v if G[xq.I_SIDE] else v

    class Crossed(NumbaEvaluator):
        """``crossed`` with its weights as spec parameters."""

        name = "test.crossed"
        games = ("xiangqi",)

        def __init__(self, pawn: int = 30, piece: int = 7) -> None:
            super().__init__(crossed, [pawn, piece])


if AVAILABLE:
    from gameai.compiled import gomoku_board as gb

    @numba.njit
    def central(G, w):
        """Gomoku/Renju: ``w[0]`` per stone minus its distance to the centre (Chebyshev),
        the side to move's stones minus the opponent's."""
        g = G[0]
        W, n = g[gb.H + gb.WIDTH], g[gb.H + gb.SIZE]
        me = g[gb.H + gb.NPLACED] & 1
        v = 0
        for k in range(g[gb.H + gb.NPLACED]):
            p = g[gb.PLACED + k]
            col, row = p % W - 1, p // W - 1
            d = w[0] - max(abs(col - n // 2), abs(row - n // 2))
            v += d if g[p] == me else -d
        return v


def central_twin(state) -> int:
    """``central`` over the Python game, with ``w[0] = 8``."""
    n, me, v = state.geo.size, len(state.placed) & 1, 0
    for p in state.placed:
        col, row = state.geo.col_row(p)
        d = 8 - max(abs(col - n // 2), abs(row - n // 2))
        v += d if state.board[p] == me else -d
    return v


def crossed_twin(pawn: int = 30, piece: int = 7):
    """The same evaluator written over the Python game (the independent reading)."""
    def ev(state) -> int:
        v = state.pst_score
        for sq, p in enumerate(state.board):
            if p and (sq // 9 >= 5 if p >> 3 == 0 else sq // 9 <= 4):
                bonus = pawn if (p & 7) == PAWN else piece
                v += bonus if p >> 3 == 0 else -bonus
        return -v if state.to_move else v
    return ev


SPECS = ["alphabeta(depth=3)",
         "negascout(depth=4,tt=true,history=true,id=true,killers=true)",
         "negascout(depth=3,tt=true,id=true,history=true,quiescence=true,mvv_lva=true,"
         "nullmove=true,lmr=true,check_ext=true,futility=true,reverse_futility=true,grain=5)"]


def _positions(game: str, count: int, plies: tuple[int, int], seed: int) -> list[dict]:
    return [{}] + [{"moves": line} for line in _random_lines(game, count, plies, seed)]


def _search(game, params, spec, backend, ev):
    s = gameai.load_game(game, **params)
    return _summary(s, gameai.make_searcher(spec, backend=backend, eval=ev).search(s))


def test_a_numba_evaluator_scores_what_its_python_twin_scores():
    mine, twin = Crossed(pawn=40, piece=9), crossed_twin(40, 9)
    values = set()
    for params in _positions("xiangqi", 25, (0, 70), 5):
        s = gameai.load_game("xiangqi", **params)
        assert mine(s) == twin(s), params
        values.add(twin(s))
    assert len(values) > 10                         # positions that tell evaluators apart


@pytest.mark.parametrize("params", _positions("xiangqi", 2, (6, 30), 21) if AVAILABLE else [])
def test_a_numba_evaluator_searches_the_same_tree_on_both_backends(params):
    for spec in SPECS:
        twin = _search("xiangqi", params, spec, "python", crossed_twin())
        py = _search("xiangqi", params, spec, "python", Crossed())
        co = _search("xiangqi", params, spec, "compiled", Crossed())
        assert py == twin and co == twin, (params, spec)


def test_a_numba_evaluator_gives_the_same_minimal_tree_on_both_backends():
    """The minimal-tree oracle runs an own evaluator compiled (an oracle of its own) and
    counts what the Python oracle counts with it."""
    from gameai.search.minimal import minimal_tree
    state = gameai.load_game("xiangqi", moves="h2e2 h9g7 h0g2 i9h9 i0h0 b9c7")
    ev = Crossed(pawn=40, piece=3)
    assert minimal_tree(state, 3, ev, backend="compiled") == \
        minimal_tree(state, 3, ev, backend="python")


def test_a_numba_evaluator_named_in_a_spec_runs_compiled_with_its_parameters():
    s = gameai.load_game("xiangqi", moves="h2e2 h9g7")
    spec = "alphabeta(depth=3,backend={},eval=tests.compiled.test_compiled_own_eval:Crossed(pawn=60))"
    py, co = (_summary(s, gameai.make_searcher(spec.format(b)).search(s))
              for b in ("python", "compiled"))
    twin = _search("xiangqi", {"moves": "h2e2 h9g7"}, "alphabeta(depth=3)", "python",
                   crossed_twin(pawn=60))
    assert py == co == twin


def _weights_file(tmp_path, ev_cls, scale: float, seed: int) -> str:
    """A weights file with every weight random (the defaults perturbed)."""
    rng = random.Random(seed)
    w = [ev_cls.DEFAULTS.get(f, 0.0) + rng.uniform(-scale, scale) for f in ev_cls.FEATURES]
    p = tmp_path / f"{ev_cls.name}-{seed}.json"
    p.write_text(json.dumps(weights_document(ev_cls.name, ev_cls.games[0], ev_cls.FEATURES, w)))
    return str(p)


def test_the_kernels_tuned_values_are_the_python_values(tmp_path):
    from gameai.evaluators.gomoku_tuned import GomokuTuned
    from gameai.evaluators.xiangqi_tuned import XiangqiTuned
    from gameai.compiled import kernel_for
    for game, cls, scale in (("xiangqi", XiangqiTuned, 80.0), ("gomoku", GomokuTuned, 900.0),
                             ("renju", GomokuTuned, 900.0)):
        for seed in range(3):
            ev = cls(weights=_weights_file(tmp_path, cls, scale, seed))
            for params in _positions(game, 12, (0, 60 if game == "xiangqi" else 25), seed):
                s = gameai.load_game(game, **params)
                kernel = kernel_for(s)
                core, E = compiled_form(ev, s, kernel)
                assert FUNCTIONS[core](kernel.load(s), E) == ev(s), (game, seed, params)


def test_the_kernels_xiangqi_features_are_the_python_features():
    from gameai.compiled import xiangqi_tuned as kt
    from gameai.evaluators.xiangqi_tuned import XiangqiTuned
    ev = XiangqiTuned()
    for params in _positions("xiangqi", 30, (0, 90), 8):
        s = gameai.load_game("xiangqi", **params)
        _w, f, att = kt.data(ev.weights, False)
        kt.features(xq.load(s), f, att)
        assert f.tolist() == ev.features(s), params


@pytest.mark.parametrize("game,spec", [
    ("xiangqi", "alphabeta(depth=3)"),
    ("xiangqi", "negascout(depth=3,tt=true,id=true,history=true,quiescence=true,mvv_lva=true,"
                "nullmove=true,check_ext=true)"),
    ("gomoku", "alphabeta(depth=2)"),
    ("gomoku", "negascout(depth=3,tt=true,id=true,history=true,killers=true)"),
    ("renju", "negascout(depth=2,tt=true,id=true,history=true,quiescence=true)")])
def test_tuned_evaluators_search_the_same_tree_on_both_backends(tmp_path, game, spec):
    name = "xiangqi.tuned" if game == "xiangqi" else "gomoku.tuned"
    cls = type(gameai.make_evaluator(name))
    files = [None, _weights_file(tmp_path, cls, 80.0 if game == "xiangqi" else 900.0, 4)]
    for weights in files:
        ev = name if weights is None else f"{name}(weights={weights})"
        for params in _positions(game, 2, (4, 30 if game == "xiangqi" else 12), 31):
            s = gameai.load_game(game, **params)
            py, co = (_summary(s, gameai.make_searcher(spec, backend=b, eval=ev).search(s))
                      for b in ("python", "compiled"))
            assert co == py, (game, spec, weights, params)


def test_new_weights_reuse_the_compiled_core(tmp_path):
    from gameai.evaluators.xiangqi_tuned import XiangqiTuned
    s = gameai.load_game("xiangqi")
    a = compiled_form(XiangqiTuned(), s, xq)
    b = compiled_form(XiangqiTuned(weights=_weights_file(tmp_path, XiangqiTuned, 50.0, 9)), s, xq)
    assert a[0] == b[0] and not np.array_equal(a[1][0], b[1][0])


def test_the_core_is_named_by_the_functions_source():
    import linecache

    def made(src: str, k: int):
        """``f`` defined from ``src`` (its source readable, as in a file) with ``K = k``."""
        name = f"<own-eval-{len(linecache.cache)}>"
        linecache.cache[name] = (len(src), None, src.splitlines(True), name)
        ns = {"numba": numba, "xq": xq, "K": k}
        exec(compile(src, name, "exec"), ns)     # noqa: S102 (the test's own text)
        return ns["f"]

    plus = "@numba.njit\ndef f(G, w):\n    return G[xq.I_PST] + K\n"
    minus = "@numba.njit\ndef f(G, w):\n    return G[xq.I_PST] - K\n"
    assert fingerprint(made(plus, 3)) == fingerprint(made(plus, 3))       # same text, same K
    assert fingerprint(made(plus, 3)) != fingerprint(made(minus, 3))      # an edit
    assert fingerprint(made(plus, 3)) != fingerprint(made(plus, 4))       # a constant it reads
    assert fingerprint(crossed) != fingerprint(made(plus, 3))


def test_what_cannot_run_compiled_is_refused_by_name():
    s = gameai.load_game("xiangqi")
    with pytest.raises(SpecError, match="'py_only' is not a numba function; decorate it"):
        def py_only(G, w):
            return 0
        NumbaEvaluator(py_only, games=("xiangqi",))
    with pytest.raises(SpecError, match="say which games its function reads"):
        NumbaEvaluator(crossed)
    with pytest.raises(SpecError, match="weights must be a flat sequence of numbers"):
        NumbaEvaluator(crossed, [[1, 2]], games=("xiangqi",))

    @numba.njit
    def halves(G, w):
        return G[xq.I_PST] / 2
    with pytest.raises(SpecError, match=r"returned float .*an evaluator returns an integer"):
        gameai.make_searcher("alphabeta(depth=1,backend=compiled)",
                             eval=NumbaEvaluator(halves, games=("xiangqi",))).search(s)

    @numba.njit
    def wrong(G, w):
        return G.no_such_attribute
    with pytest.raises(SpecError, match="numba cannot compile the evaluator 'wrong'"):
        gameai.make_searcher("alphabeta(depth=1,backend=compiled)",
                             eval=NumbaEvaluator(wrong, name="wrong", games=("xiangqi",))).search(s)
    with pytest.raises(SpecError, match="scores xiangqi positions, not gomoku"):
        gameai.make_searcher("alphabeta(depth=1,backend=compiled)", eval=Crossed()).search(
            gameai.load_game("gomoku"))
    with pytest.raises(SpecError, match="has no compiled form for xiangqi: a Python evaluator "
                                        "runs on backend=python only"):
        gameai.make_searcher("alphabeta(depth=1,backend=compiled)", eval=crossed_twin()).search(s)


def test_the_kernels_weighted_sum_is_this_pythons_sum():
    """linear_sum adds as this Python's ``sum`` does (plain before 3.12, compensated from
    3.12 on), on sums where the order and the compensation change the rounded result."""
    from gameai.compiled.linear import COMPENSATED, linear_sum
    rng = random.Random(3)
    differs = 0
    for _ in range(2000):
        n = rng.randrange(1, 24)
        w = np.array([rng.choice([0.0, rng.uniform(-1e5, 1e5), rng.uniform(-1, 1)])
                      for _ in range(n)])
        f = np.array([float(rng.randrange(-3000, 3000)) for _ in range(n)])
        want = sum(a * b for a, b in zip(w.tolist(), f.tolist()) if a)
        got = linear_sum(w, f, n, COMPENSATED)
        assert got == want, (w, f)
        differs += linear_sum(w, f, n, not COMPENSATED) != want
    assert differs > 0              # the other way of adding would have been caught


def _central():
    return NumbaEvaluator(central, [8], name="test.central", games=("gomoku", "renju"))


@pytest.mark.parametrize("game", ["gomoku", "renju"])
def test_a_numba_evaluator_reads_the_gomoku_kernel_as_its_twin_reads_the_game(game):
    for params in _positions(game, 10, (1, 20), 17):
        s = gameai.load_game(game, **params)
        assert _central()(s) == central_twin(s), params


@pytest.mark.slow           # a core of its own for Gomoku/Renju: minutes on a cold cache
@pytest.mark.parametrize("game", ["gomoku", "renju"])
def test_a_numba_evaluator_over_the_gomoku_kernel_searches_the_same_tree(game):
    for params in _positions(game, 2, (3, 12), 41):
        for spec in ("alphabeta(depth=2)", "negascout(depth=3,tt=true,id=true,history=true,"
                                           "killers=true)", "alphabeta(depth=2,quiescence=true)"):
            twin = _search(game, params, spec, "python", central_twin)
            co = _search(game, params, spec, "compiled", _central())
            assert co == twin, (game, params, spec)
