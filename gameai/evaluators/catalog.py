"""Evaluator names for the registry (lazy targets; see gameai.registry)."""
from ..registry import EVALUATORS

EVALUATORS.register("gomoku.pointweight", "gameai.evaluators.gomoku_pointweight:PointWeight", "002 one-shot point weighting (both colour ladders): best own point minus best opponent point")
EVALUATORS.register("gomoku.position", "gameai.evaluators.gomoku_position:PositionValue", "003 g_arrPosValue position table: own minus opponent")
EVALUATORS.register("gomoku.patterns", "gameai.evaluators.gomoku_patterns:Patterns", "line patterns sum K_i*F_i (five, open four, four, open three, ...), memoised per line")
EVALUATORS.register("xiangqi.material", "gameai.evaluators.xiangqi:Material", "Xiangqi material balance, kept incrementally by the game state")
EVALUATORS.register("xiangqi.pst", "gameai.evaluators.xiangqi:Pst", "Xiangqi material + position-value tables, kept incrementally by the game state")
EVALUATORS.register("synthetic.exact", "gameai.evaluators.synthetic:SyntheticExact", "exact negamax value of a synthetic-tree node (leaf value at leaves)")
EVALUATORS.register("connect4.threats", "gameai.evaluators.connect4:Threats", "Connect Four: open threat cells (playable ones weigh more) and centre stones, own minus opponent")
EVALUATORS.register("zero", "gameai.evaluators.basic:Zero", "0 for every non-terminal position, any game")
EVALUATORS.register("tictactoe.zero", "gameai.evaluators.basic:Zero",
                    "0 for every non-terminal position (exact search to the end)")
EVALUATORS.register("xiangqi.tuned", "gameai.evaluators.xiangqi_tuned:XiangqiTuned", "Xiangqi PST + mobility, king safety, coordination, pawn terms; weights=FILE from gameai tune (default = xiangqi.pst); Python backend")
EVALUATORS.register("gomoku.tuned", "gameai.evaluators.gomoku_tuned:GomokuTuned", "gomoku.patterns table per side to move + combinations (double three, four-three) + tempo; weights=FILE from gameai tune (default = gomoku.patterns); both backends")
EVALUATORS.register("gomoku.forks", "gameai.evaluators.gomoku_forks:GomokuForks", "gomoku.tuned + per empty point the combination of its four lines (double four, four-three, double three, four, three) for both sides; weights=FILE from gameai tune (default = gomoku.patterns); both backends")
