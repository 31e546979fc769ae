"""Xiangqi rules, FEN/ICCS, result(), perft against published counts, and push/pop properties.

Where the expected numbers come from:
* start position perft 44 / 1,920 / 79,666 / 3,290,240 / 133,312,995: the issue text and
  the Xiangqi perft tables published by engine authors (also Fairy-Stockfish tests/perft.sh
  for depth 4).
* ten positions with counts to depth 5: the chessprogramming wiki page "Chinese Chess Perft
  Results" (copied into the PikaChess engine's tests); two more with depth-4 counts:
  Fairy-Stockfish tests/perft.sh (fairy-stockfish/Fairy-Stockfish on GitHub).
* every small hand-made position: counted by hand from the rules (the reasoning is in the
  comment next to each case).
* cross-checks against the independent libraries ``cchess`` (pure Python) and OpenSpiel's
  C++ ``xiangqi`` run when they are installed (the ``bench`` extra).
"""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gameai
from gameai.evaluators.xiangqi import material_from_scratch, pst_from_scratch
from gameai.games.xiangqi import NULL_MOVE, START_FEN

# Chessprogramming wiki "Chinese Chess Perft Results" (positions 2-11, counts per depth
# from 1), as also used by the PikaChess engine's perft tests: independently published.
CPW_POSITIONS = [
    ("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w", [38, 1128, 43929, 1339047, 53112976]),
    ("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w", [7, 281, 8620, 326201, 10369923]),
    ("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w", [25, 424, 9850, 202884, 4739553]),
    ("CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w", [28, 516, 14808, 395483, 11842230]),
    ("R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w", [21, 364, 7626, 162837, 3500505]),
    ("C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w", [28, 222, 6241, 64971, 1914306]),
    ("4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w", [23, 345, 8124, 149272, 3513104]),
    ("2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w", [21, 195, 3883, 48060, 933096]),
    ("1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w", [30, 830, 22787, 649866, 17920736]),
    ("CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w", [19, 583, 11714, 376467, 8148177]),
]
FSF_MIDGAME = "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1"
FSF_ENDGAME = "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1"


def moves_of(s):
    return sorted(s.move_str(m) for m in s.legal_moves())


# ----------------------------------------------------------------------------- perft
def test_start_perft_depth_1_to_3():
    s = gameai.load_game("xiangqi")
    assert [gameai.perft(s, d) for d in (1, 2, 3)] == [44, 1920, 79666]
    assert [gameai.perft(s, d, bulk=True) for d in (1, 2, 3)] == [44, 1920, 79666]
    assert s.fen() == START_FEN


def test_fsf_endgame_perft_depth_4():
    # Fairy-Stockfish tests/perft.sh: xiangqi "4kcP1N/8n/..." depth 4 = 92741.
    s = gameai.load_game("xiangqi", fen=FSF_ENDGAME)
    assert gameai.perft(s, 4, bulk=True) == 92741


@pytest.mark.parametrize("fen, counts", CPW_POSITIONS)
def test_published_positions_depth_1_to_3(fen, counts):
    s = gameai.load_game("xiangqi", fen=fen)
    assert [gameai.perft(s, d) for d in (1, 2, 3)] == counts[:3]


@pytest.mark.slow
@pytest.mark.parametrize("fen, counts", CPW_POSITIONS)
def test_published_positions_depth_4_and_5(fen, counts):
    s = gameai.load_game("xiangqi", fen=fen)
    assert [s.perft(4), s.perft(5)] == counts[3:5]


@pytest.mark.slow
def test_start_perft_depth_4_public_api():
    assert gameai.perft(gameai.load_game("xiangqi"), 4) == 3290240


@pytest.mark.slow
def test_fsf_midgame_perft_depth_4():
    # Fairy-Stockfish tests/perft.sh: depth 4 = 4485547.
    assert gameai.perft(gameai.load_game("xiangqi", fen=FSF_MIDGAME), 4) == 4485547


@pytest.mark.slow
def test_start_perft_depth_5():
    assert gameai.perft(gameai.load_game("xiangqi"), 5, bulk=True) == 133312995


