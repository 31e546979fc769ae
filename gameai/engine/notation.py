"""Position transport for the protocol servers: re-exported from :mod:`gameai.games.notation`,
where the engine servers and the engine player both find it without importing each other."""
from ..games.notation import (board_size, fen_of, from_xy, root_and_moves, to_xy,  # noqa: F401
                              variant_of, xiangqi_convert)
