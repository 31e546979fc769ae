"""backend=compiled compiles on throwaway memories, off a search's clock; a timed search
not prepared loads and faults in on its own clock and still ends within its limit."""
import os
import time

import numpy as np
import pytest

import gameai
from gameai.compiled import AVAILABLE, REASON
from gameai.compiled.memory import NO_MOVE
from gameai.compiled.pages import touch
from gameai.compiled.search import kernel_for, load_core, warm_up

pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"backend=compiled not tested: {REASON}")

SPEC = "negascout(depth=3,tt=true,history=true,killers=true,id=true,backend=compiled)"


def test_warm_up_leaves_the_searchers_memories_untouched():
    s = gameai.load_game("xiangqi", moves="h2e2 h9g7")
    warmed = gameai.make_searcher(SPEC)
    warm_up(warmed, s, warmed.evaluator(s))
    assert warmed.tt.hashfull() == 0 and not warmed.history.table.any()
    assert (warmed.killers.table == NO_MOVE).all()
    assert load_core(kernel_for(s).__name__.rsplit(".", 1)[1]).negamax.signatures  # compiled
    fresh = gameai.make_searcher(SPEC)
    a, b = warmed.search(s), fresh.search(s)
    assert (a.move, a.value, a.pv) == (b.move, b.value, b.pv)
    assert a.stats.nodes == b.stats.nodes and a.stats.tt_hits == b.stats.tt_hits


def _resident_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="no /proc/self/statm to read residency")
def test_touch_faults_in_every_page_and_changes_no_value():
    a = np.zeros(8 << 20, np.int64)             # 64 MiB, mapped lazily
    a[12345], a[-1] = 7, -3
    before = _resident_bytes()
    touch(a)
    assert _resident_bytes() - before >= 0.9 * a.nbytes
    assert a[12345] == 7 and a[-1] == -3 and np.count_nonzero(a) == 2
    with pytest.raises(ValueError, match="contiguous"):
        touch(a[::2])


def test_a_timed_search_faults_in_its_tables_and_an_untimed_one_does_not():
    s = gameai.load_game("gomoku", size=9, moves="e5 a1 f5")
    spec = "negascout(tt=true,id=true,threats=true,backend=compiled,{})"
    untimed = gameai.make_searcher(spec.format("depth=2"))
    untimed.search(s)
    arenas = {id(sv.arena): sv.arena for sv in (untimed.threats.vcf, untimed.threats.vct)}
    assert not untimed.tt.touched and not any(a.touched for a in arenas.values())
    timed = gameai.make_searcher(spec.format("time=0.05"))
    r = timed.search(s)
    arenas = {id(sv.arena): sv.arena for sv in (timed.threats.vcf, timed.threats.vct)}
    assert timed.tt.touched and all(a.touched for a in arenas.values())
    assert r.move is not None
    vct = gameai.make_searcher("vct(depth=3,time=0.05,backend=compiled)")
    vct.search(s)
    assert vct.solver.arena.touched


def test_compile_seconds_counts_compiling_from_source_only():
    import numba
    from gameai.compiled.backend import compile_seconds

    @numba.njit(cache=False)
    def plus_one(x):
        return x + 1
    with compile_seconds() as first:
        plus_one(1)
    with compile_seconds() as again:
        plus_one(2)
    assert first[0] > 0 and again[0] == 0


@pytest.mark.parametrize("limit", [0.3, 1.0])
def test_a_first_timed_search_ends_within_its_limit_warm_up_included(limit):
    """A searcher never prepared loads its core and faults in its tables (the strong Renju
    player's: tens of MB) on its own clock, and still ends within 5% of its limit."""
    s = gameai.load_game("renju", moves="h8 i10 f9 j11 h7")
    spec = f"strong(time={limit})"
    gameai.make_searcher(spec, game="renju").prepare(s)   # compiled once (a cold cache: minutes)
    fresh = gameai.make_searcher(spec, game="renju")
    start = time.perf_counter()
    r = fresh.search(s)
    wall = time.perf_counter() - start
    assert r.move in s.legal_moves() and fresh.tt.touched    # the warm-up ran in that time
    assert r.stats.time_s <= 1.05 * limit and wall <= 1.05 * limit, (wall, r.stats.time_s)
