"""``backend=compiled``: the per-search object the searcher's driver runs, over the compiled core.

:class:`CompiledSearch` has the interface of :class:`gameai.search.core.Search`
(``negamax``, ``counters``, ``add_root``, ``add_research``, ``root_first``, ``root_best``,
``pvt``, ...), so :class:`~gameai.search.negamax.Searcher`'s driver (iterative deepening,
aspiration, MTD(f), PV from the TT) runs unchanged on either backend. The switches are
read from the searcher and the Python game object exactly as the Python core reads them;
the kernel works on its own copy of the position (``load(state)``), never on ``state``.

:func:`load_core` compiles :mod:`gameai.compiled.core` once per game kernel (a module per
kernel, so numba caches each on disk apart; a function passed as an argument or a closure
would not be cached).
"""
from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any, Callable

import numpy as np

from ..errors import SpecError
from ..registry import load_reference
from ..search import memories
from ..search.core import Abort
from ..search.parts import parts
from ..search.stats import SearchStats
from ..search.switches import pack
from . import core as template
from . import kernel_for as _lookup
from .evaluator import compiled_form
from .memory import NO_MOVE

POW2_MAX_DEPTH = 40     #: deepest nominal depth whose 2**depth history sums stay within int64
_COUNTERS = SearchStats.COUNTERS
#: counter -> its index in the core's array ``c`` (the slot named as the counter, upper case)
_IDX = {k: getattr(template, k.upper()) for k in (*_COUNTERS, "seldepth")}


def kernel_for(state) -> ModuleType:
    """The kernel module of ``state``'s game, or SpecError naming the game."""
    mod = _lookup(state)
    if mod is None or not hasattr(mod, "gen_moves"):
        raise SpecError(f"backend=compiled: no compiled kernel for the game {state.name!r} "
                        "(use backend=python)")
    return mod


def load_core(kernel: str, source: ModuleType = template, prefix: str = "_core") -> ModuleType:
    """The compiled core for the kernel module ``gameai.compiled.<kernel>`` (loaded once;
    ``<kernel>__<hash>``: the core built for an own evaluator's function,
    :func:`~gameai.compiled.evaluator.compiled_form`); another per-kernel template: its
    module ``source``, loaded as ``<prefix>_<kernel>``."""
    name = f"{__package__}.{prefix}_{kernel}"
    mod = sys.modules.get(name)
    if mod is None:
        spec = importlib.util.spec_from_file_location(name, source.__file__)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        try:
            spec.loader.exec_module(mod)
        except BaseException:
            del sys.modules[name]
            raise
    return mod


def check_depth(o, depth: int) -> None:
    """SpecError when the searcher's nominal ``depth`` makes ``2**depth`` history increments
    overflow int64. A depth given per search (an engine's "infinite" 64, deepening until
    a time limit) is not refused: the kernel saturates a score instead of wrapping, which
    differs from Python's unbounded ints only once an entry passes 2**63."""
    if o.history is not None and not o.history.square and not o.history.gravity \
            and depth > POW2_MAX_DEPTH:
        raise SpecError(f"backend=compiled: depth {depth} with history_inc=pow2 exceeds "
                        f"{POW2_MAX_DEPTH} (2**depth history scores overflow 64 bits); "
                        "use history_inc=square or backend=python")


def core_memories(o, kernel, G) -> tuple[np.ndarray, ...]:
    """The arrays of searcher ``o``'s memories for the core's ``S``, in the declared order
    (:data:`gameai.search.memories.MEMORIES`); a memory that is off gives its class's
    placeholder (the core reads its switch slot, never the array)."""
    out = []
    for m in memories.MEMORIES:
        memory = getattr(o, m.name)
        out.append(memory.core_array(kernel, G) if memory is not None else
                   load_reference(m.compiled, "memory").off_array())
    return tuple(out)


def scratch_memories(o, scratch) -> None:
    """Give ``scratch`` (a copy of searcher ``o``) throwaway twins of ``o``'s memories."""
    for m in memories.MEMORIES:
        memory = getattr(o, m.name)
        setattr(scratch, m.name, memory.scratch() if memory is not None else None)


def _refuse_missing_parts(o, state, kernel) -> None:
    """SpecError for a part the searcher runs that the kernel lacks (checked before any
    kernel compiles, so the error comes at once)."""
    p = parts(o, state)
    needs = (("quiescence", p.noisy, "HAS_NOISY"), ("in_check", p.need_check, "HAS_CHECK"),
             ("nullmove", p.nullmove, "HAS_NULL"), ("mvv_lva", p.mvv_lva, "HAS_CAPTURE"),
             ("lmr", p.lmr and p.is_capture, "HAS_CAPTURE"),
             ("futility", p.futility, "HAS_CAPTURE"),
             ("repetition", p.repetition, "HAS_REPEAT"),
             ("threat search", o.threats is not None, "HAS_THREATS"))
    for part, used, flag in needs:
        if used and not getattr(kernel, flag, False):
            raise SpecError(f"backend=compiled: the {state.name} kernel has no {part} "
                            f"({flag}=False); use backend=python")


