"""Registry, spec parsing and the game protocol on the tiny exhaustive game."""
import random

import pytest

import gameai
from gameai.spec import format_spec, parse_spec


def test_parse_spec_types_and_quotes():
    name, p = parse_spec('engine(cmd="python -m x, y",depth=3,tt=true,c=1.5,e=none,s=abc)')
    assert name == "engine"
    assert p == {"cmd": "python -m x, y", "depth": 3, "tt": True, "c": 1.5, "e": None, "s": "abc"}
    assert parse_spec(format_spec(name, p)) == (name, p)


@pytest.mark.parametrize("bad", ["", "(x=1)", "a(b)", "a(b=1", "a(b=1,b=2)", "a(b='x)"])
def test_parse_spec_rejects(bad):
    with pytest.raises(gameai.SpecError):
        parse_spec(bad)


def test_unknown_game_lists_known_names():
    with pytest.raises(gameai.SpecError) as exc:
        gameai.load_game("chekers")
    assert "tictactoe" in str(exc.value)


def test_unknown_parameter_lists_accepted():
    with pytest.raises(gameai.SpecError) as exc:
        gameai.load_game("tictactoe(size=4)")
    assert "size" in str(exc.value) and "moves" in str(exc.value)


def test_errors_are_value_errors():
    assert issubclass(gameai.GameError, ValueError)
    with pytest.raises(ValueError):
        gameai.load_game("tictactoe", moves="b2 b2")


def _count_games(s):
    if s.result() is not None:
        return 1
    n = 0
    for m in s.legal_moves():
        s.push(m)
        n += _count_games(s)
        s.pop()
    return n


def test_tictactoe_game_count_matches_published_figure():
    # 255,168 possible tic-tac-toe games (a well-known, independently published count).
    assert _count_games(gameai.load_game("tictactoe")) == 255168


def test_tictactoe_perft_counts():
    s = gameai.load_game("tictactoe")
    # 9, 9*8, 9*8*7 sequences before any line can be completed.
    assert [gameai.perft(s, d) for d in (1, 2, 3, 4)] == [9, 72, 504, 3024]


@pytest.mark.parametrize("game, params, depths, counts", [
    ("tictactoe", {}, (1, 2, 3, 4), [9, 72, 504, 3024]),        # 9, 9*8, 9*8*7, 9*8*7*6
    ("synthetic", {"branching": 3, "depth": 5}, (2, 5), [9, 243]),   # B**d in a uniform tree
])
def test_compiled_perft_of_the_small_kernels(game, params, depths, counts):
    """One kernel lookup serves perft and the search: the small kernels count too."""
    from gameai.compiled import AVAILABLE
    if not AVAILABLE:
        pytest.skip("numba not installed: backend=compiled falls back to Python")
    s = gameai.load_game(game, **params)
    assert [gameai.perft(s, d, backend="compiled") for d in depths] == counts


def test_push_pop_restores_key_and_board():
    rng = random.Random(7)
    for _ in range(200):
        s = gameai.load_game("tictactoe")
        seen = []
        while s.result() is None:
            seen.append((list(s.board), s.key))
            s.push(rng.choice(s.legal_moves()))
        while seen:
            s.pop()
            assert (list(s.board), s.key) == seen.pop()
        assert isinstance(s, gameai.GameState)


def test_tictactoe_parse_errors_leave_state_unchanged():
    s = gameai.load_game("tictactoe", moves="b2")
    before = (list(s.board), s.key)
    for bad in ("z9", "b2", "", "a"):
        with pytest.raises(gameai.IllegalMoveError):
            s.parse_move(bad)
    assert (list(s.board), s.key) == before


def test_cli_list_and_perft(capsys):
    from gameai.cli import main
    assert main(["list"]) == 0
    assert "tictactoe" in capsys.readouterr().out
    assert main(["perft", "--game", "tictactoe", "--depth", "2"]) == 0
    assert "depth 2: 72" in capsys.readouterr().out
    assert main(["perft", "--game", "nosuchgame", "--depth", "1"]) == 2


def test_cli_perft_on_the_compiled_backend(capsys):
    from gameai.cli import main
    assert main(["perft", "--game", "xiangqi", "--depth", "3", "--backend", "compiled"]) == 0
    out = capsys.readouterr().out
    assert "depth 2: 1920" in out and "depth 3: 79666" in out     # the published counts
    assert main(["perft", "--game", "connect4", "--depth", "1", "--backend", "compiled"]) == 2  # no kernel
    assert main(["perft", "--game", "xiangqi", "--depth", "1", "--divide",
                 "--backend", "compiled"]) == 2


@pytest.mark.parametrize("bulk", [False, True])
def test_cli_perft_compiled_loads_the_kernel_it_times_before_timing(capsys, monkeypatch, bulk):
    """The bulk and the make/unmake counts are different kernels: the one that counts is
    loaded before depth 1 is timed, so depth 1's rate is not the kernel's load time."""
    from gameai.cli import main
    from gameai.commands import perft as command
    from gameai.games.perft import perft
    calls = []

    def recorded(state, depth, bulk=False, backend="python"):
        calls.append((depth, bulk, backend))
        return perft(state, depth, bulk=bulk, backend=backend)
    monkeypatch.setattr(command, "perft", recorded)
    args = ["perft", "--game", "xiangqi", "--depth", "2", "--backend", "compiled"]
    assert main(args + ["--bulk"] * bulk) == 0
    assert "depth 2: 1920" in capsys.readouterr().out
    assert calls == [(1, bulk, "compiled"), (1, bulk, "compiled"), (2, bulk, "compiled")]


@pytest.mark.parametrize("depth", ["a", 2.0, True, None, -1, 257, 10 ** 20])
def test_perft_refuses_a_depth_that_is_no_integer_or_out_of_bounds(depth):
    s = gameai.load_game("tictactoe")
    with pytest.raises(gameai.SpecError, match="perft depth"):
        gameai.perft(s, depth)


def test_cli_perft_refuses_an_unbounded_depth_before_counting(capsys, monkeypatch):
    from gameai.cli import main
    from gameai.commands import perft as command

    def counted(*a, **k):
        raise AssertionError("perft counted a depth before refusing the bound")
    monkeypatch.setattr(command, "perft", counted)
    assert main(["perft", "--game", "tictactoe", "--depth", "99999999999999999999"]) == 2
    captured = capsys.readouterr()
    assert "depth 1:" not in captured.out and "<= 256" in captured.err
    assert main(["perft", "--game", "tictactoe", "--depth", "0", "--divide"]) == 2
    assert ">= 1" in capsys.readouterr().err
