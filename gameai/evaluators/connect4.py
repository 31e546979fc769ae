"""Connect Four evaluation from bitboards: threat cells and centre control.

A *threat* of a player is an empty cell that would complete four of theirs. Score for
the side to move: an immediately playable own threat is a win next move (500000); two
playable opponent threats cannot both be blocked (-400000); otherwise
``100 * (own threats - opponent threats)``
plus ``4`` per stone in the centre column and ``2`` per stone in columns c and e (own
minus opponent). All values stay far inside +-10**8.
"""
from __future__ import annotations

from ..games.connect4 import BOARD, BOTTOM, H1

_CENTER = ((1 << 6) - 1) << (3 * H1)
_NEAR = (((1 << 6) - 1) << (2 * H1)) | (((1 << 6) - 1) << (4 * H1))


def threat_cells(b: int, mask: int) -> int:
    """Empty cells that would give ``b`` four in a row (vertical, horizontal, diagonals)."""
    r = (b << 1) & (b << 2) & (b << 3)
    for s in (H1, H1 - 1, H1 + 1):
        p = (b << s) & (b << 2 * s)
        r |= p & (b << 3 * s)
        r |= p & (b >> s)
        p = (b >> s) & (b >> 2 * s)
        r |= p & (b << s)
        r |= p & (b >> 3 * s)
    return r & (BOARD ^ mask)


class Threats:
    """Threat-count evaluator (see the module docstring)."""

    name = "connect4.threats"
    games = ("connect4",)  # the games it can score (checked by make_evaluator)

    def __call__(self, state) -> int:
        p = len(state.stack) & 1
        me, opp, mask = state.bb[p], state.bb[1 - p], state.mask
        mine, theirs = threat_cells(me, mask), threat_cells(opp, mask)
        playable = (mask + BOTTOM) & BOARD
        if mine & playable:
            return 500000
        if (theirs & playable).bit_count() >= 2:
            return -400000
        return (100 * (mine.bit_count() - theirs.bit_count())
                + 4 * ((me & _CENTER).bit_count() - (opp & _CENTER).bit_count())
                + 2 * ((me & _NEAR).bit_count() - (opp & _NEAR).bit_count()))
