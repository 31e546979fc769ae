"""Spec values are validated against each factory's declared parameter types (issue 10)."""
import inspect
import typing

import pytest

import gameai
from gameai import SpecError
from gameai.registry import EVALUATORS, GAMES, PLAYERS, SEARCHERS, Registry
from gameai.spec import Range, convert, describe, is_protocol, parse_spec, parse_spec_text


@pytest.mark.parametrize("spec,param", [
    ("alphabeta(tt=maybe)", "tt"),
    ("alphabeta(tt=1)", "tt"),
    ("negascout(tt=True)", "tt"),
    ("negascout(tt=TRUE)", "tt"),
    ("negascout(id=False)", "id"),
    ("alphabeta(history_key=foo)", "history_key"),
    ("alphabeta(history_inc=cube)", "history_inc"),
    ("alphabeta(tt_size=1e6)", "tt_size"),
    ("alphabeta(tt_size=0)", "tt_size"),
    ("alphabeta(time=nan)", "time"),
    ("alphabeta(time=inf)", "time"),
    ("alphabeta(time=-1)", "time"),
    ("alphabeta(depth=0)", "depth"),
    ("alphabeta(depth=3.5)", "depth"),
    ("alphabeta(depth=١٢)", "depth"),
    ("alphabeta(depth=1_0)", "depth"),
    ("alphabeta(nodes=0)", "nodes"),
    ("alphabeta(on_iteration=1)", "on_iteration"),
    ("alphabeta(on_root_move=print)", "on_root_move"),
    ("mcts(nodes=0)", "nodes"),
    ("mcts(scale=0)", "scale"),
    ("mcts(c=abc)", "c"),
    ("mcts(iterations=0)", "iterations"),
    ("minimax2(depth=3)", "depth"),
])
def test_bad_searcher_values_name_parameter_value_and_accepted(spec, param):
    with pytest.raises(SpecError) as exc:
        gameai.make_searcher(spec)
    msg = str(exc.value)
    value = parse_spec_text(spec)[1][param]
    assert f"{param}={value}" in msg and "expected" in msg


@pytest.mark.parametrize("spec,param", [
    ("gomoku(radius=1000)", "radius"),
    ("gomoku(size=4)", "size"),
    ("gomoku(rule=caro)", "rule"),
    ("gomoku(full_board=yes)", "full_board"),
    ("xiangqi(repetitions=1)", "repetitions"),
    ("synthetic(ordering=2)", "ordering"),
    ("synthetic(ordering=foo)", "ordering"),
])
def test_bad_game_values(spec, param):
    with pytest.raises(SpecError, match=f"parameter {param}="):
        gameai.load_game(spec)


def test_number_looking_strings_stay_strings():
    # the moves parameter is a string: "1234" must reach the game as text (four columns)
    c = gameai.load_game("connect4(moves=1234)")
    assert c.ply == 4
    with pytest.raises(gameai.PositionError, match="'1'"):
        gameai.load_game("xiangqi(moves=1)")
    with pytest.raises(gameai.PositionError):
        gameai.load_game("xiangqi(fen=7)")


def test_python_keywords_are_checked_too():
    with pytest.raises(SpecError, match="tt=1"):
        gameai.make_searcher("alphabeta", tt=1)
    with pytest.raises(SpecError, match="depth=True"):
        gameai.make_searcher("alphabeta", depth=True)
    with pytest.raises(SpecError, match="time=nan"):
        gameai.make_searcher("alphabeta", time=float("nan"))
    with pytest.raises(SpecError, match="moves=1234"):
        gameai.load_game("connect4", moves=1234)
    rows = []
    s = gameai.make_searcher("alphabeta(depth=1)", on_iteration=rows.append, time=5)
    s.search(gameai.load_game("tictactoe"))
    assert rows


def test_good_values_are_typed():
    s = gameai.make_searcher("alphabeta(depth=3,tt=true,tt_size=4096,time=0.5,history=false)")
    assert s.depth == 3 and s.tt is not None and s.time == 0.5 and s.history is None
    g = gameai.load_game("synthetic(ordering=0.25,branching=3)")
    assert g.name == "synthetic"
    assert gameai.load_game("gomoku(to_move=black,black=h8,white=h9)").to_move == 0
    p = gameai.make_player("search(searcher=\"alphabeta(depth=2)\",time=none,nodes=500)")
    assert p.limits == {"nodes": 500}


