"""Evaluation tuning: fit a linear evaluator's weights on recorded games (Texel's method).

``tune(game, records, eval=...)`` reads positions and results from tournament folders or
PGN/PSQ/move-list files (:mod:`.positions`), fits the weights by logistic regression with
scipy's L-BFGS-B on a held-out split by game (:mod:`.texel`) and returns a
:class:`TuneResult` whose ``write(path)`` saves the weights file that
``eval=xiangqi.tuned(weights=FILE)`` / ``eval=gomoku.tuned(weights=FILE)`` loads.
The command is ``gameai tune``.
"""
from .positions import RecordedGame, Records, read_records
from .texel import Dataset, TuneResult, TuneWarning, build_dataset, fit, fit_scale, log_loss, split_games, tune

__all__ = ["tune", "TuneResult", "TuneWarning", "Dataset", "build_dataset", "fit", "fit_scale", "log_loss",
           "split_games", "read_records", "Records", "RecordedGame"]
