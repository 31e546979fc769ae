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

A researcher's own code comes in three ways (the guide "Add an evaluator"):

* a Python value: ``make_searcher("alphabeta(depth=3)", eval=my_function)``;
* a reference ``module:attr`` wherever a name goes (``eval=mymod:MyEval``,
  ``make_searcher("mymod:MySearcher(depth=2)")``): the module is imported in the process
  that uses it, so the spec string works in tournament workers and on the command line;
* an installed package's entry points, groups ``gameai.evaluators``, ``gameai.searchers``,
  ``gameai.players`` and ``gameai.games`` (:data:`GROUPS`): their names join the tables.

Names registered at run time with :meth:`Registry.register` live in one process;
:func:`registrations` lists them and :func:`register_all` repeats them in another, which
is how a tournament's worker processes learn them.
"""
from __future__ import annotations

import importlib
import inspect
import sys
import warnings
from typing import Any, Callable

from . import presets
from .errors import SpecError
from .spec import convert, is_reference, parse_spec_text

#: The catalog module that registers each kind's built-in names (imported on first use).
_CATALOGS = {"game": "gameai.games.catalog", "evaluator": "gameai.evaluators.catalog",
             "searcher": "gameai.search.catalog", "player": "gameai.players.catalog",
             "part": "gameai.search.catalog", "backend": "gameai.search.catalog"}

#: The entry-point group from which installed packages add names to each kind's table
#: (``[project.entry-points."gameai.evaluators"] mobility = "mypkg.evals:Mobility"``).
GROUPS = {"game": "gameai.games", "evaluator": "gameai.evaluators",
          "searcher": "gameai.searchers", "player": "gameai.players"}

#: What a reference of each kind must name, for the errors that refuse one.
_EXPECTED = {
    "evaluator": "an evaluator is a class (made with the spec's parameters), a function of "
                 "the position, or an object with __call__(state)",
    "searcher": "a searcher is a class or function that makes an object with "
                "search(state, limits)",
    "player": "a player is a class or function that makes an object with choose(state) "
              "(or a searcher, with search(state, limits))",
    "game": "a game is a class or function that makes a position",
    "part": "a part is a class",
    "backend": "a backend is a class whose objects implement gameai.search.backend.Backend",
}

_BUILTIN_LOADING = [0]   #: > 0 while a built-in catalog registers its names


def load_reference(ref: str, kind: str = "evaluator") -> Any:
    """The object a ``module:attr`` reference names (``attr`` may be dotted), imported in
    this process; a :class:`SpecError` naming the module or attribute that is missing."""
    module, _, attr = ref.partition(":")
    if not module or not attr:
        raise SpecError(f"{kind} {ref!r}: expected module:attr (e.g. mymod:MyEval)")
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        missing = exc.name or module
        if module == missing or module.startswith(missing + "."):
            raise SpecError(
                f"{kind} {ref!r}: no module named {missing!r} in this process; put the "
                "folder that holds it on PYTHONPATH or install its package (a command such "
                "as gameai tournament does not look in the current folder; worker "
                "processes need it too)") from None
        raise SpecError(f"{kind} {ref!r}: importing module {module!r} failed: {exc}") from None
    except Exception as exc:
        raise SpecError(f"{kind} {ref!r}: importing module {module!r} failed: "
                        f"{type(exc).__name__}: {exc}") from None
    obj: Any = mod
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            own = sorted(n for n, v in vars(mod).items() if not n.startswith("_") and
                         callable(v) and getattr(v, "__module__", None) == mod.__name__)
            where = getattr(mod, "__file__", None) or module
            raise SpecError(f"{kind} {ref!r}: module {module!r} ({where}) has no attribute "
                            f"{attr!r}; it defines: {', '.join(own[:30]) or '(nothing callable)'}"
                            ) from None
    return obj


def _ready(obj: Any) -> Callable[[], Any]:
    """The factory of an evaluator that is already made (a function or an object): it takes
    no parameters and returns ``obj`` itself."""
    def ready() -> Any:
        return obj
    ready.ready = obj                                  # type: ignore[attr-defined]
    if getattr(obj, "games", None) is not None:
        ready.games = obj.games                        # type: ignore[attr-defined]
    return ready


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
        self._factories: dict[str, Callable[..., Any]] = {}   # resolved, by name or reference
        self._user: dict[str, tuple[Any, str, dict[str, Any]]] = {}
        self._plugins_loaded = kind not in GROUPS

    def _load_catalog(self) -> None:
        """Import the built-in catalog once (it calls :meth:`register`), then the installed
        packages' entry points; errors propagate."""
        if self._catalog is not None:
            _BUILTIN_LOADING[0] += 1
            try:
                importlib.import_module(self._catalog)
            finally:
                _BUILTIN_LOADING[0] -= 1
            self._catalog = None
        if not self._plugins_loaded:
            self._plugins_loaded = True
            self._load_plugins()

    def _load_plugins(self) -> None:
        """Add the names of the entry-point group :data:`GROUPS` of this kind, lazily (the
        package is imported when its name is first used); a built-in name wins."""
        from importlib.metadata import entry_points
        for ep in entry_points(group=GROUPS[self.kind]):
            dist = getattr(getattr(ep, "dist", None), "name", None) or "an installed package"
            if ep.name in self._entries:
                if self._entries[ep.name] != ep.value:
                    warnings.warn(f"{self.kind} {ep.name!r} from {dist} ({ep.value}) is "
                                  "ignored: the name is taken", stacklevel=3)
                continue
            self._entries[ep.name] = ep.value
            self._defaults[ep.name] = {}
            self._docs[ep.name] = f"from the package {dist} ({ep.value})"

    def register(self, name: str, target: str | Callable[..., Any], doc: str = "",
                 **defaults: Any) -> None:
        """Register ``name``; ``defaults`` are parameters preset for this name (aliases).

        ``target`` is a ``"module:attr"`` string (imported on first use) or the factory
        itself; an evaluator's target may also be a ready evaluator (a function or object).
        A registration made at run time (not by a built-in catalog) is listed by
        :func:`registrations`, so tournaments repeat it in their worker processes."""
        if is_reference(name):
            raise SpecError(f"{self.kind} name {name!r}: a registered name has no ':' (that "
                            "form is a module:attr reference, usable without registering)")
        self._entries[name] = target
        self._defaults[name] = defaults
        self._docs[name] = doc
        self._factories.pop(name, None)
        self._hints.pop(name, None)
        if not _BUILTIN_LOADING[0]:
            self._user[name] = (target, doc, dict(defaults))

    def names(self) -> list[str]:
        self._load_catalog()
        return sorted(self._entries)

    def describe(self) -> dict[str, str]:
        return {n: self._docs[n] for n in self.names()}

    def factory(self, name: str) -> Callable[..., Any]:
        """What makes the thing ``name`` names: a registered name, or a ``module:attr``
        reference imported now (a :class:`SpecError` names a missing module or attribute,
        or a target that is not callable). A reference is looked up again at every call,
        so a module reloaded in a notebook (``importlib.reload``) is seen at once."""
        made = self._factories.get(name)
        if made is not None:
            return made
        if is_reference(name):
            target: Any = load_reference(name, self.kind)
            what = name
        else:
            self._load_catalog()
            if name not in self._entries:
                raise SpecError(f"unknown {self.kind} {name!r}; known: {', '.join(self.names())}")
            target = self._entries[name]
            what = f"{name} ({target})" if isinstance(target, str) else name
            if isinstance(target, str):
                target = load_reference(target, self.kind)
        if self.kind == "evaluator" and not inspect.isclass(target) and callable(target):
            target = _ready(target)                # a function or object: used as it is
        if not callable(target):
            raise SpecError(f"{self.kind} {what!r} is of type {type(target).__name__}, not "
                            f"callable; {_EXPECTED.get(self.kind, 'expected a callable')}")
        if self.kind == "evaluator" and inspect.isclass(target) and \
                not any("__call__" in vars(k) for k in target.__mro__[:-1]):
            raise SpecError(f"evaluator {what!r}: class {target.__name__} has no "
                            "__call__(self, state), so its objects cannot score a position")
        if not is_reference(name):
            self._factories[name] = target
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
            if not is_reference(name):
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
            if unknown and hasattr(self.factory(name), "ready"):
                raise SpecError(f"{self.kind} {name!r} is a ready evaluator (a function or "
                                f"object), so it takes no parameters (given: {unknown}); "
                                "make it a class whose __init__ takes them")
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
#: backends that run the searches besides the Python reference (the compiled one: one
#: adapter module, so the search package imports none of it)
BACKENDS = Registry("backend")