def _config(o, state, kernel, c: np.ndarray, max_ply: int, on_root: bool) -> None:
    """Write the switches to ``c``: every row of the switch table that has a slot
    (:func:`gameai.search.switches.pack`) and the parts derived once for both backends
    (:func:`gameai.search.parts.parts`)."""
    p = parts(o, state)
    for i, v in pack(o, p, kernel, lambda slot: getattr(template, slot)):
        c[i] = v                            # the switch table's rows (gameai.search.switches)
    c[template.MAX_PLY], c[template.ON_ROOT] = max_ply, int(on_root)


def _threat_arena(o, state, kernel) -> np.ndarray:
    """The array ``T`` of the core's threat part: the part's own arena for this board
    (:meth:`gameai.search.threats.ThreatMoves.compiled_arena`), or a placeholder for a
    kernel without threats or a search without the part."""
    if not getattr(kernel, "HAS_THREATS", False) or o.threat_moves is None:
        return np.zeros(1, np.int64)
    return o.threat_moves.compiled_arena(state)


class _PVTable:
    """``pvt[ply]``: the PV from ``ply`` as a tuple (the Python core's triangular table)."""

    def __init__(self, buf: np.ndarray, c: np.ndarray) -> None:
        self.buf, self.c = buf, c

    def __getitem__(self, ply: int) -> tuple:
        row = int(self.c[template.PVS] + ply * self.c[template.PV_W])
        return tuple(int(m) for m in self.buf[row + 1:row + 1 + self.buf[row]])


def warm_up(o, state, ev, timed: bool = False) -> None:
    """Compile (or load from the disk cache) ``state``'s core before a search's clock
    starts: numba compiles on the first call, and tens of seconds of compiling must not
    be charged to a move's time. A one-node search on throwaway memories. ``timed``: the
    search has a clock, so the searcher's large tables are faulted in now, once
    (:func:`~gameai.compiled.pages.touch`), not during its first moves."""
    _refuse_missing_parts(o, state, kernel_for(state))   # before anything compiles
    if timed:
        prefault(o)
    if o.threats is not None:               # the root's threat solvers run from Python
        o.threats.warm_up()
    core = load_core(compiled_form(ev, state, kernel_for(state))[0])
    if core.negamax.signatures:
        return
    import copy
    scratch = copy.copy(o)
    scratch.threats = None                  # the same code, the real threat solvers untouched
    scratch_memories(o, scratch)
    run = CompiledSearch(scratch, state, ev, lambda nodes: True, max_depth=1, node_limit=None,
                         check_every=1)
    run.c[template.NEXT_CHECK] = run.c[template.NEXT_POLL] = 0   # the first node reads the
    # clock: the objmode block doing it (never cached) compiles here, not on a move's clock
    try:
        run.negamax(1, -1, 1, 0)
    except Abort:
        pass


def prefault(o) -> None:
    """Fault in the pages of searcher ``o``'s memories (the TT) and threat arenas, each once."""
    for _decl, memory in memories.kept(o):
        memory.prefault()
    if o.threats is not None:
        o.threats.prefault()


