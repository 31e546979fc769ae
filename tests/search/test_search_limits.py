"""Limits, stop, soft time, time management and bad limit values (issue 10 item 3, issue 11 item 4).

No timing assertions: what is checked is the logic (which iterations ran, what was
returned, that the state is restored), never how long something took.
"""
import math
import threading

import pytest

import gameai
from gameai.search.stats import Limits
from gameai.search.timeman import Budget, Clock, GameClock, allocate, parse_clock


def _snapshot(s):
    return (s.key, s.to_move, s.legal_moves(), str(s))


def test_stop_event_already_set_returns_a_legal_move_at_once():
    s = gameai.load_game("xiangqi")
    before = _snapshot(s)
    ev = threading.Event()
    ev.set()
    r = gameai.make_searcher("negascout(depth=30,tt=true,id=true)").search(s, stop=ev)
    assert _snapshot(s) == before
    assert r.move in s.legal_moves()
    assert r.stats.nodes <= 2          # the root and at most one node's work


def test_stop_event_from_another_thread_returns_the_last_finished_iteration():
    s = gameai.load_game("connect4", moves="4 4")
    before = _snapshot(s)
    ev = threading.Event()
    rows = []

    def on_iteration(row):
        rows.append(row)
        if row["depth"] == 3:
            ev.set()                    # as an engine's "stop" would, between two checks
    r = gameai.make_searcher("alphabeta(depth=40)").search(s, stop=ev, on_iteration=on_iteration)
    assert _snapshot(s) == before
    assert rows[-1]["depth"] == 3 and r.stats.depth == 3
    assert r.move == rows[-1]["move"] and r.value == rows[-1]["value"]


def test_soft_time_starts_no_iteration_after_it():
    s = gameai.load_game("xiangqi")
    soft = 0.05
    r = gameai.make_searcher("alphabeta(tt=true)").search(s, Limits(soft_time=soft))
    rows = r.stats.iterations
    assert rows and r.stats.depth == rows[-1]["depth"]
    assert all(row["time_s"] < soft for row in rows[:-1])
    assert rows[-1]["time_s"] >= soft          # it stopped because of the soft limit


def test_time_without_depth_deepens_past_the_default_depth():
    # tic-tac-toe is solved at depth 9 from the start: with time and no depth, iterative
    # deepening goes on until the tree is solved, not to the default depth 4
    s = gameai.load_game("tictactoe")
    r = gameai.make_searcher("negascout(id=true,tt=true)").search(s, {"time": 600.0})
    assert r.stats.depth > 4 and r.value == 0
    assert gameai.make_searcher("negascout(id=true,tt=true)").search(s).stats.depth == 4
    # an explicit depth stays a cap
    assert gameai.make_searcher("negascout(depth=3,time=600)").search(s).stats.depth == 3
    assert gameai.make_searcher("negascout(time=600)").search(s, {"depth": 5}).stats.depth == 5


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_nodes_without_depth_deepens_until_the_limit(backend):
    # as an engine's "go nodes": a node limit and no depth searches past the default depth 4
    s = gameai.load_game("tictactoe")
    big = gameai.make_searcher(f"negascout(nodes=1000000,tt=true,backend={backend})").search(s)
    assert big.stats.depth > 4 and big.value == 0 and big.stats.nodes < 1000000
    small = gameai.make_searcher(f"negascout(nodes=300,tt=true,backend={backend})").search(s)
    assert small.stats.nodes <= 300 and small.move is not None
    assert gameai.make_searcher(f"negascout(depth=3,nodes=1000000,backend={backend})").search(
        s).stats.depth == 3


@pytest.mark.parametrize("spec,limits", [
    ("alphabeta(depth=30,quiescence=true)", {"nodes": 100}),
    ("negascout(depth=30,quiescence=true,tt=true,history=true)", {"nodes": 100}),
    ("alphabeta(depth=30)", {"nodes": 37}),
    ("mtdf(depth=30,quiescence=true)", {"nodes": 250}),
])
def test_node_limit_holds_inside_quiescence(spec, limits):
    s = gameai.load_game("xiangqi", fen="r1b1kab1r/2c1a4/2n2cn2/3C5/p3p1p1p/2B6/P1P1P1P1P/5R2N/8R/1NBAKAC2 w - - 5 16")
    before = _snapshot(s)
    r = gameai.make_searcher(spec).search(s, limits)
    assert _snapshot(s) == before
    assert r.move in s.legal_moves()
    assert r.stats.nodes <= limits["nodes"]


@pytest.mark.parametrize("bad", [
    "alphabeta(depth=50,time=nan)", "alphabeta(time=inf)", "alphabeta(time=-1)",
    "alphabeta(depth=1200)", f"alphabeta(depth={10 ** 9})", "alphabeta(depth=0)",
    "alphabeta(tt=true,tt_size=1e6)", f"alphabeta(tt=true,tt_size={1 << 60})",
    "alphabeta(tt=true,tt_size=0)", "alphabeta(nodes=0)", "alphabeta(qdepth=1000)",
    "alphabeta(clock=abc)", "alphabeta(clock=0)", "alphabeta(clock=-5)", "alphabeta(clock='0/300')",
])
def test_bad_search_parameters_are_spec_errors(bad):
    with pytest.raises(gameai.SpecError):
        gameai.make_searcher(bad)


