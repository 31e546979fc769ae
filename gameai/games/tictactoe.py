"""Noughts and crosses: a tiny exhaustive game whose exact value (a draw) checks searchers."""
from __future__ import annotations

from ..errors import IllegalMoveError
from .protocol import CheckedPush, Outcome, play
from .zobrist import zobrist_keys

_LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_LINES_THROUGH = tuple(tuple(l for l in _LINES if c in l) for c in range(9))
_Z = zobrist_keys(2 * 9 + 1, seed=0x7177)
_Z_SIDE = _Z[18]


class TicTacToe(CheckedPush):
    """3x3 board, cells ``a1``..``c3`` (file a-c left to right, rank 1-3 bottom to top).

    ``moves="b2 a1"`` loads a position from a move list. Player 0 plays X and moves first.
    """

    name = "tictactoe"
    default_eval = "tictactoe.zero"

    def __init__(self, moves: str = "") -> None:
        self.board = [-1] * 9
        self.stack: list[int] = []
        self._key = 0
        self._winner: int | None = None
        self._winners: list[int | None] = []
        play(self, moves.split())

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
        if self._winner is not None:
            return []
        b = self.board
        return [c for c in range(9) if b[c] < 0]

    def push_unchecked(self, move: int) -> None:
        """Play ``move`` without checking it (it must come from ``legal_moves``)."""
        p = len(self.stack) & 1
        self.board[move] = p
        self.stack.append(move)
        self._key ^= _Z[2 * move + p] ^ _Z_SIDE
        self._winners.append(self._winner)
        if self._winner is None:
            b = self.board
            for a, c, d in _LINES_THROUGH[move]:
                if b[a] == b[c] == b[d] == p:
                    self._winner = p
                    break

    def pop(self) -> int:
        try:
            move = self.stack.pop()
        except IndexError:
            raise IllegalMoveError("tictactoe: no move to take back") from None
        p = len(self.stack) & 1
        self.board[move] = -1
        self._key ^= _Z[2 * move + p] ^ _Z_SIDE
        self._winner = self._winners.pop()
        return move

    def result(self) -> Outcome | None:
        if self._winner is not None:
            return Outcome(self._winner, "three-in-a-row")
        if len(self.stack) == 9:
            return Outcome(None, "board-full")
        return None

    def history_key(self, move: int, with_piece: bool = False) -> int:
        return move + 9 * self.to_move if with_piece else move

    def move_str(self, move: int) -> str:
        return "abc"[move % 3] + str(move // 3 + 1)

    def parse_move(self, text: str) -> int:
        t = text.strip().lower()
        if len(t) != 2 or t[0] not in "abc" or t[1] not in "123":
            raise IllegalMoveError(f"tictactoe: {text!r} is not a cell a1..c3")
        move = "abc".index(t[0]) + 3 * (int(t[1]) - 1)
        if self.result() is not None:
            raise IllegalMoveError(f"tictactoe: game is over, cannot play {text!r}")
        if self.board[move] >= 0:
            raise IllegalMoveError(f"tictactoe: cell {text!r} is occupied")
        return move

    def copy(self) -> "TicTacToe":
        other = TicTacToe()
        for m in self.stack:
            other.push(m)
        return other

    def __str__(self) -> str:
        sym = {-1: ".", 0: "X", 1: "O"}
        rows = [" ".join(sym[self.board[3 * r + f]] for f in range(3)) for r in (2, 1, 0)]
        return "\n".join(rows)
