"""What the protocol servers share: the default player and a limits-aware move choice."""
from __future__ import annotations

from typing import Any

from ..registry import SEARCHERS, make_player
from ..players.protocol import Decision

#: Preferred searchers for engine mode when no ``--player`` is given (first one present).
DEFAULT_SEARCHERS = ("alphabeta(depth=3)", "negascout(depth=3)", "minimax(depth=2)")


def default_player_spec() -> str:
    """A searcher when the search layer is installed, ``random`` otherwise."""
    names = set(SEARCHERS.names())
    for spec in DEFAULT_SEARCHERS:
        if spec.split("(")[0] in names:
            return spec
    return "random"


def choose(player, state, limits: dict[str, Any] | None) -> Decision:
    """Ask ``player`` for a move, passing per-move limits when it understands them."""
    if limits and getattr(player, "accepts_limits", False):
        return player.choose(state, limits=limits)
    return player.choose(state)


def build_player(spec: str | None):
    return make_player(spec or default_player_spec())
