"""Synthetic trees: the best child really is best, and alpha-beta meets Knuth & Moore."""

import math

import pytest

import gameai


def brute_negamax(s):
    """Plain recursive negamax over the whole tree, independent of gameai.search."""
    moves = s.legal_moves()
    if not moves:
        return s.value(), None
    best, best_m = None, None
    for m in moves:
        s.push(m)
        v = -brute_negamax(s)[0]
        s.pop()
        if best is None or v > best:
            best, best_m = v, m
    return best, best_m


def _walk(s, f):
    f(s)
    for m in s.legal_moves():
        s.push(m)
        _walk(s, f)
        s.pop()


@pytest.mark.parametrize("ordering", ["best", "worst", "random", 0.5])
@pytest.mark.parametrize("b,d", [(2, 4), (3, 3), (4, 2), (3, 4)])
def test_values_and_best_child_are_exact(ordering, b, d):
    s = gameai.load_game(f"synthetic(branching={b},depth={d},seed=3,ordering={ordering})")

    def check(node):
        if not node.legal_moves():
            return
        v, m = brute_negamax(node)
        assert node.value() == v                 # closed form == brute-force negamax
        assert node.best_move() == m
        children = []
        for c in node.legal_moves():
            node.push(c)
            children.append(-brute_negamax(node)[0])
            node.pop()
        assert sorted(children, reverse=True)[0] > sorted(children, reverse=True)[1]  # strict
        if ordering == "best":
            assert children == sorted(children, reverse=True) and len(set(children)) == b
        if ordering == "worst":
            assert children == sorted(children) and len(set(children)) == b
    _walk(s, check)


KM_GRID = [(b, d) for b in (2, 3, 4, 5) for d in (1, 2, 3, 4, 5, 6) if b ** d <= 16000]


