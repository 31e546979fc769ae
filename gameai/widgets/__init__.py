"""Boards to click in JupyterLab (anywidget): ``Board("xiangqi", opponent="...")`` to play,
``Board.from_tournament(folder, game_id)`` to step through a recorded game, and
``serve(board)`` to show the same widget in a plain browser page without Jupyter."""
from .board import Board
from .page import serve

__all__ = ["Board", "serve"]
