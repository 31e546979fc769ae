"""Gomoku (freestyle / standard) and Renju on the game protocol.

Points are written ``h8``: a column letter (``a`` = left) and a row number (``1`` =
bottom); ``h8`` is the centre of the 15x15 board. Player 0 is Black and moves first.

Rules (``rule=``):

* ``freestyle`` - five or more in a row wins, for both colours;
* ``standard`` - exactly five wins (an overline wins for nobody), for both colours;
* ``renju`` - RIF rules: Black may not play an overline, double-four or double-three
  (see :mod:`gameai.games.gomoku_rules`; ``state.forbidden(point)``), Black wins only with
  exactly five and a five beats a forbidden shape; White is unrestricted and an overline
  wins for White. Black's forbidden points are not in ``legal_moves()`` and
  ``parse_move`` rejects them. Opening rules (swap, first-move placement) are not
  enforced: positions start from any legal move.

A full board with no five is a draw. Under renju Black may, late in a game, have no legal
point at all (every empty point forbidden): ``result()`` stays None and ``legal_moves()``
is empty; searchers treat that as a horizon and the tournament referee scores it as a
draw ("no-moves"). RIF would let Black pass; passes are not modelled.

Move generation for search: ``legal_moves()`` returns the empty points within
``radius`` (Chebyshev distance, default 2) of any stone, the centre on an empty board, or
every empty point with ``full_board=True``. The candidate set is kept incrementally: push
adds the empty points near the new stone that were not candidates yet and remembers them,
pop removes exactly those again (LIFO), so no point is rescanned.

Board access (e.g. for a matplotlib drawer): ``size``; ``stone(col, row)`` -> 0, 1 or
None with 0-based ``col`` (left to right) and ``row`` (bottom to top); ``stones()`` ->
``[(col, row, player), ...]`` in placement order; ``point(move)`` -> ``(col, row)``;
``move_at(col, row)`` -> move. ``line_codes`` (one int per row/column/diagonal, base-3
digits, updated on push/pop) is what pattern evaluators read; ``attach_line_table``
keeps a sum of per-line values up to date on push/pop (incremental evaluation).
"""
from __future__ import annotations

import re
from typing import Annotated, Literal

from ..errors import IllegalMoveError, PositionError
from ..spec import Range
from .gomoku_rules import (BLACK, EMPTY, WALL, WHITE, empty_board, forbidden_at, geometry,
                           makes_five, makes_four, maybe_forbidden, run_length)
from .protocol import CheckedPush, Outcome, play
from .zobrist import zobrist_keys

RULES = ("freestyle", "standard", "renju")
_POINT = re.compile(r"([a-z])([0-9]{1,2})", re.ASCII)
_COLOUR = ("black", "white")
_ZOBRIST: dict[int, list[int]] = {}


def _zobrist(ncells: int) -> list[int]:
    z = _ZOBRIST.get(ncells)
    if z is None:
        z = _ZOBRIST[ncells] = zobrist_keys(2 * ncells + 1, seed=0x60_6D0C + ncells)
    return z


