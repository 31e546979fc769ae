"""Strict, total parsing: ASCII only, unreachable positions refused, push/pop checked (issue 10)."""
import pytest

import gameai
from gameai import GameError, IllegalMoveError, PositionError

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


@pytest.mark.parametrize("fen,reason", [
    (START.replace("RNBAKABNR w", "RNBAKABNR² w"), "not ASCII"),
    (START.replace("1C5C1/9", "1C5C1/①"), "not ASCII"),
    (START.replace("RNBAKABNR", "RNBA\u212aABNR"), "not ASCII"),          # Kelvin sign
    (START.replace("1C5C1/9", "1C5C1/" + "9" * 5000), "at least 99 files"),
    (START.replace("0 1", "\u0663 1"), "not ASCII"),
    (START.replace("0 1", "1_0 1"), "move counters"),
    (START.replace("1C5C1/9", "1C5C1/09"), "counts are 1..9"),
    (START + " extra", "at most 6"),
    ("4k4/9/9/9/9/P8/P8/9/9/4K4 w", "red pawns at a3 and a4"),
    ("4k4/9/9/p8/p8/9/9/9/9/4K4 w", "black pawns at a5 and a6"),
])
def test_bad_fens_are_position_errors_with_the_reason(fen, reason):
    with pytest.raises(PositionError, match=reason):
        gameai.load_game("xiangqi", fen=fen)


def test_a_crossed_pawn_may_share_a_file():
    # a red pawn that crossed the river (a5) and the unmoved one (a3): reachable
    s = gameai.load_game("xiangqi", fen="3k5/9/9/9/P8/9/P8/9/9/4K4 w")
    assert s.piece_at(0, 5) == "P" and s.piece_at(0, 3) == "P"


@pytest.mark.parametrize("text", ["h٢e٢", "h2e２", "\u212a2e2", "h2e2x", "h22e2"])
def test_xiangqi_move_text_ascii_only(text):
    s = gameai.load_game("xiangqi")
    with pytest.raises(IllegalMoveError):
        s.parse_move(text)


@pytest.mark.parametrize("text", ["h٨", "h８", "\u212a8", "h008"])
def test_gomoku_point_text_ascii_only(text):
    s = gameai.load_game("gomoku")
    with pytest.raises(IllegalMoveError):
        s.parse_move(text)
    with pytest.raises(PositionError):
        gameai.load_game("gomoku", black=text)


def test_gomoku_two_separate_fives_are_unreachable():
    with pytest.raises(PositionError, match="separate fives"):
        gameai.load_game("gomoku", black="a1 b1 c1 d1 e1 a15 b15 c15 d15 e15",
                         white="h3 h5 h7 h9 h11 j3 j5 j7 j9")
    # two fives through one stone (the last move made both) is a reachable win
    s = gameai.load_game("gomoku", black="a1 b1 c1 d1 e1 a2 a3 a4 a5",
                         white="h3 h5 h7 h9 h11 j3 j5 j7")
    assert s.result().winner == 0


@pytest.mark.parametrize("game", ["xiangqi", "gomoku", "connect4", "tictactoe",
                                  "synthetic(depth=2)"])
def test_pop_on_empty_and_illegal_push_are_game_errors(game):
    s = gameai.load_game(game)
    before = (s.key, s.ply)
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        s.pop()
    for bad in (99999, -1, True, "h2e2", None, 2 ** 70):
        with pytest.raises(IllegalMoveError):
            s.push(bad)
        assert (s.key, s.ply) == before
    m = s.legal_moves()[0]
    s.push(m)
    assert s.pop() == m and (s.key, s.ply) == before


def test_push_refuses_occupied_points_and_finished_games():
    g = gameai.load_game("gomoku", moves="h8")
    with pytest.raises(IllegalMoveError):
        g.push(g.move_at(7, 7))   # h8 is taken
    done = gameai.load_game("tictactoe", moves="a1 b1 a2 b2 a3")
    with pytest.raises(IllegalMoveError, match="over"):
        done.push(8)
    x = gameai.load_game("xiangqi")
    with pytest.raises(IllegalMoveError):
        x.push(7 << 8 | (7 + 9 * 5))   # h0h5: the horse cannot go there
    assert x.ply == 0


def test_unchecked_push_is_what_searchers_use():
    s = gameai.load_game("xiangqi")
    m = s.legal_moves()[0]
    s.push_unchecked(m)
    assert s.ply == 1


def test_synthetic_move_text_ascii_only():
    s = gameai.load_game("synthetic(branching=12,depth=2)")
    for text in ("١", "1" * 5000, "+1"):
        with pytest.raises(IllegalMoveError):
            s.parse_move(text)
    assert s.parse_move("11") == 11


def test_errors_are_game_errors():
    assert issubclass(PositionError, GameError) and issubclass(IllegalMoveError, GameError)
