"""numba, cached on disk, and what to do without it.

Every kernel function is decorated with :func:`jit` (``numba.njit(cache=True)``). The
on-disk cache lives in ``$GAMEAI_CACHE_DIR`` (default ``~/.cache/gameai``) under a
folder named by a hash of the sources a kernel reads (this package and every ``gameai``
module it imports, transitively: constants such as ``MATE`` or the LMR limits live in
the Python reference): numba's own cache does not notice a change in a *called*
function's file or an imported constant, so an edited kernel must never meet a stale
compiled caller. ``tag`` separates the caches of one source compiled several times
(the negamax core, once per game).

Without numba (not installable on some platform) :data:`AVAILABLE` is False,
:data:`REASON` says why, and the searchers fall back to the Python reference with one
warning (:func:`fallback_warning`).
"""
from __future__ import annotations

import ast
import functools
import hashlib
import os
import warnings
from pathlib import Path

_HERE = Path(__file__).resolve().parent

try:
    import numba
    AVAILABLE, REASON = True, ""
except Exception as exc:  # ImportError, or a broken llvmlite
    numba = None
    AVAILABLE, REASON = False, f"numba cannot be imported ({type(exc).__name__}: {exc})"


def kernel_sources(root: Path = _HERE.parent) -> list[Path]:
    """The files a kernel may read: ``compiled/*.py`` under the package ``root`` and the
    modules of that package they import (any import statement, lazy ones too),
    transitively."""
    top = root.parent

    def path_of(name: str) -> Path | None:
        p = top.joinpath(*name.split("."))
        for cand in (p / "__init__.py", p.with_suffix(".py")):
            if cand.is_file():
                return cand
        return None

    todo = [f"{root.name}.compiled.{p.stem}" for p in (root / "compiled").glob("*.py")]
    seen: dict[str, Path] = {}
    while todo:
        name = todo.pop()
        p = None if name in seen else path_of(name)
        if p is None:
            continue
        seen[name] = p
        package = name.split(".") if p.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(ast.parse(p.read_bytes())):
            if isinstance(node, ast.ImportFrom):
                base = package[:len(package) - node.level + 1] if node.level else []
                mod = ".".join(base + ([node.module] if node.module else []))
                todo += [mod, *(f"{mod}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                todo += [a.name for a in node.names]
    return sorted(set(seen.values()))


@functools.cache
def _source_hash(root: Path = _HERE.parent) -> str:
    h = hashlib.sha256()
    for p in kernel_sources(root):
        h.update(p.relative_to(root).as_posix().encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def cache_dir(tag: str = "") -> str:
    """The folder holding compiled kernels for the current sources (and ``tag``)."""
    base = os.environ.get("GAMEAI_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "gameai")
    return os.path.join(base, "numba", _source_hash(), tag)


def jit(fn=None, *, tag: str = "", **options):
    """``numba.njit(cache=True, **options)`` with the cache in :func:`cache_dir`; identity
    without numba. ``inline="always"`` suits small helpers in hot loops: a call between
    jitted functions reference-counts every array argument (two atomic operations each),
    and numba's ``_nrt=False`` drops that counting in functions that allocate nothing."""
    def wrap(f):
        if not AVAILABLE:
            return f
        from numba.core import config
        old = config.CACHE_DIR
        config.CACHE_DIR = cache_dir(tag)     # read once, when the dispatcher is made
        try:
            return numba.njit(cache=True, **options)(f)
        finally:
            config.CACHE_DIR = old
    return wrap(fn) if fn is not None else wrap


_warned = False


def fallback_warning(what: str) -> None:
    """Warn once per process that ``what`` runs on the Python reference instead."""
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(f"gameai: {REASON}; {what} uses the Python backend instead",
                      RuntimeWarning, stacklevel=3)
