"""One registry style for games, searchers, evaluators and players (as OpenSpiel does).

Entries are registered lazily as ``"module:attribute"`` strings so that importing
``gameai`` stays cheap and a layer never imports the layers above it. A factory is any
callable; its keyword parameters are the spec's parameters, checked before the call so
that a typo names itself and lists what exists.
"""
from __future__ import annotations

import importlib
import inspect
from typing import Any, Callable

from .errors import SpecError
from .spec import parse_spec


class Registry:
    """Name -> factory table for one kind of thing (``"game"``, ``"searcher"``, ...)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, str | Callable[..., Any]] = {}
        self._defaults: dict[str, dict[str, Any]] = {}
        self._docs: dict[str, str] = {}

    def register(self, name: str, target: str | Callable[..., Any], doc: str = "",
                 **defaults: Any) -> None:
        """Register ``name``; ``defaults`` are parameters preset for this name (aliases)."""
        self._entries[name] = target
        self._defaults[name] = defaults
        self._docs[name] = doc

    def names(self) -> list[str]:
        return sorted(self._entries)

    def describe(self) -> dict[str, str]:
        return {n: self._docs[n] for n in self.names()}

    def factory(self, name: str) -> Callable[..., Any]:
        if name not in self._entries:
            raise SpecError(f"unknown {self.kind} {name!r}; known: {', '.join(self.names())}")
        target = self._entries[name]
        if isinstance(target, str):
            module, _, attr = target.partition(":")
            target = getattr(importlib.import_module(module), attr)
            self._entries[name] = target
        return target

    def parameters(self, name: str) -> list[str] | None:
        """Accepted parameter names, or None when the factory takes any keyword."""
        sig = inspect.signature(self.factory(name))
        if any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values()):
            return None
        return [p.name for p in sig.parameters.values()
                if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]

    def resolve(self, spec: str, **params: Any) -> tuple[str, dict[str, Any]]:
        """Parse ``spec`` and merge ``params``; return the name and the full parameter dict."""
        name, parsed = parse_spec(spec)
        dup = set(parsed) & set(params)
        if dup:
            raise SpecError(f"{self.kind} {spec!r}: parameter(s) {sorted(dup)} given in the spec and as keywords")
        merged = {**self._defaults.get(name, {}), **parsed, **params} if name in self._entries else {}
        if name not in self._entries:
            self.factory(name)  # raises with the list of known names
        accepted = self.parameters(name)
        if accepted is not None:
            unknown = sorted(set(merged) - set(accepted))
            if unknown:
                raise SpecError(f"{self.kind} {name!r} has no parameter(s) {unknown}; "
                                f"accepted: {', '.join(accepted) or '(none)'}")
        return name, merged

    def create(self, spec: str, **params: Any) -> Any:
        """Build the thing a spec names: ``create("gomoku(rule=renju)")``."""
        name, merged = self.resolve(spec, **params)
        try:
            return self.factory(name)(**merged)
        except TypeError as exc:  # a missing/mistyped argument inside the factory
            raise SpecError(f"{self.kind} {spec!r}: {exc}") from exc


GAMES = Registry("game")
SEARCHERS = Registry("searcher")
EVALUATORS = Registry("evaluator")
PLAYERS = Registry("player")

# Built-in entries live in one small catalog module per layer, each registering lazy
# "module:attribute" targets, so each layer owns its names and nothing heavy is imported.
_CATALOGS = ("gameai.games.catalog", "gameai.evaluators.catalog",
             "gameai.search.catalog", "gameai.players.catalog")
for _mod in _CATALOGS:
    try:
        importlib.import_module(_mod)
    except ModuleNotFoundError as _exc:  # a layer not yet present in this checkout
        if _exc.name != _mod:
            raise


def load_game(spec: str = "xiangqi", **params: Any):
    """Create a game position from a spec: ``load_game("gomoku(rule=renju)", moves="h8 i9")``."""
    return GAMES.create(spec, **params)


def make_evaluator(spec: str, **params: Any):
    """Create an evaluator by name, e.g. ``make_evaluator("gomoku.patterns")``."""
    return EVALUATORS.create(spec, **params)


def make_searcher(spec: str, **params: Any):
    """Create a searcher, e.g. ``make_searcher("negascout(depth=5,tt=true)")``."""
    return SEARCHERS.create(spec, **params)


def make_player(spec: str, **params: Any):
    """Create a player: any searcher spec, or a player name such as ``random``."""
    name, _ = parse_spec(spec)
    if name not in PLAYERS.names() and name in SEARCHERS.names():
        return PLAYERS.create("search", searcher=spec, **params)
    return PLAYERS.create(spec, **params)
