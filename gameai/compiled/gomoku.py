"""The compiled Gomoku/Renju game kernel (the contract of :mod:`gameai.compiled`): the
board, rules and moves of :mod:`.gomoku_board` and the evaluators of :mod:`.gomoku_eval`
(two modules that import one way: evaluators know the board, not the reverse).
"""
from .gomoku_board import (FORBIDDEN_NAMES, HAS_CAPTURE, HAS_CHECK, HAS_NOISY, HAS_NULL,
                           HAS_REPEAT, HISTORY_SIZE, MAX_MOVES, forbidden, gen_moves,
                           gen_noisy, history_key, in_check, is_capture, key, load,
                           mvv_lva, perft, pop, pop_null, push, push_null, repeated, result,
                           side)
from .gomoku_eval import evaluate, evaluator

__all__ = ["FORBIDDEN_NAMES", "HAS_CAPTURE", "HAS_CHECK", "HAS_NOISY", "HAS_NULL", "HAS_REPEAT",
           "HISTORY_SIZE", "MAX_MOVES", "evaluate", "evaluator", "forbidden", "gen_moves",
           "gen_noisy", "history_key", "in_check", "is_capture", "key", "load", "mvv_lva",
           "perft", "pop", "pop_null", "push", "push_null", "repeated", "result", "side"]
