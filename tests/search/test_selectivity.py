"""The selective parts as engines have them: what futility skips is neither made nor
counted, killers keep quiet moves beside MVV-LVA, a stopped iteration keeps the move it
proved better, the adaptive null move keeps Stockfish's conditions. Both backends are
compared node for node in ``tests/compiled/test_compiled_search.py``."""
import random

import pytest

import gameai
from gameai.search.ordering import Killers
from gameai.games.xiangqi_tables import SEE_VALUE
from gameai.search.ordering import HISTORY_MAX, gravity, stat_bonus
from gameai.search.pruning import lmr_sf_reduction, move_count_limit, null_reduction

MID = "r1b1kab1r/2c1a4/2n2cn2/3C5/p3p1p1p/2B6/P1P1P1P1P/5R2N/8R/1NBAKAC2 w - - 5 16"
#: a middle-game position of the experiment suite
SUITE = "1nbak3r/4a4/3cb1nc1/4p4/p5p1p/7C1/PN2P1P1P/4B1N2/4A1C2/2BAKR3 w - - 2 15"
FULL = ("negascout(id=true,tt=true,history=true,killers=true,quiescence=true,evasions=true,"
        "mvv_lva=true,nullmove=true,lmr=true,futility=true,reverse_futility=true,"
        "check_ext=true,backend=python")


