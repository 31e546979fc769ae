"""gameai prepare: compile every preset's numba kernels into the disk cache, ahead of use.

Run once after installing (and after an update of the package, whose new sources get a
cache folder of their own): the first compiled search of a later process then loads its
kernels in about a second instead of compiling them for half a minute to a minute and
more. Prints what it did per game and preset; a second run only loads (seconds).
"""
from __future__ import annotations

import time


def add_parser(sub):
    p = sub.add_parser("prepare", help="compile every preset's kernels into the disk cache "
                                       "(once after install: later first searches load them in "
                                       "about a second)",
                       description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", metavar="G",
                   help="only this game (repeatable): xiangqi, gomoku or renju (default all)")
    p.add_argument("--preset", action="append", metavar="P",
                   help="only this preset (repeatable), e.g. strong (default all)")
    return p


def run(args) -> int:
    from ..compiled import AVAILABLE, REASON
    from ..compiled.jit import cache_dir
    from ..prepare import check, prepare
    games, presets = check(args.game, args.preset)       # bad names fail before any work
    if not AVAILABLE:
        print(f"gameai prepare: nothing to compile: {REASON}; the compiled presets run on the "
              "Python backend")
        return 0
    print(f"gameai prepare: kernel cache {cache_dir().rstrip('/')}", flush=True)
    t = time.perf_counter()
    prepare(games, presets, report=lambda done: print(f"  {done.line()}", flush=True))
    print(f"gameai prepare: done in {time.perf_counter() - t:.1f} s", flush=True)
    return 0
