"""Game-tree search: one negamax core (minimax, alpha-beta, NegaScout, MTD(f)), the 001
two-ply max-min, and MCTS. Build searchers with ``gameai.make_searcher(spec)``; the
statistics every searcher fills are defined in :mod:`gameai.search.stats`."""
from .minimal import MinimalTree, minimal_tree
from .stats import INF, MATE, Limits, SearchResult, SearchStats, mate_in

__all__ = ["INF", "MATE", "Limits", "MinimalTree", "SearchResult", "SearchStats", "mate_in",
           "minimal_tree"]
