"""numba, cached on disk, and what to do without it.

Every kernel function is decorated with :func:`jit` (``numba.njit(cache=True)``). The
on-disk cache lives in ``$GAMEAI_CACHE_DIR`` (default ``~/.cache/gameai``) under a
folder named by a hash of this package's sources: numba's own cache does not notice a
change in a *called* function's file, so an edited kernel must never meet a stale
compiled caller. ``tag`` separates the caches of one source compiled several times
(the negamax core, once per game).

Without numba (not installable on some platform) :data:`AVAILABLE` is False,
:data:`REASON` says why, and the searchers fall back to the Python reference with one
warning (:func:`fallback_warning`).
"""
from __future__ import annotations

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


def _source_hash() -> str:
    h = hashlib.sha256()
    for p in sorted(_HERE.glob("*.py")):
        h.update(p.name.encode())
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
