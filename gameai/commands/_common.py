"""Shared CLI helpers: building a game from --game/--fen/--moves options."""
from __future__ import annotations

import argparse

from ..registry import load_game


def add_game_options(p: argparse.ArgumentParser, default: str = "xiangqi") -> None:
    p.add_argument("--game", default=default, help=f"game spec (default {default})")
    p.add_argument("--fen", help="Xiangqi FEN of the position")
    p.add_argument("--moves", help="moves played from the start, space separated")


def game_from_args(args: argparse.Namespace):
    params = {}
    if args.fen is not None:   # an empty --fen is an error, never the start position
        params["fen"] = args.fen
    if args.moves:
        params["moves"] = args.moves
    return load_game(args.game, **params)


def limit_options(args: argparse.Namespace) -> dict:
    """The ``--depth``/``--nodes``/``--time`` options given, checked against what a
    searcher takes (time > 0 and at most a day, nodes and depth >= 1): a SpecError naming
    the option, before any search starts."""
    from ..errors import SpecError
    from ..spec import Depth, Nodes, Seconds, convert, describe
    limits = {}
    for key, tp in (("depth", Depth), ("nodes", Nodes), ("time", Seconds)):
        value = getattr(args, key, None)
        if value is None:
            continue
        try:
            limits[key] = convert("", key, value, tp, False)
        except SpecError:
            wanted = ("a finite number of seconds > 0 and <= 86400 (a day)" if key == "time"
                      else describe(tp))
            raise SpecError(f"--{key} {value!r}: expected {wanted}") from None
    return limits


class compile_notice:
    """``with compile_notice("gameai search"):`` says on stderr when a numba kernel starts
    compiling inside the block (an empty or outdated disk cache: half a minute to a few
    minutes, once), and how long the block then took, so a cold start is never a silent
    wait; from a warm cache it says nothing."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __enter__(self):
        import sys
        import time

        from ..prepare import counting_compiles

        def started() -> None:
            self.t0 = time.perf_counter()
            print(f"{self.command}: preparing: compiling the search's kernels, once on this "
                  "machine (half a minute to a few minutes; 'gameai prepare' does it ahead)",
                  file=sys.stderr, flush=True)
        self.t0 = None
        self._cm = counting_compiles(on_first=started)
        self._cm.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        import sys
        import time
        self._cm.__exit__(*exc)
        if self.t0 is not None and exc[0] is None:
            print(f"{self.command}: prepared in {time.perf_counter() - self.t0:.1f} s",
                  file=sys.stderr, flush=True)
