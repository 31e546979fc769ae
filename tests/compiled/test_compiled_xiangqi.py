"""The compiled Xiangqi kernel against the Python reference, and compiled perft.

The Python game (:mod:`gameai.games.xiangqi`) is the independent reference: after every
push and pop along seeded random lines (with captures, checks, repetitions and perpetual
checks) the kernel must give the same move lists in the same order, noisy lists, key,
result code, in_check, repeated, mvv_lva, history keys, evaluator values and piece
sets. Perft is also checked against the published counts ``tests/games/test_xiangqi.py`` uses.

Without numba the kernel's functions run as plain Python (``gameai.compiled.jit`` is
then the identity), so the same checks still run; the fixture's id says which ran.
"""
import random
import warnings

import numpy as np
import pytest

import gameai
from gameai import compiled
from gameai.compiled import xiangqi as K
from gameai.games.xiangqi import NULL_MOVE, START_FEN

from tests.games.test_xiangqi import CPW_POSITIONS, FSF_ENDGAME, FSF_MIDGAME, _biased_choice

BACKEND = "numba" if compiled.AVAILABLE else "python-fallback"
EVALS = ("xiangqi.pst", "xiangqi.material")
REPETITION_FEN = "4k4/9/9/9/9/9/9/9/9/R2K5 w"   # test_xiangqi's perpetual-check position
# A middle game with rooks and cannons near both kings (checks come often).
SHARP_FEN = "r1b1kab1r/2c1a4/2n2cn2/3C5/p3p1p1p/2B6/P1P1P1P1P/5R2N/8R/1NBAKAC2 w - - 5 16"


@pytest.fixture(scope="module", params=[BACKEND])
def kernel(request):
    """Compile every kernel function once for this module (numba caches them on disk)."""
    s = gameai.load_game("xiangqi")
    G = K.load(s)
    buf = np.zeros(K.MAX_MOVES, dtype=np.int64)
    n = K.gen_moves(G, buf, 0)
    K.gen_noisy(G, buf, 0)
    K.push(G, buf[0])
    K.pop(G)
    K.push_null(G)
    K.pop_null(G)
    K.result(G), K.in_check(G), K.repeated(G), K.repetition(G), K.key(G), K.side(G)
    K.mvv_lva(G, buf[0]), K.is_capture(G, buf[0]), K.history_key(G, buf[0], True)
    for spec in EVALS:
        K.evaluate(G, K.evaluator(gameai.make_evaluator(spec), s))
    K.perft(G, 1), K.perft_bulk(G, 1)
    assert n == 44
    return K


def code_of(outcome):
    """The kernel's result code for a Python Outcome (or None)."""
    if outcome is None:
        return -1
    return 2 if outcome.winner is None else outcome.winner


def moves(fn, G):
    buf = np.zeros(K.MAX_MOVES + 3, dtype=np.int64)
    n = fn(G, buf, 3)          # written after an offset, like a per-ply buffer
    return [int(m) for m in buf[3:n]]


def check_same(s, G, evals):
    """Every kernel query equals the Python reference's answer in this position."""
    legal = s.legal_moves()
    assert moves(K.gen_moves, G) == legal
    assert moves(K.gen_noisy, G) == s.noisy_moves()
    assert K.key(G) & (1 << 64) - 1 == s.key and K.side(G) == s.to_move
    assert K.ply(G) == s.ply
    assert K.result(G) == code_of(s.result())
    assert K.in_check(G) == s.in_check()
    assert K.repeated(G) == s.repeated()
    assert K.repetition(G) == code_of(s.repetition_outcome())
    for m in legal:
        assert K.is_capture(G, m) == s.is_capture(m)
        assert K.mvv_lva(G, m) == s.mvv_lva(m)
        assert K.history_key(G, m, False) == s.history_key(m, False)
        assert K.history_key(G, m, True) == s.history_key(m, True)
    for ev, E in evals:
        assert K.evaluate(G, E) == ev(s)
    check_piece_lists(s, G)


