"""backend=compiled compiles before a search's clock starts, on throwaway memories."""
import pytest

import gameai
from gameai.compiled import AVAILABLE, REASON
from gameai.compiled.memory import NO_MOVE
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