def load_game(spec: str = "xiangqi", **params: Any):
    """Create a game position from a spec: ``load_game("gomoku(rule=renju)", moves="h8 i9")``."""
    return GAMES.create(spec, **params)


REGISTRIES = {r.kind: r for r in (GAMES, SEARCHERS, EVALUATORS, PLAYERS, PARTS, BACKENDS)}

#: One run-time registration: (kind, name, target, doc, defaults).
Registration = tuple[str, str, Any, str, dict[str, Any]]


def registrations() -> tuple[Registration, ...]:
    """The names registered at run time in this process (not by the built-in catalogs nor
    by installed packages), for :func:`register_all` in another process: a tournament
    passes them to its workers with every game, so a name registered in a notebook plays
    with ``jobs=2`` as with one. A target given as an object (not a ``module:attr``
    string) travels by pickling (cloudpickle: a class or function defined in a notebook
    travels by value)."""
    return tuple((r.kind, name, *entry) for r in REGISTRIES.values()
                 for name, entry in r._user.items())


def register_all(regs: tuple[Registration, ...] | list[Registration]) -> None:
    """Repeat :func:`registrations` of another process here (a no-op for those already
    made); an unknown kind is a :class:`SpecError`."""
    for kind, name, target, doc, defaults in regs:
        reg = REGISTRIES.get(kind)
        if reg is None:
            raise SpecError(f"registration of {name!r}: unknown kind {kind!r}")
        if reg._user.get(name) != (target, doc, defaults):
            reg.register(name, target, doc, **defaults)


