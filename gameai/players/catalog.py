"""Player names for the registry (lazy targets; see gameai.registry).

Any searcher spec is also a player: ``make_player("alphabeta(depth=3)")`` wraps it in
the ``search`` player.
"""
from ..registry import PLAYERS
