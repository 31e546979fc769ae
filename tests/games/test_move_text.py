"""Move text where people read: SearchResult.move_str/pv_str, forbidden points, move_str errors."""
from __future__ import annotations

import pytest

import gameai
from gameai.errors import GameError


@pytest.mark.parametrize("game, spec", [
    ("xiangqi", "alphabeta(depth=3)"),
    ("xiangqi", "negascout(depth=3,tt=true,id=true)"),
    ("xiangqi", "minimax2"),
    ("gomoku", "mtdf(depth=2)"),
    ("gomoku", "mcts(nodes=300,seed=1)"),
])
def test_search_result_carries_move_text_of_the_searched_position(game, spec):
    s = gameai.load_game(game, moves="h2e2 h9g7" if game == "xiangqi" else "h8 i9")
    before = s.key
    r = gameai.make_searcher(spec).search(s)
    assert s.key == before
    assert r.move_str == s.move_str(r.move)
    words = r.pv_str.split()
    assert words and words[0] == r.move_str
    for w in words:  # every word is a legal move in turn from the searched position
        s.push(s.parse_move(w))
    for _ in words:
        s.pop()


def test_game_over_result_has_no_move_text():
    s = gameai.load_game("gomoku", moves="h8 a1 i8 a2 j8 a3 k8 a4 l8")
    r = gameai.make_searcher("alphabeta(depth=2)").search(s)
    assert r.move is None and r.move_str is None and r.pv_str == ""


def test_forbidden_points_lists_each_point_with_its_reason():
    # a textbook double-three: black f8 g8 (row) and h6 h7 (column) meet at h8
    g = gameai.load_game("renju", black="f8 g8 h6 h7", white="a1 a3 o15 o1")
    assert g.forbidden_points() == {"h8": "double-three"}
    g = gameai.load_game("renju", black="d8 e8 f8 h8 i8", white="a1 a3 o15 o1 a15")
    assert g.forbidden_points()["g8"] == "overline"
    # the listing agrees with the one-point judgement everywhere on a busier board
    g = gameai.load_game("renju", moves="h8 a1 i8 a2 j7 a3 g7 a4 i6 o15 k6 o14 h6 o13 g9 o11")
    assert g.result() is None and g.forbidden_points()
    want = {}
    for m in range(len(g.board)):
        try:
            p = g.move_str(m)
            why = g.forbidden(p)
        except GameError:
            continue
        if why:
            want[p] = why
    assert g.forbidden_points() == want
    assert gameai.load_game("gomoku", black="f8 g8 h6 h7", white="a1 a3 o15 o1").forbidden_points() == {}


@pytest.mark.parametrize("game, bad", [
    ("xiangqi", 90 << 8 | 3), ("xiangqi", -1), ("xiangqi", 5 << 8 | 5), ("xiangqi", "h2e2"),
    ("gomoku", 0), ("gomoku", 10 ** 6), ("gomoku", -3), ("gomoku", None),
])
def test_move_str_of_an_impossible_move_raises(game, bad):
    with pytest.raises(GameError):
        gameai.load_game(game).move_str(bad)


def test_draw_numbers_only_played_moves():
    import matplotlib
    matplotlib.use("Agg")
    from gameai.draw import draw
    g = gameai.load_game("gomoku", black="h8 i9", white="h9")
    ax = draw(g)
    assert [t.get_text() for t in ax.texts] == []   # stone lists have no move order
    g.push(g.parse_move("j10"))
    ax = draw(g)
    assert [t.get_text() for t in ax.texts] == ["1"]


def test_pv_str_called_like_the_former_method_gives_the_same_text():
    s = gameai.load_game("xiangqi")
    r = gameai.make_searcher("alphabeta(depth=2)").search(s)
    assert r.pv_str(s) == r.pv_str == " ".join(r.pv_str.split())


def test_a_result_built_without_the_state_still_prints_its_pv_given_the_state():
    from gameai.search.stats import SearchResult, SearchStats
    s = gameai.load_game("gomoku")
    r = SearchResult(s.parse_move("h8"), 0, [s.parse_move("h8"), s.parse_move("i9")], SearchStats())
    assert r.pv_str == "" and r.pv_str(s) == "h8 i9"


@pytest.mark.parametrize("spec", ["alphabeta(depth=2)", "minimax(depth=2)", "minimax2", "mtdf(depth=2)",
                                  "negascout(depth=2)", "mcts(nodes=200,seed=1)", "vcf", "vct",
                                  "alphabeta(depth=2,threats=true)"])
def test_every_searcher_fills_the_move_text(spec):
    # Black h8 i8 j8 (+g7) to move: g8 or k8 makes an open four, a forced win (VCF)
    g = gameai.load_game("gomoku", moves="h8 a1 i8 c1 j8 e1 g7 o15")
    r = gameai.make_searcher(spec).search(g)
    assert r.move is not None and r.move_str == g.move_str(r.move)
    assert r.pv_str.split()[0] == r.move_str


def test_the_list_above_covers_every_registered_searcher():
    covered = {"alphabeta", "minimax", "minimax2", "mtdf", "negascout", "mcts", "vcf", "vct"}
    assert set(gameai.SEARCHERS.names()) <= covered