def _check_evaluator_object(ev: Any, owner: str) -> None:
    """Refuse a Python value given as an evaluator that cannot score a position."""
    if inspect.isclass(ev):
        raise SpecError(f"{owner}={ev.__name__}: a class, not an evaluator; pass an "
                        f"instance ({ev.__name__}()) or a spec string")
    if not callable(ev):
        raise SpecError(f"{owner}={ev!r}: expected an evaluator spec (a registered name or "
                        "module:attr) or a callable ev(state) -> number")


def _check_fit(ev: Any, label: str, state: Any) -> None:
    """An evaluator whose ``games`` (game names) lacks ``state``'s game is refused, with
    the registered evaluators that fit."""
    games = getattr(ev, "games", None)
    if state is not None and games is not None and state.name not in games:
        fits = [n for n in EVALUATORS.names() if state.name in _games_of(n, state.name)]
        raise SpecError(f"evaluator {label} scores {', '.join(games)} positions, not "
                        f"{state.name}; for {state.name} use one of: {', '.join(fits)}")


def _games_of(name: str, default: str) -> tuple[str, ...]:
    """The games a registered evaluator declares (``(default,)`` when it declares none or
    cannot be imported: a broken plug-in must not hide the error being reported)."""
    try:
        return getattr(EVALUATORS.factory(name), "games", None) or (default,)
    except SpecError:
        return ()


def make_evaluator(spec: Any, state=None, **params: Any):
    """Create an evaluator by name, e.g. ``make_evaluator("gomoku.patterns")``, or by
    reference (``"mymod:MyEval(scale=2)"``); a callable is returned as it is.

    With ``state``, check that the evaluator can score that game: an evaluator whose class
    declares ``games = (...)`` (game names) is refused for any other game.
    """
    if isinstance(spec, str):
        ev = EVALUATORS.create(spec, **params)
        label = repr(spec)
        if not callable(ev):
            raise SpecError(f"evaluator {spec!r} made a {type(ev).__name__}, which is not "
                            "callable; an evaluator scores a position: ev(state) -> number")
    else:
        _check_evaluator_object(spec, "evaluator")
        if params:
            raise SpecError(f"evaluator {spec!r}: parameters {sorted(params)} need a spec string")
        ev, label = spec, repr(getattr(spec, "name", None) or getattr(spec, "__name__", spec))
    _check_fit(ev, label, state)
    return ev


def check_evaluator_spec(spec: Any, owner: str = "searcher parameter eval") -> None:
    """Refuse an evaluator spec that builds nothing (empty, unknown name, a module or
    attribute that cannot be imported, unknown or bad parameter) when the searcher is
    made, not at its first search; a callable passes (a class is refused: its instance
    is the evaluator). The game fit is checked at search time (:func:`make_evaluator`
    with the position)."""
    if spec is not None and not isinstance(spec, str):
        _check_evaluator_object(spec, owner)
        return
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
    if not is_reference(name) and not any(name in reg.names() for reg in kinds):
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


def make_player(spec: Any, game: Any = None, **params: Any) -> Any:
    """Create a player: any searcher spec, a player name such as ``random``, a preset
    of ``game`` (``make_player("strong", game="renju")``), a ``module:attr`` reference to
    a player or searcher class, or a Python object: a player (it has ``choose``) is
    returned as it is, a searcher (it has ``search``) is wrapped in the ``search`` player."""
    if not isinstance(spec, str):
        if hasattr(spec, "choose") and not params:
            return spec
        if hasattr(spec, "search"):
            return PLAYERS.create("search", searcher=spec, **params)
        raise SpecError(f"player {spec!r}: expected a spec string, a player (with "
                        "choose(state)) or a searcher (with search(state, limits))")
    given, spec = spec, resolve_preset(spec, game)
    _unknown(spec, game, (PLAYERS, SEARCHERS))
    name, _ = parse_spec_text(spec)
    if is_reference(name):
        target = PLAYERS.factory(name)     # the import: a missing module or name is named
        if inspect.isclass(target) and hasattr(target, "search") and not hasattr(target, "choose"):
            return PLAYERS.create("search", searcher=spec, **params)
    elif name not in PLAYERS.names() and name in SEARCHERS.names():
        if spec != given:            # a preset: its short name, not the long spec
            params.setdefault("name", given)
        return PLAYERS.create("search", searcher=spec, **params)
    made = PLAYERS.create(spec, **params)
    if hasattr(made, "choose"):
        return made
    if hasattr(made, "search"):      # a searcher where a player was asked for
        return PLAYERS.create("search", searcher=made, name=given)
    raise SpecError(f"player {spec!r} made a {type(made).__name__}, which has neither "
                    f"choose(state) nor search(state, limits); {_EXPECTED['player']}")