def test_quoted_values_stay_strings():
    assert parse_spec('x(a="123",b=123,c="none",d=none)')[1] == {"a": "123", "b": 123, "c": "none", "d": None}


def test_evaluator_for_another_game_is_a_clear_error():
    x = gameai.load_game("xiangqi")
    with pytest.raises(SpecError, match="gomoku.patterns.*not xiangqi.*xiangqi.pst"):
        gameai.make_searcher("alphabeta(depth=1,eval=gomoku.patterns)").search(x)
    # the same searcher still serves the game the evaluator is for
    s = gameai.make_searcher("alphabeta(depth=1,eval=gomoku.patterns)")
    assert s.search(gameai.load_game("gomoku", moves="h8")).move is not None


@pytest.mark.parametrize("spec,named", [
    ("alphabeta(eval=)", "eval=''.*known: .*xiangqi.pst"),
    ("alphabeta(eval=nope)", "eval=nope.*known: .*xiangqi.pst"),
    ("mcts(eval=nope)", "eval=nope.*known: .*gomoku.patterns"),
    ("minimax2(eval=nope)", "eval=nope.*known: "),
    ("negascout(eval=\"xiangqi.pst(x=1)\")", "eval=xiangqi.pst\\(x=1\\).*no parameter.*'x'"),
])
def test_an_evaluator_that_builds_nothing_is_refused_when_the_searcher_is_made(spec, named):
    with pytest.raises(SpecError, match=named):
        gameai.make_searcher(spec)


def test_an_empty_evaluator_keyword_is_refused_too():
    with pytest.raises(SpecError, match="eval=''"):
        gameai.make_searcher("alphabeta", eval="")


def test_mcts_tiny_time_still_returns_a_move():
    r = gameai.make_searcher("mcts(time=1e-9)").search(gameai.load_game("tictactoe"))
    assert r.move is not None and r.stats.nodes >= 1


def test_range_and_describe():
    r = Range(0, 10, lo_open=True)
    assert 0 not in r and 10 in r and 0.5 in r and 11 not in r
    assert describe(typing.Annotated[int, Range(1, 5)] | None) == "an integer >= 1 and <= 5 or none"
    with pytest.raises(SpecError, match="x: parameter n=7: expected an integer >= 1 and <= 5"):
        convert("x", "n", "7", typing.Annotated[int, Range(1, 5)], from_text=True)


def _understood(tp) -> bool:
    """Every declared type is one the validator handles (no silent pass-through from text)."""
    if tp is inspect.Parameter.empty:
        return False
    base = typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp
    if typing.get_origin(base) in (typing.Union, __import__("types").UnionType):
        return all(a is type(None) or _understood(a) for a in typing.get_args(base))
    return base in (bool, int, float, str) or is_protocol(base) or typing.get_origin(base) in (
        typing.Literal, __import__("collections.abc").abc.Callable)


@pytest.mark.parametrize("reg", [GAMES, SEARCHERS, EVALUATORS, PLAYERS], ids=lambda r: r.kind)
def test_every_registered_parameter_declares_a_checkable_type(reg):
    for name in reg.names():
        for param, tp in reg.annotations(name).items():
            assert _understood(tp), f"{reg.kind} {name}: parameter {param} declares {tp!r}"


def test_a_broken_catalog_is_an_error():
    reg = Registry("game")
    reg._catalog = "gameai.no_such_catalog_module"
    with pytest.raises(ModuleNotFoundError):
        reg.names()
    with pytest.raises(ModuleNotFoundError):  # and again: never silently empty
        reg.factory("xiangqi")


def test_registry_imports_no_catalog_at_import_time():
    import ast
    import pathlib
    src = pathlib.Path(gameai.registry.__file__).read_text()
    imported = {n.module for n in ast.walk(ast.parse(src)) if isinstance(n, ast.ImportFrom)}
    assert not any(m and "catalog" in m for m in imported)