@pytest.mark.parametrize("limits", [{"time": math.nan}, {"time": math.inf}, {"soft_time": -1.0},
                                    {"depth": 1200}, {"depth": 10 ** 9}, {"nodes": 0},
                                    {"depth": 2.5}, {"time": True}])
def test_bad_limits_are_spec_errors(limits):
    s = gameai.load_game("synthetic(branching=2,depth=256)")
    with pytest.raises(gameai.SpecError):
        gameai.make_searcher("alphabeta").search(s, limits)


def test_deep_synthetic_tree_searches_to_the_maximum_depth():
    from gameai.search.negamax import MAX_DEPTH
    s = gameai.load_game("synthetic(branching=1,depth=256)")
    r = gameai.make_searcher(f"alphabeta(depth={MAX_DEPTH})").search(s)
    assert r.stats.nodes == MAX_DEPTH + 1 and r.move == 0


def test_allocate_budget_properties():
    for remaining in (0.0, 0.01, 1.0, 60.0, 3600.0):
        for inc in (0.0, 0.5, 5.0):
            for mtg in (None, 1, 2, 40):
                b = allocate(remaining, inc, mtg)
                assert isinstance(b, Budget) and 0 < b.soft <= b.hard
                assert b.hard <= max(remaining - 0.05, 0.001) + 1e-12
                if mtg and remaining > 1:
                    # spending the soft budget on every move to go fits in the clock
                    assert b.soft * mtg <= remaining + inc * mtg
    assert allocate(600, 0, 40).soft < allocate(600, 0, 10).soft    # fewer moves, more time
    assert allocate(60, 5).soft > allocate(60, 0).soft              # increment is spent
    for bad in ((math.nan,), (-1.0,), (10.0, -1.0), (10.0, 0.0, 0), (10.0, 0.0, 2.5)):
        with pytest.raises(gameai.SpecError):
            allocate(*bad)


def test_clock_text_and_game_clock():
    assert parse_clock("300") == Clock(300.0)
    assert parse_clock("300+5") == Clock(300.0, 5.0)
    assert parse_clock("40/300") == Clock(300.0, 0.0, 40)
    assert parse_clock(90) == Clock(90.0)
    gc = GameClock(Clock(10.0, 1.0, 2))
    gc.charge(3.0)
    assert gc.remaining == pytest.approx(8.0)
    gc.charge(4.0)                      # end of a 2-move period: 10 s added
    assert gc.remaining == pytest.approx(15.0)
    gc.reset()
    assert gc.remaining == 10.0 and gc.moves == 0


def test_searcher_clock_allocates_and_charges_each_move():
    s = gameai.load_game("connect4", moves="4 4")
    sr = gameai.make_searcher("alphabeta(clock=30+1,eval=zero)")
    r1 = sr.search(s)
    assert r1.move in s.legal_moves() and r1.stats.depth >= 1
    used = r1.stats.time_s
    assert sr.clock.remaining == pytest.approx(30.0 + 1.0 - used, abs=0.05)
    assert sr.clock.moves == 1
    sr.new_game()
    assert sr.clock.remaining == 30.0


_XQ = "r1b1kab1r/2c1a4/2n2cn2/3C5/p3p1p1p/2B6/P1P1P1P1P/5R2N/8R/1NBAKAC2 w - - 5 16"
_GOMOKU = "h8 i6 i7 j9 h7 j7 j6 g9 k5 l4 h9 h10 h5 h6 i5"


@pytest.mark.parametrize("backend", ["python", "compiled"])
@pytest.mark.parametrize("spec,game", [
    ("minimax(depth=30)", "xiangqi"),
    ("alphabeta(depth=30)", "xiangqi"),
    ("negascout(depth=30,tt=true,id=true,history=true,killers=true,quiescence=true,"
     "nullmove=true,lmr=true)", "xiangqi"),
    ("mtdf(depth=30,quiescence=true)", "xiangqi"),
    ("negascout(depth=30,tt=true,threats=true)", "gomoku"),
    ("vcf(depth=60)", "gomoku"),
    ("vct(depth=60)", "gomoku"),
])
def test_a_node_limit_is_never_passed(spec, game, backend):
    """nodes=N: stats.nodes <= N, for every limit (a leaf or a threat check that reaches
    it ends the search there; the next root visit or re-search never adds one more)."""
    name, _, params = spec.partition("(")
    searcher = gameai.make_searcher(f"{name}({params[:-1]},backend={backend})")
    starts = [{}, {"fen": _XQ}] if game == "xiangqi" else [{"moves": _GOMOKU}]
    for n in (2, 37, 100, 1000, 4001):
        for params in starts:
            s = gameai.load_game(game, **params)
            before = _snapshot(s)
            r = searcher.search(s, {"nodes": n})
            assert _snapshot(s) == before
            assert r.stats.nodes <= n, (n, params, r.stats.nodes)
