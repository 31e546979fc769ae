"""One registry style for games, searchers, evaluators and players (as OpenSpiel does).

Entries are registered lazily as ``"module:attribute"`` strings so that importing
``gameai`` stays cheap and a layer never imports the layers above it. A factory is any
callable; its keyword parameters are the spec's parameters, checked before the call so
that a typo names itself and lists what exists, and every value is validated against the
parameter's annotation (see :mod:`gameai.spec`: booleans, bounded numbers, choices,
``X | None``; callables only as Python keywords).

The catalogs that fill the tables are imported on first use of a table, not by this
module at import time, so ``registry`` and the catalogs do not import each other in a
circle; a catalog that fails to import is an error, never silently skipped.
"""
from __future__ import annotations

import importlib
import inspect
import sys
from typing import Any, Callable

from . import presets
from .errors import SpecError
from .spec import convert, parse_spec, parse_spec_text

#: The catalog module that registers each kind's built-in names (imported on first use).
_CATALOGS = {"game": "gameai.games.catalog", "evaluator": "gameai.evaluators.catalog",
             "searcher": "gameai.search.catalog", "player": "gameai.players.catalog",
             "part": "gameai.search.catalog"}


#: Parameters that were measured, dropped and deleted: ``(kind, parameter) -> (the names
#: that took it, why, the last commit that has its code)``. A spec that still uses one is
#: refused by name, with that commit and the research note that gives the measurement, so
#: an old command line fails clearly instead of as an unknown parameter.
REMOVED_IN = "b5b5232"          #: the threat levers and the tempo term
_NEGAMAX = ("minimax", "alphabeta", "negascout", "mtdf")
REMOVED: dict[tuple[str, str], tuple[tuple[str, ...], str, str]] = {
    **{("searcher", p): (_NEGAMAX, why, REMOVED_IN) for p, why in (
        ("threat_quiet", "the quiet-move refutation check"),
        ("threat_swindle", "searching on among proven-lost root moves"),
        ("threat_shape", "the double-threat horizon term"),
        ("threat_extend", "threat extensions"),
        ("threat_deepen", "reply checks without iterative deepening (they always deepen now)"),
        ("threat_pn", "the df-pn check of the move played"))},
    ("searcher", "pn"): (("vcf", "vct"), "df-pn threat search", REMOVED_IN),
    ("evaluator", "tempo"): (("gomoku.patterns",), "the side-to-move tempo term", REMOVED_IN),
    ("searcher", "lmp"): (_NEGAMAX, "late-move pruning", "04e903a"),
    **{("searcher", p): (_NEGAMAX, why, "b6b1c93") for p, why in (
        ("lmr_log", "the logarithmic late-move-reduction table"),
        ("razoring", "razoring"),
        ("null_verify", "null-move verification"))},
}


def removed_message(kind: str, name: str, params: list[str]) -> str | None:
    """The error for ``params`` of ``kind`` ``name`` that :data:`REMOVED` lists, or None."""
    gone = [(p, *REMOVED[(kind, p)][1:]) for p in params
            if (kind, p) in REMOVED and name in REMOVED[(kind, p)][0]]
    if not gone:
        return None
    what = "; ".join(f"{p} ({why}; its code last lived in commit {commit})"
                     for p, why, commit in gone)
    return (f"{kind} {name!r}: parameter(s) removed: {what}. Each was measured, made no "
            "player stronger and was deleted; the measurements are in the research notes "
            "(docs/notes/dropped-levers.md)")


class Registry:
    """Name -> factory table for one kind of thing (``"game"``, ``"searcher"``, ...)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, str | Callable[..., Any]] = {}
        self._defaults: dict[str, dict[str, Any]] = {}
        self._docs: dict[str, str] = {}
        self._hints: dict[str, dict[str, Any]] = {}
        self._catalog = _CATALOGS.get(kind)

    def _load_catalog(self) -> None:
        """Import the built-in catalog once (it calls :meth:`register`); errors propagate."""
        if self._catalog is not None:
            importlib.import_module(self._catalog)
            self._catalog = None

    def register(self, name: str, target: str | Callable[..., Any], doc: str = "",
                 **defaults: Any) -> None:
        """Register ``name``; ``defaults`` are parameters preset for this name (aliases)."""
        self._entries[name] = target
        self._defaults[name] = defaults
        self._docs[name] = doc

    def names(self) -> list[str]:
        self._load_catalog()
        return sorted(self._entries)

    def describe(self) -> dict[str, str]:
        return {n: self._docs[n] for n in self.names()}

    def factory(self, name: str) -> Callable[..., Any]:
        self._load_catalog()
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

    def annotations(self, name: str) -> dict[str, Any]:
        """Declared type of each parameter (``inspect.Parameter.empty`` when undeclared);
        a ``**kwargs`` parameter's declaration is stored under the key ``"**"``."""
        hints = self._hints.get(name)
        if hints is None:
            f = self.factory(name)
            namespace = vars(sys.modules[getattr(f, "__module__", "builtins")])
            hints = {}
            for p in inspect.signature(f).parameters.values():
                tp = p.annotation
                if isinstance(tp, str):  # postponed annotations: evaluate in the factory's module
                    try:
                        tp = eval(tp, dict(namespace))  # noqa: S307 (our own source code)
                    except Exception as exc:
                        raise SpecError(f"{self.kind} {name!r}: parameter {p.name} has an "
                                        f"annotation that does not resolve: {exc}") from exc
                if p.kind is p.VAR_KEYWORD:
                    hints["**"] = tp
                elif p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD):
                    hints[p.name] = tp
            self._hints[name] = hints
        return hints

    def resolve(self, spec: str, **params: Any) -> tuple[str, dict[str, Any]]:
        """Parse ``spec`` and merge ``params``; return the name and the full parameter dict."""
        name, texts = parse_spec_text(spec)
        dup = set(texts) & set(params)
        if dup:
            raise SpecError(f"{self.kind} {spec!r}: parameter(s) {sorted(dup)} given in the spec and as keywords")
        self.factory(name)  # raises with the list of known names
        accepted = self.parameters(name)
        given = {**self._defaults.get(name, {}), **texts, **params}
        if accepted is not None:
            unknown = sorted(set(given) - set(accepted))
            if unknown:
                gone = removed_message(self.kind, name, unknown)
                if gone is not None:
                    raise SpecError(gone)
                raise SpecError(f"{self.kind} {name!r} has no parameter(s) {unknown}; "
                                f"accepted: {', '.join(accepted) or '(none)'}")
        hints = self.annotations(name)
        owner = f"{self.kind} {name}"
        merged = {}
        for key, value in given.items():
            tp = hints.get(key, hints.get("**", inspect.Parameter.empty))
            merged[key] = convert(owner, key, value, tp, from_text=key in texts)
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
#: parts a searcher attaches at the core's named steps (the Gomoku/Renju threat part)
PARTS = Registry("part")


