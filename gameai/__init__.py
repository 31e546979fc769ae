"""gameai: a research toolkit for game-tree search on Xiangqi, Gomoku/Renju and synthetic trees.

Everything is named by spec strings from one registry::

    import gameai
    s = gameai.load_game("xiangqi")
    gameai.perft(s, 3)                                   # 79666
    r = gameai.make_searcher("negascout(depth=4,tt=true)").search(s)
"""
from .errors import GameError, IllegalMoveError, PositionError, RecordError, SpecError
from .games.perft import divide, perft
from .games.protocol import GameState, Outcome
from .registry import (EVALUATORS, GAMES, PLAYERS, SEARCHERS, load_game, make_evaluator,
                       make_player, make_searcher)
from . import records  # noqa: E402  gameai.records.write_pgn / read_pgn without another import

__version__ = "0.1.0"

__all__ = [
    "GameError", "IllegalMoveError", "PositionError", "RecordError", "SpecError",
    "GameState", "Outcome", "perft", "divide", "load_game", "make_evaluator",
    "make_searcher", "make_player", "GAMES", "SEARCHERS", "EVALUATORS", "PLAYERS",
    "records", "__version__",
]