class CompiledSearch:
    """One ``search`` call on the compiled core; the interface of :class:`gameai.search.core.Search`."""

    def __init__(self, o, state, ev, stop_check: Callable[[int], bool], *, max_depth: int,
                 node_limit: int | None, check_every: int, timed: bool = False,
                 on_root_move=None, root_moves: frozenset | None = None) -> None:
        self.ev, self.stop_check, self.node_limit, self.timed = ev, stop_check, node_limit, timed
        self.root_moves = root_moves
        self.on_root_move = on_root_move
        self.max_ply = max_depth + min(max_depth, 32) + 2
        kernel = kernel_for(state)
        core, E = compiled_form(ev, state, kernel)   # the kernel's core, or ev's own
        _refuse_missing_parts(o, state, kernel)
        self.core = load_core(core)
        G = kernel.load(state)
        t = template
        P = self.max_ply + 3                        # plies of the PV table and null flags
        allowed = sorted(root_moves or ())
        self.threats = o.threats
        checked = sorted((m, n) for m, n in (o.threats.root_replies or {}).items() if n) \
            if o.threats is not None else []
        room = len(state.legal_moves()) if o.threats is not None else 0
        a0 = t.N_FIXED + P + 1
        c = np.zeros(a0 + len(allowed) + 2 * max(room, len(checked)), np.int64)
        _config(o, state, kernel, c, self.max_ply, on_root_move is not None)
        c[t.POLLING] = int(check_every == 1)        # a clock or an outside stop to read
        c[t.RESTRICT] = int(root_moves is not None)
        c[t.ALLOWED], c[t.N_ALLOWED] = a0, len(allowed)
        c[a0:a0 + len(allowed)] = allowed
        r0 = a0 + len(allowed)                      # the root moves' threat reply checks
        c[t.REPLIES] = r0
        self.c = c
        self._write_replies(checked)
        c[t.NODE_LIMIT] = node_limit or 0
        c[t.NEXT_POLL] = t.POLL
        c[t.NEXT_CHECK] = min(node_limit or t.NEVER, t.POLL if check_every == 1 else t.NEVER)
        c[t.ROOT_BEST] = c[t.ROOT_FIRST] = c[t.ROOT_PARTIAL] = NO_MOVE
        width = (P + o.qdepth + 2) * kernel.MAX_MOVES          # the deepest line's moves
        c[t.SCORES], c[t.PVS], c[t.PV_W] = width, 2 * width, P + 1
        buf = np.zeros(2 * width + P * (P + 1), np.int64)
        self.c, self.G, self.E = c, G, E
        self.memories = [memory for _decl, memory in memories.kept(o)]
        self.S = (c, buf, *core_memories(o, kernel, G), _threat_arena(o, state, kernel))
        self.pvt = _PVTable(buf, c)

    @property
    def root_first(self) -> Any:
        """The previous iteration's best move, tried first at the root."""
        m = int(self.c[template.ROOT_FIRST])
        return None if m == NO_MOVE else m

    @root_first.setter
    def root_first(self, move: Any) -> None:
        self.c[template.ROOT_FIRST] = NO_MOVE if move is None else move

    @property
    def root_partial(self) -> Any:
        """A root move that beat alpha at full depth in the current iteration."""
        m = int(self.c[template.ROOT_PARTIAL])
        return None if m == NO_MOVE else m

    @root_partial.setter
    def root_partial(self, move: Any) -> None:
        self.c[template.ROOT_PARTIAL] = NO_MOVE if move is None else move

    @property
    def root_best(self) -> Any:
        """Best root move of the last finished root search."""
        m = int(self.c[template.ROOT_BEST])
        return None if m == NO_MOVE else m

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The compiled core from the root; raises :class:`Abort` (nothing to undo) on a limit."""
        self.c[template.ABORT] = 0
        for memory in self.memories:
            memory.written()
        hooks = self.core._HOOKS
        hooks.append((self.stop_check, self.on_root_move))
        try:
            v = self.core.negamax(self.G, self.E, self.S, depth, alpha, beta, ply, 0, 0)
        finally:
            hooks.pop()
            if self.threats is not None:            # the horizon's threat nodes
                self.threats.nodes += int(self.c[template.THREAT_NODES])
                self.c[template.THREAT_NODES] = 0
        if self.c[template.ABORT]:
            raise Abort(0)
        return int(v)

    def counters(self) -> dict[str, int]:
        c = dict.fromkeys(_COUNTERS, 0)
        c.update({k: int(self.c[i]) for k, i in _IDX.items()})
        return c

    def add_root(self) -> None:
        """Count the root visit of one more pass (iteration, window, re-search)."""
        self.c[template.NODES] += 1

    def add_research(self) -> None:
        self.c[template.RESEARCHES] += 1

    def _write_replies(self, checked: list) -> None:
        """The root moves' reply checks, sorted moves then their plies, where the core
        looks them up (room for every root move :meth:`root_lost` may add)."""
        c, r0, k = self.c, int(self.c[template.REPLIES]), len(checked)
        c[template.N_REPLIES] = k
        c[r0:r0 + k] = [m for m, _n in checked]
        c[r0 + k:r0 + 2 * k] = [n for _m, n in checked]

    def root_lost(self, move, plies: int) -> None:
        """Root ``move`` allows an opponent VCT of ``plies`` plies: the core scores it lost
        from its next visit of the root on (the table is rewritten in place)."""
        r0, k = int(self.c[template.REPLIES]), int(self.c[template.N_REPLIES])
        old = dict(zip(self.c[r0:r0 + k].tolist(), self.c[r0 + k:r0 + 2 * k].tolist()))
        old[move] = plies
        checked = sorted(old.items())
        if r0 + 2 * len(checked) > len(self.c):
            raise RuntimeError("no room for another root move's reply check")
        self._write_replies(checked)
