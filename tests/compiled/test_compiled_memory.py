"""backend=compiled memories: a fresh searcher reuses a collected searcher's tables (no
zeroing, no page faults), emptied by generation, and searches exactly as on new ones."""
import gc

import numpy as np
import pytest

import gameai
from gameai.compiled import AVAILABLE, REASON
from gameai.compiled.memory import CompiledHistory, CompiledTT

pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"backend=compiled not tested: {REASON}")

SPEC = "negascout(depth=3,tt=true,history=true,killers=true,id=true,tt_size=4096,backend=compiled)"


def _summary(r):
    return r.move, r.value, r.pv, r.stats.nodes, r.stats.tt_hits, r.stats.cutoffs


def test_a_fresh_searcher_reuses_a_collected_searchers_tables_and_searches_as_on_new_ones():
    s = gameai.load_game("xiangqi", moves="h2e2 h9g7")
    first = gameai.make_searcher(SPEC)
    want = _summary(first.search(s))
    tt, hist = id(first.tt.table), id(first.history.table)
    assert first.tt.used > 0 and first.history.table.any()
    del first
    gc.collect()
    again = gameai.make_searcher(SPEC)
    assert _summary(again.search(s)) == want          # stale entries and scores unseen
    assert (id(again.tt.table), id(again.history.table)) == (tt, hist)
    python = gameai.make_searcher(SPEC.replace("compiled", "python")).search(s)
    assert _summary(python) == want


def test_a_table_held_elsewhere_is_not_handed_out():
    a = CompiledTT(64)
    held = a.table
    del a
    gc.collect()
    assert CompiledTT(64).table is not held


def test_clear_empties_the_tt_by_generation_without_a_new_array():
    s = gameai.load_game("gomoku", size=9, moves="e5 d4")
    sr = gameai.make_searcher("negascout(depth=2,tt=true,tt_size=256,backend=compiled)")
    want = _summary(sr.search(s))
    table = sr.tt.table
    key = s.key
    assert sr.tt.probe(key) is not None and sr.tt.used > 0
    sr.new_game()
    assert sr.tt.table is table and sr.tt.used == 0 and sr.tt.age == 0
    assert sr.tt.probe(key) is None and np.count_nonzero(table[:-1]) > 0   # nothing written
    assert _summary(sr.search(s)) == want


def test_a_reused_history_table_starts_at_zero():
    h = CompiledHistory()
    h.sized(100)[:] = 7
    h.dirty = True
    del h
    gc.collect()
    assert not CompiledHistory().sized(100).any()
