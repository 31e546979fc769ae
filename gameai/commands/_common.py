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
