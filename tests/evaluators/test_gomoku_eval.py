"""Gomoku evaluators (gomoku.position, gomoku.patterns, gomoku.pointweight) and the
pointweight player. Expected numbers are worked out by hand from the documents' tables and
formulas (shown next to each assertion), not taken from the code's own output."""
import random

import pytest

import gameai
from gameai import SpecError
from gameai.evaluators.gomoku_patterns import FEATURES, features, line_features
from gameai.evaluators.gomoku_pointweight import point_weight
from gameai.evaluators.gomoku_position import G_ARR_POS_VALUE_15, position_table


def pt(s, text):
    return s._point_index(text)


# ---------------------------------------------------------------- gomoku.position
def test_position_table_is_the_documents():
    g = gameai.load_game("gomoku").geo
    t = position_table(g)
    # the literal 003 table: 0 on the edge, +1 per ring, 7 at the centre; ring k<7 has
    # 4*(14-2k) cells, so the sum is 4*sum(k*(14-2k), k<7) + 7 = 4*112 + 7 = 455
    assert G_ARR_POS_VALUE_15[7][7] == 7 and sum(map(sum, G_ARR_POS_VALUE_15)) == 455
    for r in range(15):
        for c in range(15):
            assert t[g.index(c, r)] == G_ARR_POS_VALUE_15[14 - r][c] == min(c, r, 14 - c, 14 - r)


def test_position_value_side_to_move():
    ev = gameai.make_evaluator("gomoku.position")
    s = gameai.load_game("gomoku", moves="h8 a1")       # black 7, white 0; black to move
    assert ev(s) == 7
    s.push(s.parse_move("b2"))                          # black +1; white to move
    assert ev(s) == -8


# ---------------------------------------------------------------- gomoku.patterns
def feats(line: str, exact: bool = False) -> dict[str, int]:
    cells = [{".": 0, "X": 1, "O": 2}[ch] for ch in line]
    return dict(zip(FEATURES, line_features(cells, exact)))


@pytest.mark.parametrize("line,expect", [
    ("XXXXX", {"five": 1}),
    ("..XXXX..", {"open_four": 1, "four": 0}),
    ("OXXXX..", {"open_four": 0, "four": 1}),
    ("XX.XX", {"four": 1, "open_four": 0}),
    ("X.XXX.X", {"four": 2}),                       # two fours on one line
    ("...XXX...", {"open_three": 1, "three": 0, "four": 0}),
    ("..X.XX..", {"open_three": 1}),
    ("OXXX...", {"open_three": 0, "three": 1}),
    ("OXXX.O", {"open_three": 0, "three": 0}),      # no room for five
    ("..XX..", {"open_two": 1, "two": 2}),          # 6-window '.XX.' once; 5-windows twice
    (".O.XX.O", {"open_two": 0, "two": 0}),
])
def test_line_features_by_hand(line, expect):
    got = feats(line)
    for k, v in expect.items():
        assert got[k] == v, (line, k, got)


def test_exact_five_rule():
    assert feats("XXXXXX")["five"] == 1
    assert feats("XXXXXX", exact=True)["five"] == 0
    assert feats("XXX.XX", exact=True)["four"] == 0      # filling makes six, not five
    assert feats("XXX.XX")["four"] == 1


def mirror(s):
    n = s.size
    moves = []
    for m in s.placed:
        c, r = s.point(m)
        moves.append(f"{chr(97 + n - 1 - c)}{r + 1}")
    return gameai.load_game(f"gomoku(rule={s.rule})", moves=" ".join(moves))  # legal by symmetry


