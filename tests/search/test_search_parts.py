"""The core's parts (issue 11 item 2): exact ones keep the minimax value, pruning ones stay sane."""

import pytest

import gameai
from gameai.search.stats import MATE, Limits
from tests.games.test_xiangqi import PERPETUAL
from test_search import _random_positions as _positions  # seeded random unfinished positions

MID = "r1b1kab1r/2c1a4/2n2cn2/3C5/p3p1p1p/2B6/P1P1P1P1P/5R2N/8R/1NBAKAC2 w - - 5 16"


def _snapshot(s):
    return (s.key, s.to_move, s.legal_moves(), str(s), s.fen() if hasattr(s, "fen") else None)


EXACT_PARTS = ["alphabeta(mvv_lva=true)", "alphabeta(mate_distance=true)",
               "negascout(mvv_lva=true,mate_distance=true,history=true,killers=true,id=true)",
               "alphabeta(tt=true,exact_depth=true,mate_distance=true,mvv_lva=true)"]


@pytest.mark.parametrize("spec,count,plies,depth", [
    ("xiangqi", 3, (2, 14), 2), ("connect4", 4, (2, 14), 4), ("tictactoe", 6, (1, 5), 9),
    ("gomoku", 2, (3, 6), 2)])
def test_exact_parts_return_the_minimax_value(spec, count, plies, depth):
    for s in _positions(spec, count, plies, seed=7):
        ref = gameai.make_searcher("minimax", depth=depth).search(s)
        for sp in EXACT_PARTS:
            r = gameai.make_searcher(sp, depth=depth).search(s)
            assert r.value == ref.value, (spec, sp)
            st = r.stats
            assert st.nodes == st.leaves + st.terminals + st.interior + st.tt_cutoffs + st.pruned


def test_mate_distance_prunes_and_keeps_the_mate_value():
    # connect4: a forced win exists; mate-distance pruning must keep its exact distance
    s = gameai.load_game("connect4", moves="4 4 3 3 2")
    a = gameai.make_searcher("alphabeta(depth=7,eval=zero)").search(s)
    b = gameai.make_searcher("alphabeta(depth=7,eval=zero,mate_distance=true)").search(s)
    assert a.value == b.value and b.stats.nodes <= a.stats.nodes


def test_null_move_pair_restores_everything():
    s = gameai.load_game("xiangqi", fen=MID)
    before = _snapshot(s)
    s.push_null()
    assert s.to_move == 1 and s.key != before[0]
    s.pop_null()
    assert _snapshot(s) == before
    with pytest.raises(gameai.GameError):
        s.pop_null()


@pytest.mark.parametrize("spec", [
    "negascout(tt=true,history=true,nullmove=true,lmr=true)",
    "alphabeta(nullmove=true,lmr=true,check_ext=true,quiescence=true,evasions=true,mvv_lva=true)",
    "negascout(tt=true,id=true,killers=true,history=true,nullmove=true,lmr=true,check_ext=true,"
    "quiescence=true,evasions=true,mvv_lva=true,mate_distance=true,repetition=true)",
    "negascout(tt=true,id=true,history=true,nullmove=true,lmr=true,quiescence=true,"
    "mvv_lva=true,futility=true,reverse_futility=true)"])
def test_pruning_parts_are_sane_and_abort_cleanly(spec):
    s = gameai.load_game("xiangqi", fen=MID)
    before = _snapshot(s)
    r = gameai.make_searcher(spec, depth=4).search(s)
    assert _snapshot(s) == before and r.move in s.legal_moves()
    st = r.stats
    assert st.nodes == st.leaves + st.terminals + st.interior + st.tt_cutoffs + st.pruned
    # aborts anywhere (also below a null move) leave the position as it was
    for limit in range(40, 3000, 97):
        r = gameai.make_searcher(spec, depth=6).search(s, Limits(nodes=limit))
        assert _snapshot(s) == before, limit
        assert r.move in s.legal_moves() and r.stats.nodes <= limit + 1


def test_null_move_and_lmr_prune_and_still_find_a_mate():
    s = gameai.load_game("xiangqi", fen=MID)
    plain = gameai.make_searcher("negascout(depth=4,tt=true,history=true)").search(s)
    fast = gameai.make_searcher("negascout(depth=4,tt=true,history=true,nullmove=true,lmr=true)").search(s)
    assert fast.stats.nodes < plain.stats.nodes and fast.stats.pruned > 0
    # a mate in one (Red rook to the back rank) is still found with every part on
    m1 = gameai.load_game("xiangqi", fen="3k5/9/9/9/9/9/9/9/4R4/R3K4 w - - 0 1")
    ref = gameai.make_searcher("alphabeta(depth=3)").search(m1)
    r = gameai.make_searcher("negascout(depth=3,tt=true,nullmove=true,lmr=true,check_ext=true,"
                             "mate_distance=true)").search(m1)
    assert ref.value == r.value == gameai.search.stats.MATE - 1 and r.move == ref.move


