"""Evaluator names for the registry (lazy targets; see gameai.registry)."""
from ..registry import EVALUATORS

EVALUATORS.register("synthetic.exact", "gameai.evaluators.synthetic:SyntheticExact", "exact negamax value of a synthetic-tree node (leaf value at leaves)")
EVALUATORS.register("connect4.threats", "gameai.evaluators.connect4:Threats", "Connect Four: open threat cells (playable ones weigh more) and centre stones, own minus opponent")
EVALUATORS.register("zero", "gameai.evaluators.basic:Zero", "0 for every non-terminal position, any game")
EVALUATORS.register("tictactoe.zero", "gameai.evaluators.basic:Zero",
                    "0 for every non-terminal position (exact search to the end)")