def test_patterns_threats_and_symmetry():
    ev = gameai.make_evaluator("gomoku.patterns")
    w = ev.weights.win
    s = gameai.load_game("gomoku", moves="h8 a1 i8 a3 j8 a5 k8")  # white to move, black open four
    assert ev(s) == -(w // 2)
    s.push(s.parse_move("l8"))                                    # now black has a four, to move
    assert ev(s) == w - 1
    for t in random_positions(5, 30, 2, 14):
        v = ev(t)
        assert abs(v) < 10**8
        assert v == ev(mirror(t))                                  # left-right symmetry
        assert v == reference_patterns(ev, t)


def reference_patterns(ev, state) -> int:
    """The module doc's definition computed directly from the feature totals."""
    fb, fw = features(state)
    fm, fo = (fb, fw) if state.to_move == 0 else (fw, fb)
    w = ev.weights
    if fm[0]:
        return w.win
    if fo[0]:
        return -w.win
    if fm[1] or fm[2]:
        return w.win - 1
    if fo[1] or fo[2] >= 2:
        return -(w.win // 2)
    ks = (w.five, w.open_four, w.four, w.open_three, w.three, w.open_two, w.two)
    lin = sum(k * (a - b) for k, a, b in zip(ks, fm, fo))
    return max(-w.win, min(w.win, lin))


def random_positions(seed: int, count: int, lo: int, hi: int, near: int | None = None):
    """Up to ``count`` unfinished positions of the three five rules in turn: "h8", then
    ``lo``..``hi`` random moves (within ``near`` of the centre when given)."""
    rng = random.Random(seed)
    for i in range(count):
        t = gameai.load_game("gomoku", rule=("freestyle", "standard", "renju")[i % 3], moves="h8")
        for _ in range(rng.randrange(lo, hi)):
            if t.result():
                break
            moves = [m for m in t.legal_moves() if near is None
                     or max(abs(x - 7) for x in t.geo.col_row(m)) <= near]
            t.push(rng.choice(moves or t.legal_moves()))
        if not t.result():
            yield t


def test_patterns_weights_parameter_object():
    ev = gameai.make_evaluator("gomoku.patterns(open_three=7000,win=5000000)")
    assert ev.weights.open_three == 7000 and ev.weights.win == 5_000_000
    with pytest.raises(SpecError, match="nosuch"):
        gameai.make_evaluator("gomoku.patterns(nosuch=1)")
    s = gameai.load_game("gomoku", moves="h8 a1 i8")              # white to move
    # black: open two h8-i8; the weighted sum must be negative for white to move
    assert gameai.make_evaluator("gomoku.patterns")(s) < 0


# ---------------------------------------------------------------- gomoku.pointweight
def test_pointweight_weighted_sum_by_hand():
    """Only black h8 on the board, white to weigh. Counters as documented in the module.
    h10 (not touching h8): white Live[1]=4; black there Live[1]=4:
        total = colorLive[1]*50 + fcolorLive[1]*10 = 200 + 40 = 240.
    h9 (touching h8): white Live[1]=3, Link[1]=1 (vertical blocked by h8); black there
    makes a live two vertically (fLive[2]=1) and fLive[1]=3:
        total = 3*50 + (1 + 3)*10 + 1*250 = 440."""
    s = gameai.load_game("gomoku", moves="h8")
    assert point_weight(s, pt(s, "h10"), 1) == 240
    assert point_weight(s, pt(s, "h9"), 1) == 440


def test_pointweight_ladders():
    s = gameai.load_game("gomoku", moves="h8 a1 i8 a3 j8 a5 k8 a7")   # black open four, to move
    assert point_weight(s, pt(s, "l8"), 0) == 150000                  # own five
    assert point_weight(s, pt(s, "l8"), 1) == 140000                  # white: block black's five
    t = gameai.load_game("gomoku", moves="h8 a1 i8 a3 j8")            # white to move
    # black could make an open four at g8/k8: white's rung "fcolorLive[4] == 1" -> 110000
    assert point_weight(t, pt(t, "k8"), 1) == 110000


def test_pointweight_renju_forbidden_rungs():
    dt = gameai.load_game("renju", black="f8 g8 h9 h10", white="a1 a3 a5 a7")
    assert point_weight(dt, pt(dt, "h8"), 0) == -1                    # double-three: -1
    ol = gameai.load_game("renju", black="h4 h5 h6 h7 h9 a13", white="a1 a3 a5 a7 a9 a11")
    assert point_weight(ol, pt(ol, "h8"), 0) == -2                    # overline: -2
    assert point_weight(ol, pt(ol, "h8"), 0, exact_rules=False) == -2
    # white need not block a point where black's "five" would be an overline
    assert point_weight(ol, pt(ol, "h8"), 1) < 140000
    free = gameai.load_game("gomoku", black="h4 h5 h6 h7 h9 a13", white="a1 a3 a5 a7 a9 a11")
    assert point_weight(free, pt(free, "h8"), 0) == 150000            # freestyle: six wins


def test_pointweight_player_seeded_and_legal():
    def play(seed, rule):
        p0 = gameai.make_player("pointweight")
        p1 = gameai.make_player("pointweight")
        p0.new_game(seed)
        p1.new_game(seed + 1)
        s = gameai.load_game("gomoku", rule=rule, moves="h8")
        while s.result() is None and s.ply < 30:
            d = (p0 if s.to_move == 0 else p1).choose(s)
            if rule == "renju" and s.to_move == 0:
                assert s.forbidden(d.move) is None
            s.push(d.move)
        return [s.move_str(m) for m in s.move_stack]

    assert play(3, "renju") == play(3, "renju")
    assert play(3, "freestyle") == play(3, "freestyle")
    s = gameai.load_game("gomoku", moves="h8 a1 i8 a3 j8 a5 k8 a7")
    d = gameai.make_player("pointweight").choose(s)
    assert s.move_str(d.move) in ("g8", "l8") and d.value == 150000


def test_pointweight_evaluator_range():
    ev = gameai.make_evaluator("gomoku.pointweight")
    s = gameai.load_game("gomoku", moves="h8 a1 i8 a3 j8 a5 k8")      # white to move
    v = ev(s)
    assert -10**8 < v < 0          # black's best (five, 150000) outweighs white's best block


@pytest.mark.parametrize("spec", ["gomoku.patterns", "gomoku.position", "gomoku.pointweight"])
def test_evaluators_drive_a_searcher(spec):
    """Contract check with the search layer: with any evaluator, a 2-ply alpha-beta takes
    the five and, a move earlier, blocks the opponent's four."""
    s = gameai.load_game("gomoku", moves="h8 a1 i8 a3 j8 a5 k8 a7")  # black four, to move
    r = gameai.make_searcher(f"alphabeta(depth=2,eval={spec})").search(s)
    assert s.move_str(r.move) in ("g8", "l8")
    t = gameai.load_game("gomoku", moves="h8 a1 i8 a3 j8 a5 b13 g8 k8")  # white must block l8
    r = gameai.make_searcher(f"alphabeta(depth=2,eval={spec})").search(t)
    assert t.move_str(r.move) == "l8"


@pytest.mark.slow
def test_pointweight_selfplay_renju_games_are_legal():
    """Ten seeded renju games of the 002 player: black never plays a forbidden point, every
    game ends with a five (checked by an independent scan), a full board, or black left
    with only forbidden points."""
    from tests.games.test_gomoku import brute_winner
    for seed in range(10):
        p0, p1 = gameai.make_player("pointweight"), gameai.make_player("pointweight")
        p0.new_game(seed)
        p1.new_game(seed + 50)
        s = gameai.load_game("renju")
        while s.result() is None:
            if not s.legal_moves():
                empties = [i for i in s.geo.cells if s.board[i] == 2]
                assert s.to_move == 0 and all(s.forbidden(i) for i in empties)
                break
            d = (p0 if s.to_move == 0 else p1).choose(s)
            assert s.is_legal(d.move)
            s.push(d.move)
        out = s.result()
        assert out is None or out.winner is None or out.winner == brute_winner(s)


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_patterns_incremental_sum_equals_full_recount(rule):
    """The game keeps the evaluator's line sum on push/pop (attach_line_table); it must
    equal the sum over every line recomputed from scratch, on random push/pop walks."""
    import random
    from gameai.evaluators.gomoku_patterns import Patterns
    rng = random.Random(rule)
    ev, ref = Patterns(), Patterns(open_three=7000)
    ref_same_weights = Patterns()
    checked = 0
    for start in range(4):
        s = gameai.load_game("gomoku", rule=rule)
        for step in range(1500):
            if s.move_stack and (rng.random() < 0.45 or s.result() is not None or not s.legal_moves()):
                s.pop()
            else:
                s.push(rng.choice(s.legal_moves()))
            assert ev._total(s) == ref_same_weights.full_total(s)
            checked += 1
            if step % 500 == 499:                   # a copy carries the sum along
                c = s.copy()
                assert ev._total(c) == ref_same_weights.full_total(c)
                assert ref(s) == ref(s.copy())      # another evaluator re-attaches its table
                assert ev(s) == reference_patterns(ev, s)
    assert checked == 6000
