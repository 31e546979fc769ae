"""The searcher's memories come from one declaration each (gameai.search.memories).

The first tests follow the guide "Add an enhancement", section "A memory the search keeps",
step by step with a made-up countermove table: one row in ``MEMORIES`` and its two classes,
and nothing else, must give the Python searcher its memory, ``new_game`` and each search
their calls, the compiled searcher its twin, the compiled core its array in the declared
place, and the warm-up its throwaway copy. The last tests hold the real memories to the
same rules on both backends.
"""
import ast
import inspect

import numpy as np
import pytest

import gameai
from gameai.compiled import core as template
from gameai.compiled import search as compiled_search
from gameai.compiled.memory import CompiledMemory
from gameai.search import memories
from gameai.search.memories import MEMORIES, Memory

CALLS: list[tuple[str, str]] = []


class Countermoves:
    """The guide's example, Python side: the reply that refuted each move (a dict)."""

    def __init__(self) -> None:
        self.table: dict = {}

    def new_game(self) -> None:
        CALLS.append(("python", "new_game"))
        self.table.clear()

    def new_search(self) -> None:
        CALLS.append(("python", "new_search"))


class CompiledCountermoves(CompiledMemory):
    """The guide's example, compiled side: one reply per (from, to) key."""

    def __init__(self) -> None:
        self.table = np.zeros(16, np.int64)

    def new_game(self) -> None:
        CALLS.append(("compiled", "new_game"))
        self.table[:] = 0

    def core_array(self, kernel, G) -> np.ndarray:
        return self.table

    @staticmethod
    def off_array() -> np.ndarray:
        return np.zeros(1, np.int64)

    def scratch(self) -> "CompiledCountermoves":
        return CompiledCountermoves()

    def prefault(self) -> None:
        CALLS.append(("compiled", "prefault"))


EXAMPLE = Memory("countermoves", "killers", lambda o: (), Countermoves,
                 f"{__name__}:CompiledCountermoves")     # (this module, as pytest named it)


@pytest.fixture
def with_example(monkeypatch):
    """The guide's one row added to the declarations (after the killers, before the TT)."""
    CALLS.clear()
    rows = list(MEMORIES)
    rows.insert(2, EXAMPLE)
    monkeypatch.setattr(memories, "MEMORIES", tuple(rows))
    return rows


def test_the_guides_example_reaches_the_python_searcher_new_game_and_each_search(with_example):
    game = gameai.load_game("tictactoe")
    on = gameai.make_searcher("alphabeta(depth=2,killers=true)")
    assert isinstance(on.countermoves, Countermoves)
    assert gameai.make_searcher("alphabeta(depth=2)").countermoves is None   # switch off
    on.search(game)
    on.search(game)
    on.new_game()
    assert CALLS == [("python", "new_search"), ("python", "new_search"), ("python", "new_game")]


def test_the_guides_example_reaches_the_compiled_core_and_its_warm_up(with_example):
    game = gameai.load_game("tictactoe")
    o = gameai.make_searcher("alphabeta(depth=2,killers=true,tt=true,backend=compiled)")
    assert isinstance(o.countermoves, CompiledCountermoves)
    kernel = compiled_search.kernel_for(game)
    arrays = compiled_search.core_memories(o, kernel, kernel.load(game))
    assert len(arrays) == 4 and arrays[0].shape == (1,)          # history off: a placeholder
    assert arrays[1] is o.killers.table and arrays[2] is o.countermoves.table \
        and arrays[3] is o.tt.table
    off = gameai.make_searcher("alphabeta(depth=2,backend=compiled)")
    assert compiled_search.core_memories(off, kernel, kernel.load(game))[2].shape == (1,)
    import copy
    scratch = copy.copy(o)
    compiled_search.scratch_memories(o, scratch)
    assert isinstance(scratch.countermoves, CompiledCountermoves)
    assert scratch.countermoves is not o.countermoves and scratch.tt is not o.tt
    compiled_search.prefault(o)
    o.new_game()
    assert CALLS == [("compiled", "prefault"), ("compiled", "new_game")]


def test_the_core_unpacks_the_memories_in_the_declared_order():
    """``MEMORY_ARGS`` follows ``MEMORIES``, the first line of the compiled ``negamax``
    unpacks ``S`` in that order, and ``qsearch`` takes the TT from its declared place."""
    assert list(template.MEMORY_ARGS) == [m.name for m in MEMORIES]
    tree = ast.parse(inspect.getsource(template))
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    first = funcs["negamax"].body[1]             # (after the docstring)
    assert isinstance(first, ast.Assign) and isinstance(first.value, ast.Name) \
        and first.value.id == "S"
    assert [t.id for t in first.targets[0].elts] == ["c", "buf", *template.MEMORY_ARGS.values(), "T"]
    assert template.S_TT == 2 + [m.name for m in MEMORIES].index("tt")


@pytest.mark.parametrize("decl", MEMORIES, ids=lambda m: m.name)
def test_each_memory_is_made_from_its_declaration_and_forgotten_by_new_game(decl):
    """On both backends: the declared class when the switch is on, None when off, and
    ``new_game`` empties what a search filled."""
    game = gameai.load_game("xiangqi")
    for backend, cls in (("python", decl.python), ("compiled", None)):
        spec = f"alphabeta(depth=3,id=true,{decl.switch}=true,backend={backend})"
        o = gameai.make_searcher(spec)
        memory = getattr(o, decl.name)
        if cls is None:
            cls = gameai.registry.load_reference(decl.compiled, "memory")
            assert issubclass(cls, CompiledMemory)
        assert type(memory) is cls
        assert getattr(gameai.make_searcher(f"alphabeta(depth=3,backend={backend})"), decl.name) is None
        o.search(game)
        assert _filled(memory)
        o.new_game()
        assert not _filled(memory)


def _filled(memory) -> bool:
    """Whether a memory holds anything a search wrote."""
    if hasattr(memory, "hashfull"):
        return memory.hashfull() > 0
    table = getattr(memory, "table", None)
    if table is not None:
        if isinstance(table, dict):
            return bool(table)
        if table.ndim == 2:                      # compiled killers: NO_MOVE when empty
            from gameai.compiled.memory import NO_MOVE
            return bool((table != NO_MOVE).any())
        return bool(table.any())
    return any(memory.slots)                     # Python killers
