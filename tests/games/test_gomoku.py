"""Gomoku game protocol: loading, bad input, incremental state vs from-scratch recomputation,
five detection vs a brute-force scan, records (move list, Gomocup PSQ)."""
import random

import pytest
from hypothesis import given, settings, strategies as st

import gameai
from gameai import GameError, IllegalMoveError, PositionError, RecordError
from gameai.games.gomoku_records import read_moves, read_psq, write_moves, write_psq
from gameai.games.gomoku_rules import EMPTY


def test_load_and_names():
    s = gameai.load_game("gomoku", moves="h8 i9 h9")
    assert s.name == "gomoku" and s.rule == "freestyle" and s.size == 15
    assert s.to_move == 1 and s.ply == 3
    assert [s.move_str(m) for m in s.move_stack] == ["h8", "i9", "h9"]
    assert s.stone(7, 7) == 0 and s.stone(8, 8) == 1 and s.stone(0, 0) is None
    assert s.stones() == [(7, 7, 0), (8, 8, 1), (7, 8, 0)]
    r = gameai.load_game("renju")
    assert r.rule == "renju" and r.name == "renju"
    assert gameai.load_game("gomoku(rule=renju)").rule == "renju"
    assert r.default_eval == "gomoku.patterns"
    assert [r.move_str(m) for m in r.legal_moves()] == ["h8"]   # centre on an empty board
    small = gameai.load_game("gomoku(size=9)")
    assert [small.move_str(m) for m in small.legal_moves()] == ["e5"]
    assert len(gameai.load_game("gomoku(full_board=true)").legal_moves()) == 225


def test_stone_lists_and_to_move():
    s = gameai.load_game("gomoku", black="h8 h9", white="i9")
    assert s.to_move == 1 and s.ply == 0
    assert gameai.load_game("gomoku", black="h8", white="i9", to_move="black").to_move == 0
    with pytest.raises(PositionError, match="to_move"):
        gameai.load_game("gomoku", black="h8", white="i9", to_move="white")
    with pytest.raises(PositionError, match="impossible stone counts"):
        gameai.load_game("gomoku", black="h8 h9 h10", white="i9")
    with pytest.raises(PositionError, match="impossible stone counts"):
        gameai.load_game("gomoku", black="h8", white="i9 i10")
    with pytest.raises(PositionError, match="h8"):
        gameai.load_game("gomoku", black="h8 h9", white="h8")
    with pytest.raises(PositionError, match="five"):  # black has five but black to move
        gameai.load_game("gomoku", black="a1 b1 c1 d1 e1", white="a3 a5 a7 a9 a11")
    done = gameai.load_game("gomoku", black="a1 b1 c1 d1 e1", white="a3 a5 a7 a9")
    assert done.result().winner == 0 and done.legal_moves() == []


@pytest.mark.parametrize("text,pattern", [
    ("p8", "off the 15x15"), ("h16", "off the 15x15"), ("h0", "off"), ("8h", "not a point"),
    ("hh", "not a point"), ("", "not a point"), ("h8", "occupied"),
])
def test_bad_moves_name_the_point_and_leave_state(text, pattern):
    s = gameai.load_game("gomoku", moves="h8 i9")
    before = (s.key, list(s.board), s.ply)
    with pytest.raises(IllegalMoveError, match=pattern) as exc:
        s.parse_move(text)
    assert isinstance(exc.value, GameError)
    assert repr(text) in str(exc.value) or text in str(exc.value)
    assert (s.key, list(s.board), s.ply) == before


def test_bad_parameters():
    for spec in ("gomoku(size=3)", "gomoku(rule=caro)", "gomoku(radius=0)"):
        with pytest.raises(GameError):
            gameai.load_game(spec)
    with pytest.raises(PositionError, match="z1"):
        gameai.load_game("gomoku", moves="h8 z1")
    with pytest.raises(PositionError):
        gameai.load_game("gomoku", moves="h8", black="h9")


def test_game_over_and_draw():
    s = gameai.load_game("gomoku", moves="a1 a2 b1 b2 c1 c2 d1 d2 e1")
    assert s.result().winner == 0 and s.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        s.parse_move("o15")
    s.pop()
    assert s.result() is None
    # a full 5x5 board without five in a row: draw (pattern checked by the brute force below)
    rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"]
    black = [f"{chr(97 + c)}{r + 1}" for r in range(5) for c in range(5) if rows[r][c] == "X"]
    white = [f"{chr(97 + c)}{r + 1}" for r in range(5) for c in range(5) if rows[r][c] == "O"]
    full = gameai.load_game("gomoku(size=5)", black=" ".join(black), white=" ".join(white))
    assert full.result() is not None and full.result().winner is None


def brute_winner(s) -> int | None:
    """Independent five scan over the (col,row) grid, freestyle rule."""
    n = s.size
    for r in range(n):
        for c in range(n):
            p = s.stone(c, r)
            if p is None:
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                if all(0 <= c + k * dc < n and 0 <= r + k * dr < n and s.stone(c + k * dc, r + k * dr) == p
                       for k in range(5)):
                    return p
    return None


def fresh(s):
    return gameai.load_game(f"gomoku(size={s.size},rule={s.rule})",
                            moves=" ".join(s.move_str(m) for m in s.move_stack))


