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
    if args.fen:
        params["fen"] = args.fen
    if args.moves:
        params["moves"] = args.moves
    return load_game(args.game, **params)
