"""Renju forbidden moves (RIF rules) against published test positions.

Most positions and their expected forbidden points come from the test suite of the
open-source renju engine *realcore* (GitHub starpentagon/realcore,
``test/board/BoardForbiddenTest.cc``: overline, one-line double-fours 両頭/長蛇/双竜,
two-line double-fours, double-threes including the case "JH is forbidden, so II is not"
(a double-three made false only by the recursive rule), a complex case with eight
forbidden points, and two positions with no forbidden point). Each case there lists ALL
forbidden points of the position, so we compare the complete set over every empty point.

Conversion: realcore writes a move as two letters, column then row, rows ``a``..``o``
from the TOP; ours are ``h8`` with rows 1..15 from the bottom, so row letter ``r`` is row
``15 - (ord(r) - ord('a'))``. (Mirroring a position never changes forbiddenness anyway.)

The remaining cases are built by hand from the rule text (each explained where it is).
"""
import pytest

import gameai
from gameai import IllegalMoveError
from gameai.games.gomoku_rules import BLACK, EMPTY, _reach, is_straight_four


def rc_moves(ml: str) -> str:
    return " ".join(f"{ml[i]}{15 - (ord(ml[i + 1]) - 97)}" for i in range(0, len(ml), 2))


def rc_point(p: str) -> str:
    return f"{p[0].lower()}{15 - (ord(p[1].lower()) - 97)}"


REALCORE = [
    ("overline", "hhigihghjhhgmhhilhii", {"KH": "overline"}),
    ("one-line double-four 1", "hhignhghkhkilhoh", {"JH": "double-four"}),
    ("one-line double-four 2", "hhhihbhahdgehfie", {"HE": "double-four"}),
    ("one-line double-four 3", "hhghnhohkhjgjhli", {"LH": "double-four"}),
    ("long-snake double-four 1", "hhgiigiioaggnbjhldhf", {"KE": "double-four"}),
    ("long-snake double-four 2", "hhgiigiioaggnbjhkehf", {"LD": "double-four"}),
    ("twin-dragon double-four", "hhkkjjkiiiikddaabbbaccab", {"FF": "double-four"}),
    ("two-line double-four", "hhkkjjkiiikchfjcjdidielj", {"GG": "double-four"}),
    ("two-line double-four, straight fours", "hhkkiiddeglddgdlffllfgbg", {"GG": "double-four"}),
    ("two-line double-four, mixed", "hhkkiiddeglddgdlffjjfgbg", {"GG": "double-four"}),
    ("double-four in a crowded position 1",
     "hhhihghfjgghiggggijfiefgefifgffejjjikkikkiljijhjlliigklfkfkgjhfjklkjmljllmmjnlolnkojnjkm",
     {"NN": "double-four"}),
    ("double-four in a crowded position 2",
     "hhhijjiiikkijijhkgighfihifljmklhkhlglijgkfjfjekdjkgjfkjmilhmimijgkhkhlfjjlkliniokklkhngojnko",
     {"FN": "double-four"}),
    ("a single open three is not forbidden", "hhldihddghdl", {}),
    ("double-three", "hhhggiggjhghkifg", {"IG": "double-three"}),
    ("recursive: JH forbidden so II is not", "hhhdlfldjjddkgllghdljihl", {"JH": "double-three"}),
    ("complex double-threes (eight points)", "hhoobjahciagemeodigochlofmccellcgkhcdjoa",
     {p: "double-three" for p in ("DH", "CJ", "EJ", "CK", "DK", "EK", "DL", "FL")}),
    ("no double-three (false threes)", "hhbdddamecbnfdhdeecojdoakdndleaolfeoghgoeiioejkochmo", {}),
]


def all_forbidden(s) -> dict[str, str]:
    out = {}
    for i in s.geo.cells:
        if s.board[i] == EMPTY:
            why = s.forbidden(i)
            if why:
                out[s.move_str(i)] = why
    return out


@pytest.mark.parametrize("name,ml,expected", REALCORE, ids=[c[0] for c in REALCORE])
def test_realcore_positions(name, ml, expected):
    s = gameai.load_game("renju", moves=rc_moves(ml))
    assert s.to_move == 0
    assert all_forbidden(s) == {rc_point(p): why for p, why in expected.items()}
    # forbidden points are exactly the ones missing from legal_moves
    legal = {s.move_str(m) for m in s.legal_moves()}
    assert not legal & set(map(rc_point, expected))


def _naive_threes(s, point: str) -> int:
    """Lines where one more stone makes a straight four, WITHOUT the recursive test."""
    b, p = s.board, s._point_index(point)
    b[p] = BLACK
    n = 0
    for d in s.dirs:
        for q in _reach(b, p, d, BLACK):
            b[q] = BLACK
            ok = is_straight_four(b, p, d, BLACK, True)
            b[q] = EMPTY
            if ok:
                n += 1
                break
    b[p] = EMPTY
    return n


