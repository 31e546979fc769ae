"""Transposition table: bounded size, replacement scheme, mate-score adjustment."""
import gameai
from gameai.search.stats import MATE
from gameai.search.tt import EXACT, LOWER, TranspositionTable, from_tt, to_tt


def test_size_is_bounded_and_rounded_to_a_power_of_two():
    tt = TranspositionTable(100)
    assert tt.size == 128
    for k in range(10000):
        tt.store(k, 1, EXACT, k, None, 0)
    assert len(tt.slots) == 128 and tt.used == 128 and tt.hashfull() == 1.0


def test_depth_preferred_within_a_search_and_ageing_across_searches():
    tt = TranspositionTable(8)
    tt.store(3, 5, EXACT, 10, "deep", 0)
    tt.store(3 + 8, 2, LOWER, 20, "shallow", 0)      # same slot, shallower: kept out
    assert tt.probe(3)[4] == "deep" and tt.probe(11) is None
    tt.store(3 + 16, 5, LOWER, 30, "equal", 0)       # equal depth replaces
    assert tt.probe(19)[4] == "equal" and tt.probe(3) is None
    tt.new_search()
    tt.store(3 + 24, 1, EXACT, 40, "new search", 0)  # an older search's entry is recycled
    assert tt.probe(27)[4] == "new search"


def test_mate_values_are_stored_relative_to_the_node():
    v = MATE - 7                                    # mate found 7 plies from the root
    stored = to_tt(v, 3)                            # node at ply 3: mate in 4 from it
    assert stored == MATE - 4
    assert from_tt(stored, 5) == MATE - 9           # same node reached at ply 5
    assert from_tt(to_tt(123, 4), 9) == 123


def test_tiny_table_still_exact_with_exact_depth():
    s = gameai.load_game("connect4", moves="4 4 5")
    ref = gameai.make_searcher("minimax(depth=5)").search(s)
    r = gameai.make_searcher("negascout(depth=5,tt=true,tt_size=4,exact_depth=true,id=true)").search(s)
    assert r.value == ref.value
    assert r.stats.tt_probes > 0


def test_always_replace_overwrites_a_deeper_entry_of_the_same_search():
    tt = TranspositionTable(8, always=True)
    tt.store(3, 5, EXACT, 10, "deep", 0)
    tt.store(3 + 8, 2, LOWER, 20, "shallow", 0)     # depth-preferred would keep "deep"
    assert tt.probe(11)[4] == "shallow" and tt.probe(3) is None and tt.used == 1


def test_tt_replace_changes_the_search_of_an_overflowing_table_not_its_value():
    s = gameai.load_game("xiangqi")
    counts = {}
    for size in (16,):
        for rule in ("depth", "always"):
            r = gameai.make_searcher(f"alphabeta(depth=4,tt=true,tt_size={size},tt_replace={rule},"
                                     "history=true,id=true)").search(s)
            counts[size, rule] = r.stats.nodes, r.value
    assert counts[16, "depth"][0] != counts[16, "always"][0]
    with_exact = {rule: gameai.make_searcher(f"alphabeta(depth=4,tt=true,tt_size=16,tt_replace={rule},"
                                             "exact_depth=true)").search(s).value
                  for rule in ("depth", "always")}
    plain = gameai.make_searcher("alphabeta(depth=4)").search(s).value
    assert with_exact == {"depth": plain, "always": plain}    # either scheme keeps the value


def test_grain_rounds_to_the_nearest_multiple_halves_up():
    from gameai.search.core import coarse
    assert [coarse(v, 50) for v in (24, 25, -25, -26, 74, 75, 0)] == [0, 50, 0, -50, 50, 100, 0]
    assert coarse(37, 1) == 37


def test_grain_coarsens_every_evaluation_on_both_backends():
    s = gameai.load_game("xiangqi")
    values = set()
    for backend in ("python", "compiled"):
        r = gameai.make_searcher(f"mtdf(depth=3,history=true,grain=50,backend={backend})").search(s)
        values.add((r.value, r.stats.nodes))
        assert r.value % 50 == 0
    assert len(values) == 1
