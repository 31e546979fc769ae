"""Can this player play this game? Checked before a tournament's first game, in a worker.

A player that cannot be made (a module a worker cannot import, a name registered only in
the parent process, an evaluator for another game or without a compiled form) would
otherwise lose every game it plays as a forfeit; the tournament runs
:func:`check_player` in a worker process first and refuses to start, naming the problem.
Nothing is played, searched or compiled: the player is made, its evaluator is made for
the game, and it is closed again.
"""
from __future__ import annotations

from typing import Any

from ..registry import make_player


def check_player(spec: str, state: Any) -> None:
    """Raise (a :class:`~gameai.errors.SpecError` for a bad spec) if the player ``spec``
    cannot play ``state``'s game: it is made, its searcher's evaluator is made for the
    game (module, class, parameters, the game it scores), and with ``backend=compiled``
    the game's kernel must have a compiled form of that evaluator."""
    player = make_player(spec)
    try:
        searcher = getattr(player, "searcher", None)
        evaluator = getattr(searcher, "evaluator", None)
        if not callable(evaluator):
            return
        ev = evaluator(state)
        if getattr(searcher, "backend", "python") == "compiled":
            from ..compiled.evaluator import compiled_form
            from ..compiled.search import kernel_for
            compiled_form(ev, state, kernel_for(state), check_only=True)
    finally:
        close = getattr(player, "close", None)
        if close is not None:
            close()
