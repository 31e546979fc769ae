"""Game names for the registry (lazy targets; see gameai.registry)."""
from ..registry import GAMES

GAMES.register("gomoku", "gameai.games.gomoku:Gomoku", "Gomoku 15x15 (size=, rule=freestyle|standard|renju), h8-style points")
GAMES.register("renju", "gameai.games.gomoku:Gomoku", "Renju: gomoku(rule=renju), RIF forbidden moves for black", rule="renju")
GAMES.register("xiangqi", "gameai.games.xiangqi:Xiangqi", "Chinese chess, full rules (FEN, ICCS moves, perpetual check, move limit)")
GAMES.register("synthetic", "gameai.games.synthetic:Synthetic", "uniform tree (branching, depth, seed, ordering=best|worst|random|p) with nested-interval values")
GAMES.register("connect4", "gameai.games.connect4:Connect4", "Connect Four 7x6 bitboards, columns a-g or 1-7")
GAMES.register("tictactoe", "gameai.games.tictactoe:TicTacToe",
               "3x3 noughts and crosses, small enough to solve exactly")