def check_incremental(s):
    ref = fresh(s)
    assert s.key == ref.key
    assert s.line_codes == ref.line_codes
    assert s.bnear == ref.bnear
    b = s.board
    neigh = s.geo.neighbours(s.radius)
    rescan = sorted(i for i in s.geo.cells if b[i] == EMPTY and any(b[q] < 2 for q in neigh[i]))
    assert sorted(s._cand) == rescan
    if s.result() is None and s.move_stack:
        if s.rule == "renju" and s.to_move == 0:
            rescan = [m for m in rescan if s.forbidden(m) is None]
        assert s.legal_moves() == rescan
    # line codes decode to the board
    for lid, line in enumerate(s.geo.lines):
        code = s.line_codes[lid]
        for i in line:
            code, digit = divmod(code, 3)
            assert digit == (0 if b[i] == EMPTY else b[i] + 1)
        assert code == 1


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10**6), st.integers(5, 40), st.sampled_from(["freestyle", "renju"]))
def test_random_play_push_pop_invariants(seed, n, rule):
    rng = random.Random(seed)
    s = gameai.load_game("gomoku", rule=rule, moves="h8")
    keys = [s.key]
    for _ in range(n):
        if s.result() is not None:
            break
        s.push(rng.choice(s.legal_moves()))
        keys.append(s.key)
        w = s.result()
        assert (w.winner if w else None) == brute_winner(s)
    check_incremental(s)
    while s.ply > 1:
        s.pop()
        keys.pop()
        assert s.key == keys[-1]
    check_incremental(s)


def test_transposition_same_key_and_copy():
    a = gameai.load_game("gomoku", moves="h8 i9 h9 i10")
    b = gameai.load_game("gomoku", moves="h9 i10 h8 i9")
    assert a.key == b.key
    c = a.copy()
    c.push(c.parse_move("h10"))
    assert a.ply == 4 and c.ply == 5 and a.key != c.key
    assert a.stone(7, 9) is None


def test_history_key_and_str():
    s = gameai.load_game("gomoku", moves="h8")
    m = s.parse_move("i9")
    k0 = s.history_key(m)
    k1 = s.history_key(m, True)
    assert k0 == m and k1 != k0 and 0 <= k1 < 2 * len(s.board)
    text = str(s)
    assert "X" in text and text.splitlines()[-1].split() == list("abcdefghijklmno")


def test_noisy_moves_find_fours_and_blocks():
    s = gameai.load_game("gomoku", moves="h8 a1 i8 a3 j8")       # white to move: black has 3
    s.push(s.parse_move("a5"))
    noisy = {s.move_str(m) for m in s.noisy_moves()}
    assert {"g8", "k8", "f8", "l8"} == noisy                      # black's fours (l8: split)
    s.push(s.parse_move("k8"))                # white to move: block g8/l8, or a2/a4 make
    assert {s.move_str(m) for m in s.noisy_moves()} == {"g8", "l8", "a2", "a4"}  # split fours


def test_move_list_records_roundtrip():
    s = read_moves("h8 i9 # opening\n h9, i10\nh10", rule="renju")
    assert write_moves(s) == "h8 i9 h9 i10 h10" and s.rule == "renju"
    with pytest.raises(RecordError, match="move 3"):
        read_moves("h8 i9 h8")


def test_psq_read_write():
    # Piskvork PSQ: header, then x,y,time with 1-based x and y counted from the top.
    text = "Piskvorky 15x15, 11:11, 0\n8,8,120\n9,7,340\n8,7,10\nbrain1.exe\nbrain2.exe\n-1\n"
    s, times = read_psq(text)
    assert [s.move_str(m) for m in s.move_stack] == ["h8", "i9", "h9"]
    assert times == [120, 340, 10]
    out = write_psq(s, times)
    assert out.splitlines()[:4] == ["Piskvorky 15x15, 0:0, 0", "8,8,120", "9,7,340", "8,7,10"]
    again, _ = read_psq(out)
    assert again.key == s.key
    with pytest.raises(RecordError, match="header"):
        read_psq("hello\n1,1,0\n")
    with pytest.raises(RecordError, match="off the"):
        read_psq("Piskvorky 15x15, 0:0, 0\n16,1,0\n")
    with pytest.raises(RecordError, match="occupied"):
        read_psq("Piskvorky 15x15, 0:0, 0\n1,1,0\n1,1,0\n")
    big, _ = read_psq("Piskvorky 20x20, 0:0, 0\n10,10,0\n")
    assert big.size == 20 and big.move_str(big.move_stack[0]) == "j11"


def test_is_legal_is_wider_than_search_candidates():
    s = gameai.load_game("gomoku", moves="h8")
    far = s.parse_move("a1")
    assert far not in s.legal_moves() and s.is_legal(far)
    assert not s.is_legal(s.move_at(7, 7))            # occupied
    assert not s.is_legal(0)                           # border cell
    r = gameai.load_game("renju", black="f8 g8 h9 h10", white="a1 a3 a5 a7")
    assert not r.is_legal(r.move_at(7, 7))             # h8: double-three for black
    done = gameai.load_game("gomoku", moves="a1 a2 b1 b2 c1 c2 d1 d2 e1")
    assert not done.is_legal(done.move_at(10, 10))