# ----------------------------------------------------------------- hand-counted rules
@pytest.mark.parametrize("fen, expected", [
    # Flying general: red king d0 may go to d1 but not e0 (open e-file to the king on e9).
    ("4k4/9/9/9/9/9/9/9/9/3K5 w", ["d0d1"]),
    # Only piece between the kings (horse e5) is pinned; the black king may step to e8
    # (the horse still stands between) or sideways.
    ("4k4/9/9/9/4n4/9/9/9/9/4K4 b", ["e9d9", "e9e8", "e9f9"]),
    # Horse leg: horse f0 with f1 blocked (black rook) keeps only d1 (leg e0) and h1 (leg
    # g0); the king cannot go to d1 (rook on rank 1) nor e0 (facing the king on e9).
    ("4k4/9/9/9/9/9/9/9/5r3/3K1N3 w", ["f0d1", "f0h1"]),
    # Black pawn d3 attacks d2, c3, e3 only, so the king keeps d1; e0 faces e9.
    ("4k4/9/9/9/9/9/3p5/9/9/3K5 w", ["d0d1"]),
    # Cannon a0: a1..a4, jump the a5 screen to capture a9; b0, c0, then the own king is a
    # screen with nothing to capture behind it. King d0: d1, e0 (black king is on f9).
    ("r4k3/9/9/9/p8/9/9/9/9/C2K5 w",
     ["a0a1", "a0a2", "a0a3", "a0a4", "a0a9", "a0b0", "a0c0", "d0d1", "d0e0"]),
    # Pawns: e4 (own side) only forward; c6 (crossed) forward and sideways.
    ("5k3/9/9/2P6/9/4P4/9/9/9/3K5 w", ["c6b6", "c6c7", "c6d6", "d0d1", "d0e0", "e4e5"]),
    # A pawn on the last rank moves only sideways.
    ("P4k3/9/9/9/9/9/9/9/9/3K5 w", ["a9b9", "d0d1", "d0e0"]),
    # Advisor d0 inside the palace: only e1. King f0 -> e0 faces e9; f1 free.
    ("4k4/9/9/9/9/9/9/9/9/3A1K3 w", ["d0e1", "f0f1"]),
])
def test_hand_counted_move_lists(fen, expected):
    assert moves_of(gameai.load_game("xiangqi", fen=fen)) == sorted(expected)


def test_elephant_eye_and_river():
    # Elephant c4 with nothing around: a2 and e2 (a6, e6 lie across the river).
    s = gameai.load_game("xiangqi", fen="4k4/9/9/9/9/2B6/9/9/9/3K5 w")
    assert [m for m in moves_of(s) if m.startswith("c4")] == ["c4a2", "c4e2"]
    # A piece on the eye d3 blocks e2.
    s = gameai.load_game("xiangqi", fen="4k4/9/9/9/9/2B6/3p5/9/9/3K5 w")
    assert [m for m in moves_of(s) if m.startswith("c4")] == ["c4a2"]


def test_stalemate_loses_for_side_to_move():
    # Black king d9: d8 covered by the rook on a8, e9 faces the red king on e0; not in check.
    s = gameai.load_game("xiangqi", fen="3k5/R8/9/9/9/9/9/9/9/4K4 b")
    assert s.legal_moves() == [] and not s.in_check()
    assert s.result() == gameai.Outcome(0, "stalemate")


def test_checkmate_loses_for_side_to_move():
    s = gameai.load_game("xiangqi", fen="R2k5/R8/9/9/9/9/9/9/9/4K4 b")
    assert s.in_check() and s.legal_moves() == []
    assert s.result() == gameai.Outcome(0, "checkmate")


def test_in_check_by_each_piece_kind():
    cases = {
        "4k4/9/9/9/9/9/9/9/4r4/3K5 w": False,   # rook e1 does not see d0
        "4k4/9/9/9/9/9/9/9/9/r2K5 w": True,     # rook along rank 0
        "4k4/9/9/9/9/9/9/9/2n6/3K5 w": False,   # horse c1: d0 is not a horse step from c1
        "4k4/9/9/9/9/9/9/2n6/9/3K5 w": True,    # horse c2 -> d0 (leg c1 empty)
        "4k4/9/9/3c5/9/9/9/3A5/9/3K5 w": True,  # cannon d6 over the screen d2
        "4k4/9/9/3c5/9/9/9/9/9/3K5 w": False,   # cannon without a screen
        "4k4/9/9/9/9/9/9/9/3p5/3K5 w": True,    # pawn d1 attacks d0
        "4k4/9/9/9/9/9/9/9/4p4/3K5 w": False,   # pawn e1 attacks d1, f1, e0, not d0
    }
    for fen, expect in cases.items():
        assert gameai.load_game("xiangqi", fen=fen).in_check() is expect, fen