def test_double_three_false_only_by_recursion():
    """realcore: II (our i7) makes two threes on their face, but one of them can only
    become a straight four through JH (j8), itself a forbidden point, so II is legal."""
    s = gameai.load_game("renju", moves=rc_moves("hhhdlfldjjddkgllghdljihl"))
    assert _naive_threes(s, "i7") >= 2
    assert s.forbidden("i7") is None
    assert s.forbidden("j8") == "double-three"
    assert "i7" in {s.move_str(m) for m in s.legal_moves()}


def test_false_double_three_blocked_by_white():
    """Hand-built: h8 joins f8 g8 (blocked by white e8, so O X X X . . can only become a
    closed four) and h9 h10 (a real three): one three, not forbidden. Without the white
    stone both are threes: double-three."""
    blocked = gameai.load_game("renju", black="f8 g8 h9 h10", white="e8 a1 a3 a5")
    assert blocked.forbidden("h8") is None
    open_ = gameai.load_game("renju", black="f8 g8 h9 h10", white="a1 a3 a5 a7")
    assert open_.forbidden("h8") == "double-three"
    assert "h8" not in {open_.move_str(m) for m in open_.legal_moves()}
    assert "h8" in {blocked.move_str(m) for m in blocked.legal_moves()}


def test_five_beats_double_four():
    """Hand-built: h8 makes a vertical four (h9-h11) and a diagonal four (i9 j10 k11):
    a double-four; adding d8-g8 makes h8 also complete exactly five, which wins."""
    df = gameai.load_game("renju", black="e8 f8 g8 h9 h10 h11 i9 j10 k11",
                          white="a1 a3 a5 a7 a9 a11 a13 a15 c1")
    assert df.forbidden("h8") == "double-four"
    five = gameai.load_game("renju", black="d8 e8 f8 g8 h9 h10 h11 i9 j10 k11",
                            white="a1 a3 a5 a7 a9 a11 a13 a15 c1 c3")
    assert five.forbidden("h8") is None
    five.push(five.parse_move("h8"))
    assert five.result().winner == 0


def test_five_beats_overline_and_overline_alone():
    """h4-h7 + h9: h8 makes six (overline). With d8-g8 as well, h8 also makes five."""
    ol = gameai.load_game("renju", black="h4 h5 h6 h7 h9 a13", white="a1 a3 a5 a7 a9 a11")
    assert ol.forbidden("h8") == "overline"
    with pytest.raises(IllegalMoveError, match="h8.*overline"):
        ol.parse_move("h8")
    both = gameai.load_game("renju", black="d8 e8 f8 g8 h4 h5 h6 h7 h9",
                            white="a1 a3 a5 a7 a9 a11 a13 a15 c1")
    assert both.forbidden("h8") is None


def test_four_three_is_allowed():
    """A four plus a three is the normal winning shape and is not forbidden."""
    s = gameai.load_game("renju", black="e8 f8 g8 h9 h10", white="a1 a3 a5 a7 a9")
    assert s.forbidden("h8") is None


def test_white_is_unrestricted_and_white_overline_wins():
    s = gameai.load_game("renju", black="f8 g8 h9 h10 a1", white="a3 a5 a7 a9")
    assert s.to_move == 1
    assert s.forbidden("h8") == "double-three"   # judged for black...
    assert s.parse_move("h8")                    # ...white may take the point
    own = gameai.load_game("renju", black="a1 a3 a5 a7 a9", white="f8 g8 h9 h10")
    assert own.to_move == 1
    assert "h8" in {own.move_str(m) for m in own.legal_moves()}  # white's own 3x3 is fine
    own.push(own.parse_move("h8"))
    w = gameai.load_game("renju", black="a1 a3 a5 a7 a9 c1", white="h4 h5 h6 h7 h9")
    w.push(w.parse_move("h8"))
    assert w.result().winner == 1 and w.result().reason == "five"


def test_overline_by_rule():
    setup = dict(black="h4 h5 h6 h7 h9 a13", white="a1 a3 a5 a7 a9 a11")
    free = gameai.load_game("gomoku", **setup)
    free.push(free.parse_move("h8"))
    assert free.result().winner == 0                 # freestyle: six wins
    std = gameai.load_game("gomoku(rule=standard)", **setup)
    std.push(std.parse_move("h8"))
    assert std.result() is None                      # standard: exactly five only


def test_forbidden_bad_input_names_point():
    s = gameai.load_game("renju", black="h8 h9", white="i9")
    assert s.forbidden("h10") is None
    with pytest.raises(IllegalMoveError, match="h8.*occupied"):
        s.forbidden("h8")
    with pytest.raises(IllegalMoveError, match="z9"):
        s.forbidden("z9")