class Gomoku(CheckedPush):
    """A Gomoku/Renju position (mutable; push/pop). See the module docstring."""

    name = "gomoku"
    default_eval = "gomoku.patterns"

    def __init__(self, size: Annotated[int, Range(5, 26)] = 15,
                 rule: Literal["freestyle", "standard", "renju"] = "freestyle", moves: str = "",
                 black: str = "", white: str = "",
                 to_move: Literal["black", "white", "b", "w", 0, 1] | None = None,
                 radius: Annotated[int, Range(1, 8)] = 2, full_board: bool = False) -> None:
        if not isinstance(size, int) or not 5 <= size <= 26:
            raise PositionError(f"gomoku: size must be an integer 5..26, got {size!r}")
        if rule not in RULES:
            raise PositionError(f"gomoku: rule must be one of {', '.join(RULES)}, got {rule!r}")
        if not isinstance(radius, int) or radius < 1:
            raise PositionError(f"gomoku: radius must be a positive integer, got {radius!r}")
        self.size = size
        self.rule = rule
        self.radius = radius
        self.full_board = bool(full_board)
        self.name = "renju" if rule == "renju" else "gomoku"
        geo = self.geo = geometry(size)
        self.W = geo.W
        self.dirs = geo.dirs
        self._neigh = geo.neighbours(radius)
        self._cell_lines = geo.cell_lines
        self._z = _zobrist(geo.ncells)
        self._zside = self._z[-1]
        self._centre = geo.index(size // 2, size // 2)
        self.board = empty_board(geo)
        self.bnear = [0] * geo.ncells         # renju: black stones <= 4 steps away on a line
        self._track_black = rule == "renju"
        self._line_neigh = geo.line_neigh
        self._cand: set[int] = set()           # empty points within `radius` of a stone
        self._legal_cache: dict[int, tuple[int, ...]] = {}  # renju, black to move: key -> moves
        self.line_codes = [3 ** len(line) for line in geo.lines]
        self.line_table = None                 # see attach_line_table
        self.line_sum = 0
        self.placed: list[int] = []            # every stone, setup stones first
        self.move_stack: list[int] = []
        self._key = 0
        self._winner: int | None = None
        self._undo: list[tuple[list[int], bool, int | None]] = []  # per move: added cands, was cand, winner
        self._exact = (rule == "standard", rule in ("standard", "renju"))  # white, black
        self._setup(moves, black, white, to_move)

    # ------------------------------------------------------------------ loading
    def _setup(self, moves: str, black: str, white: str, to_move) -> None:
        if moves and (black or white):
            raise PositionError(f"{self.name}: give either moves= or black=/white=, not both")
        if moves:
            play(self, moves.replace(",", " ").split())
        else:
            bl = self._parse_points(black, "black")
            wh = self._parse_points(white, "white")
            both = set(bl) & set(wh)
            if both:
                raise PositionError(f"{self.name}: point {self.move_str(min(both))} is in both black= and white=")
            nb, nw = len(bl), len(wh)
            if nb - nw not in (0, 1):
                raise PositionError(f"{self.name}: impossible stone counts black={nb} white={nw} "
                                    "(black moves first, so black has as many stones as white or one more)")
            for i in bl:
                self._place(i, BLACK)
            for i in wh:
                self._place(i, WHITE)
            self._check_loaded_fives()
        if to_move is not None:
            want = {"black": 0, "b": 0, "0": 0, "white": 1, "w": 1, "1": 1}.get(str(to_move).strip().lower())
            if want is None:
                raise PositionError(f"{self.name}: to_move must be black or white, got {to_move!r}")
            if want != self.to_move:
                raise PositionError(
                    f"{self.name}: to_move={to_move!r} contradicts the stone counts "
                    f"(black={self._count(BLACK)}, white={self._count(WHITE)}: {_COLOUR[self.to_move]} to move)")

    def _count(self, color: int) -> int:
        b = self.board
        return sum(1 for i in self.placed if b[i] == color)

    def _parse_points(self, text: str, field: str) -> list[int]:
        out: list[int] = []
        for tok in text.replace(",", " ").split():
            try:
                i = self._point_index(tok, field)
            except IllegalMoveError as exc:  # a stone list describes a position
                raise PositionError(str(exc)) from None
            if i in out:
                raise PositionError(f"{self.name}: point {tok!r} given twice in {field}=")
            out.append(i)
        return out

    def _check_loaded_fives(self) -> None:
        """A stone-list position may hold a five only for the side that moved last."""
        winners = set()
        b = self.board
        runs: list[set[int]] = []
        for i in self.placed:
            run = self._five_run(i, b[i])
            if run:
                winners.add(b[i])
                runs.append(run)
        last = 1 - self.to_move
        if runs and not set.intersection(*runs):
            cells = sorted(runs, key=min)
            a, z = (" ".join(self.move_str(p) for p in sorted(r)) for r in (cells[0], cells[-1]))
            raise PositionError(f"{self.name}: impossible position: separate fives ({a}) and ({z}); "
                                "the game ends with the first five, and one stone can only "
                                "complete fives that run through it")
        if winners - {last}:
            who = _COLOUR[min(winners - {last})]
            raise PositionError(f"{self.name}: impossible position: {who} has five but "
                                f"{_COLOUR[self.to_move]} is to move")
        if winners:
            self._winner = last
        if self.rule == "renju":
            for i in self.placed:
                if b[i] == BLACK and any(run_length(b, i, d, BLACK) > 5 for d in self.dirs):
                    raise PositionError(f"{self.name}: impossible position: black overline through {self.move_str(i)}")

    def _place(self, i: int, color: int) -> None:
        """Put a setup stone (not a move: no undo record)."""
        self._add_stone(i, color)

    # ------------------------------------------------------------------ protocol
    @property
    def to_move(self) -> int:
        return len(self.placed) & 1

    @property
    def key(self) -> int:
        return self._key

    @property
    def ply(self) -> int:
        return len(self.move_stack)

    def _add_stone(self, i: int, color: int) -> tuple[list[int], bool]:
        """Board, key, candidates, line codes (and renju's black counts) for a new stone;
        returns what ``_remove_stone`` needs to undo the candidate change."""
        board = self.board
        board[i] = color
        self.placed.append(i)
        self._key ^= self._z[2 * i + color] ^ self._zside
        cand = self._cand
        added = [q for q in self._neigh[i] if board[q] == EMPTY and q not in cand]
        cand.update(added)
        was = i in cand
        if was:
            cand.remove(i)
        self._shift_lines(i, color + 1)
        if color == BLACK and self._track_black:
            bn = self.bnear
            for q in self._line_neigh[i]:
                bn[q] += 1
        return added, was

    def _shift_lines(self, i: int, k: int) -> None:
        """Add ``k`` (a stone's digit, negative to take it away) at ``i`` to its line codes,
        keeping ``line_sum`` when a ``line_table`` is attached."""
        codes = self.line_codes
        tab = self.line_table
        if tab is None:
            for lid, pw in self._cell_lines[i]:
                codes[lid] += k * pw
            return
        total = self.line_sum
        for lid, pw in self._cell_lines[i]:
            c = codes[lid]
            n = codes[lid] = c + k * pw
            total += tab[n] - tab[c]
        self.line_sum = total

    def attach_line_table(self, table) -> None:
        """Keep ``line_sum`` = sum of ``table[code]`` over every line, updated on push/pop.

        ``table`` maps a line code to an int (a dict whose ``__missing__`` computes an
        entry); a pattern evaluator attaches its memo so that an evaluation reads one
        number instead of summing every line (incremental evaluation). None detaches.
        """
        self.line_table = table
        self.line_sum = sum(table[c] for c in self.line_codes) if table is not None else 0

    def _remove_stone(self, i: int, color: int, added: list[int], was: bool) -> None:
        self.board[i] = EMPTY
        self.placed.pop()
        self._key ^= self._z[2 * i + color] ^ self._zside
        cand = self._cand
        cand.difference_update(added)
        if was:
            cand.add(i)
        self._shift_lines(i, -(color + 1))
        if color == BLACK and self._track_black:
            bn = self.bnear
            for q in self._line_neigh[i]:
                bn[q] -= 1

    def _five_run(self, i: int, color: int) -> set[int]:
        """The points of every five (or winning overline) through ``i``, empty if none."""
        exact = self._exact[color == BLACK]
        b = self.board
        out: set[int] = set()
        for d in self.dirs:
            n = run_length(b, i, d, color)
            if n == 5 or (n > 5 and not exact):
                j = i
                while b[j - d] == color:
                    j -= d
                out.update(j + k * d for k in range(n))
        return out

    def _five_at(self, i: int, color: int) -> bool:
        exact = self._exact[color == BLACK]
        b = self.board
        for d in self.dirs:
            n = run_length(b, i, d, color)
            if n == 5 or (n > 5 and not exact):
                return True
        return False

    def push_unchecked(self, move: int) -> None:
        """Play ``move`` without checking it (an empty point while the game is on)."""
        color = len(self.placed) & 1
        added, was = self._add_stone(move, color)
        self.move_stack.append(move)
        self._undo.append((added, was, self._winner))
        if self._winner is None and self._five_at(move, color):
            self._winner = color

    def pop(self) -> int:
        if not self.move_stack:
            raise IllegalMoveError(f"{self.name}: no move to take back")
        move = self.move_stack.pop()
        added, was, self._winner = self._undo.pop()
        self._remove_stone(move, (len(self.placed) - 1) & 1, added, was)
        return move

    def result(self) -> Outcome | None:
        if self._winner is not None:
            return Outcome(self._winner, "five")
        if len(self.placed) == self.size * self.size:
            return Outcome(None, "board-full")
        return None

    def legal_moves(self) -> list[int]:
        if self._winner is not None:
            return []
        if self.full_board:
            b = self.board
            moves = [i for i in self.geo.cells if b[i] == EMPTY]
        elif self._cand:
            moves = sorted(self._cand)
        elif not self.placed:
            moves = [self._centre]
        else:  # stones exist but none has an empty point near it: fall back to all
            b = self.board
            moves = [i for i in self.geo.cells if b[i] == EMPTY]
        if self.rule == "renju" and not (len(self.placed) & 1):
            cached = self._legal_cache.get(self._key)
            if cached is not None:
                return list(cached)
            b, dirs, bn = self.board, self.dirs, self.bnear
            # every forbidden shape needs >= 4 other black stones on p's lines nearby
            moves = [m for m in moves if bn[m] < 4 or not maybe_forbidden(b, m, dirs)
                     or forbidden_at(b, m, dirs) is None]
            if not moves:  # every nearby point forbidden: look at the whole board
                moves = [m for m in self.geo.cells if b[m] == EMPTY and forbidden_at(b, m, dirs) is None]
            if len(self._legal_cache) >= 200_000:
                self._legal_cache.clear()
            self._legal_cache[self._key] = tuple(moves)
        return moves

    def is_legal(self, move: int) -> bool:
        """Rules-level legality: any empty point while the game is on, except Black's
        forbidden points under renju (judged for that one point, after the cheap tests
        ``legal_moves`` uses). ``legal_moves()`` is narrower (search candidates) unless
        ``full_board``, so a referee checking an outside player's move should ask this."""
        b = self.board
        if type(move) is not int or not 0 <= move < len(b) or b[move] != EMPTY:
            return False
        if self.result() is not None:
            return False
        if self._track_black and not (len(self.placed) & 1) and self.bnear[move] >= 4:
            return not maybe_forbidden(b, move, self.dirs) or forbidden_at(b, move, self.dirs) is None
        return True

    def forbidden(self, point: str | int) -> str | None:
        """RIF judgement of a black stone on ``point``: None, "overline", "double-four" or
        "double-three". Judged for Black whoever is to move (White's evaluators ask it)."""
        i = self._point_index(point, "point") if isinstance(point, str) else point
        if not isinstance(i, int) or not 0 <= i < len(self.board) or self.board[i] == 3:
            raise IllegalMoveError(f"{self.name}: {point!r} is not a point on the board")
        if self.board[i] != EMPTY:
            raise IllegalMoveError(f"{self.name}: point {self.move_str(i)} is occupied")
        return forbidden_at(self.board, i, self.dirs)

    def forbidden_points(self) -> dict[str, str]:
        """Every empty point where a black stone is forbidden under renju, with the reason:
        ``{"h8": "double-three", ...}`` in board order (a1, b1, ...). Empty for other rules.
        Judged for Black whoever is to move, like :meth:`forbidden`."""
        if self.rule != "renju":
            return {}
        b, dirs, bn = self.board, self.dirs, self.bnear
        out = {}
        for i in self.geo.cells:
            if b[i] == EMPTY and bn[i] >= 4 and maybe_forbidden(b, i, dirs):
                why = forbidden_at(b, i, dirs)
                if why:
                    out[self.move_str(i)] = why
        return out

    def noisy_moves(self) -> list[int]:
        """Forcing moves for quiescence: the side to move makes five or a four (split fours
        included), or blocks the opponent's five."""
        if self._winner is not None:
            return []
        b, dirs = self.board, self.dirs
        me = len(self.placed) & 1
        ex_me, ex_op = self._exact[me == BLACK], self._exact[me != BLACK]
        return [m for m in self.legal_moves()
                if makes_four(b, m, dirs, me, ex_me) or makes_five(b, m, dirs, 1 - me, ex_op)]

    def history_key(self, move: int, with_piece: bool = False) -> int:
        """Point, or point and colour (the 000 document's refinement): < 2 * len(board)."""
        return move + len(self.board) * (len(self.placed) & 1) if with_piece else move

    # ------------------------------------------------------------------ text
    def _point_index(self, text, field: str = "point") -> int:
        t = str(text).strip()
        m = _POINT.fullmatch(t.lower()) if t.isascii() else None
        if not m:
            raise IllegalMoveError(f"{self.name}: {field} {text!r} is not a point like h8")
        c = ord(m.group(1)) - 97
        r = int(m.group(2)) - 1
        if not (0 <= c < self.size and 0 <= r < self.size):
            raise IllegalMoveError(f"{self.name}: {field} {text!r} is off the {self.size}x{self.size} board")
        return self.geo.index(c, r)

    def move_str(self, move: int) -> str:
        """``h8`` for a point on the board; anything else raises :class:`IllegalMoveError`."""
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < len(self.board) \
                or self.board[move] == WALL:
            raise IllegalMoveError(f"{self.name}: {move!r} is not a point of the {self.size}x{self.size} board")
        c, r = self.geo.col_row(move)
        return f"{chr(97 + c)}{r + 1}"

    def parse_move(self, text: str) -> int:
        i = self._point_index(text, "move")
        if self.result() is not None:
            raise IllegalMoveError(f"{self.name}: game is over ({self.result()}); cannot play {text!r}")
        if self.board[i] != EMPTY:
            raise IllegalMoveError(f"{self.name}: point {self.move_str(i)} is occupied")
        if self.rule == "renju" and self.to_move == BLACK:
            why = forbidden_at(self.board, i, self.dirs)
            if why:
                raise IllegalMoveError(f"renju: {self.move_str(i)} is forbidden for black ({why})")
        return i

    # ------------------------------------------------------------------ board access
    def stone(self, col: int, row: int) -> int | None:
        v = self.board[self.geo.index(col, row)] if 0 <= col < self.size and 0 <= row < self.size else EMPTY
        return v if v in (BLACK, WHITE) else None

    def stones(self) -> list[tuple[int, int, int]]:
        return [(*self.geo.col_row(i), self.board[i]) for i in self.placed]

    def point(self, move: int) -> tuple[int, int]:
        return self.geo.col_row(move)

    def move_at(self, col: int, row: int) -> int:
        return self.geo.index(col, row)

    def copy(self) -> "Gomoku":
        other = object.__new__(Gomoku)
        other.__dict__.update(self.__dict__)
        for attr in ("board", "bnear", "line_codes", "placed", "move_stack", "_undo"):
            setattr(other, attr, list(getattr(self, attr)))
        other._cand = set(self._cand)
        other._legal_cache = {}
        return other

    def __str__(self) -> str:
        sym = {BLACK: "X", WHITE: "O", EMPTY: "."}
        n = self.size
        rows = []
        for r in range(n - 1, -1, -1):
            rows.append(f"{r + 1:>2} " + " ".join(sym[self.board[self.geo.index(c, r)]] for c in range(n)))
        rows.append("   " + " ".join(chr(97 + c) for c in range(n)))
        return "\n".join(rows)

    def __repr__(self) -> str:
        moves = " ".join(self.move_str(m) for m in self.placed)
        return f"<{self.name} {self.size}x{self.size} rule={self.rule} stones={moves!r}>"