# ------------------------------------------------------------- repetition and draws
def test_perpetual_check_loses_for_the_checker():
    s = gameai.load_game("xiangqi", fen="4k4/9/9/9/9/9/9/9/9/R2K5 w")
    seq = ["a0a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8", "e8e9", "a8a9"]
    for i, mv in enumerate(seq):
        assert s.result() is None, (i, mv)
        s.push(s.parse_move(mv))
    # The position after the first move (rook a9 checking, black to move) has now occurred
    # 3 times (plies 1, 5, 9); in between every red move gave check, no black move did.
    assert s.result() == gameai.Outcome(1, "perpetual-check")
    fen = s.fen()
    assert s.result() == gameai.Outcome(1, "perpetual-check") and s.fen() == fen


def test_repetition_with_some_quiet_checker_moves_is_a_draw():
    # Red checks on a9 but retreats quietly to a0 every other move: not a perpetual check.
    s = gameai.load_game("xiangqi", fen="4k4/9/9/9/9/9/9/9/9/R2K5 w",
                         moves="a0a9 e9e8 a9a0 e8e9 a0a9 e9e8 a9a0")
    assert s.result() is None
    s.push(s.parse_move("e8e9"))
    assert s.result() == gameai.Outcome(None, "repetition")


def test_idle_repetition_is_a_draw_and_count_is_configurable():
    seq = ["a0a1", "e9e8", "a1a0", "e8e9"]
    s = gameai.load_game("xiangqi", fen="4k4/9/9/9/9/9/9/9/9/R2K5 w")
    for mv in seq * 2:
        assert s.result() is None
        s.push(s.parse_move(mv))
    assert s.result() == gameai.Outcome(None, "repetition")
    s2 = gameai.load_game("xiangqi", fen="4k4/9/9/9/9/9/9/9/9/R2K5 w", repetitions=2)
    for mv in seq:
        assert s2.result() is None
        s2.push(s2.parse_move(mv))
    assert s2.result() == gameai.Outcome(None, "repetition")
    with pytest.raises(gameai.IllegalMoveError):
        s2.parse_move("a0a1")  # game over


def test_move_count_rule():
    fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 118 70"
    s = gameai.load_game("xiangqi", fen=fen)
    s.push(s.parse_move("a0a1"))
    assert s.result() is None and s.plies_without_capture == 119
    s.push(s.parse_move("e9e8"))
    assert s.result() == gameai.Outcome(None, "move-limit")
    s.pop()
    assert s.result() is None
    s = gameai.load_game("xiangqi", fen=fen, max_plies_without_capture=None)
    s.push(s.parse_move("a0a1"))
    s.push(s.parse_move("e9e8"))
    assert s.result() is None
    # A capture resets the count; a quiet move at 119 reaches the limit.
    fen = "4k4/r8/9/9/9/9/9/9/9/R2K5 w - - 119 70"
    s = gameai.load_game("xiangqi", fen=fen, moves="a0a8")
    assert s.plies_without_capture == 0 and s.result() is None
    s = gameai.load_game("xiangqi", fen=fen, moves="a0a1")
    assert s.plies_without_capture == 120 and s.result() == gameai.Outcome(None, "move-limit")


# ------------------------------------------------------------------- FEN and text
def test_fen_round_trip_and_letter_sets():
    a = gameai.load_game("xiangqi")
    b = gameai.load_game("xiangqi", fen="rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1")
    assert a.fen() == b.fen() == START_FEN and a.key == b.key
    for fen in (FSF_MIDGAME, FSF_ENDGAME):
        s = gameai.load_game("xiangqi", fen=fen)
        assert s.fen() == fen
        assert gameai.load_game("xiangqi", fen=s.fen()).key == s.key
    s = gameai.load_game("xiangqi", moves="h2e2 h9g7")
    assert s.fen() == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    assert gameai.load_game("xiangqi", fen=s.fen()).key == s.key
    # moves are from_sq << 8 | to_sq with sq = rank * 9 + file
    assert s.move_stack == [(7 + 18) << 8 | (4 + 18), (7 + 81) << 8 | (6 + 63)]


