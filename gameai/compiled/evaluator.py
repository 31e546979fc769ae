"""Own evaluators at compiled speed: a numba function over the game kernel's state.

A **kernel evaluator** is ``fn(G, data) -> int``, a ``numba.njit`` function: ``G`` is the
game kernel's state (what ``kernel.load(state)`` makes: for Xiangqi one int64 array, for
Gomoku/Renju the 1-tuple ``(g,)``; the layouts are in :mod:`gameai.compiled.xiangqi` and
:mod:`gameai.compiled.gomoku_board`) and ``data`` what the evaluator passes with it (its
weights). It returns the score for the side to move, an integer, like any evaluator.

:class:`NumbaEvaluator` wraps such a function (and its weights) as an evaluator that runs
on both backends: on ``backend=python`` it loads the position into the kernel's form and
calls the function, on ``backend=compiled`` the core calls the function at its leaves.
The same function on the same positions gives the same values, so both backends search
the same tree (the node counts are identical; a test checks it).

**Why a core per function.** :func:`compiled_form` gives the core's module name and the
data: ``_core_<kernel>__<hash>``, where ``hash`` is a fingerprint of the function's source,
of the functions and constants it names, recursively (:func:`fingerprint`). The core
template (:mod:`gameai.compiled.core`) loaded under that name calls the function directly,
so numba inlines it as it inlines the built-in evaluators, and caches the compiled core on
disk in its own folder: an edited function gets a new core, an unchanged one loads in a
second. A function passed as an argument (a numba first-class function) would be called
indirectly on every leaf and could not be cached. Weights are data, so new weights never
compile again: ``xiangqi.tuned`` and ``gomoku.tuned`` run compiled this way with any
weights file (:mod:`gameai.compiled.xiangqi_tuned`, :mod:`gameai.compiled.gomoku_tuned`).

The built-in evaluators the kernels know (``xiangqi.pst``, ``gomoku.patterns``, ...) keep
the kernel's own core, unchanged. Anything else is refused by name, never run as
something else.
"""
from __future__ import annotations

import hashlib
import inspect
import types
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import SpecError
from . import builtin_form, kernel_for

#: core name (``<kernel>__<hash>``) -> the kernel evaluator its core calls
FUNCTIONS: dict[str, Any] = {}
_CHECKED: set = set()           # (core name, data's numba type): fn compiled and returned an int
_PRINTS: dict[int, tuple[Any, str]] = {}    # id(fn) -> (fn, its fingerprint)
GUIDE = "docs/guide/add-an-evaluator.md, section 'At compiled speed'"


def _is_jitted(fn: Any) -> bool:
    return hasattr(fn, "py_func") and hasattr(fn, "nopython_signatures")


class NumbaEvaluator:
    """An evaluator whose score is a numba function over the game kernel's state,
    ``fn(G, weights) -> int`` (side to move's view), with ``weights`` a 1-D array of
    numbers it reads (int64 if every weight is an integer, else float64). The same object
    runs on ``backend=python`` (checking) and ``backend=compiled`` (speed) with the same
    values; ``games`` names the games whose kernel layout ``fn`` reads."""

    name = "numba"
    games: tuple[str, ...] | None = None

    def __init__(self, fn: Callable, weights: Sequence[float] | np.ndarray = (), *,
                 name: str | None = None, games: Sequence[str] | None = None) -> None:
        if not _is_jitted(fn):
            shown = getattr(fn, "__name__", type(fn).__name__)
            raise SpecError(f"NumbaEvaluator: {shown!r} is not a numba function; decorate it "
                            "with @numba.njit (it is called with the kernel's state, "
                            f"fn(G, weights) -> int; see {GUIDE})")
        if name is not None:
            self.name = name
        if games is not None:
            self.games = tuple(games)
        if not self.games:
            raise SpecError(f"NumbaEvaluator {self.name!r}: say which games its function "
                            "reads (games=('xiangqi',)): each kernel lays out its board "
                            "differently")
        w = np.asarray(weights)
        if w.ndim != 1 or not (w.size == 0 or np.issubdtype(w.dtype, np.number)) \
                or np.issubdtype(w.dtype, np.complexfloating):
            raise SpecError(f"NumbaEvaluator {self.name!r}: weights must be a flat sequence of "
                            f"numbers, got {weights!r}")
        integral = w.size == 0 or np.issubdtype(w.dtype, np.integer)
        self.fn = fn
        self.weights = np.ascontiguousarray(w, np.int64 if integral else np.float64)

    def kernel_form(self, state: Any) -> tuple[Any, np.ndarray]:
        """The kernel evaluator and its data (:func:`compiled_form`)."""
        return self.fn, self.weights

    def __call__(self, state: Any) -> int:
        """The function on ``state`` loaded into its kernel's form (the Python backend)."""
        return _integer(self.fn(_load(state), self.weights), self.name)


def _load(state: Any) -> Any:
    kernel = kernel_for(state)
    if kernel is None or not hasattr(kernel, "load"):
        raise SpecError(f"a kernel evaluator needs a compiled kernel; the game "
                        f"{state.name!r} has none")
    return kernel.load(state)


