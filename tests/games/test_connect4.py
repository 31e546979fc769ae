"""Connect Four: move generation against published position counts, wins, text, evaluator."""
import random

import pytest

import gameai
from gameai.games.connect4 import CELLS


def _positions_by_ply(max_ply):
    """Distinct positions after n plies (games stop at a win), by breadth-first search."""
    level = {((0, 0), ())}
    counts = [1]
    for _ in range(max_ply):
        nxt = set()
        for (_, moves) in level:
            s = gameai.load_game("connect4")
            for m in moves:
                s.push(m)
            for m in s.legal_moves():
                s.push(m)
                nxt.add(((s.bb[0], s.bb[1]), tuple(s.stack)))
                s.pop()
        # keep one move list per distinct position
        uniq = {}
        for bbs, moves in nxt:
            uniq.setdefault(bbs, moves)
        level = {(k, v) for k, v in uniq.items()}
        counts.append(len(level))
    return counts


def test_position_counts_match_oeis_a212693():
    # OEIS A212693 (John Tromp): legal 7x6 Connect-Four positions after n plies.
    assert _positions_by_ply(6) == [1, 7, 49, 238, 1120, 4263, 16422]


def test_perft_counts_derived_independently():
    s = gameai.load_game("connect4")
    # 7**n for n <= 6 (no column can fill, no four before ply 7).
    assert [gameai.perft(s, d) for d in range(1, 5)] == [7, 49, 343, 2401]


@pytest.mark.slow
def test_perft_ply7():
    # 7**7 minus the 7 sequences that fill one column with all seven moves.
    assert gameai.perft(gameai.load_game("connect4"), 7) == 7 ** 7 - 7


@pytest.mark.parametrize("moves,winner", [
    ("1 1 2 2 3 3 4", 0),            # horizontal, bottom row
    ("1 2 1 2 1 2 1", 0),            # vertical
    ("1 2 2 3 4 3 3 4 4 7 4", 0),    # diagonal /
    ("7 6 6 5 4 5 5 4 4 1 4", 0),    # diagonal \
    ("1 7 1 7 1 7 2 7", 1),          # vertical for the second player
])
def test_wins_detected(moves, winner):
    s = gameai.load_game("connect4", moves=moves)
    r = s.result()
    assert r is not None and r.winner == winner
    assert s.legal_moves() == []
    s.pop()
    assert s.result() is None


def test_no_false_wins_across_column_edges():
    # Three in the top of column 1 and one at the bottom of column 2 are not a line.
    s = gameai.load_game("connect4", moves="1 1 1 1 1 1 2")
    assert s.result() is None


def test_full_board_draw_and_column_full():
    rng = random.Random(5)
    for _ in range(20):
        s = gameai.load_game("connect4")
        while s.result() is None:
            s.push(rng.choice(s.legal_moves()))
        assert s.result().winner is not None or s.ply == CELLS
    s = gameai.load_game("connect4", moves="444444")
    assert 3 not in s.legal_moves()
    before = (list(s.bb), s.mask, s.key)
    with pytest.raises(gameai.IllegalMoveError):
        s.parse_move("4")
    for bad in ("0", "8", "h", "", "44"):
        with pytest.raises(gameai.IllegalMoveError):
            s.parse_move(bad)
    assert (list(s.bb), s.mask, s.key) == before


def test_push_pop_restores_everything_and_keys_track_positions():
    rng = random.Random(11)
    for _ in range(50):
        s = gameai.load_game("connect4")
        seen = []
        while s.result() is None:
            seen.append((list(s.bb), s.mask, s.key, list(s.height), s.full))
            s.push(rng.choice(s.legal_moves()))
        while seen:
            s.pop()
            assert (list(s.bb), s.mask, s.key, list(s.height), s.full) == seen.pop()
    a = gameai.load_game("connect4", moves="1 2 3")
    b = gameai.load_game("connect4", moves="3 2 1")
    assert a.key == b.key and a.key != gameai.load_game("connect4", moves="1 3 2").key


def test_move_text_forms():
    s = gameai.load_game("connect4", moves="4453")
    assert s.stack == [3, 3, 4, 2]
    assert gameai.load_game("connect4", moves="d d e c").stack == [3, 3, 4, 2]
    assert s.move_str(0) == "1" and s.parse_move("g") == 6
    with pytest.raises(gameai.PositionError):
        gameai.load_game("connect4", moves="1 1 1 1 1 1 1")
    assert s.copy().key == s.key


def test_threat_evaluator_bounds_and_immediate_threats():
    ev = gameai.make_evaluator("connect4.threats")
    s = gameai.load_game("connect4", moves="1 1 2 2 3 3")   # player 0 to move, can win at 4
    assert ev(s) == 500000
    s = gameai.load_game("connect4", moves="2 7 3 7 4")     # two open ends for player 0
    assert ev(s) == -400000
    s = gameai.load_game("connect4", moves="4 1")           # centre stone for player 0
    assert ev(s) > 0
    rng = random.Random(3)
    for _ in range(30):
        s = gameai.load_game("connect4")
        while s.result() is None:
            assert abs(ev(s)) < 10 ** 8
            s.push(rng.choice(s.legal_moves()))


# Pascal Pons's published Connect Four benchmark "Test_L3_R1" (end-game positions as
# 1-7 column sequences, exact scores for the side to move: 0 draw, +k a win with the
# winner's k-th last stone, -k a loss likewise).
PONS_L3_R1 = """2252576253462244111563365343671351441 -1
7422341735647741166133573473242566 1
23163416124767223154467471272416755633 0
71255763773133525731261364622167124446454 0
65214673556155731566316327373221417 -1
52677675164321472411331752454 0
3135151421347443544172316522225776773566 0
562154564361751726662253737734213275114 0
233377345754465174223731671122611552 1
6763525635134453444361412671365712 -1
211376455663355325112113664364524722 0
3146762114467714356347741621375222 -1
67152117737262713366376314254 6
2762751722231276466633475674533 5
3642756176227637211322113551637574556 2
22647455554314246733661634615122372377511 0
427566236745127177115664464254 2
7172212567451542223676134464437761515 0
641154574541323641152467137655232232366 0
5775265212657176476365522624313714333 2
3575316255751336464276636772271112 -3"""


def _pons_score(stones: int, value: int) -> int:
    """Convert a mate-distance value into Pons's score (the win lands on stone stones+ply)."""
    from gameai.search.stats import MATE
    if value == 0:
        return 0
    ply = MATE - abs(value)
    score = (44 - stones - ply) // 2
    return score if value > 0 else -score


@pytest.mark.parametrize("searcher", ["negascout(tt=true,id=true,history=true,killers=true)",
                                      "mtdf", "alphabeta(tt=true,exact_depth=true)"])
def test_solves_pons_end_game_benchmark(searcher):
    for line in PONS_L3_R1.splitlines():
        seq, score = line.split()
        s = gameai.load_game("connect4", moves=seq)
        r = gameai.make_searcher(searcher, depth=42 - len(seq), eval="zero").search(s)
        assert _pons_score(len(seq), r.value) == int(score), (searcher, seq)
        if int(score) > 0:                       # the chosen move keeps the win
            s.push(r.move)
            child = gameai.make_searcher("alphabeta(tt=true)", depth=42 - len(seq), eval="zero").search(s)
            assert child.value < 0