def _random_positions(count: int, seed: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = gameai.load_game("xiangqi")
        for _ in range(rng.randint(10, 60)):
            if s.result() is not None:
                break
            s.push(rng.choice(s.legal_moves()))
        if s.result() is None:
            out.append(s)
    return out


def test_gives_check_is_push_then_in_check_without_a_push():
    for s in _random_positions(30, 5):
        before = (s.fen(), s.key, len(s.move_stack))
        for m in s.legal_moves():
            s.push(m)
            expected = s.in_check()
            s.pop()
            assert s.gives_check(m) == expected, (s.fen(), s.move_str(m))
        assert (s.fen(), s.key, len(s.move_stack)) == before


def test_has_attackers_reads_the_side_to_move():
    assert gameai.load_game("xiangqi").has_attackers()
    pawns = gameai.load_game("xiangqi", fen="3k5/4a4/4P4/9/9/9/9/2p6/9/4K4 w - - 0 1")
    assert not pawns.has_attackers()
    horse = gameai.load_game("xiangqi", fen="3k5/4a4/4P4/9/9/9/9/2p6/9/3NK4 w - - 0 1")
    assert horse.has_attackers()
    horse.push(horse.parse_move("d0c2"))
    assert not horse.has_attackers()          # Black's turn: a pawn and an advisor


def test_futility_skips_are_not_nodes():
    """The node identity holds with futility on, and skipped moves are counted apart."""
    s = gameai.load_game("xiangqi", fen=MID)
    st = gameai.make_searcher(FULL + ",depth=6)").search(s).stats
    assert st.futility_skips > 0
    assert st.nodes == st.leaves + st.terminals + st.interior + st.tt_cutoffs + st.pruned


class _Recorded(Killers):
    """Killers that record whether each stored move captures, read from the searched state."""

    def __init__(self, state):
        super().__init__()
        self.state, self.kinds = state, []

    def add(self, ply, move):
        self.kinds.append(self.state.is_capture(move))
        super().add(ply, move)


@pytest.mark.parametrize("mvv", [True, False])
def test_killers_keep_quiet_moves_beside_mvv_lva(mvv):
    s = gameai.load_game("xiangqi", fen=MID)
    searcher = gameai.make_searcher(f"alphabeta(depth=4,killers=true,quiescence=true,"
                                    f"mvv_lva={str(mvv).lower()},backend=python)")
    searcher.killers = _Recorded(s)
    searcher.search(s)
    kinds = searcher.killers.kinds
    assert kinds
    if mvv:
        assert not any(kinds)                # captures come first by MVV-LVA anyway
    else:
        assert any(kinds)                    # the only order there is: any cut-off move


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_stopped_iteration_keeps_the_move_it_proved_better(backend):
    """Stopped one node before an iteration that changed the best move ends, a search
    plays that iteration's best move (found before the stop), not the previous one's."""
    spec = FULL.replace("backend=python", f"backend={backend}")
    case = None
    for fen in (SUITE, MID):
        s = gameai.load_game("xiangqi", fen=fen)
        rows = gameai.make_searcher(spec + ",depth=6)").search(s).stats.iterations
        changed = [i for i in range(1, len(rows)) if rows[i]["move"] != rows[i - 1]["move"]]
        if changed:
            case = s, rows, changed[-1]
            break
    assert case is not None, "no position shows the case"
    s, rows, i = case
    r = gameai.make_searcher(spec + f",depth=6,nodes={rows[i]['nodes'] - 1})").search(s)
    assert r.stats.depth == rows[i - 1]["depth"]
    assert r.move == rows[i]["move"] != rows[i - 1]["move"]
    assert r.pv[0] == r.move


def test_adaptive_null_reduction_is_stockfish_11s_formula():
    # Stockfish 11 search.cpp: R = (854 + 68 * depth) / 258 + min((eval - beta) / 192, 3),
    # 192 being 1.5 of its pawns (our pawn is 100: 150)
    assert [null_reduction(d, 0) for d in (1, 3, 6, 9, 12)] == [3, 4, 4, 5, 6]
    assert null_reduction(9, 149) == 5 and null_reduction(9, 150) == 6
    assert null_reduction(9, 10 ** 6) == 8   # the excess adds at most 3


def test_adaptive_null_move_needs_pieces_besides_pawns():
    ending = gameai.load_game("xiangqi", fen="3k5/4a4/4P4/9/9/9/9/2p6/9/4K4 w - - 0 1")
    base = "negascout(depth=7,tt=true,id=true,nullmove=true,quiescence=true,backend=python"
    assert gameai.make_searcher(base + ")").search(ending).stats.null_tries > 0
    adaptive = gameai.make_searcher(base + ",null_adaptive=true)").search(ending).stats
    assert adaptive.null_tries == 0


def test_adaptive_null_move_needs_the_null_move():
    with pytest.raises(gameai.SpecError, match="null_adaptive needs nullmove=true"):
        gameai.make_searcher("negascout(null_adaptive=true)")


def _exchanges(s, to: int, on_to: int) -> set[int]:
    """What the side to move can gain by recapturing on ``to`` (0 if it stops), playing a
    least valuable capture there from the move generator: an oracle for ``see`` that
    shares none of its attack tables. One value per choice among equally cheap
    attackers (which one goes first can matter: it may be a cannon's screen)."""
    caps = [m for m in s._pseudo() if m & 255 == to]
    if not caps:
        return {0}
    cheapest = min(SEE_VALUE[s.board[m >> 8]] for m in caps)
    out = set()
    for m in caps:
        if SEE_VALUE[s.board[m >> 8]] == cheapest:
            s.push_unchecked(m)
            out |= {max(0, on_to - v) for v in _exchanges(s, to, cheapest)}
            s.pop()
    return out


def test_see_equals_an_exchange_played_out_by_the_move_generator():
    checked = 0
    for s in _random_positions(60, 11):
        for m in s.legal_moves():
            victim, mover = SEE_VALUE[s.board[m & 255]], SEE_VALUE[s.board[m >> 8]]
            s.push_unchecked(m)
            expected = {victim - v for v in _exchanges(s, m & 255, mover)}
            s.pop()
            assert s.see(m) in expected, (s.fen(), s.move_str(m))
            checked += 1
    assert checked > 1000


def test_compiled_see_and_probes_equal_the_python_ones():
    pytest.importorskip("numba")
    from gameai.compiled import xiangqi as kernel
    for s in _random_positions(20, 12):
        G = kernel.load(s)
        assert kernel.has_attackers(G) == s.has_attackers()
        for m in s.legal_moves():
            assert (kernel.see(G, m), kernel.gives_check(G, m), kernel.capture_value(G, m)) \
                == (s.see(m), s.gives_check(m), s.capture_value(m)), (s.fen(), s.move_str(m))


def test_see_and_delta_skip_captures_in_quiescence_only():
    s = gameai.load_game("xiangqi", fen=MID)
    base = "alphabeta(depth=3,quiescence=true,mvv_lva=true,backend=python"
    plain = gameai.make_searcher(base + ")").search(s).stats
    for switch, counter in (("see", "see_skips"), ("delta", "delta_skips")):
        st = gameai.make_searcher(f"{base},{switch}=true)").search(s).stats
        assert getattr(st, counter) > 0 and st.qnodes < plain.qnodes, switch
        assert st.nodes == st.leaves + st.terminals + st.interior + st.tt_cutoffs + st.pruned


def test_see_orders_losing_captures_after_quiet_moves():
    s = gameai.load_game("xiangqi", fen=MID)
    losing = [m for m in s.legal_moves() if s.is_capture(m) and s.see(m) < 0]
    quiet = [m for m in s.legal_moves() if not s.is_capture(m)]
    assert losing and quiet
    seen = []
    searcher = gameai.make_searcher("alphabeta(depth=1,mvv_lva=true,see=true,backend=python)",
                                    on_root_move=lambda i, n, m, v: seen.append(m))
    searcher.search(s)
    assert max(seen.index(m) for m in quiet) < min(seen.index(m) for m in losing)


def test_lmr_sf_reduction_is_stockfish_11s_table():
    # Stockfish 11: Reductions[i] = int(24.8 * log(i)); reduction = (R[d] * R[mc] + 511) / 1024
    # R[10] = 57, R[3] = 27, R[20] = 74, R[30] = 84
    assert lmr_sf_reduction(10, 10) == (57 * 57 + 511) // 1024 == 3
    assert lmr_sf_reduction(3, 3) == (27 * 27 + 511) // 1024 == 1
    assert lmr_sf_reduction(20, 30) == (74 * 84 + 511) // 1024 == 6
    assert lmr_sf_reduction(5, 1) == 0             # R[1] = 0: the first move is never reduced


def test_lmr_sf_reduces_more_than_lmr_and_needs_it():
    s = gameai.load_game("xiangqi", fen=MID)
    base = "negascout(depth=7,tt=true,id=true,history=true,quiescence=true,mvv_lva=true,lmr=true"
    old = gameai.make_searcher(base + ",backend=python)").search(s).stats
    new = gameai.make_searcher(base + ",lmr_sf=true,backend=python)").search(s).stats
    assert new.reductions > old.reductions
    with pytest.raises(gameai.SpecError, match="lmr_sf needs lmr=true"):
        gameai.make_searcher("negascout(lmr_sf=true)")


def test_move_count_limit_is_stockfish_11s_for_a_position_not_improving():
    # Stockfish 11: futility_move_count(improving, depth) = (5 + depth * depth) * (1 + improving) / 2
    assert [move_count_limit(d) for d in (1, 2, 3, 4, 8)] == [3, 4, 7, 10, 34]


def test_move_count_pruning_skips_late_quiet_moves_but_not_at_the_root():
    s = gameai.load_game("xiangqi", fen=MID)
    base = "negascout(depth=4,tt=true,id=true,history=true,quiescence=true,mvv_lva=true"
    plain = gameai.make_searcher(base + ",backend=python)").search(s).stats
    seen = []
    mc = gameai.make_searcher(base + ",move_count=true,backend=python)",
                              on_root_move=lambda i, n, m, v: seen.append(m)).search(s).stats
    assert mc.move_count_skips > 0 and mc.nodes < plain.nodes
    assert mc.nodes == mc.leaves + mc.terminals + mc.interior + mc.tt_cutoffs + mc.pruned
    assert set(seen) == set(s.legal_moves())      # every root move searched, each iteration
    ending = gameai.load_game("xiangqi", fen="3k5/4a4/4P4/9/9/9/9/2p6/9/4K4 w - - 0 1")
    st = gameai.make_searcher(base + ",move_count=true,backend=python)").search(ending).stats
    assert st.move_count_skips == 0                # pawns and guards only: no pruning


def test_a_growing_aspiration_window_finds_the_full_window_value():
    s = gameai.load_game("xiangqi", fen=MID)
    full = gameai.make_searcher("negascout(depth=4,id=true,backend=python)").search(s)
    grow = gameai.make_searcher("negascout(depth=4,id=true,aspiration=true,aspiration_grow=true,"
                                "window=2,backend=python)").search(s)
    assert grow.value == full.value and grow.stats.researches > full.stats.researches
    with pytest.raises(gameai.SpecError, match="aspiration_grow needs aspiration=true"):
        gameai.make_searcher("negascout(aspiration_grow=true)")


def test_gravity_history_is_stockfish_11s_bounded_update():
    # Stockfish 11: stat_bonus(d) = d > 17 ? 0 : 29 d^2 + 138 d - 134; entry += bonus -
    # entry * |bonus| / 10692
    assert [stat_bonus(d) for d in (1, 10, 17, 18)] == [33, 4146, 10593, 0]
    h = 0
    for _ in range(200):                          # repeated bonuses approach the bound
        h = gravity(h, stat_bonus(12))
    assert HISTORY_MAX - 10 <= h <= HISTORY_MAX
    assert gravity(h, -stat_bonus(12)) < h


def test_gravity_history_rewards_the_best_quiet_move_and_penalizes_the_ones_before():
    s = gameai.load_game("xiangqi", fen=MID)
    searcher = gameai.make_searcher("negascout(depth=4,id=true,history=true,history_inc=gravity,"
                                    "quiescence=true,mvv_lva=true,backend=python)")
    searcher.search(s)
    table = searcher.history.table
    assert min(table.values()) < 0 < max(table.values())
    assert max(abs(v) for v in table.values()) <= HISTORY_MAX


def test_quiescence_tt_keeps_the_value_and_answers_quiescence_nodes():
    """With no pruning but alpha-beta and a quiescence deep enough never to stop early, a
    quiescence value depends on the position alone, so the table's bounds are sound: the
    root value is the one without the table, and the table answers some quiescence nodes."""
    for s in _random_positions(6, 5):
        base = "alphabeta(depth=3,tt=true,id=true,quiescence=true,qdepth=64,mvv_lva=true," \
               "backend=python"
        off = gameai.make_searcher(base + ")").search(s)
        on = gameai.make_searcher(base + ",qs_tt=true)").search(s)
        assert on.value == off.value
        assert on.stats.tt_probes > off.stats.tt_probes    # quiescence nodes probe
    s = gameai.load_game("xiangqi", fen=MID)
    base = "negascout(depth=5,tt=true,id=true,quiescence=true,mvv_lva=true,backend=python"
    off = gameai.make_searcher(base + ")").search(s)
    on = gameai.make_searcher(base + ",qs_tt=true)").search(s)
    assert on.stats.qnodes < off.stats.qnodes and on.stats.tt_cutoffs > off.stats.tt_cutoffs
    for spec in ("alphabeta(qs_tt=true,quiescence=true)", "alphabeta(qs_tt=true,tt=true)"):
        with pytest.raises(gameai.SpecError, match="qs_tt needs tt=true and quiescence=true"):
            gameai.make_searcher(spec)


def test_see_prune_thresholds_are_stockfish_11s_in_our_pawns():
    from gameai.search.pruning import see_prune_threshold
    # captures and checks: -194 d of Stockfish's 128-unit pawns
    assert [see_prune_threshold(d, 0, False) for d in (1, 2, 5)] == \
        [-152, -304, -758]
    # quiet moves: -(32 - min(l, 18)) l² with l the depth after the reduction
    assert see_prune_threshold(1, 0, True) == 0          # l = 0: any loss is pruned
    assert see_prune_threshold(4, 1, True) == -(30 * 4) * 100 // 128
    assert see_prune_threshold(30, 0, True) == -(14 * 29 * 29) * 100 // 128


def test_see_prune_skips_losing_moves_but_never_a_root_move():
    s = gameai.load_game("xiangqi", fen=MID)
    seen = []
    base = "alphabeta(depth=3,id=true,history=true,quiescence=true,mvv_lva=true,backend=python"
    on = gameai.make_searcher(base + ",see_prune=true)").search(
        s, on_root_move=lambda i, n, m, v: seen.append(m))
    off = gameai.make_searcher(base + ")").search(s)
    assert set(seen) == set(s.legal_moves())
    assert on.stats.see_skips > 0 and on.stats.nodes < off.stats.nodes
    # only pawns and guards left for the side to move: nothing is pruned
    bare = gameai.load_game("xiangqi", fen="3k5/9/9/9/4p4/9/4P4/9/9/4K4 w - - 0 1")
    r = gameai.make_searcher(base + ",see_prune=true)").search(bare)
    assert r.stats.see_skips == 0
