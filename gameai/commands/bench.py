"""gameai bench NAME: run a speed benchmark from experiments/ (prints rates and ratios)."""
from __future__ import annotations

import importlib
import pkgutil

from .reproduce import experiments_package


def _names() -> list[str]:
    return sorted(i.name[len("bench_"):] for i in pkgutil.iter_modules(experiments_package().__path__)
                  if i.name.startswith("bench_"))


def add_parser(sub):
    p = sub.add_parser("bench", help="speed benchmarks with peers side by side: " + ", ".join(_names()))
    p.add_argument("name", choices=_names(), help="which benchmark: %(choices)s")
    p.add_argument("args", nargs="*", help="arguments passed to the benchmark (use -- before options)")
    return p


def run(args) -> int:
    module = importlib.import_module(f"{experiments_package().__name__}.bench_{args.name}")
    return int(module.main(args.args) or 0)
