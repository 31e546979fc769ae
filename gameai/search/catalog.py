"""Searcher names for the registry (lazy targets; see gameai.registry).

All negamax-family names build :class:`gameai.search.negamax.Searcher` with preset
switches, so every option (tt, history, killers, id, aspiration, quiescence, ...) works
with every one of them.
"""
from ..registry import BACKENDS, PARTS, SEARCHERS

_CORE = "gameai.search.negamax:Searcher"
SEARCHERS.register("minimax", _CORE, "full-width negamax without pruning (the reference)",
                   pruning=False)
SEARCHERS.register("alphabeta", _CORE, "negamax alpha-beta, fail-soft (000 document)")
SEARCHERS.register("negascout", _CORE, "NegaScout / PVS: null windows after the first move (003)",
                   scout=True)
SEARCHERS.register("mtdf", _CORE, "MTD(f): null-window alpha-beta passes with a TT, in iterative deepening",
                   mtdf=True, tt=True, id=True)
SEARCHERS.register("minimax2", "gameai.search.minimax2:MaxMin2",
                   "fixed two-ply max-min of the 001 document")
SEARCHERS.register("mcts", "gameai.search.mcts:MCTS", "Monte Carlo tree search with UCT")
SEARCHERS.register("vcf", "gameai.search.threats:vcf",
                   "Gomoku/Renju victory by continuous fours: a proven win (mate value) or 0")
SEARCHERS.register("vct", "gameai.search.threats:vct",
                   "Gomoku/Renju victory by continuous fours and threes, every defence tried")

PARTS.register("threats", "gameai.search.threats:ThreatPart",
               "Gomoku/Renju threat part: root proof, reply checks, VCF at the horizon")
PARTS.register("threat_moves", "gameai.search.threats:ThreatMoves",
               "Gomoku/Renju threat move filters only (threat_order, threat_forced)")

BACKENDS.register("compiled", "gameai.compiled.backend:CompiledBackend",
                  "numba kernels: the same search, node for node, far faster")