def load_game(spec: str = "xiangqi", **params: Any):
    """Create a game position from a spec: ``load_game("gomoku(rule=renju)", moves="h8 i9")``."""
    return GAMES.create(spec, **params)


def make_evaluator(spec: str, state=None, **params: Any):
    """Create an evaluator by name, e.g. ``make_evaluator("gomoku.patterns")``.

    With ``state``, check that the evaluator can score that game: an evaluator whose class
    declares ``games = (...)`` (game names) is refused for any other game.
    """
    ev = EVALUATORS.create(spec, **params)
    games = getattr(ev, "games", None)
    if state is not None and games is not None and state.name not in games:
        fits = [n for n in EVALUATORS.names()
                if state.name in getattr(EVALUATORS.factory(n), "games", (state.name,))]
        raise SpecError(f"evaluator {spec!r} scores {', '.join(games)} positions, not "
                        f"{state.name}; for {state.name} use one of: {', '.join(fits)}")
    return ev


def check_evaluator_spec(spec: Any, owner: str = "searcher parameter eval") -> None:
    """Refuse an evaluator spec that builds nothing (empty, unknown name, unknown or bad
    parameter) when the searcher is made, not at its first search; the game fit is
    checked at search time (:func:`make_evaluator` with the position)."""
    if not isinstance(spec, str) or not spec.strip():
        raise SpecError(f"{owner}={spec!r}: expected an evaluator spec; known: "
                        f"{', '.join(EVALUATORS.names())}")
    try:
        EVALUATORS.resolve(spec)
    except SpecError as exc:
        raise SpecError(f"{owner}={spec}: {exc}") from None


def game_name(game: Any) -> str:
    """The name presets are keyed by (``state.name``) of a game spec or a position:
    ``"gomoku(rule=renju)"`` is ``"renju"``."""
    if isinstance(game, str):
        return load_game(game).name
    name = getattr(game, "name", None)
    if not isinstance(name, str):
        raise SpecError(f"game={game!r}: expected a game spec or a position")
    return name


def resolve_preset(spec: str, game: Any = None, timed: bool = True) -> str:
    """The searcher spec behind a preset name (``strong`` for ``game``), else ``spec``
    unchanged; see :mod:`gameai.presets`. ``timed=False`` drops the preset's own time
    limit, for an engine whose GUI sets the clock."""
    if not presets.is_preset(spec):
        return spec
    name = parse_spec_text(spec)[0]
    if name in SEARCHERS.names() or name in PLAYERS.names():
        return spec          # a registered name always wins over a preset
    return presets.expand(spec, None if game is None else game_name(game), timed)


def _unknown(spec: str, game: Any, kinds: tuple[Registry, ...]) -> None:
    """With a game given, a name no registry of ``kinds`` holds (and no preset) is refused
    with the presets and the registries' names, so a mistyped preset lists the presets."""
    if game is None:
        return
    name = parse_spec_text(spec)[0]
    if not any(name in reg.names() for reg in kinds):
        what = ", ".join(reg.kind for reg in kinds)
        known = "; ".join(f"{reg.kind}s: {', '.join(reg.names())}" for reg in kinds)
        raise SpecError(f"unknown {what} or preset {name!r}; presets: {presets.available()}; "
                        f"{known}")


def make_searcher(spec: str, game: Any = None, **params: Any) -> Any:
    """Create a searcher, e.g. ``make_searcher("negascout(depth=5,tt=true)")``; a preset
    needs the game: ``make_searcher("strong", game="xiangqi")``."""
    spec = resolve_preset(spec, game)
    _unknown(spec, game, (SEARCHERS,))
    return SEARCHERS.create(spec, **params)


def make_player(spec: str, game: Any = None, **params: Any) -> Any:
    """Create a player: any searcher spec, a player name such as ``random``, or a preset
    of ``game`` (``make_player("strong", game="renju")``)."""
    given, spec = spec, resolve_preset(spec, game)
    _unknown(spec, game, (PLAYERS, SEARCHERS))
    name, _ = parse_spec(spec)
    if name not in PLAYERS.names() and name in SEARCHERS.names():
        if spec != given:            # a preset: its short name, not the long spec
            params.setdefault("name", given)
        return PLAYERS.create("search", searcher=spec, **params)
    return PLAYERS.create(spec, **params)
