"""Connect Four (7 columns x 6 rows) on bitboards, for comparison with OpenSpiel and easyAI.

Layout (John Tromp's): bit ``7*col + row`` (row 0 at the bottom); row 6 of each column is
an always-empty sentinel so that shifted line tests never wrap between columns. One
bitboard per player plus the occupancy mask; four-in-a-row is tested with four
shift-and pairs on the mover's board only, in ``push``.

Moves are column numbers 0..6; text ``1``..``7`` (also ``a``..``g``). ``moves=`` takes a
space-separated list or a compact digit string such as ``"4453"`` (the notation of
Pascal Pons's solver test sets). Legal moves are listed in column order 0..6, as
OpenSpiel's ``connect_four`` does, so equal algorithms visit equal trees.
"""
from __future__ import annotations

from ..errors import IllegalMoveError
from .protocol import CheckedPush, Outcome, play
from .zobrist import zobrist_keys

WIDTH, HEIGHT, H1 = 7, 6, 7
CELLS = WIDTH * HEIGHT
BOTTOM = sum(1 << (c * H1) for c in range(WIDTH))
BOARD = BOTTOM * ((1 << HEIGHT) - 1)          # every playable cell
_TOP = [1 << (c * H1 + HEIGHT - 1) for c in range(WIDTH)]
_Z = zobrist_keys(2 * WIDTH * H1 + 1, seed=0xC4C4)
_Z_SIDE = _Z[-1]
_ZP = [[_Z[p * WIDTH * H1 + i] ^ _Z_SIDE for i in range(WIDTH * H1)] for p in (0, 1)]
_LEGAL = [tuple(c for c in range(WIDTH) if not full >> c & 1) for full in range(1 << WIDTH)]
_WIN = (Outcome(0, "four-in-a-row"), Outcome(1, "four-in-a-row"))
_DRAW = Outcome(None, "board-full")


def _is_four(b: int) -> bool:
    m = b & (b >> 7)                 # horizontal
    if m & (m >> 14):
        return True
    m = b & (b >> 1)                 # vertical
    if m & (m >> 2):
        return True
    m = b & (b >> 6)                 # diagonal \
    if m & (m >> 12):
        return True
    m = b & (b >> 8)                 # diagonal /
    return bool(m & (m >> 16))


class Connect4(CheckedPush):
    """A Connect Four position; player 0 moves first."""

    name = "connect4"
    default_eval = "connect4.threats"
    __slots__ = ("bb", "mask", "height", "full", "stack", "_key", "winner")

    def __init__(self, moves: str = "") -> None:
        self.bb = [0, 0]
        self.mask = 0
        self.height = [c * H1 for c in range(WIDTH)]   # bit index of the next free cell
        self.full = 0                                    # bit c set: column c is full
        self.stack: list[int] = []
        self._key = 0
        self.winner: int | None = None
        texts = list(moves.strip()) if moves.strip().isascii() and moves.strip().isdigit() else moves.split()
        play(self, texts)

    @property
    def to_move(self) -> int:
        return len(self.stack) & 1

    @property
    def key(self) -> int:
        return self._key

    @property
    def ply(self) -> int:
        return len(self.stack)

    def legal_moves(self) -> list[int]:
        if self.winner is not None:
            return []
        return list(_LEGAL[self.full])

    def push_unchecked(self, col: int) -> None:
        """Play column ``col`` without checking it (it must come from ``legal_moves``)."""
        h = self.height[col]
        self.height[col] = h + 1
        bit = 1 << h
        p = len(self.stack) & 1
        b = self.bb[p] | bit
        self.bb[p] = b
        self.mask |= bit
        self._key ^= _ZP[p][h]
        self.stack.append(col)
        if h - col * H1 == HEIGHT - 1:
            self.full |= 1 << col
        if _is_four(b):
            self.winner = p

    def pop(self) -> int:
        try:
            col = self.stack.pop()
        except IndexError:
            raise IllegalMoveError("connect4: no move to take back") from None
        h = self.height[col] - 1
        self.height[col] = h
        bit = 1 << h
        p = len(self.stack) & 1
        self.bb[p] ^= bit
        self.mask ^= bit
        self._key ^= _ZP[p][h]
        self.full &= ~(1 << col)
        self.winner = None
        return col

    def result(self) -> Outcome | None:
        if self.winner is not None:
            return _WIN[self.winner]
        if len(self.stack) == CELLS:
            return _DRAW
        return None

    def history_key(self, move: int, with_piece: bool = False) -> int:
        """The cell the stone lands on; with ``with_piece`` also its colour."""
        cell = self.height[move]
        return cell + WIDTH * H1 * (len(self.stack) & 1) if with_piece else cell

    def parse_move(self, text: str) -> int:
        t = text.strip().lower()
        if len(t) == 1 and t in "1234567":
            col = int(t) - 1
        elif len(t) == 1 and t in "abcdefg":
            col = "abcdefg".index(t)
        else:
            raise IllegalMoveError(f"connect4: {text!r} is not a column 1-7 or a-g")
        if self.result() is not None:
            raise IllegalMoveError(f"connect4: game is over ({self.result()}), cannot play {text!r}")
        if self.full >> col & 1:
            raise IllegalMoveError(f"connect4: column {text!r} is full")
        return col

    def move_str(self, move: int) -> str:
        return str(move + 1)

    def copy(self) -> "Connect4":
        other = Connect4()
        for m in self.stack:
            other.push(m)
        return other

    def cell(self, col: int, row: int) -> int:
        """-1 empty, else the player whose stone is at (col, row), row 0 at the bottom."""
        bit = 1 << (col * H1 + row)
        return 0 if self.bb[0] & bit else 1 if self.bb[1] & bit else -1

    def __str__(self) -> str:
        sym = {-1: ".", 0: "X", 1: "O"}
        rows = [" ".join(sym[self.cell(c, r)] for c in range(WIDTH)) for r in range(HEIGHT - 1, -1, -1)]
        return "\n".join(rows + ["1 2 3 4 5 6 7"])