def test_iccs_text():
    s = gameai.load_game("xiangqi")
    assert "h2e2" in moves_of(s) and len(moves_of(s)) == 44
    assert s.parse_move("H2-E2") == s.parse_move("h2e2")
    m = s.parse_move("h2e2")
    assert s.move_str(m) == "h2e2"
    s.push(m)
    assert s.piece_at(4, 2) == "C" and s.piece_at(7, 2) is None and s.to_move == 1
    assert "C" in str(s) and "black to move" in str(s)


@pytest.mark.parametrize("fen, words", [
    ("", ["empty"]),
    ("rnbakabnr/9/1c5c1", ["3 ranks"]),
    ("rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", ["'x'", "rank 9"]),
    ("rnbakabnr/10/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", ["rank 8", "10 files"]),
    ("rnbakabnr/8/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", ["rank 8", "8 files"]),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", ["side to move", "'x'"]),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w", ["red has 0 kings"]),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/K8/RNBA1ABNR w", ["cannot stand on a1"]),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", ["counters"]),
    ("4k4/9/9/9/9/9/9/9/9/4K4 w", ["in check"]),
    ("4k4/9/9/9/9/9/9/P8/9/3K5 w", ["cannot stand on a2"]),
])
def test_bad_fen_raises_naming_the_field(fen, words):
    with pytest.raises(gameai.PositionError) as exc:
        gameai.load_game("xiangqi", fen=fen)
    for w in words:
        assert w in str(exc.value), (w, str(exc.value))
    assert isinstance(exc.value, ValueError)


@pytest.mark.parametrize("text", ["", "h2", "z2e2", "h2e2e2", "a0a5", "b0b1", "a3a4", "e0e2", "h2h9"])
def test_bad_move_text_raises_and_leaves_state_unchanged(text):
    s = gameai.load_game("xiangqi", moves="h2e2")
    before = (s.fen(), s.key, list(s.board), s.ply)
    with pytest.raises(gameai.IllegalMoveError) as exc:
        s.parse_move(text)
    assert repr(text) in str(exc.value) and s.fen() in str(exc.value)
    assert (s.fen(), s.key, list(s.board), s.ply) == before


def test_bad_moves_parameter_raises_position_error():
    with pytest.raises(gameai.PositionError) as exc:
        gameai.load_game("xiangqi", moves="h2e2 h2e2")
    assert "h2e2" in str(exc.value)


# ------------------------------------------------------------------- properties
def _check_incremental(s):
    assert s.key == s.key_from_scratch()
    assert s.pst_score == pst_from_scratch(s)
    assert s.material_score == material_from_scratch(s)
    _check_piece_lists(s)


def _check_piece_lists(s):
    """The piece lists push/pop keep equal the board's pieces, and each square's slot
    points back at its entry."""
    for side in (0, 1):
        men = s._men[side]
        assert sorted(men) == [sq for sq, p in enumerate(s.board) if p and p >> 3 == side]
        assert all(s._slot[sq] == i for i, sq in enumerate(men))


@pytest.mark.parametrize("seed", range(6))
def test_piece_lists_follow_random_push_pop(seed):
    """Seeded walks that push (captures preferred), pop, pass and copy at random: the
    piece lists always equal a recount of the board, and moves come by ascending
    from-square (the order the compiled kernel and pinned node counts rely on)."""
    rng = random.Random(1000 + seed)
    s = gameai.load_game("xiangqi", fen=[START_FEN, FSF_MIDGAME, CPW_POSITIONS[8][0]][seed % 3],
                         max_plies_without_capture=None)
    captures = nulls = 0
    for _ in range(400):
        r = rng.random()
        if r < 0.3 and s.ply:
            if s.move_stack[-1] == NULL_MOVE:
                s.pop_null()
            else:
                s.pop()
        elif r < 0.35 and s.ply and not s.in_check():
            s.push_null()
            nulls += 1
        elif r < 0.4:
            s = s.copy()
        else:
            moves = s.legal_moves()
            if not moves:
                s.pop()
                continue
            froms = [m >> 8 for m in moves]
            assert froms == sorted(froms)
            caps = [m for m in moves if s.is_capture(m)]
            captures += bool(caps)
            s.push(rng.choice(caps) if caps and rng.random() < 0.6 else rng.choice(moves))
        _check_piece_lists(s)
    assert captures > 20 and nulls > 5     # the walk did exercise captures and passes