def check_piece_lists(s, G):
    """The kernel's piece sets (two 45-bit words per side, flipped by push/pop) hold
    exactly the squares of a recount of the Python board, and so of the Python game's
    own piece lists."""
    for sd in (0, 1):
        words = [int(w) for w in G[K.MEN + 2 * sd:][:2]]
        assert all(0 <= w < 1 << 45 for w in words)
        men = [sq for sq in range(90) if words[sq // 45] >> sq % 45 & 1]
        assert men == [sq for sq, p in enumerate(s.board) if p and p >> 3 == sd] == sorted(s._men[sd])


def kernel_evals(s):
    out = []
    for spec in EVALS:
        ev = gameai.make_evaluator(spec)
        E = K.evaluator(ev, s)
        assert E is not None, spec
        out.append((ev, E))
    return out


def walk(s, rng, steps, pick):
    """A random line from ``s`` (pushes and occasional pops), the kernel following it;
    the kernel is loaded at the start, so it carries the Python game's past."""
    G = K.load(s)
    evals = kernel_evals(s)
    check_same(s, G, evals)
    for _ in range(steps):
        if s.ply and rng.random() < 0.15:
            s.pop()
            K.pop(G)
        elif s.result() is None:
            m = pick(s, rng)
            s.push(m)
            K.push(G, m)
        else:
            s.pop()
            K.pop(G)
        check_same(s, G, evals)
        if not s.in_check() and s.result() is None and rng.random() < 0.1:
            s.push_null()
            K.push_null(G)
            check_same(s, G, evals)
            s.pop_null()
            K.pop_null(G)
            check_same(s, G, evals)
    return G


def any_move(s, rng):
    return rng.choice(s.legal_moves())


def repetitive_move(s, rng):
    """Prefer moves that undo the own side's previous move (building repetitions), then a
    check, else test_xiangqi's choice biased to checks and captures."""
    legal = s.legal_moves()
    stack = s.move_stack
    if len(stack) >= 2 and stack[-2] != NULL_MOVE and rng.random() < 0.7:
        back = (stack[-2] & 255) << 8 | stack[-2] >> 8
        if back in legal:
            return back
    if rng.random() < 0.5:  # a check that can be repeated: perpetual checks
        checks = [m for m in legal if s.gives_check(m)]
        if checks:
            return checks[0]
    return _biased_choice(s, rng)


POSITIONS = [START_FEN, FSF_MIDGAME, FSF_ENDGAME, SHARP_FEN, REPETITION_FEN] + [f for f, _ in CPW_POSITIONS]


@pytest.mark.parametrize("fen", POSITIONS)
def test_kernel_equals_python_on_random_lines(kernel, fen):
    rng = random.Random(fen)
    for pick, steps in ((any_move, 40), (repetitive_move, 60)):
        s = gameai.load_game("xiangqi", fen=fen)
        walk(s, rng, steps, pick)


@pytest.mark.parametrize("seed", range(4))
def test_kernel_loaded_mid_game_sees_the_past(kernel, seed):
    """Load after a repetitive prefix (repetitions=2 ends games quickly), so the
    judgement pops back past the kernel's root; then follow a line."""
    rng = random.Random(seed)
    s = gameai.load_game("xiangqi", fen=[START_FEN, SHARP_FEN][seed % 2], repetitions=2 + seed % 2,
                         max_plies_without_capture=[None, 120, 12, 40][seed])
    for _ in range(rng.randrange(4, 30)):
        if s.result() is not None:
            break
        s.push(repetitive_move(s, rng))
    walk(s, rng, 80, repetitive_move)


def test_perpetual_check_and_repetition_draw_past_the_root(kernel):
    s = gameai.load_game("xiangqi", fen=REPETITION_FEN)
    seq = ["a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9"]
    G = K.load(s)
    evals = kernel_evals(s)
    for i, mv in enumerate(seq):
        m = s.parse_move(mv)
        s.push(m)
        K.push(G, m)
        check_same(s, G, evals)
        # loaded afresh at every step: the judgement must see the same past
        assert K.result(K.load(s)) == code_of(s.result())
    assert K.result(G) == 1  # perpetual check: Black wins
    s = gameai.load_game("xiangqi", fen=REPETITION_FEN, moves="a0a9 e9e8 a9a0 e8e9 a0a9 e9e8 a9a0 e8e9")
    assert K.result(K.load(s)) == 2 == code_of(s.result())


def test_repeated_with_a_fen_clock_beyond_the_history(kernel):
    """A FEN clock larger than the moves the game object knows: a position repeated
    four plies later is a repetition (once slicing ``hist[len - clock:]`` with a negative
    start missed it), and the kernel agrees with Python at every ply."""
    for clock in (0, 3, 30):
        s = gameai.load_game("xiangqi", fen=f"{REPETITION_FEN} - - {clock} 1")
        G = K.load(s)
        for i, mv in enumerate("a0a1 e9e8 a1a0 e8e9 a0a1 e9e8".split()):
            m = s.parse_move(mv)
            s.push(m)
            K.push(G, m)
            assert K.repeated(G) == s.repeated() and K.result(G) == code_of(s.result())
            assert s.repeated() == (i >= 3)      # the start position again after 4 plies


def test_move_limit_and_no_limit(kernel):
    fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 70"
    for limit in (120, None):
        s = gameai.load_game("xiangqi", fen=fen, max_plies_without_capture=limit)
        G = K.load(s)
        for mv in ("a0a1", "e9e8"):
            m = s.parse_move(mv)
            s.push(m)
            K.push(G, m)
            assert K.result(G) == code_of(s.result())
        assert K.result(G) == (2 if limit else -1)


def test_mate_and_stalemate_lose(kernel):
    for fen in ("3k5/R8/9/9/9/9/9/9/9/4K4 b", "R2k5/R8/9/9/9/9/9/9/9/4K4 b"):
        s = gameai.load_game("xiangqi", fen=fen)
        G = K.load(s)
        check_same(s, G, kernel_evals(s))
        assert K.result(G) == 0


def test_evaluator_forms(kernel):
    s = gameai.load_game("xiangqi")
    assert K.evaluator(gameai.make_evaluator("zero"), s) is None
    assert K.evaluator(gameai.make_evaluator("xiangqi.pst"), s) != K.evaluator(
        gameai.make_evaluator("xiangqi.material"), s)


# ---------------------------------------------------------------------- perft
def test_start_perft_compiled_equals_python_and_published(kernel):
    s = gameai.load_game("xiangqi")
    for bulk in (False, True):
        got = [gameai.perft(s, d, bulk=bulk, backend="compiled") for d in (0, 1, 2, 3)]
        assert got == [gameai.perft(s, d, bulk=bulk) for d in (0, 1, 2, 3)] == [1, 44, 1920, 79666]
    assert s.fen() == START_FEN and s.ply == 0


@pytest.mark.parametrize("fen, counts", CPW_POSITIONS)
def test_published_positions_compiled_depth_1_to_3(kernel, fen, counts):
    s = gameai.load_game("xiangqi", fen=fen)
    G = K.load(s)
    assert [K.perft(G, d) for d in (1, 2, 3)] == counts[:3]
    assert [K.perft_bulk(G, d) for d in (1, 2, 3)] == counts[:3]
    assert K.key(G) & (1 << 64) - 1 == s.key and K.ply(G) == 0
    check_piece_lists(s, G)


def test_perft_backend_errors_and_fallback(kernel):
    s = gameai.load_game("xiangqi")
    with pytest.raises(gameai.SpecError, match="backend 'fast'"):
        gameai.perft(s, 2, backend="fast")
    with pytest.raises(gameai.SpecError, match="connect4"):
        gameai.perft(gameai.load_game("connect4"), 2, backend="compiled")


def test_perft_falls_back_to_python_with_one_warning(kernel, no_numba):
    s = gameai.load_game("xiangqi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert gameai.perft(s, 2, backend="compiled") == 1920
        assert gameai.perft(s, 2, backend="compiled", bulk=True) == 1920
    assert len(caught) == 1 and "Python backend" in str(caught[0].message)


@pytest.mark.slow
def test_start_perft_compiled_depth_4_and_5(kernel):
    s = gameai.load_game("xiangqi")
    assert gameai.perft(s, 4, backend="compiled") == 3290240
    assert gameai.perft(s, 5, backend="compiled") == 133312995
    assert gameai.perft(s, 5, backend="compiled", bulk=True) == 133312995


@pytest.mark.slow
@pytest.mark.parametrize("fen, counts", CPW_POSITIONS)
def test_published_positions_compiled_depth_4_and_5(kernel, fen, counts):
    G = K.load(gameai.load_game("xiangqi", fen=fen))
    assert [K.perft(G, 4), K.perft(G, 5)] == counts[3:5]


@pytest.mark.slow
def test_fsf_perft_compiled(kernel):
    assert gameai.perft(gameai.load_game("xiangqi", fen=FSF_ENDGAME), 4, backend="compiled") == 92741
    assert gameai.perft(gameai.load_game("xiangqi", fen=FSF_MIDGAME), 4, backend="compiled") == 4485547
