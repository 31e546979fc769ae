"""The one seam through which the search reaches the compiled backend.

:class:`CompiledBackend` implements :class:`gameai.search.backend.Backend`; the registry
names it (``BACKENDS``, ``"compiled"``) and the search loads it by that name, so the
search package imports nothing of :mod:`gameai.compiled` and the imports point one way
(compiled -> search). Each method imports the module that does the work when first
called, so loading the seam costs nothing and compiles nothing.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

from ..errors import SpecError
from ..registry import load_reference
from ..search.memories import Memory
from . import jit


class CompiledBackend:
    """``backend=compiled``: the numba kernels behind the search's interface."""

    def available(self) -> bool:
        return jit.AVAILABLE

    def fallback_warning(self, what: str) -> None:
        jit.fallback_warning(what)

    def perft(self, state: Any, depth: int, bulk: bool = False) -> int | None:
        from . import KERNELS, kernel_for
        kernel = kernel_for(state)
        if kernel is None:
            raise SpecError(f"perft backend=compiled: game {getattr(state, 'name', state)!r} has no "
                            f"compiled kernel (games with one: {', '.join(KERNELS)})")
        if not self.available():
            self.fallback_warning("perft")
            return None
        count = kernel.perft_bulk if bulk and hasattr(kernel, "perft_bulk") else kernel.perft
        return int(count(kernel.load(state), depth))

    def memory(self, decl: Memory, o: Any) -> Any:
        return load_reference(decl.compiled, "memory")(*decl.args(o))

    def check_depth(self, o: Any, depth: int) -> None:
        from .search import check_depth
        check_depth(o, depth)

    def warm_up(self, o: Any, state: Any, ev: Any, timed: bool = False) -> float:
        from .search import warm_up
        with compile_seconds() as seconds:
            warm_up(o, state, ev, timed=timed)
        return seconds[0]

    def search_class(self) -> type:
        from .search import CompiledSearch
        return CompiledSearch

    def minimal_tree(self, state: Any, depth: int, evaluator: Any, *,
                     mate_ply: bool = True) -> dict[str, int]:
        from .minimal import minimal_tree
        return minimal_tree(state, depth, evaluator, mate_ply=mate_ply)

    def threat_solver(self) -> Callable[..., Any]:
        from .threats import ThreatSolver
        return ThreatSolver

    def threat_part_solvers(self) -> Callable[..., Any]:
        from .threats import part_solvers
        return part_solvers()

    def threat_arena(self, tt_size: int, solvers: int) -> Any:
        from .threats import Arena
        return Arena(tt_size, solvers)

    def threat_warm_up(self) -> None:
        from .threats import warm_up
        warm_up()


@contextmanager
def compile_seconds() -> Iterator[list[float]]:
    """The block's wall seconds of numba compiling kernels from source (its compile events;
    a load from the disk cache sends none), in the returned one-item list once the block
    ends: what a search's clock is not charged for. An ``objmode`` block, compiled in
    every process whatever the cache holds, counts as the search's own time."""
    box = [0.0]
    if not jit.AVAILABLE:
        yield box
        return
    import time

    from numba.core import event
    from numba.core.dispatcher import LiftedCode

    class Timer(event.Listener):
        depth, start = 0, 0.0

        def on_start(self, ev) -> None:
            if not isinstance(ev.data.get("dispatcher"), LiftedCode):
                if not self.depth:
                    self.start = time.perf_counter()
                self.depth += 1

        def on_end(self, ev) -> None:
            if not isinstance(ev.data.get("dispatcher"), LiftedCode):
                self.depth -= 1
                if not self.depth:
                    box[0] += time.perf_counter() - self.start

    with event.install_listener("numba:compile", Timer()):
        yield box