@pytest.mark.parametrize("seed", range(8))
def test_random_playouts_push_pop_restore_everything(seed):
    rng = random.Random(seed)
    s = gameai.load_game("xiangqi", repetitions=2)
    trail = []
    while s.result() is None and s.ply < 300:
        _check_incremental(s)
        trail.append((s.fen(), s.key, s.pst_score, s.material_score, s.result()))
        caps = s.noisy_moves()  # first: the capture-only generator (no cached move list)
        moves = s.legal_moves()
        assert s.result() is None and moves  # no legal move <=> mate/stalemate result
        assert s.noisy_moves() == caps  # second: filtered from the cached list
        assert set(caps) <= set(moves) and all(s.is_capture(m) for m in caps)
        assert len(caps) == sum(1 for m in moves if s.is_capture(m))
        s.push(rng.choice(moves))
    _check_incremental(s)
    res = s.result()
    if res is not None:
        assert (res.reason in ("checkmate", "stalemate")) == (s.legal_moves() == [])
        assert res.reason != "checkmate" or s.in_check()
    # the cached result equals a fresh computation from a rebuilt game
    assert s.copy().result() == s.result()
    while trail:
        s.pop()
        assert (s.fen(), s.key, s.pst_score, s.material_score, s.result()) == trail.pop()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
def test_hypothesis_push_pop_round_trip(choices):
    s = gameai.load_game("xiangqi", max_plies_without_capture=None)
    start = (s.fen(), s.key)
    played = 0
    for c in choices:
        moves = s.legal_moves()
        if not moves:
            break
        m = moves[c % len(moves)]
        assert gameai.load_game("xiangqi", fen=s.fen()).legal_moves() == moves
        s.push(m)
        played += 1
        assert s.key == s.key_from_scratch()
        assert gameai.load_game("xiangqi", fen=s.fen()).key == s.key
    for _ in range(played):
        s.pop()
    assert (s.fen(), s.key) == start


def test_copy_is_independent_and_keeps_history():
    s = gameai.load_game("xiangqi", moves="h2e2 h9g7 h0g2")
    c = s.copy()
    assert c.fen() == s.fen() and c.key == s.key and c.move_stack == s.move_stack
    c.push(c.legal_moves()[0])
    assert c.fen() != s.fen() and s.ply == 3
    c.pop()
    c.pop()
    assert s.ply == 3 and c.ply == 2


def test_pickle_round_trip_keeps_history():
    import pickle
    s = gameai.load_game("xiangqi", moves="h2e2 h9g7")
    t = pickle.loads(pickle.dumps(s))
    assert (t.fen(), t.key, t.move_stack, t.legal_moves()) == (s.fen(), s.key, s.move_stack, s.legal_moves())
    t.pop()
    assert t.fen() == gameai.load_game("xiangqi", moves="h2e2").fen()


def test_history_key_ranges_and_piece_refinement():
    s = gameai.load_game("xiangqi", fen=FSF_MIDGAME)
    keys, keys_p = set(), set()
    for m in s.legal_moves():
        k, kp = s.history_key(m), s.history_key(m, with_piece=True)
        assert 0 <= k < 8100 and 0 <= kp < 121500
        keys.add(k)
        keys_p.add(kp)
    assert len(keys) == len(keys_p) == len(s.legal_moves())
    # Same from/to, different piece: keys differ only with_piece.
    a = gameai.load_game("xiangqi", fen="4k4/9/9/9/9/9/9/9/9/R2K5 w")
    b = gameai.load_game("xiangqi", fen="4k4/9/9/9/9/9/9/9/9/C2K5 w")
    m = a.parse_move("a0a5")
    assert a.history_key(m) == b.history_key(m)
    assert a.history_key(m, True) != b.history_key(m, True)


# ----------------------------------------------------------------- evaluators
def test_evaluators_registered_and_negamax_signed():
    s = gameai.load_game("xiangqi")
    assert s.default_eval == "xiangqi.pst"
    pst, mat = gameai.make_evaluator("xiangqi.pst"), gameai.make_evaluator("xiangqi.material")
    assert pst(s) == 0 and mat(s) == 0  # symmetric start
    s.push(s.parse_move("h2e2"))
    v = pst(s)
    assert v < 0  # black to move; red's central cannon is worth something
    s.push(s.parse_move("h9g7"))
    s.push(s.parse_move("e2e6"))  # cannon takes the e6 pawn
    assert mat(s) == -100 and pst(s) < 0
    assert abs(pst(s)) < 10 ** 8


