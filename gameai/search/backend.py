"""The seam between the search and the compiled backend: what ``backend=compiled`` offers.

The search package never imports :mod:`gameai.compiled`. The compiled backend is a
plug-in: ONE adapter module, :mod:`gameai.compiled.backend`, implements :class:`Backend`
and is registered by name in the registry's ``BACKENDS`` table
(:mod:`gameai.search.catalog`), so it is loaded only when a search asks for it. The
compiled modules may read the search's leaf modules (its constants, the switch table,
the memories' declarations); the imports point one way and ``tests/spec/test_imports.py``
holds them to it.

Every place where a search runs on either backend asks :func:`compiled` for the backend
and, when it gets one, calls it; with ``None`` (no numba: one warning, said once) it
runs its own Python code.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol

from .memories import Memory


class Backend(Protocol):
    """What a compiled backend gives the searchers (:mod:`gameai.compiled.backend`)."""

    def available(self) -> bool:
        """Whether it can run here (numba importable)."""
        ...

    def fallback_warning(self, what: str) -> None:
        """Warn once per process that ``what`` runs on the Python backend instead."""
        ...

    def perft(self, state: Any, depth: int, bulk: bool = False) -> int | None:
        """:func:`gameai.games.perft.perft` on the game's kernel (SpecError for a game
        without one; None, with one warning, when the backend cannot run here). The games
        call it through the registry, as the search does."""
        ...

    def memory(self, decl: Memory, o: Any) -> Any:
        """The compiled twin of memory ``decl`` for searcher ``o`` (its declared class)."""
        ...

    def check_depth(self, o: Any, depth: int) -> None:
        """SpecError for a nominal depth the compiled core cannot run exactly."""
        ...

    def warm_up(self, o: Any, state: Any, ev: Any, timed: bool = False) -> float:
        """Compile or load ``state``'s core (``timed``: and fault in the searcher's
        tables); returns the seconds spent compiling from source, which a search does not
        charge to its clock (loading and faulting in it does)."""
        ...

    def search_class(self) -> type:
        """The per-search object with :class:`gameai.search.core.Search`'s interface."""
        ...

    def minimal_tree(self, state: Any, depth: int, evaluator: Any, *,
                     mate_ply: bool = True) -> dict[str, int]:
        """:func:`gameai.search.minimal.minimal_tree`'s numbers, from the game's kernel."""
        ...

    def threat_solver(self) -> Callable[..., Any]:
        """The compiled VCF/VCT solver class (Gomoku/Renju)."""
        ...

    def threat_part_solvers(self) -> Callable[..., Any]:
        """A factory of the threat part's solvers, sharing one arena with the core."""
        ...

    def threat_arena(self, tt_size: int, solvers: int) -> Any:
        """A threat arena for ``solvers`` solvers (its array ``T`` is what the compiled
        core reads the threat facts from)."""
        ...

    def threat_warm_up(self) -> None:
        """Compile or load the threat solvers before a search's clock starts."""
        ...


def compiled(what: str) -> Backend | None:
    """The compiled backend, or None (with one warning naming ``what``) when it cannot run
    here; the caller then runs its Python code, which counts the same nodes."""
    from ..registry import BACKENDS
    backend: Backend = BACKENDS.factory("compiled")()
    if backend.available():
        return backend
    backend.fallback_warning(what)
    return None
