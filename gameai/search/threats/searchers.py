"""The ``vcf`` and ``vct`` searchers: threat-space search on its own, a proven win for the
side to move or nothing, on either backend (:func:`solver_class`)."""
from __future__ import annotations

import time as _time
from typing import Any, Callable, Literal

from ...errors import SpecError
from ...spec import Depth, Nodes, Seconds, TTSize
from ..backend import compiled
from ..stats import MATE, Limits, SearchResult, SearchStats
from .solver import ThreatSolver, complete_line


class ThreatSearcher:
    """The ``vcf``/``vct`` searchers: a proven win for the side to move, or nothing.

    ``result.move``/``result.pv``: the first move and the winning line (attacker's moves
    and the defender's longest resistance, to the five: :func:`complete_line`) when a win
    is proven, else None and ``[]``.
    ``result.value``: ``MATE - plies`` (the same mate range as every searcher) when a win
    is proven; 0 means "no win found in this threat space and depth" (unknown, not a
    draw). ``depth`` is the longest line searched, in plies (attacker and defender moves,
    the final five included): ``vcf(depth=9)`` finds wins of up to five attacker moves.
    """

    def __init__(self, depth: int = 20, nodes: int | None = None, time: float | None = None,
                 vct: bool = False, tt_size: int = 1 << 20,
                 on_iteration: Callable[[dict], None] | None = None,
                 backend: str = "python") -> None:
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
            raise SpecError(f"threat search depth must be a positive integer, got {depth!r}")
        if nodes is not None and (not isinstance(nodes, int) or nodes < 1):
            raise SpecError(f"threat search nodes must be a positive integer, got {nodes!r}")
        if time is not None and (not isinstance(time, (int, float)) or time <= 0):
            raise SpecError(f"threat search time must be a positive number, got {time!r}")
        self.depth, self.nodes, self.time, self.vct = depth, nodes, time, vct
        cls = solver_class(backend)
        self.backend = getattr(cls, "backend", "python")
        self.solver = cls(vct=vct, tt_size=tt_size)
        self.on_iteration = on_iteration
        self.name = f"{'vct' if vct else 'vcf'}(depth={depth}" + \
            (",backend=compiled)" if self.backend == "compiled" else ")")

    def new_game(self) -> None:
        self.solver.clear()

    def search(self, state, limits: Limits | dict | None = None, *,
               on_iteration: Callable[[dict], None] | None = None,
               on_root_move: Callable[..., None] | None = None,
               stop: Any = None) -> SearchResult:
        """Prove a win for the side to move (``state`` is left unchanged)."""
        lim = Limits.coerce(limits)
        depth = lim.depth if lim.depth is not None else self.depth
        node_limit = lim.nodes if lim.nodes is not None else self.nodes
        time_limit = lim.time if lim.time is not None else self.time
        if not isinstance(depth, int) or depth < 1:
            raise SpecError(f"search depth must be a positive integer, got {depth!r}")
        on_iteration = on_iteration or self.on_iteration
        fast = compiled("backend=compiled") if self.backend == "compiled" else None
        if fast is not None:                    # compiling is not the search's time
            fast.threat_warm_up()
            if time_limit or stop is not None:  # a clock: its table's pages now, once
                self.solver.arena.prefault()
        t0 = _time.perf_counter()
        deadline = t0 + time_limit if time_limit else None
        sv = self.solver
        sv.reset_counters()
        stats = SearchStats()

        def out_of_time(n: int) -> bool:
            return (deadline is not None and _time.perf_counter() >= deadline) or \
                (stop is not None and stop.is_set())

        def should_stop(n: int) -> bool:
            return (node_limit is not None and n >= node_limit) or out_of_time(n)

        def iteration(d: int, n: int) -> None:
            stats.depth = d
            row = {"depth": d, "value": MATE - n if n else 0, "nodes": sv.nodes,
                   "time_s": _time.perf_counter() - t0}
            stats.iterations.append(row)
            if on_iteration is not None:
                on_iteration(row)

        if state.result() is not None:
            plies, line = 0, []
            sv.nodes = sv.terminals = 1
        else:
            plies, line, _ = sv.solve(state, depth, should_stop, iteration, 256, node_limit)
        stats.__dict__.update(nodes=sv.nodes, leaves=sv.leaves, terminals=sv.terminals,
                              interior=sv.interior, cutoffs=sv.cutoffs, tt_probes=sv.probes,
                              tt_hits=sv.hits, tt_cutoffs=sv.ttcuts, seldepth=sv.seldepth)
        if not plies:
            stats.time_s = _time.perf_counter() - t0
            return SearchResult(None, 0, [], stats)
        if len(line) < plies:                   # (the statistics are the proof's own)
            # (the clock ends it; a node limit bounded the proof, the line has its budget)
            line = complete_line(state, sv, line, plies, should_stop=out_of_time)
        stats.time_s = _time.perf_counter() - t0
        return SearchResult(line[0] if line else None, MATE - plies, line, stats, state=state)


def solver_class(backend: str = "python") -> Callable[..., Any]:
    """The solver class of a backend: this module's :class:`ThreatSolver`, or with
    ``compiled`` its numba twin (:mod:`gameai.compiled.threats`; without numba one warning
    and the Python solver)."""
    if backend not in ("python", "compiled"):
        raise SpecError(f"threat search backend must be 'python' or 'compiled', got {backend!r}")
    fast = compiled("backend=compiled") if backend == "compiled" else None
    return fast.threat_solver() if fast is not None else ThreatSolver


def vcf(depth: Depth = 20, nodes: Nodes | None = None, time: Seconds | None = None,
        tt_size: TTSize = 1 << 20,
        backend: Literal["python", "compiled"] = "python") -> ThreatSearcher:
    """Victory by continuous fours: prove a win using only fours (see the module docstring)."""
    return ThreatSearcher(depth=depth, nodes=nodes, time=time, vct=False, tt_size=tt_size,
                          backend=backend)


def vct(depth: Depth = 12, nodes: Nodes | None = None, time: Seconds | None = None,
        tt_size: TTSize = 1 << 20,
        backend: Literal["python", "compiled"] = "python") -> ThreatSearcher:
    """Victory by continuous threats: fours and threes, every defence tried (module docstring)."""
    return ThreatSearcher(depth=depth, nodes=nodes, time=time, vct=True, tt_size=tt_size,
                          backend=backend)


