"""A researcher's own evaluator, searcher and player, the three ways in of the guide "Add an
evaluator": a Python value (``eval=my_function``), a ``module:attr`` reference in a spec
string, and an installed package's entry points (a fake distribution on ``sys.path``).
Each bad case is a ``SpecError`` that names the problem. Tournaments with these are in
``tests/tournament/test_own_code_tournament.py``."""
import sys

import pytest

import gameai
from gameai import SpecError
from gameai.registry import (EVALUATORS, GAMES, PLAYERS, SEARCHERS, Registry, make_evaluator,
                             registrations)
from gameai.spec import parse_spec_text

#: the module the references name; written into a temporary folder put on sys.path
MODULE = "gameai_own_code_mod"
SOURCE = '''
from types import SimpleNamespace

from gameai.evaluators.xiangqi import Material


class Scaled:
    """Material times a factor: a class, made with the spec's parameters."""

    name = "scaled"

    def __init__(self, factor: int = 1) -> None:
        self.factor = factor
        self.material = Material()

    def __call__(self, state) -> int:
        return self.factor * self.material(state)


def mobility(state) -> int:
    """A function: used as it is."""
    return len(state.legal_moves())


class OnlyGomoku:
    games = ("gomoku",)

    def __call__(self, state) -> int:
        return 0


class NotAnEvaluator:
    pass


NUMBER = 3


class Greedy:
    """A searcher: one ply, the move whose position scores best for us."""

    def __init__(self, sign: int = 1) -> None:
        self.sign = sign

    def search(self, state, limits=None):
        best = None
        for m in state.legal_moves():
            state.push(m)
            v = -self.sign * len(state.legal_moves())
            state.pop()
            if best is None or v > best[0]:
                best = (v, m)
        return SimpleNamespace(move=best[1], value=best[0], pv=[best[1]], stats=None,
                               pv_str="")


class First:
    """A player: always the first legal move."""

    def __init__(self, name: str = "first") -> None:
        self.name = name

    def new_game(self, seed: int) -> None:
        pass

    def choose(self, state, limits=None):
        from gameai.players.protocol import Decision
        return Decision(state.legal_moves()[0], None, {})

    def close(self) -> None:
        pass


def make_greedy():
    return Greedy()
'''