def test_futility_prunes_on_null_windows_only_and_still_finds_a_mate():
    s = gameai.load_game("xiangqi", fen=MID)
    base = "negascout(depth=5,tt=true,history=true,quiescence=true,mvv_lva=true"
    plain = gameai.make_searcher(base + ")").search(s)
    for switch, acted in (("futility", "futility_skips"), ("reverse_futility", "pruned")):
        r = gameai.make_searcher(f"{base},{switch}=true)").search(s)
        assert getattr(r.stats, acted) > 0 and r.stats.nodes < plain.stats.nodes, switch
    # alpha-beta without null windows never meets the condition: the same tree
    ab = "alphabeta(depth=3,quiescence=true,mvv_lva=true"
    a = gameai.make_searcher(ab + ")").search(s).stats
    b = gameai.make_searcher(ab + ",futility=true,reverse_futility=true)").search(s).stats
    assert (a.nodes, a.leaves, a.pruned, b.futility_skips) == (b.nodes, b.leaves, b.pruned, 0)
    # a quiet mate in one behind a losing static evaluation is still found
    m1 = gameai.load_game("xiangqi", fen="3k5/9/9/9/9/9/9/9/4R4/R3K4 w - - 0 1")
    r = gameai.make_searcher("negascout(depth=4,tt=true,id=true,futility=true,"
                             "reverse_futility=true,mate_distance=true)").search(m1)
    assert r.value == gameai.search.stats.MATE - 1


def test_quiescence_evasions_do_not_stand_pat_in_check():
    # Red has checking moves: at depth 1 a checked child is expanded (interior) with
    # evasions instead of standing pat on its evaluation
    s = gameai.load_game("xiangqi", fen=MID)
    plain = gameai.make_searcher("alphabeta(depth=1,quiescence=true)").search(s)
    ev = gameai.make_searcher("alphabeta(depth=1,quiescence=true,evasions=true)").search(s)
    assert any(s.gives_check(m) for m in s.legal_moves())
    assert plain.stats.interior == 1 and ev.stats.interior > 1


def test_check_extension_searches_beyond_the_nominal_depth():
    s = gameai.load_game("xiangqi", fen=MID)
    r = gameai.make_searcher("alphabeta(depth=2,check_ext=true)").search(s)
    assert r.stats.seldepth > 2


def test_repetition_scored_as_a_draw_and_never_stored():
    s = gameai.load_game("xiangqi", moves="h2e2 h9g7 h0g2 g7h9")
    back = s.parse_move("g2h0")              # returns to the position after h2e2
    assert not s.repeated()
    s.push(back)
    assert s.repeated()
    s.pop()
    for depth in (1, 2):
        values, plain = {}, {}
        sr = gameai.make_searcher(f"alphabeta(depth={depth},repetition=true,tt=true)")
        sr.search(s, on_root_move=lambda i, n, m, v: values.__setitem__(m, v))
        gameai.make_searcher(f"alphabeta(depth={depth},tt=true)").search(
            s, on_root_move=lambda i, n, m, v: plain.__setitem__(m, v))
        assert values[back] == 0 != plain[back]
        assert sr.tt.probe(s.key) is None    # the root's value depends on the path: not stored


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perpetual_check_loses_so_the_searcher_avoids_it(depth):
    """Down two rooks, Red's a8a9 repeats by perpetual check. Scored as a draw it would be
    Red's best move by far; by the rules it loses, so the search plays another move."""
    s = gameai.load_game("xiangqi", **PERPETUAL)
    repeat = s.parse_move("a8a9")
    values = {}
    r = gameai.make_searcher(f"alphabeta(depth={depth},repetition=true)").search(
        s, on_root_move=lambda i, n, m, v: values.__setitem__(m, v))
    assert values[repeat] == -(MATE - 1)             # Black wins at ply 1
    assert r.move != repeat and -MATE + 1 < r.value < 0
    blind = {}                                       # without the rule: an evaluation
    gameai.make_searcher(f"alphabeta(depth={depth})").search(
        s, on_root_move=lambda i, n, m, v: blind.__setitem__(m, v))
    assert abs(blind[repeat]) < MATE // 2


def test_outside_check_name_works():
    sr = gameai.make_searcher("negascout(time=1.0,tt=true,history=true,nullmove=true,lmr=true)")
    s = gameai.load_game("xiangqi")
    r = sr.search(s, {"depth": 3})
    assert r.move in s.legal_moves() and s.in_check() is False


@pytest.mark.parametrize("game", ["gomoku(moves='h8 h9 i9 g7 j10')", "connect4(moves='4 4')",
                                  "synthetic(branching=3,depth=6,seed=1)", "tictactoe"])
def test_every_part_runs_on_games_without_checks_or_captures(game):
    s = gameai.load_game(game)
    before = _snapshot(s)
    r = gameai.make_searcher(
        "negascout(depth=3,tt=true,id=true,killers=true,history=true,nullmove=true,lmr=true,"
        "check_ext=true,quiescence=true,evasions=true,mvv_lva=true,mate_distance=true,"
        "repetition=true)").search(s)
    assert _snapshot(s) == before and r.move in s.legal_moves()
    # futility needs a check test: on these games it is off and changes nothing
    f = gameai.make_searcher("negascout(depth=3,tt=true,history=true,futility=true,"
                             "reverse_futility=true)").search(s)
    g = gameai.make_searcher("negascout(depth=3,tt=true,history=true)").search(s)
    assert (f.stats.nodes, f.stats.pruned, f.value) == (g.stats.nodes, g.stats.pruned, g.value)
