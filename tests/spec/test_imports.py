"""Imports point one way: no module of ``gameai`` imports one that imports it back, and the
lower parts never import the upper ones. Every import statement counts, at module level
or inside a function (a lazy import is still a dependency)."""
import ast
from pathlib import Path

import pytest

import gameai

ROOT = Path(gameai.__file__).parent

# part -> the parts it must never import (the house's layers: games know nothing of search;
# evaluators know games; search knows games and evaluators through their protocols;
# tournaments compose players; the CLI and its commands sit on top)
UPPER = ("players", "tournament", "engine", "commands", "cli", "widgets")
# The compiled backend sits beside the search, below the players: it reads the search's
# leaf modules (constants, switch table, memories' declarations), and the search reaches it
# only through one adapter, ``gameai.compiled.backend``, loaded by name from the registry
# (``BACKENDS``), never by an import.
NEVER = {
    "games": ("search", "evaluators", "compiled", *UPPER),
    "evaluators": ("search", "compiled", *UPPER),
    "search": ("evaluators", "compiled", *UPPER),
    "compiled": UPPER,
    "tournament": ("engine", "commands", "cli", "widgets"),
}


def modules() -> dict[str, Path]:
    out = {}
    for p in ROOT.rglob("*.py"):
        parts = ["gameai", *p.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def imports(mods: dict[str, Path]) -> dict[str, set[str]]:
    """module -> the gameai modules its import statements name (``from .x import y`` names
    the module ``.x.y`` when that is a module, else ``.x``)."""
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        package = m.split(".") if p.name == "__init__.py" else m.split(".")[:-1]
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package[:len(package) - node.level + 1] if node.level else []
                name = ".".join(base + ([node.module] if node.module else []))
                for a in node.names:
                    target = f"{name}.{a.name}"
                    edges[m].add(target if target in mods else name)
            elif isinstance(node, ast.Import):
                edges[m].update(a.name for a in node.names)
        edges[m] = {t for t in edges[m] if t in mods and t != m}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan 1972)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_detector_sees_a_cycle_and_a_lazy_import(tmp_path):
    """The checks below can fail: a made-up pair with a lazy import back is a cycle."""
    (tmp_path / "a.py").write_text("from .b import f\n")
    (tmp_path / "b.py").write_text("def f():\n    from .a import g\n")
    mods = {"gameai.x.a": tmp_path / "a.py", "gameai.x.b": tmp_path / "b.py"}
    assert cycles(imports(mods)) == [["gameai.x.a", "gameai.x.b"]]


def test_no_module_imports_one_that_imports_it_back():
    assert cycles(imports(modules())) == []


@pytest.mark.parametrize("part", sorted(NEVER))
def test_lower_parts_never_import_upper_ones(part):
    edges = imports(modules())
    wrong = sorted(f"{m} -> {t}" for m, ts in edges.items() for t in ts
                   if m.split(".")[1:2] == [part] and t.split(".")[1:2] in ([p] for p in NEVER[part]))
    assert wrong == []


def closure(edges: dict[str, set[str]], root: str) -> set[str]:
    """Every module ``root`` imports, directly or through others (lazy imports included)."""
    seen: set[str] = set()
    todo = [root]
    while todo:
        for t in edges[todo.pop()]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def game_specific(module: str) -> bool:
    """A game, a game's kernel, or the Gomoku/Renju threat part (the games' protocol and
    the compiled backend's generic modules are not)."""
    parts = module.split(".")
    return (parts[1:2] == ["games"] and module != "gameai.games.protocol") or \
        module.startswith("gameai.search.threats") or \
        (parts[1:2] == ["compiled"] and len(parts) > 2 and
         parts[2] not in ("core", "evaluator", "jit", "memory", "pages", "search", "stubs"))


def test_the_detector_sees_a_game_reached_through_another_module(tmp_path):
    (tmp_path / "a.py").write_text("def f():\n    from .b import g\n")
    (tmp_path / "b.py").write_text("from gameai.games.gomoku import Gomoku\n")
    mods = {"gameai.search.a": tmp_path / "a.py", "gameai.search.b": tmp_path / "b.py",
            "gameai.games.gomoku": tmp_path / "b.py"}
    assert any(game_specific(m) for m in closure(imports(mods), "gameai.search.a"))


@pytest.mark.parametrize("generic", ["gameai.search.core", "gameai.search.driver",
                                     "gameai.search.negamax", "gameai.compiled.search"])
def test_the_generic_core_and_driver_import_no_game(generic):
    """The threat part attaches by name (the registry's ``PARTS``) and is called at the
    core's and driver's named steps; neither backend's generic search imports a game."""
    assert sorted(m for m in closure(imports(modules()), generic) if game_specific(m)) == []


def test_the_one_seam_implements_the_search_s_backend_protocol():
    """The registry's compiled backend is the adapter module, and it has every method of
    :class:`gameai.search.backend.Backend` with the protocol's parameters."""
    import inspect

    from gameai.registry import BACKENDS
    from gameai.search.backend import Backend
    cls = BACKENDS.factory("compiled")
    assert cls.__module__ == "gameai.compiled.backend"
    wanted = {n for n, v in vars(Backend).items() if callable(v) and not n.startswith("_")}
    assert wanted and wanted <= set(dir(cls))
    for name in sorted(wanted):
        assert list(inspect.signature(getattr(cls, name)).parameters) == \
            list(inspect.signature(getattr(Backend, name)).parameters), name