@pytest.fixture
def mod(tmp_path, monkeypatch):
    (tmp_path / f"{MODULE}.py").write_text(SOURCE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield MODULE
    sys.modules.pop(MODULE, None)


def xq():
    return gameai.load_game("xiangqi", moves="h2e2 h9g7")


# -- 1. a Python value ----------------------------------------------------------------------
def test_a_function_or_object_as_eval_searches_as_the_registered_evaluator():
    from gameai.evaluators.xiangqi import Material
    material = Material()
    ref = gameai.make_searcher("alphabeta(depth=3)", eval="xiangqi.material").search(xq())
    for ev in (lambda s: material(s), Material()):
        r = gameai.make_searcher("alphabeta(depth=3)", eval=ev).search(xq())
        assert (r.move, r.value, r.stats.nodes) == (ref.move, ref.value, ref.stats.nodes)


def test_a_callable_eval_in_every_searcher_that_takes_eval():
    s = gameai.load_game("tictactoe")
    for spec in ("negascout(depth=2)", "mcts(iterations=20)", "minimax2"):
        assert gameai.make_searcher(spec, eval=lambda st: 0).search(s).move is not None


def test_bad_python_evaluators_are_refused_when_the_searcher_is_made():
    class Mine:
        def __call__(self, state):
            return 0
    with pytest.raises(SpecError, match=r"eval=Mine: a class, not an evaluator; pass an instance \(Mine\(\)\)"):
        gameai.make_searcher("alphabeta", eval=Mine)
    with pytest.raises(SpecError, match="parameter eval=3: expected a string or a callable"):
        gameai.make_searcher("alphabeta", eval=3)


def test_a_callable_has_no_compiled_form_yet():
    pytest.importorskip("numba")
    with pytest.raises(SpecError, match="no compiled form for xiangqi"):
        gameai.make_searcher("alphabeta(depth=1,backend=compiled)", eval=lambda s: 0).search(xq())


def test_a_callable_declaring_its_games_is_refused_for_another_game():
    class GomokuOnly:
        games = ("gomoku",)

        def __call__(self, state):
            return 0
    with pytest.raises(SpecError, match="scores gomoku positions, not xiangqi"):
        gameai.make_searcher("alphabeta(depth=1)", eval=GomokuOnly()).search(xq())


def test_a_searcher_or_player_object_becomes_a_player(mod):
    import importlib
    m = importlib.import_module(mod)
    p = gameai.make_player(m.Greedy())
    assert p.choose(xq()).move in xq().legal_moves()
    first = m.First()
    assert gameai.make_player(first) is first
    with pytest.raises(SpecError, match="expected a spec string, a player"):
        gameai.make_player(42)


# -- 2. module:attr -------------------------------------------------------------------------
def test_spec_names_may_be_references_but_parameter_names_may_not():
    assert parse_spec_text("pkg.mod:Cls.attr(a=1)") == ("pkg.mod:Cls.attr", {"a": "1"})
    with pytest.raises(SpecError, match="bad parameter name"):
        parse_spec_text("alphabeta(a:b=1)")


def test_module_attr_evaluators_in_spec_strings(mod):
    s = xq()
    ref = gameai.make_searcher("alphabeta(depth=2,eval=xiangqi.material)").search(s)
    r1 = gameai.make_searcher(f"alphabeta(depth=2,eval={mod}:Scaled)").search(s)
    r3 = gameai.make_searcher(f"alphabeta(depth=2,eval={mod}:Scaled(factor=3))").search(s)
    assert (r1.value, r1.stats.nodes) == (ref.value, ref.stats.nodes)
    assert r3.value == 3 * ref.value and r3.move == ref.move
    assert make_evaluator(f"{mod}:mobility")(s) == len(s.legal_moves())
    r = gameai.make_searcher("alphabeta(depth=2)", eval=f"{mod}:mobility").search(s)
    assert r.move is not None
    assert make_evaluator(f"{mod}:Scaled(factor=2)").factor == 2


def test_module_attr_searchers_and_players(mod):
    s = xq()
    assert gameai.make_searcher(f"{mod}:Greedy(sign=1)").search(s).move in s.legal_moves()
    for spec in (f"{mod}:Greedy", f"{mod}:make_greedy", f"{mod}:First(name=f)"):
        p = gameai.make_player(spec)
        assert p.choose(s).move in s.legal_moves(), spec
    assert gameai.make_player(f"{mod}:First(name=f)").name == "f"
    assert gameai.make_player(f"{mod}:Greedy").name == f"{mod}:Greedy"


@pytest.mark.parametrize("spec, message", [
    ("alphabeta(eval=gameai_no_such_module:X)",
     "no module named 'gameai_no_such_module' in this process; put the folder that holds "
     "it on PYTHONPATH"),
    (f"alphabeta(eval={MODULE}:Missing)",
     f"module '{MODULE}' .* has no attribute 'Missing'; it defines: .*Scaled"),
    (f"alphabeta(eval={MODULE}:NUMBER)", "is of type int, not callable; an evaluator is a class"),
    (f"alphabeta(eval={MODULE}:NotAnEvaluator)", "class NotAnEvaluator has no __call__"),
    (f"alphabeta(eval={MODULE}:mobility(x=1))",
     "is a ready evaluator .* so it takes no parameters .*'x'"),
    (f"alphabeta(eval={MODULE}:Scaled(weight=2))", r"has no parameter\(s\) \['weight'\]"),
    (f"alphabeta(eval={MODULE}:Scaled(factor=x))", "parameter factor=x: expected an integer"),
    (f"alphabeta(eval={MODULE})", "unknown evaluator"),
])
def test_bad_references_name_the_problem_when_the_searcher_is_made(mod, spec, message):
    with pytest.raises(SpecError, match=message):
        gameai.make_searcher(spec)


def test_a_module_that_fails_to_import_says_why(tmp_path, monkeypatch):
    (tmp_path / "gameai_broken_mod.py").write_text("import gameai_missing_dependency\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(SpecError, match="importing module 'gameai_broken_mod' failed: "
                                        "No module named 'gameai_missing_dependency'"):
        make_evaluator("gameai_broken_mod:X")


def test_bad_searcher_and_player_references(mod):
    with pytest.raises(SpecError, match="not callable; a searcher is a class"):
        gameai.make_searcher(f"{mod}:NUMBER")
    with pytest.raises(SpecError, match="has neither choose.* nor search"):
        gameai.make_player(f"{mod}:Scaled")
    with pytest.raises(SpecError, match="no module named 'gameai_nope'"):
        gameai.make_player("gameai_nope:Player", game="xiangqi")


def test_a_reference_cannot_be_registered_as_a_name():
    with pytest.raises(SpecError, match="a registered name has no ':'"):
        Registry("evaluator").register("a:b", "x:y")


def isolate(monkeypatch, reg=EVALUATORS):
    """Whatever a test registers in ``reg`` is gone after it (the catalog loaded first)."""
    reg.names()
    for attr in ("_entries", "_defaults", "_docs", "_factories", "_user"):
        monkeypatch.setattr(reg, attr, dict(getattr(reg, attr)))


def test_a_registered_function_is_a_ready_evaluator(monkeypatch):
    isolate(monkeypatch)
    EVALUATORS.register("test.seven", lambda s: 7)
    assert make_evaluator("test.seven")(xq()) == 7
    assert ("evaluator", "test.seven") in {(k, n) for k, n, *_ in registrations()}


# -- 3. entry points --------------------------------------------------------------------------
PLUGIN = '''
class Mobility:
    name = "gameai_plugin_pkg.mobility"

    def __call__(self, state):
        return len(state.legal_moves())


class Greedy:
    def search(self, state, limits=None):
        from types import SimpleNamespace
        m = state.legal_moves()[0]
        return SimpleNamespace(move=m, value=0, pv=[], stats=None)
'''
ENTRY_POINTS = '''
[gameai.evaluators]
plugin.mobility = gameai_plugin_pkg:Mobility
xiangqi.material = gameai_plugin_pkg:Mobility

[gameai.searchers]
plugin.greedy = gameai_plugin_pkg:Greedy

[gameai.players]
plugin.greedy = gameai_plugin_pkg:Greedy

[gameai.games]
plugin.ttt = gameai.games.tictactoe:TicTacToe
'''


def fake_distribution(root):
    """A package and its ``*.dist-info`` (METADATA, entry_points.txt) in ``root``, which
    importlib.metadata reads as an installed distribution once ``root`` is on sys.path."""
    pkg = root / "gameai_plugin_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(PLUGIN)
    info = root / "gameai_plugin_pkg-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: gameai-plugin-pkg\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    return root


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(fake_distribution(tmp_path)))
    for reg in (EVALUATORS, SEARCHERS, PLAYERS, GAMES):   # read the groups again, then restore
        isolate(monkeypatch, reg)
        monkeypatch.setattr(reg, "_plugins_loaded", False)
    yield
    sys.modules.pop("gameai_plugin_pkg", None)


