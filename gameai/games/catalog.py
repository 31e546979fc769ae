"""Game names for the registry (lazy targets; see gameai.registry)."""
from ..registry import GAMES

GAMES.register("tictactoe", "gameai.games.tictactoe:TicTacToe",
               "3x3 noughts and crosses, small enough to solve exactly")
