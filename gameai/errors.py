"""Errors raised by gameai. All are ``ValueError`` subclasses so callers can catch broadly."""


class GameError(ValueError):
    """Base class for every error gameai raises on bad input."""


class SpecError(GameError):
    """A registry spec string or its parameters are malformed or unknown."""


class PositionError(GameError):
    """A position description (FEN, stone lists, move list) is malformed or impossible."""


class IllegalMoveError(GameError):
    """A move (text or value) is not legal in the current position."""


class RecordError(GameError):
    """A game record or results file is malformed or corrupt."""
