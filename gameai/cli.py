"""gameai: game-tree search research toolkit (Xiangqi, Gomoku/Renju, synthetic trees).

Each subcommand is a module in ``gameai.commands`` that defines ``add_parser(subparsers)``
and ``run(args) -> int``; they are found automatically."""
from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys

from . import __version__, commands
from .errors import GameError


#: Commands that never compile a numba kernel, so never need the kernel cache folder.
_COMPILE_NOTHING = ("list", "tune")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gameai", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"gameai {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        p = module.add_parser(sub)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        if args.command not in _COMPILE_NOTHING:   # an unusable cache: an error, not a
            from .prepare import check_cache_dir   # silent compile of minutes
            check_cache_dir()
        return int(args._run(args) or 0)
    except GameError as exc:
        print(f"gameai {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into head & co.: stop quietly
        sys.stdout = open(os.devnull, "w")
        return 0


if __name__ == "__main__":
    sys.exit(main())
