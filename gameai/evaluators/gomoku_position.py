"""``gomoku.position``: the position-value table ``g_arrPosValue`` of the 003 document.

Source: ``003_0e015e2797335d1b.txt`` (a VC++ Gomoku thesis) gives the 15x15 table
``g_arrPosValue``: 0 on the edge rising by one per ring to 7 at the centre. The value of
a position is the sum of the table over the side to move's stones minus the sum over the
opponent's. For other board sizes the same rule (distance to the nearest edge) is used;
for 15x15 it reproduces the document's table exactly (checked in the tests against the
literal table below).
"""
from __future__ import annotations

# The document's table, verbatim (rows top to bottom; symmetric, so orientation is moot).
G_ARR_POS_VALUE_15 = (
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0),
    (0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0),
    (0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 1, 0),
    (0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 3, 2, 1, 0),
    (0, 1, 2, 3, 4, 5, 5, 5, 5, 5, 4, 3, 2, 1, 0),
    (0, 1, 2, 3, 4, 5, 6, 6, 6, 5, 4, 3, 2, 1, 0),
    (0, 1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1, 0),
    (0, 1, 2, 3, 4, 5, 6, 6, 6, 5, 4, 3, 2, 1, 0),
    (0, 1, 2, 3, 4, 5, 5, 5, 5, 5, 4, 3, 2, 1, 0),
    (0, 1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 3, 2, 1, 0),
    (0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 1, 0),
    (0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 0),
    (0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
)

_TABLES: dict[int, list[int]] = {}


def position_table(geo) -> list[int]:
    """Flat table indexed like the game's board (0 on the border cells)."""
    t = _TABLES.get(geo.size)
    if t is None:
        t = [0] * geo.ncells
        n = geo.size
        for i in geo.cells:
            c, r = geo.col_row(i)
            t[i] = (G_ARR_POS_VALUE_15[n - 1 - r][c] if n == 15
                    else min(c, r, n - 1 - c, n - 1 - r))
        _TABLES[geo.size] = t
    return t


class PositionValue:
    """Σ g_arrPosValue over own stones − Σ over the opponent's, side to move's view."""

    name = "gomoku.position"
    games = ("gomoku", "renju")  # the games it can score (checked by make_evaluator)

    def __call__(self, state) -> int:
        t = position_table(state.geo)
        b = state.board
        me = len(state.placed) & 1
        v = 0
        for i in state.placed:
            v += t[i] if b[i] == me else -t[i]
        return v