# ------------------------------------------------------- independent cross-checks
def _cchess_moves(fen):
    cchess = pytest.importorskip("cchess")
    b = cchess.ChessBoard(fen)
    return sorted(cchess.pos2iccs(f, t).lower() for f, t in b.create_moves()
                  if b.is_valid_move(f, t) and not b.is_checked_move(f, t))


@pytest.mark.parametrize("seed", range(3))
def test_cross_check_against_cchess(seed):
    pytest.importorskip("cchess")
    rng = random.Random(100 + seed)
    s = gameai.load_game("xiangqi")
    while s.ply < 80 and s.legal_moves():
        fen = s.fen()
        assert moves_of(s) == _cchess_moves(" ".join(fen.split()[:2])), fen
        s.push(_biased_choice(s, rng) if seed % 2 else rng.choice(s.legal_moves()))


def _spiel_iccs(state, action):
    # OpenSpiel xiangqi prints "X(row,col)-(row,col)" with row 0 = Black's back rank.
    text = state.action_to_string(state.current_player(), action)
    (r1, c1), (r2, c2) = [tuple(int(x) for x in part.strip("()").split(","))
                          for part in text[1:].split("-")]
    return f"{'abcdefghi'[c1]}{9 - r1}{'abcdefghi'[c2]}{9 - r2}"


def _biased_choice(s, rng):
    """Prefer checks and captures so that playouts reach checkmates and stalemates."""
    moves = s.legal_moves()
    r = rng.random()
    if r < 0.3:
        checks = [m for m in moves if s.gives_check(m)]
        if checks:
            return rng.choice(checks)
    if r < 0.8:
        caps = s.noisy_moves()
        if caps:
            return rng.choice(caps)
    return rng.choice(moves)


@pytest.mark.parametrize("seed", range(12))
def test_cross_check_against_openspiel(seed):
    """Same legal move sets at every ply and the same winner when the game ends by mate or
    stalemate (OpenSpiel ends games itself after 500 plies)."""
    pyspiel = pytest.importorskip("pyspiel")
    rng = random.Random(300 + seed)
    st_ = pyspiel.load_game("xiangqi").new_initial_state()
    s = gameai.load_game("xiangqi", max_plies_without_capture=None, repetitions=10**6)
    while not st_.is_terminal() and s.legal_moves():
        theirs = {_spiel_iccs(st_, a): a for a in st_.legal_actions()}
        assert moves_of(s) == sorted(theirs), s.fen()
        m = _biased_choice(s, rng)
        st_.apply_action(theirs[s.move_str(m)])
        s.push(m)
    if not s.legal_moves():
        res = s.result()
        assert st_.is_terminal() and res.reason in ("checkmate", "stalemate")
        assert st_.returns()[res.winner] == 1.0


# Red (a rook down two) has just checked a9-a8 and back is perpetual: a8a9 returns to the
# position after a0a9 with every Red move of the cycle a check and no Black one.
PERPETUAL = {"fen": "4k4/9/9/9/8r/8r/9/9/9/R2K5 w", "moves": "a0a9 e9e8 a9a8 e8e9"}


def test_repetition_outcome_judges_the_cycle_by_the_game_rule():
    """The search's judgement of one cycle equals the game's own ``result()`` when the game
    ends at the first repetition (repetitions=2), for perpetual check and a plain draw."""
    for moves, reason in ((PERPETUAL["moves"] + " a8a9", "perpetual-check"),
                          ("a0a1 e9e8 a1a0 e8e9", "repetition")):
        s = gameai.load_game("xiangqi", fen=PERPETUAL["fen"], moves=moves)
        judged = s.repetition_outcome()
        assert s.result() is None and judged.reason == reason
        ended = gameai.load_game("xiangqi", fen=PERPETUAL["fen"], moves=moves, repetitions=2)
        assert ended.result() == judged
        assert ended.move_stack == s.move_stack      # the judgement replays, changes nothing
    assert s.repetition_outcome().winner is None
    s = gameai.load_game("xiangqi", fen=PERPETUAL["fen"], moves=PERPETUAL["moves"] + " a8a9")
    assert s.repetition_outcome().winner == 1        # Red gave every check: Black wins
    s.pop()
    assert s.repetition_outcome() is None and not s.repeated()
