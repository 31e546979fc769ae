"""Compile ahead: every preset's numba kernels into the disk cache, before anyone waits.

numba compiles a kernel on its first call; with an empty cache the first compiled search
of the Xiangqi strong preset spends about 25 s compiling and the Gomoku/Renju threat
player about 70 s, and a later process loads the same kernels from the disk cache
(:mod:`gameai.compiled.jit`) in under a second. :func:`prepare` does that first call for
every preset ahead of time (``gameai prepare``, a set-up step); :func:`on_first_compile`
lets ``gameai play`` and ``gameai engine`` say that they are compiling when a cold cache
reaches them anyway.

This module is not a kernel source (nothing under :mod:`gameai.compiled` imports it), so
editing it does not empty the kernel cache.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

from .errors import SpecError
from .presets import PRESETS, preset_names

def check_cache_dir() -> str | None:
    """The kernel cache folder (:func:`gameai.compiled.jit.cache_dir`), made if missing and
    checked writable; a :class:`~gameai.errors.GameError` naming it and
    ``GAMEAI_CACHE_DIR`` when it cannot hold kernels (a file, a read-only folder), before
    minutes of compiling that could not be kept. None without numba (nothing is cached)."""
    import os
    import tempfile

    from .compiled import AVAILABLE
    from .compiled.jit import cache_dir
    from .errors import GameError
    if not AVAILABLE:
        return None
    path = cache_dir().rstrip("/")
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        env = os.environ.get("GAMEAI_CACHE_DIR")
        where = f"GAMEAI_CACHE_DIR={env}" if env else "the default kernel cache folder"
        raise GameError(f"{where} cannot hold compiled kernels: {path}: "
                        f"{exc.strerror or exc}; set GAMEAI_CACHE_DIR to a writable folder "
                        "(nothing was compiled)") from None
    return path


#: The games with presets, in the order ``gameai prepare`` compiles them.
GAMES = tuple(dict.fromkeys(p.game for p in PRESETS))


@contextmanager
def on_first_compile(callback: Callable[[], None]) -> Iterator[None]:
    """Run the block and call ``callback()`` once, when numba starts compiling a kernel
    in it: not for a kernel loaded from the disk cache (which sends no compile event),
    nor for an ``objmode`` block (compiled in milliseconds in every process). Without
    numba the block just runs. The listener is process-wide: a compile in another thread
    meanwhile calls it too."""
    with counting_compiles(on_first=callback):
        yield


@contextmanager
def counting_compiles(on_first: Callable[[], None] | None = None) -> Iterator[list[int]]:
    """The block's number of kernels compiled from source (``objmode`` blocks and disk
    cache loads not counted), in the returned one-item list once the block ends;
    ``on_first()`` is called when the first of them starts compiling."""
    from .compiled import AVAILABLE
    box = [0]
    if not AVAILABLE:
        yield box
        return
    from numba.core import event
    from numba.core.dispatcher import LiftedCode

    class _Count(event.Listener):
        def on_start(self, ev) -> None:
            if not isinstance(ev.data.get("dispatcher"), LiftedCode):
                box[0] += 1
                if box[0] == 1 and on_first is not None:
                    on_first()

        def on_end(self, ev) -> None:
            pass

    with event.install_listener("numba:compile", _Count()):
        yield box


@dataclass(frozen=True)
class Prepared:
    """What :func:`prepare` did for one preset of one game."""

    game: str
    preset: str
    backend: str        #: ``compiled``, or ``python`` (nothing to compile)
    seconds: float      #: wall seconds of the searcher's ``prepare``
    compiled: int       #: kernels compiled from source (0: all loaded from the disk cache)

    def line(self) -> str:
        """One line for the terminal."""
        if self.backend != "compiled":
            return f"{self.game:<8} {self.preset:<7} nothing to compile ({self.backend} backend)"
        what = (f"compiled {self.compiled} kernels" if self.compiled
                else "loaded from the disk cache")
        return f"{self.game:<8} {self.preset:<7} {what} in {self.seconds:.1f} s"


def check(games: list[str] | None, presets: list[str] | None) -> tuple[list[str], list[str]]:
    """The games and presets to prepare (all when None), or a :class:`SpecError` naming
    the unknown one and what exists."""
    games = list(dict.fromkeys(games or GAMES))
    for g in games:
        if g not in GAMES:
            raise SpecError(f"unknown game {g!r} (games with presets: {', '.join(GAMES)})")
    presets = list(dict.fromkeys(presets or preset_names()))
    for p in presets:
        if p not in preset_names():
            raise SpecError(f"unknown preset {p!r} (presets: {', '.join(preset_names())})")
    return games, presets


def prepare(games: list[str] | None = None, presets: list[str] | None = None,
            report: Callable[[Prepared], None] | None = None) -> list[Prepared]:
    """Compile (or load) the kernels of each preset of each game into the disk cache,
    as its searcher's ``prepare`` does before a first timed search; ``report`` is called
    after each. Idempotent: a second run loads everything in seconds."""
    from .registry import load_game, make_searcher
    games, presets = check(games, presets)
    done = []
    for game in games:
        for name in presets:
            if not any(p.name == name and p.game == game for p in PRESETS):
                continue
            searcher = make_searcher(name, game=game)
            backend = getattr(searcher, "backend", "python")
            t = time.perf_counter()
            with counting_compiles() as n:
                if backend == "compiled":
                    searcher.prepare(load_game(game))
            done.append(Prepared(game, name, backend, time.perf_counter() - t, n[0]))
            if report is not None:
                report(done[-1])
    return done
