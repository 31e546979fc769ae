"""gameai bench NAME: run a speed benchmark from benchmarks/ (prints rates and ratios)."""
from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def benchmarks_package() -> ModuleType:
    """The speed benchmarks: ``gameai.benchmarks`` once installed (pyproject maps the
    repository's ``benchmarks/`` folder there), or the top-level ``benchmarks`` package of
    a source checkout run with ``PYTHONPATH=.`` (not installed)."""
    try:
        return importlib.import_module("gameai.benchmarks")
    except ModuleNotFoundError as exc:
        if exc.name != "gameai.benchmarks":
            raise
        return importlib.import_module("benchmarks")


def _names() -> list[str]:
    return sorted(i.name[len("bench_"):] for i in pkgutil.iter_modules(benchmarks_package().__path__)
                  if i.name.startswith("bench_"))


def add_parser(sub):
    p = sub.add_parser("bench", help="speed benchmarks with peers side by side: " + ", ".join(_names()))
    p.add_argument("name", choices=_names(), help="which benchmark: %(choices)s")
    p.add_argument("args", nargs="*", help="arguments passed to the benchmark (use -- before options)")
    return p


def run(args) -> int:
    module = importlib.import_module(f"{benchmarks_package().__name__}.bench_{args.name}")
    return int(module.main(args.args) or 0)
