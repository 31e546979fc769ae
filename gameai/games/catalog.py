"""Game names for the registry (lazy targets; see gameai.registry)."""
from ..registry import GAMES

GAMES.register("gomoku", "gameai.games.gomoku:Gomoku", "Gomoku 15x15 (size=, rule=freestyle|standard|renju), h8-style points")
GAMES.register("renju", "gameai.games.gomoku:Gomoku", "Renju: gomoku(rule=renju), RIF forbidden moves for black", rule="renju")
GAMES.register("tictactoe", "gameai.games.tictactoe:TicTacToe",
               "3x3 noughts and crosses, small enough to solve exactly")
