"""``gameai prepare`` compiles every preset's kernels into the disk cache a later process
reads, and the engines and ``gameai play`` say when a cold cache makes them compile."""
import io
import os
import re
import subprocess
import sys
import textwrap

import pytest

from gameai.cli import main
from gameai.compiled import AVAILABLE, REASON
from gameai.engine.gomocup import GomocupServer
from gameai.engine.uci import UciServer
from gameai.prepare import GAMES, on_first_compile, prepare

needs_numba = pytest.mark.skipif(not AVAILABLE, reason=f"backend=compiled not tested: {REASON}")


def test_an_unknown_game_or_preset_is_refused_by_name_before_any_work(capsys):
    assert main(["prepare", "--game", "xiangqi", "--game", "chess"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'chess'" in err and "xiangqi, gomoku, renju" in err
    assert main(["prepare", "--preset", "strongest"]) == 2
    err = capsys.readouterr().err
    assert "unknown preset 'strongest'" in err and "plain, strong" in err


def test_the_python_presets_have_nothing_to_compile():
    done = prepare(presets=["plain"])
    assert [(d.game, d.preset, d.backend, d.compiled) for d in done] == \
        [(g, "plain", "python", 0) for g in GAMES]
    assert "nothing to compile" in done[0].line()


@needs_numba
def test_on_first_compile_fires_once_at_a_compile_and_not_at_a_compiled_call():
    import numba

    @numba.njit
    def inc(x):
        return x + 1

    calls = []
    with on_first_compile(lambda: calls.append("int")):
        inc(1)
        inc(2.5)                                    # a second compile: no second call
    with on_first_compile(lambda: calls.append("again")):
        inc(3)                                      # compiled already
    assert calls == ["int"]


def _session(server, lines):
    server.out = out = io.StringIO()
    for line in lines:
        server.handle(line)
        server.wait()
    return out.getvalue().splitlines()


@needs_numba
@pytest.mark.parametrize("compiles", [True, False])
def test_an_engine_says_it_is_preparing_only_when_a_kernel_compiles(monkeypatch, compiles):
    import numba

    def prepare_searcher(state):                    # stands for a cold cache's compile
        if compiles:
            numba.njit(lambda v: v * 2)(3)

    x = UciServer("xiangqi", "negascout(depth=1)", "uci")
    monkeypatch.setattr(x.player.searcher, "prepare", prepare_searcher)
    out = _session(x, ["isready"])
    g = GomocupServer("gomoku", "negascout(depth=1)")
    monkeypatch.setattr(g.player.searcher, "prepare", prepare_searcher)
    gout = _session(g, ["START 15"])
    if compiles:
        assert out[0].startswith("info string preparing: compiling the search")
        assert out[1].startswith("info string prepared in ") and out[2:] == ["readyok"]
        assert gout[0].startswith("MESSAGE preparing: compiling the search")
        assert gout[1].startswith("MESSAGE prepared in ") and gout[2:] == ["OK"]
    else:
        assert (out, gout) == (["readyok"], ["OK"])


_FIRST_SEARCH = """
import sys
import gameai
from gameai.prepare import counting_compiles
game = sys.argv[1]
with counting_compiles() as n:
    gameai.make_searcher("strong(time=0.2)", game=game).search(gameai.load_game(game))
print(n[0])
"""


@needs_numba
@pytest.mark.slow
def test_after_prepare_a_new_process_compiles_nothing_for_any_preset(tmp_path):
    """On an empty cache: ``gameai prepare`` compiles; then each game's first strong search
    in a new process compiles no kernel (they load from the disk cache), and ``gameai
    prepare`` again only loads."""
    env = dict(os.environ, GAMEAI_CACHE_DIR=str(tmp_path), NUMBA_CACHE_DIR=str(tmp_path))
    cmd = [sys.executable, "-m", "gameai.cli", "prepare"]
    first = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    assert "compiled" in first and str(tmp_path) in first, first
    for game in GAMES:
        out = subprocess.run([sys.executable, "-c", textwrap.dedent(_FIRST_SEARCH), game], env=env,
                             capture_output=True, text=True, check=True).stdout
        assert out.split()[-1] == "0", (game, out)
    again = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    assert "compiled" not in again.replace("nothing to compile", "") and \
        again.count("loaded from the disk cache") == len(GAMES), again


@needs_numba
@pytest.mark.parametrize("compiles", [True, False])
def test_play_says_it_is_preparing_only_when_a_kernel_compiles(monkeypatch, compiles):
    import argparse

    import numba
    from rich.console import Console

    from gameai.commands.play import Session
    args = argparse.Namespace(game="xiangqi", side="first", time=None, moves=None,
                              opponent="negascout(depth=1,backend=compiled)", hint="plain")
    console = Console(file=io.StringIO(), no_color=True, width=200)
    session = Session(args, console)
    seen = []

    def prepare_searcher(state):                    # stands for a cold cache's compile
        seen.append(state)
        if compiles:
            numba.njit(lambda v: v * 2)(3)

    monkeypatch.setattr(session.searcher, "prepare", prepare_searcher)
    session.warm_up()
    out = console.file.getvalue().splitlines()
    assert seen == [session.state]
    if compiles:
        assert out[0].startswith("preparing: compiling the search") and \
            out[-1].startswith("prepared in ")
    else:
        assert out == []


@needs_numba
def test_play_against_a_python_opponent_compiles_the_hint_only_at_the_first_hint(monkeypatch):
    import argparse

    import numba
    from rich.console import Console

    from gameai.commands.play import Session
    args = argparse.Namespace(game="xiangqi", side="first", time=None, moves=None,
                              opponent="plain", hint="negascout(depth=1,backend=compiled)")
    console = Console(file=io.StringIO(), no_color=True, width=200)
    session = Session(args, console)
    seen = []

    def prepare_hinter(state):                      # stands for a cold cache's compile
        seen.append(state)
        numba.njit(lambda v: v * 3)(3)

    monkeypatch.setattr(session.hinter, "prepare", prepare_hinter)
    thought = []                                    # the hint's search itself: not run here
    monkeypatch.setattr(session, "think", lambda searcher, label: thought.append(searcher))
    session.warm_up()                               # before the first move: nothing
    assert seen == [] and console.file.getvalue() == ""
    session.command("hint")
    out = console.file.getvalue().splitlines()
    assert seen == [session.state]
    assert out[0].startswith("preparing: compiling the search of hint (negascout(depth=1,"
                             "backend=compiled)), once on this machine")
    assert out[1].startswith("prepared in ") and thought == [session.hinter]
    session.command("hint")                         # the second hint compiles nothing more
    assert len(seen) == 1 and len(thought) == 2


@needs_numba
@pytest.mark.parametrize("compiles", [True, False])
def test_search_and_perft_say_they_are_preparing_only_when_a_kernel_compiles(capsys, compiles):
    import numba

    from gameai.commands._common import compile_notice
    with compile_notice("gameai search"):
        if compiles:                                  # stands for a cold cache's compile
            numba.njit(lambda v: v * 5)(3)
    err = capsys.readouterr().err.splitlines()
    if compiles:
        assert err[0].startswith("gameai search: preparing: compiling the search's kernels")
        assert re.fullmatch(r"gameai search: prepared in \d+\.\d s", err[1])
    else:
        assert err == []


@needs_numba
def test_tournament_compiles_its_compiled_searchers_first_and_says_so(tmp_path, monkeypatch, capsys):
    import numba

    import gameai.compiled.search as compiled_search
    warmed = []

    def warm_up(o, state, ev, timed=False):         # stands for a cold cache's compile
        warmed.append((o.backend, state.name, timed))
        numba.njit(lambda v: v * 11)(3)
    monkeypatch.setattr(compiled_search, "warm_up", warm_up)
    assert main(["tournament", "--game", "tictactoe", "--player", "alphabeta(depth=1,backend=compiled)",
                 "--player", "alphabeta(depth=1)", "--player", "random", "--games", "2",
                 "--jobs", "1", "--no-progress", "--out", str(tmp_path / "t")]) == 0
    err = capsys.readouterr().err
    assert warmed[0] == ("compiled", "tictactoe", False)   # the compiled searcher, untimed
    assert "gameai tournament: preparing: compiling the search's kernels" in err
    assert "gameai tournament: prepared in " in err
