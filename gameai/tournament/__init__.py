"""Tournaments: schedules with colour-swapped openings, parallel play (joblib, Dask),
parquet records with resume, and Elo statistics (trinomial, pentanomial, SPRT)."""
from .runner import TournamentConfig, TournamentResult, run_tournament
from .stats import SPRT, elo_pentanomial, elo_trinomial, los

__all__ = ["TournamentConfig", "TournamentResult", "run_tournament", "SPRT",
           "elo_trinomial", "elo_pentanomial", "los"]