def test_entry_points_add_names_and_a_builtin_name_wins(plugin):
    with pytest.warns(UserWarning, match="'xiangqi.material' from gameai-plugin-pkg .* is ignored"):
        names = EVALUATORS.names()
    assert "plugin.mobility" in names
    assert "gameai-plugin-pkg" in EVALUATORS.describe()["plugin.mobility"]
    from gameai.evaluators.xiangqi import Material
    assert type(make_evaluator("xiangqi.material")) is Material
    s = xq()
    r = gameai.make_searcher("alphabeta(depth=2,eval=plugin.mobility)").search(s)
    assert r.move in s.legal_moves()
    assert gameai.make_searcher("plugin.greedy").search(s).move == s.legal_moves()[0]
    assert gameai.make_player("plugin.greedy").choose(s).move == s.legal_moves()[0]
    assert gameai.load_game("plugin.ttt").name == "tictactoe"


def test_entry_points_show_in_gameai_list(tmp_path):
    import os
    import subprocess
    root = fake_distribution(tmp_path)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    out = subprocess.run([sys.executable, "-c", "from gameai.cli import main; main(['list'])"],
                         env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "plugin.mobility" in out.stdout and "plugin.greedy" in out.stdout


def test_a_reloaded_module_is_seen_at_once(tmp_path, monkeypatch):
    import importlib
    path = tmp_path / "gameai_reload_mod.py"
    path.write_text("def ev(state):\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        assert make_evaluator("gameai_reload_mod:ev")(xq()) == 1
        path.write_text("def ev(state):\n    return 20 + 2  # edited in the notebook\n")
        importlib.reload(sys.modules["gameai_reload_mod"])
        assert make_evaluator("gameai_reload_mod:ev")(xq()) == 22
    finally:
        sys.modules.pop("gameai_reload_mod", None)
