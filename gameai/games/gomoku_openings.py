"""The 26 standard three-stone openings of Renju, as move lists for Gomoku boards.

The Renju International Federation's opening rule has Black's first stone on the centre,
White's first stone on one of the eight points next to it and Black's second stone
within the central 5x5 square. Up to the board's symmetries that is 26 positions: 13
"direct" ones (White's stone orthogonally next to the centre) and 13 "indirect" ones
(diagonally next to it), the openings Renju players know by name (Kansei, Kagetsu,
Ungetsu, ...). They are the usual fixed start set of engine matches, because random
opening moves leave stones far from the play whose value is left to chance.

Generated here, not typed in: every third stone in the square, one per symmetry class
(the reflections that keep the first two stones in place), so the set is exactly the
rule's and can be checked by counting.
"""
from __future__ import annotations

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _text(col: int, row: int) -> str:
    return f"{_LETTERS[col]}{row + 1}"


def standard_openings(size: int = 15) -> list[tuple[str, str, str]]:
    """The 26 openings as ``(black, white, black)`` move texts, direct ones first, each
    class named by its smallest third stone (in row, then column order, as offsets)."""
    if size < 5:
        raise ValueError(f"standard openings need a board of at least 5x5, got {size}")
    c = size // 2
    out = []
    for white in ((0, 1), (1, 1)):                  # direct (above), indirect (up-right)
        # the symmetries of the square that fix the centre and White's offset
        keep = [g for g in _SYMMETRIES if g(*white) == white]
        seen = set()
        for dy in range(-2, 3):
            for dx in range(-2, 3):
                if (dx, dy) in ((0, 0), white):
                    continue
                cls = min((g(dx, dy)[1], g(dx, dy)[0]) for g in keep)
                if cls in seen:
                    continue
                seen.add(cls)
                out.append((_text(c, c), _text(c + white[0], c + white[1]),
                            _text(c + cls[1], c + cls[0])))
    return out


#: the eight symmetries of the square, as maps of an offset (dx, dy) from the centre
_SYMMETRIES = [
    lambda x, y: (x, y), lambda x, y: (-y, x), lambda x, y: (-x, -y), lambda x, y: (y, -x),
    lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (y, x), lambda x, y: (-y, -x),
]