def _integer(v: Any, name: str) -> int:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise SpecError(f"the kernel evaluator {name!r} returned {type(v).__name__} {v!r}; an "
                        "evaluator returns an integer (round inside the function: "
                        "int(np.rint(v)))")
    return int(v)


def compiled_form(ev: Any, state: Any, kernel: types.ModuleType, *,
                  check_only: bool = False) -> tuple[str, Any]:
    """``(core name, E)`` for evaluator ``ev`` on ``state``'s ``kernel``: the kernel's own
    core for an evaluator it knows, else the core of ``ev``'s kernel evaluator. A
    SpecError names an evaluator without a compiled form and one whose function cannot
    run compiled. ``check_only``: no function is compiled (a tournament's pre-check)."""
    short = kernel.__name__.rsplit(".", 1)[1]
    E = kernel.evaluator(ev, state)
    if E is not None:
        return short, E
    shown = getattr(ev, "name", None) or type(ev).__name__
    form = builtin_form(ev, state)
    if form is None:
        own = getattr(ev, "kernel_form", None)
        if not callable(own):
            raise SpecError(f"backend=compiled: the evaluator {shown!r} has no compiled form "
                            f"for {state.name}: a Python evaluator runs on backend=python "
                            "only; for compiled speed write it as a numba function over the "
                            f"kernel's state (gameai.compiled.evaluator.NumbaEvaluator, {GUIDE})")
        form = own(state)
    fn, data = form
    if not _is_jitted(fn):
        raise SpecError(f"backend=compiled: the evaluator {shown!r} gave {fn!r} as its kernel "
                        "function, which is not a numba function (@numba.njit)")
    printed = _PRINTS.get(id(fn))
    if printed is None or printed[0] is not fn:      # once per function object
        printed = _PRINTS[id(fn)] = (fn, fingerprint(fn))
    core = f"{short}__{printed[1]}"
    FUNCTIONS[core] = fn
    if not check_only:
        _check_runs(fn, data, state, kernel, core, shown)
    return core, data


def _check_runs(fn: Any, data: Any, state: Any, kernel: types.ModuleType, core: str,
                shown: str) -> None:
    """Compile ``fn`` for this kernel and data and call it once: a typing error or a
    non-integer score is refused here, naming the evaluator, not deep inside the core."""
    import numba
    key = (core, str(numba.typeof(data)))
    if key in _CHECKED:
        return
    try:
        v = fn(kernel.load(state), data)
    except numba.core.errors.NumbaError as exc:
        first = str(exc).strip().splitlines()
        raise SpecError(f"backend=compiled: numba cannot compile the evaluator {shown!r}'s "
                        f"function {fn.__name__}(G, data) for the {state.name} kernel: "
                        f"{first[0] if first else type(exc).__name__}") from None
    _integer(v, shown)
    _CHECKED.add(key)


def fingerprint(fn: Any) -> str:
    """A hash of ``fn``'s source and of what it names: the functions it calls (their
    sources, recursively), constants, arrays and the modules' attributes it reads. It
    names the cache folder of the core built for ``fn``, so an edit to any of them
    compiles a new core. SpecError when a source cannot be read (a function typed at an
    interactive prompt): without it the cache could not tell an edited function from the
    old one."""
    h = hashlib.sha256()
    seen: set[int] = set()

    def value(name: str, v: Any, depth: int) -> None:
        if isinstance(v, (bool, int, float, complex, str, bytes, type(None))) \
                or (isinstance(v, tuple) and all(isinstance(x, (bool, int, float, str)) for x in v)):
            h.update(f"{name}={v!r};".encode())
        elif isinstance(v, np.ndarray):
            h.update(f"{name}=array{v.dtype}{v.shape};".encode())
            h.update(np.ascontiguousarray(v).tobytes())
        elif isinstance(v, np.generic):
            h.update(f"{name}={v!r};".encode())
        elif _is_jitted(v) or isinstance(v, types.FunctionType):
            function(v)
        elif isinstance(v, types.ModuleType) and depth == 0:
            h.update(f"{name}=module {v.__name__};".encode())
            for attr in sorted(names):              # the attributes it may read
                if hasattr(v, attr):
                    value(f"{name}.{attr}", getattr(v, attr), 1)

    def function(f: Any) -> None:
        py = getattr(f, "py_func", f)
        if id(py) in seen:
            return
        seen.add(id(py))
        try:
            src = inspect.getsource(py)
        except (OSError, TypeError) as exc:
            raise SpecError(f"kernel evaluator {getattr(py, '__qualname__', py)!r}: cannot read "
                            f"its source ({exc}); define it in a file or a notebook cell, "
                            "whose source names its compiled core's cache") from None
        h.update(f"{py.__module__}.{py.__qualname__}\n{src}".encode())
        code_names: set[str] = set()
        todo = [py.__code__]
        while todo:
            code = todo.pop()
            code_names.update(code.co_names)
            todo += [c for c in code.co_consts if isinstance(c, types.CodeType)]
        names.update(code_names)
        for name in sorted(code_names):
            if name in py.__globals__:
                value(name, py.__globals__[name], 0)
        for name, cell in zip(py.__code__.co_freevars, py.__closure__ or ()):
            value(name, cell.cell_contents, 0)

    names: set[str] = set()
    function(fn)
    return h.hexdigest()[:16]
