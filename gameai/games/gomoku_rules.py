"""Board geometry and the Renju forbidden-move judgement (RIF rules) on a flat board.

Layout (why): one flat list with a one-cell sentinel border, stride ``W = size + 1``, so a
line walk ``i += d`` for ``d`` in ``(1, W, W + 1, W - 1)`` always stops on a ``WALL`` cell
before it could wrap to another row. Cell ``(col, row)`` (0-based, row 0 at the bottom)
is index ``(row + 1) * W + col + 1``. Cell values: ``BLACK = 0``, ``WHITE = 1``,
``EMPTY = 2``, ``WALL = 3`` (player numbers double as stone colours).

Renju judgement (Renju International Federation rules), for a black stone at ``p``:

* a move that makes exactly five wins, even if it also makes a forbidden shape;
* otherwise six or more in a row is an **overline**;
* two or more **fours** (rows that one more black stone turns into exactly five) made by
  the move are a **double-four**, including two fours on one line (``X.XpX.X``);
  a straight four (``.XXXX.``) is one four;
* two or more **threes** are a **double-three**. A three is a row to which black can add
  one stone ``q`` making a straight four (two ways to make exactly five), where ``q``
  neither makes five nor is itself forbidden for black, judged recursively with ``p``
  on the board.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

BLACK, WHITE, EMPTY, WALL = 0, 1, 2, 3

OVERLINE, DOUBLE_FOUR, DOUBLE_THREE = "overline", "double-four", "double-three"


@dataclass(frozen=True)
class Geometry:
    """Precomputed tables for one board size (shared by every game of that size)."""

    size: int
    W: int
    ncells: int                       # length of the flat board list
    cells: tuple[int, ...]            # on-board indices, a1 b1 ... (row by row from the bottom)
    dirs: tuple[int, int, int, int]   # horizontal, vertical, diagonal /, diagonal \
    lines: tuple[tuple[int, ...], ...]  # every row/column/diagonal with >= 5 cells
    cell_lines: tuple[tuple[tuple[int, int], ...], ...]  # per index: (line id, 3**pos)
    line_neigh: tuple[tuple[int, ...], ...]  # per index: on-board cells <= 4 steps along a line
    _neigh: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def index(self, col: int, row: int) -> int:
        return (row + 1) * self.W + col + 1

    def col_row(self, i: int) -> tuple[int, int]:
        return i % self.W - 1, i // self.W - 1

    def neighbours(self, radius: int) -> tuple[tuple[int, ...], ...]:
        """Per index: on-board cells within Chebyshev distance ``radius`` (self excluded)."""
        table = self._neigh.get(radius)
        if table is None:
            n = self.size
            out: list[tuple[int, ...]] = [()] * self.ncells
            for i in self.cells:
                c, r = self.col_row(i)
                out[i] = tuple(self.index(c + dc, r + dr)
                               for dr in range(-radius, radius + 1)
                               for dc in range(-radius, radius + 1)
                               if (dc or dr) and 0 <= c + dc < n and 0 <= r + dr < n)
            table = self._neigh[radius] = tuple(out)
        return table


@lru_cache(maxsize=None)
def geometry(size: int) -> Geometry:
    """The (cached) tables for a ``size`` x ``size`` board."""
    W = size + 1
    ncells = (size + 2) * W + 1
    idx = lambda c, r: (r + 1) * W + c + 1  # noqa: E731
    cells = tuple(idx(c, r) for r in range(size) for c in range(size))
    lines: list[tuple[int, ...]] = []
    for r in range(size):
        lines.append(tuple(idx(c, r) for c in range(size)))
    for c in range(size):
        lines.append(tuple(idx(c, r) for r in range(size)))
    for start in range(-(size - 1), size):          # diagonals going up-right: c - r const
        line = tuple(idx(r + start, r) for r in range(size) if 0 <= r + start < size)
        if len(line) >= 5:
            lines.append(line)
    for s in range(2 * size - 1):                  # anti-diagonals going up-left: c + r const
        line = tuple(idx(s - r, r) for r in range(size) if 0 <= s - r < size)
        if len(line) >= 5:
            lines.append(line)
    cl: list[list[tuple[int, int]]] = [[] for _ in range(ncells)]
    for lid, line in enumerate(lines):
        for pos, i in enumerate(line):
            cl[i].append((lid, 3 ** pos))
    dirs = (1, W, W + 1, W - 1)
    onboard = set(cells)
    ln: list[tuple[int, ...]] = [()] * ncells
    for i in cells:
        out = []
        for d in dirs:
            for s in (d, -d):
                j = i + s
                for _ in range(4):
                    if j not in onboard:
                        break
                    out.append(j)
                    j += s
        ln[i] = tuple(out)
    return Geometry(size, W, ncells, cells, dirs, tuple(lines),
                    tuple(tuple(x) for x in cl), tuple(ln))


def empty_board(geo: Geometry) -> list[int]:
    """A flat board: EMPTY on the board, WALL on the border."""
    b = [WALL] * geo.ncells
    for i in geo.cells:
        b[i] = EMPTY
    return b


def run_length(board: list[int], p: int, d: int, color: int) -> int:
    """Stones of ``color`` in the unbroken row through ``p`` along ``d`` (``p`` counted)."""
    n = 1
    i = p + d
    while board[i] == color:
        n += 1
        i += d
    i = p - d
    while board[i] == color:
        n += 1
        i -= d
    return n


def makes_five(board: list[int], p: int, dirs, color: int, exact: bool) -> bool:
    """Would a ``color`` stone on empty ``p`` make five (exactly five if ``exact``)?"""
    for d in dirs:
        n = run_length(board, p, d, color)
        if n == 5 or (n > 5 and not exact):
            return True
    return False


def _reach(board: list[int], p: int, d: int, color: int) -> list[int]:
    """Empty cells within 4 steps of ``p`` on both sides, not past a foreign stone or wall."""
    out = []
    for s in (d, -d):
        i = p + s
        for _ in range(4):
            v = board[i]
            if v == EMPTY:
                out.append(i)
            elif v != color:
                break
            i += s
    return out


def five_points(board: list[int], p: int, d: int, color: int, exact: bool) -> list[int]:
    """Empty cells that complete five through ``p`` along ``d`` (``p`` already holds ``color``)."""
    pts = []
    for q in _reach(board, p, d, color):
        board[q] = color
        n = run_length(board, p, d, color)
        board[q] = EMPTY
        if n == 5 or (n > 5 and not exact):
            pts.append(q)
    return pts


def count_fours(board: list[int], p: int, d: int, color: int, exact: bool) -> int:
    """Fours through ``p`` on one line; a straight four (two five-points 5 apart) is one four."""
    pts = five_points(board, p, d, color, exact)
    if len(pts) == 2:
        a, b = sorted(pts)
        if b - a == 5 * d and all(board[a + k * d] == color for k in range(1, 5)):
            return 1
    return len(pts)


def is_straight_four(board: list[int], p: int, d: int, color: int, exact: bool) -> bool:
    """Is the row through ``p`` along ``d`` exactly four stones with a five-point at each end?"""
    lo = p
    while board[lo - d] == color:
        lo -= d
    hi = p
    while board[hi + d] == color:
        hi += d
    if hi - lo != 3 * d:
        return False
    a, b = lo - d, hi + d
    if board[a] != EMPTY or board[b] != EMPTY:
        return False
    if exact and (board[a - d] == color or board[b + d] == color):
        return False
    return True


def _is_three(board: list[int], p: int, d: int, dirs, depth: int) -> bool:
    """Black (already on ``p``) has a real three on line ``d`` (RIF, recursive)."""
    for q in _reach(board, p, d, BLACK):
        board[q] = BLACK
        ok = is_straight_four(board, p, d, BLACK, True)
        board[q] = EMPTY
        if not ok:
            continue
        if makes_five(board, q, dirs, BLACK, True):
            continue
        if forbidden_at(board, q, dirs, depth + 1) is None:
            return True
    return False


def _black_near(board: list[int], p: int, d: int, color: int = BLACK) -> int:
    """Stones of ``color`` within 4 steps of ``p`` on line ``d``, not past another stone or wall."""
    n = 0
    for s in (d, -d):
        i = p + s
        for _ in range(4):
            v = board[i]
            if v == color:
                n += 1
            elif v != EMPTY:
                break
            i += s
    return n


def makes_four(board: list[int], p: int, dirs, color: int, exact: bool) -> bool:
    """Would a ``color`` stone on empty ``p`` make a four (or five) on some line?"""
    board[p] = color
    try:
        for d in dirs:
            if _black_near(board, p, d, color) >= 3 and five_points(board, p, d, color, exact):
                return True
        return False
    finally:
        board[p] = EMPTY


def maybe_forbidden(board: list[int], p: int, dirs) -> bool:
    """Cheap necessary condition for ``forbidden_at``: enough black stones nearby.

    (The game keeps an even cheaper one incrementally: every forbidden shape needs at
    least four other black stones within four steps of ``p`` along its lines.)

    An overline or a one-line double-four needs 4+ black stones on one line near ``p``;
    a double-four or double-three needs 2+ on each of two lines.
    """
    lines2 = 0
    for d in dirs:
        n = _black_near(board, p, d)
        if n >= 4:
            return True
        if n >= 2:
            lines2 += 1
    return lines2 >= 2


def forbidden_at(board: list[int], p: int, dirs, depth: int = 0) -> str | None:
    """RIF judgement of a black stone on empty ``p``: None or the forbidden shape's name.

    The board is modified temporarily and restored before returning.
    """
    board[p] = BLACK
    try:
        over = False
        runs = []
        for d in dirs:
            n = run_length(board, p, d, BLACK)
            if n == 5:
                return None  # five wins even with a forbidden shape
            if n > 5:
                over = True
            runs.append(n)
        if over:
            return OVERLINE
        fours = 0
        four_dirs = []
        for d in dirs:
            if _black_near(board, p, d) >= 3:
                k = count_fours(board, p, d, BLACK, True)
                if k:
                    fours += k
                    four_dirs.append(d)
        if fours >= 2:
            return DOUBLE_FOUR
        threes = 0
        for d in dirs:
            if d in four_dirs or _black_near(board, p, d) < 2:
                continue
            if _is_three(board, p, d, dirs, depth):
                threes += 1
                if threes >= 2:
                    return DOUBLE_THREE
        return None
    finally:
        board[p] = EMPTY