@pytest.mark.parametrize("b,d", KM_GRID)
def test_alphabeta_best_ordering_visits_knuth_moore_minimal_tree(b, d):
    s = gameai.load_game(f"synthetic(branching={b},depth={d},seed=1,ordering=best)")
    r = gameai.make_searcher(f"alphabeta(depth={d})").search(s)
    assert r.stats.leaves == b ** ((d + 1) // 2) + b ** (d // 2) - 1
    assert r.value == s.value() and r.move == 0


@pytest.mark.parametrize("b,d", KM_GRID)
def test_alphabeta_worst_ordering_visits_every_leaf(b, d):
    s = gameai.load_game(f"synthetic(branching={b},depth={d},seed=1,ordering=worst)")
    r = gameai.make_searcher(f"alphabeta(depth={d})").search(s)
    assert r.stats.leaves == b ** d
    assert r.stats.cutoffs == 0
    assert r.value == s.value() and r.move == b - 1


@pytest.mark.parametrize("b,d", KM_GRID)
def test_negascout_never_visits_more_leaves_than_alphabeta_on_best_order(b, d):
    s = gameai.load_game(f"synthetic(branching={b},depth={d},seed=1,ordering=best)")
    ab = gameai.make_searcher(f"alphabeta(depth={d})").search(s)
    ns = gameai.make_searcher(f"negascout(depth={d})").search(s)
    assert ns.stats.leaves <= ab.stats.leaves
    assert ns.value == ab.value and ns.stats.researches == 0


@pytest.mark.parametrize("ordering", ["random", 0.3, 0.9])
def test_exact_searchers_agree_with_minimax_on_random_trees(ordering):
    for seed in range(4):
        s = gameai.load_game(f"synthetic(branching=3,depth=5,seed={seed},ordering={ordering})")
        ref = gameai.make_searcher("minimax(depth=5)").search(s)
        assert ref.value == s.value() and ref.stats.leaves == 3 ** 5
        for spec in ("alphabeta", "negascout", "mtdf(exact_depth=true)",
                     "alphabeta(tt=true,exact_depth=true,id=true,history=true,killers=true)",
                     "negascout(id=true,aspiration=true,window=5)"):
            r = gameai.make_searcher(spec, depth=5).search(s)
            assert r.value == ref.value, spec
            assert r.move == s.best_move(), spec


def test_probability_ordering_puts_best_first_about_p_of_the_time():
    firsts = 0
    total = 0
    s = gameai.load_game("synthetic(branching=4,depth=4,seed=7,ordering=0.75)")

    def count(node):
        nonlocal firsts, total
        if node.legal_moves():
            total += 1
            firsts += node.best_move() == 0
    _walk(s, count)
    assert total == 1 + 4 + 16 + 64
    assert 0.6 < firsts / total < 0.9


def test_seed_and_key_reproducible_and_paths_distinct():
    a = gameai.load_game("synthetic(branching=3,depth=3,seed=5,ordering=random)")
    b = gameai.load_game("synthetic(branching=3,depth=3,seed=5,ordering=random)", moves="2 1")
    a.push(2)
    a.push(1)
    assert a.key == b.key and a.value() == b.value()
    keys = set()
    _walk(gameai.load_game("synthetic(branching=3,depth=4,seed=5)"), lambda n: keys.add(n.key))
    assert len(keys) == sum(3 ** k for k in range(5))
    c = gameai.load_game("synthetic(branching=3,depth=3,seed=6,ordering=random)", moves="2 1")
    assert gameai.perft(c, 1) == 3


@pytest.mark.parametrize("bad", ["synthetic(branching=0)", "synthetic(depth=-1)",
                                 "synthetic(ordering=sideways)", "synthetic(ordering=1.5)"])
def test_bad_parameters_are_named(bad):
    with pytest.raises(gameai.SpecError):
        gameai.load_game(bad)


def test_bad_moves_rejected_state_unchanged():
    s = gameai.load_game("synthetic(branching=2,depth=1)")
    for bad in ("2", "x", "-1"):
        with pytest.raises(gameai.IllegalMoveError):
            s.parse_move(bad)
    s.push(s.parse_move("1"))
    with pytest.raises(gameai.IllegalMoveError):
        s.parse_move("0")                        # at a leaf
    with pytest.raises(gameai.PositionError):
        gameai.load_game("synthetic(branching=2,depth=1)", moves="0 1")


from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(b=st.integers(1, 4), d=st.integers(1, 5), seed=st.integers(0, 10 ** 6),
       ordering=st.one_of(st.sampled_from(["best", "worst", "random"]), st.floats(0, 1)))
def test_alphabeta_bounds_on_any_tree(b, d, seed, ordering):
    s = gameai.load_game("synthetic", branching=b, depth=d, seed=seed, ordering=ordering)
    mm = gameai.make_searcher("minimax", depth=d).search(s)
    ab = gameai.make_searcher("alphabeta", depth=d).search(s)
    ns = gameai.make_searcher("negascout", depth=d).search(s)
    assert mm.value == ab.value == ns.value == s.value()
    assert mm.stats.leaves == b ** d
    minimal = b ** ((d + 1) // 2) + b ** (d // 2) - 1
    assert minimal <= ab.stats.leaves <= b ** d
    assert minimal <= ns.stats.leaves


@pytest.mark.parametrize("b,d", [(40, 6), (30, 6), (12, 8), (6, 11)])
def test_very_large_trees_still_give_the_minimal_tree(b, d):
    # B**D beyond distinct values within +-10**8: ranks are squeezed monotonically (ties).
    s = gameai.load_game(f"synthetic(branching={b},depth={d},ordering=best,seed=5)")
    assert s.coarse
    r = gameai.make_searcher(f"alphabeta(depth={d})").search(s)
    assert r.stats.leaves == b ** math.ceil(d / 2) + b ** (d // 2) - 1
    assert r.value == s.value()
    assert abs(s.value()) < 10 ** 8
