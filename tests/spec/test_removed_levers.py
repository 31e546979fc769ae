"""Deleted levers are refused by name, with where their code and measurements are."""
import pytest

import gameai
from gameai.registry import REMOVED, REMOVED_IN


@pytest.mark.parametrize("spec", [
    "negascout(depth=2,threats=true,threat_quiet=true)",
    "alphabeta(depth=2,threat_swindle=9)",
    "negascout(depth=2,threat_shape=3000)",
    "mtdf(depth=2,threat_extend=2)",
    "negascout(depth=2,threat_deepen=false)",
    "negascout(depth=2,threat_pn=17)",
    "vct(depth=9,pn=true)",
    "negascout(depth=2,lmp=true)",
    "negascout(depth=2,lmr=true,lmr_log=true)",
    "mtdf(depth=2,razoring=true)",
    "negascout(depth=2,nullmove=true,null_verify=true)",
])
def test_a_removed_searcher_switch_is_refused_by_name(spec):
    name = spec.split("(")[0]
    param = spec.split(",")[-1].split("=")[0]
    with pytest.raises(gameai.SpecError) as err:
        gameai.make_searcher(spec)
    msg = str(err.value)
    commit = REMOVED[("searcher", param)][2]
    assert f"removed: {param}" in msg and f"commit {commit}" in msg and "dropped-levers" in msg
    assert name in msg


def test_a_removed_evaluator_weight_is_refused_by_name():
    with pytest.raises(gameai.SpecError, match=f"removed: tempo.*{REMOVED_IN}"):
        gameai.make_evaluator("gomoku.patterns(tempo=40000)")
    with pytest.raises(gameai.SpecError, match="removed: tempo"):   # inside a searcher spec
        gameai.make_searcher("negascout(depth=2,eval=gomoku.patterns(tempo=9))")


def test_a_typo_is_still_an_unknown_parameter_with_the_list():
    with pytest.raises(gameai.SpecError) as err:
        gameai.make_searcher("negascout(depth=2,threat_quite=true)")
    assert "has no parameter(s) ['threat_quite']" in str(err.value)
    assert "removed" not in str(err.value)


def test_a_removed_name_is_gone_from_every_signature_it_lists():
    """The table names only parameters that no longer exist (else it would shadow a live one)."""
    from gameai.registry import EVALUATORS, SEARCHERS
    tables = {"searcher": SEARCHERS, "evaluator": EVALUATORS}
    for (kind, param), (names, _why, _commit) in REMOVED.items():
        for name in names:
            assert param not in tables[kind].parameters(name), (kind, name, param)


def test_the_research_note_of_every_removed_lever_exists():
    from pathlib import Path
    note = (Path(__file__).resolve().parents[2] / "docs" / "notes" / "dropped-levers.md").read_text()
    for (_kind, param) in REMOVED:
        assert f"`{param}" in note or f"{param}=" in note, param
