"""The compiled Gomoku/Renju game kernel (the contract of :mod:`gameai.compiled`): the
board, rules and moves of :mod:`.gomoku_board` and the evaluators of :mod:`.gomoku_eval`
(two modules that import one way: evaluators know the board, not the reverse), and the
threat part of the core (:mod:`.threats`: the horizon VCF, threat ordering and forced replies).
"""
from .gomoku_board import (FORBIDDEN_NAMES, HAS_CAPTURE, HAS_CHECK, HAS_NOISY, HAS_NULL,
                           HAS_REPEAT, HISTORY_SIZE, MAX_MOVES, forbidden, gen_moves,
                           gen_noisy, history_key, in_check, is_capture, key, load,
                           mvv_lva, perft, pop, pop_null, push, push_null, repeated, repetition,
                           result, side)
from .gomoku_eval import evaluate, evaluator
from .threats import threat_forced, threat_horizon, threat_order

HAS_THREATS = True      #: the threat part of the core (threats, threat_order, threat_forced): gameai.compiled.threats

__all__ = ["FORBIDDEN_NAMES", "HAS_CAPTURE", "HAS_CHECK", "HAS_NOISY", "HAS_NULL", "HAS_REPEAT",
           "HISTORY_SIZE", "MAX_MOVES", "evaluate", "evaluator", "forbidden", "gen_moves",
           "gen_noisy", "history_key", "in_check", "is_capture", "key", "load", "HAS_THREATS",
           "threat_forced", "threat_horizon", "threat_order", "mvv_lva",
           "perft", "pop", "pop_null", "push", "push_null", "repeated", "repetition", "result",
           "side"]
