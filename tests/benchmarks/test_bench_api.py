"""gameai bench api: every section prints its ratio with the load average beside it (the
speed goals are read off the printout, never asserted by a test)."""
import pytest

from benchmarks import bench_api
from gameai.compiled import AVAILABLE, REASON
from gameai.compiled.jit import cache_dir


@pytest.mark.skipif(not AVAILABLE, reason=f"backend=compiled not tested: {REASON}")
def test_bench_api_prints_push_and_small_search_ratios(capsys):
    # the depth-4 Python searches are the bench's slow part: depths 2 and 3 here
    assert bench_api.main(["--repeat", "1", "--skip-cold", "--depths", "2", "3"]) == 0
    out = capsys.readouterr().out
    for game in ("xiangqi", "gomoku", "renju"):
        assert f"  {game} " in out
    assert out.count("same tree: True") == 2 and out.count("[load ") == 5
    assert "depth 4:" not in out


@pytest.mark.skipif(not AVAILABLE, reason=f"backend=compiled not tested: {REASON}")
def test_the_first_call_probe_times_a_search_in_a_new_process():
    # the filled cache of this process: a warm call (the cold one compiles for minutes)
    import os
    base = os.path.dirname(os.path.dirname(os.path.dirname(cache_dir())))
    label, game, spec = bench_api.FIRST_CALLS[0]
    got = bench_api._probe(game, spec, base, kernels=True)
    assert got["first"] > 0 and got["import"] > 0 and isinstance(got["kernels"], list)
    assert got["ready"] > 0 and got["compiled_in_search"] == 0      # compiled before the clock
    assert got["sources"] == cache_dir()
