"""The switch table (gameai.search.switches) is the one place a searcher parameter is
declared: the signature, the searcher's name and the compiled switch array come from it."""
import ast
import inspect
import random

import pytest

from gameai.compiled import core as template
from gameai.errors import SpecError
from gameai.registry import make_searcher
from gameai.search.negamax import Searcher
from gameai.search.stats import SearchStats
from gameai.search.switches import DERIVED, SWITCHES

#: slots of ``c`` that hold per-search state, set by the compiled search itself
STATE = {"GHI", "NEXT_CHECK", "ABORT", "ROOT_BEST", "ROOT_FIRST", "NODE_LIMIT", "NEXT_POLL",
         "SCORES", "PVS", "PV_W", "ALLOWED", "N_ALLOWED", "MAX_PLY", "ON_ROOT", "POLLING",
         "RESTRICT", "THREAT_NODES", "ROOT_REPLY", "REPLIES", "N_REPLIES",
         "ROOT_PARTIAL"}


def slot_names() -> list[str]:
    """The names unpacked from ``range(N_FIXED)`` in the compiled core, read from its source."""
    tree = ast.parse(inspect.getsource(template))
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and \
                getattr(node.value.func, "id", "") == "range" and \
                isinstance(node.targets[0], ast.Tuple) and \
                getattr(node.targets[0].elts[0], "id", "") == "NODES":
            return [e.id for e in node.targets[0].elts]
    raise AssertionError("the compiled core's slot tuple was not found")


def test_every_slot_of_the_switch_array_has_one_source():
    """A counter (its SearchStats name), a row of the table, a derived part or search
    state: each slot exactly one of them, so a switch added to the kernel without a row
    (or a row pointing at a missing slot) fails here."""
    names = slot_names()
    assert len(names) == template.N_FIXED
    counters = {k.upper() for k in (*SearchStats.COUNTERS, "seldepth")}
    rows = [s.slot for s in SWITCHES if s.slot]
    assert len(rows) == len(set(rows)), "two rows pack the same slot"
    sources = [counters, set(rows), set(DERIVED), STATE]
    for name in names:
        owners = [i for i, group in enumerate(sources) if name in group]
        assert len(owners) == 1, f"slot {name}: sources {owners}"
    for group in sources:
        assert group <= set(names), f"no such slot in the compiled core: {group - set(names)}"


def test_the_signature_is_the_table():
    params = inspect.signature(Searcher).parameters
    assert [(p.name, p.default) for p in params.values()] == \
        [(s.name, s.default) for s in SWITCHES]


def test_an_unknown_keyword_is_named():
    with pytest.raises(SpecError, match="depht"):
        Searcher(depht=3)


def test_a_searchers_name_is_a_spec_that_builds_the_same_searcher():
    """Random switch combinations: the name printed in records reads back to itself."""
    rng = random.Random(7)
    flags = [s.name for s in SWITCHES if s.show == "flag"]
    for _ in range(40):
        on = {f: True for f in rng.sample(flags, rng.randint(0, len(flags)))}
        if rng.random() < 0.5:
            on["grain"] = rng.choice([1, 5, 50])
        if rng.random() < 0.5:
            on["tt_replace"] = "always"
        if on.get("null_adaptive"):          # it refines the null move
            on["nullmove"] = True
        if on.get("lmr_sf"):                 # it refines late-move reductions
            on["lmr"] = True
        if on.get("aspiration_grow"):        # it refines aspiration windows
            on["aspiration"] = True
        if on.get("qs_tt"):                  # quiescence's use of the table
            on["tt"] = on["quiescence"] = True
        s = Searcher(depth=rng.randint(1, 6), **on)
        assert make_searcher(s.name).name == s.name
        for f in flags:
            assert (f",{f}=true" in s.name) == bool(on.get(f)), (f, s.name)
