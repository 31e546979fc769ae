"""gameai list: what the registries hold (games, searchers, evaluators, players)."""
from __future__ import annotations

from ..registry import EVALUATORS, GAMES, PLAYERS, SEARCHERS


def add_parser(sub):
    return sub.add_parser("list", help="list registered games, searchers, evaluators and players")


def run(args) -> int:
    for reg in (GAMES, SEARCHERS, EVALUATORS, PLAYERS):
        print(f"{reg.kind}s:")
        for name, doc in reg.describe().items():
            params = reg.parameters(name)
            sig = "(**)" if params is None else f"({', '.join(params)})" if params else ""
            print(f"  {name}{sig}  {doc}")
    return 0
