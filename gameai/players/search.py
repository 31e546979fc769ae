"""A player that runs any registered searcher (``make_player("alphabeta(depth=3)")``)."""
from __future__ import annotations

from dataclasses import asdict, is_dataclass
from typing import Any, Protocol, runtime_checkable

from ..errors import SpecError
from ..games.protocol import line_text
from ..registry import make_searcher
from ..search.stats import SearchStats
from ..spec import Depth, Nodes, Seconds
from .protocol import Decision

#: Search statistics copied into each Decision (and from there into moves.parquet).
STAT_FIELDS = tuple(name for name, _ in SearchStats.record_fields())


def limits_dict(limits: Any) -> dict[str, Any] | None:
    """Normalise None, a dict or a ``Limits``-like object to a dict without None values."""
    if limits is None:
        return None
    if isinstance(limits, dict):
        d = dict(limits)
    elif is_dataclass(limits):
        d = asdict(limits)
    else:
        d = {k: getattr(limits, k, None) for k in ("depth", "nodes", "time")}
    d = {k: v for k, v in d.items() if v is not None}
    return d or None


@runtime_checkable
class SearcherLike(Protocol):
    """What the search player asks of a searcher given as an object."""

    def search(self, state: Any, limits: Any = None) -> Any: ...


class SearchPlayer:
    """Wraps a searcher spec (or a searcher object, anything with ``search(state,
    limits)``); per-move limits come from the spec or from ``choose(limits=)``.

    ``depth``/``nodes``/``time`` given here are per-move limits for every move of the game
    (the tournament's ``--depth``/``--nodes``/``--time``); a limit passed to ``choose``
    overrides them.
    """

    accepts_limits = True

    def __init__(self, searcher: str | SearcherLike, depth: Depth | None = None,
                 nodes: Nodes | None = None, time: Seconds | None = None,
                 name: str | None = None) -> None:
        if isinstance(searcher, str):
            self.spec, self.searcher = searcher, make_searcher(searcher)
        elif callable(getattr(searcher, "search", None)):
            self.searcher = searcher
            self.spec = str(getattr(searcher, "name", None) or type(searcher).__name__)
        else:
            raise SpecError(f"player search: searcher={searcher!r}: expected a searcher spec "
                            "or an object with search(state, limits)")
        self.name = name or self.spec
        self.limits = limits_dict({"depth": depth, "nodes": nodes, "time": time})

    def new_game(self, seed: int) -> None:
        import inspect
        if not callable(getattr(self.searcher, "new_game", None)):
            return                  # a searcher of one's own need not keep anything
        try:
            takes_seed = "seed" in inspect.signature(self.searcher.new_game).parameters
        except (TypeError, ValueError):
            takes_seed = False
        if takes_seed:  # randomised searchers (mcts) get the game's seed
            self.searcher.new_game(seed=seed)
        else:
            self.searcher.new_game()

    def prepare(self, state) -> None:
        """Compile (or load) and fault in a compiled searcher now, off the first move's
        clock (:meth:`gameai.search.negamax.Searcher.prepare`); nothing for the others."""
        prepare = getattr(self.searcher, "prepare", None)
        if prepare is not None:
            prepare(state)

    def choose(self, state, limits=None) -> Decision:
        lim = limits_dict(limits) or self.limits
        result = self.searcher.search(state, lim)
        stats = result.stats
        info: dict[str, Any] = {}
        for f in STAT_FIELDS:
            v = getattr(stats, f, None)
            if v is not None:
                info[f] = v
        if result.pv:
            try:
                info["pv"] = result.pv_str or line_text(state, result.pv)
            except Exception:  # a pv the position cannot print is not worth a lost game
                pass
        return Decision(result.move, result.value, info)

    def close(self) -> None:
        pass
