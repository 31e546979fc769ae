"""What the protocol servers share: the default player and a limits-aware move choice."""
from __future__ import annotations

import sys
from typing import IO, Any

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


class LineServer:
    """A text protocol spoken line by line on stdin/stdout; subclasses define ``handle``
    (False ends the session) and set ``out`` and ``player``."""

    out: IO[str]

    def send(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

    def serve(self, inp: IO[str] | None = None) -> None:
        for line in inp or sys.stdin:
            if not self.handle(line):
                break
        self.player.close()

    def handle(self, line: str) -> bool:
        raise NotImplementedError
