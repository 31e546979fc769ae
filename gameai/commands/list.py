"""gameai list: what the registries hold, with each parameter's default and allowed values."""
from __future__ import annotations

import inspect

from ..presets import PRESETS
from ..registry import EVALUATORS, GAMES, PLAYERS, SEARCHERS
from ..spec import describe


def add_parser(sub):
    p = sub.add_parser("list", help="list the presets with their spec strings, and the registered games, "
                                    "searchers, evaluators and players with each parameter's "
                                    "default and allowed values")
    p.add_argument("--brief", action="store_true", help="names and descriptions only")
    return p


def parameter_rows(reg, name: str) -> list[tuple[str, str, str]]:
    """``(parameter, default, allowed values)`` for each parameter of ``name`` in ``reg``;
    defaults preset by the registration (aliases such as ``renju``) win over the signature's."""
    sig = inspect.signature(reg.factory(name))
    hints = reg.annotations(name)
    preset = reg._defaults.get(name, {})
    rows = []
    for p in sig.parameters.values():
        if p.kind is p.VAR_KEYWORD:
            rows.append(("**", "", "any further keyword" + (
                f" ({describe(hints['**'])})" if hints.get("**", p.empty) is not p.empty else "")))
            continue
        if p.kind not in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
            continue
        default = preset.get(p.name, p.default)
        shown = "(required)" if default is p.empty else _text(default)
        tp = hints.get(p.name, p.empty)
        rows.append((p.name, shown, "" if tp is p.empty else describe(tp)))
    return rows


def _text(v) -> str:
    if isinstance(v, bool):
        return str(v).lower()
    if v is None:
        return "none"
    if isinstance(v, str):
        return repr(v) if v == "" or any(c in v for c in ",() ") else v
    return str(v)


def run(args) -> int:
    print("presets (a name for the player/searcher spec shown, once the game is known):")
    for p in PRESETS:
        print(f"  {p.name} [{p.game}]  {p.spec}")
        if not args.brief:
            print(f"      {p.doc}")
    for reg in (GAMES, SEARCHERS, EVALUATORS, PLAYERS):
        print(f"{reg.kind}s:")
        for name, doc in reg.describe().items():
            print(f"  {name}  {doc}")
            if args.brief:
                continue
            for pname, default, allowed in parameter_rows(reg, name):
                print(f"      {pname:<16} default {default:<12} {allowed}")
    return 0
