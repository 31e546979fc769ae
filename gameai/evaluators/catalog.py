"""Evaluator names for the registry (lazy targets; see gameai.registry)."""
from ..registry import EVALUATORS

EVALUATORS.register("tictactoe.zero", "gameai.evaluators.basic:Zero",
                    "0 for every non-terminal position (exact search to the end)")
