"""The game protocol: one small interface that every game implements and every searcher uses.

A game object *is* a mutable position (as in python-chess): searchers walk the tree with
``push``/``pop`` (the source documents' MakeMove/UnmakeMove, fakeMove/unfakeMove) and never
copy a position per child.

Conventions every game follows
------------------------------
* Players are ``0`` and ``1``; ``0`` moves first (Red in Xiangqi, Black in Gomoku).
* Moves are small immutable hashable values (ints in the built-in games); their text form
  comes from ``move_str`` and goes back through ``parse_move``.
* ``key`` is a 64-bit Zobrist hash kept incrementally by ``push``/``pop``; it covers the
  side to move, so equal keys mean equal positions for search purposes.
* ``result()`` returns ``None`` while the game goes on, else an :class:`Outcome`.
  Searchers call it at *every* node, so games keep it cheap (flags set by ``push``,
  caches, early-exit tests). ``legal_moves()`` follows the movement rules only: a
  position drawn by a rule (repetition, move count) may still list moves, so always ask
  ``result()`` first.
* ``push`` checks its move: a move that is not legal here (or any move once the game is
  over) raises :class:`~gameai.errors.IllegalMoveError` and leaves the state unchanged;
  ``pop`` with nothing to take back raises it too. Searchers, which only push moves
  they just generated, call ``push_unchecked`` instead: the same move without the check,
  undefined for an illegal move (the built-in games all have it; a game without it is
  searched through ``push``, see :func:`fast_push`).

Optional capabilities (searchers test with ``hasattr``):
* ``history_key(move, with_piece) -> int``: a small non-negative int for history tables;
  ``with_piece=True`` includes the moving piece (the 000 document's refinement).
* ``noisy_moves() -> list``: captures/forcing moves for quiescence search.
* ``ply``: moves pushed since the game object was created.
* ``in_check() -> bool``: the side to move is in check (games with checks: Xiangqi).
* ``push_null()`` / ``pop_null()``: pass the move (null-move pruning; never in check;
  undo with ``pop_null``). A game offers them only where passing is a sound test.
* ``is_capture(move)``, ``mvv_lva(move) -> int``: capture test and capture order (most
  valuable victim, least valuable attacker; 0 for quiet moves).
* ``repeated() -> bool``: this position occurred earlier in the game's line (since the
  last irreversible move).
* ``repetition_outcome() -> Outcome | None``: the same question judged by the game's
  rule for the moves since that earlier occurrence (Xiangqi: a perpetual check loses for
  the checking side, anything else draws); searchers with ``repetition=true`` score it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable, Iterable, Protocol, runtime_checkable

from ..errors import IllegalMoveError, PositionError

Move = Hashable


@dataclass(frozen=True)
class Outcome:
    """How a game ended: ``winner`` is 0, 1 or None (draw); ``reason`` a short word."""

    winner: int | None
    reason: str

    def score_for(self, player: int) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss, from ``player``'s point of view."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == player else 0.0

    def __str__(self) -> str:
        who = "draw" if self.winner is None else f"player {self.winner} wins"
        return f"{who} ({self.reason})"


@runtime_checkable
class GameState(Protocol):
    """A mutable game position. See the module docstring for the conventions."""

    name: str
    default_eval: str  # spec of the registered evaluator searchers use by default

    @property
    def to_move(self) -> int: ...

    @property
    def key(self) -> int: ...

    def legal_moves(self) -> list[Move]: ...

    def push(self, move: Move) -> None: ...

    def pop(self) -> Move: ...

    def result(self) -> Outcome | None: ...

    def parse_move(self, text: str) -> Move: ...

    def move_str(self, move: Move) -> str: ...

    def copy(self) -> "GameState": ...


def fast_push(state: GameState):
    """The searchers' push: ``state.push_unchecked`` when the game has it, else ``push``."""
    return getattr(state, "push_unchecked", state.push)


def illegal(state: GameState, move: Move) -> IllegalMoveError:
    """The error ``push`` raises for ``move`` (names the game, the move and why)."""
    try:
        text = repr(state.move_str(move))
    except Exception:  # not even a move of this game
        text = repr(move)
    res = state.result()
    why = f"the game is over ({res})" if res is not None else "it is not legal in this position"
    return IllegalMoveError(f"{state.name}: cannot push move {text}: {why}")


class CheckedPush:
    """``push`` that refuses an illegal move, state unchanged (as python-chess does).

    A game supplies ``push_unchecked`` (the searchers' fast path, see :func:`fast_push`)
    and may override ``is_legal`` when a cheaper exact test exists.
    """

    __slots__ = ()

    def push(self, move: Move) -> None:
        """Play ``move``; IllegalMoveError (state unchanged) unless it is legal here.
        Searchers use ``push_unchecked`` for moves they generated."""
        if not self.is_legal(move):
            raise illegal(self, move)
        self.push_unchecked(move)

    def is_legal(self, move: Move) -> bool:
        """Is ``move`` one of this position's legal moves (and the game not over)?"""
        return type(move) is int and self.result() is None and move in self.legal_moves()


def play(state: GameState, moves: Iterable[str]) -> GameState:
    """Push move texts in order, each validated by ``parse_move``; returns ``state``.

    Used to load a position from a move list: a bad move raises :class:`PositionError`
    naming the game, the list and the move.
    """
    texts = list(moves)
    push = fast_push(state)  # parse_move has validated the move
    for text in texts:
        try:
            push(state.parse_move(text))
        except IllegalMoveError as exc:
            raise PositionError(f"{state.name} moves={' '.join(texts)!r}: {exc}") from None
    return state


def line_text(state: GameState, moves: Iterable[Move]) -> str:
    """A line of moves from ``state`` as space-separated move texts, each written in the
    position where it is played; stops at the first move that is not legal there (a
    principal variation patched from a transposition table may run past a legal line).
    ``state`` is restored."""
    out, pushed = [], 0
    try:
        for m in moves:
            if m is None or state.result() is not None or m not in state.legal_moves():
                break
            out.append(state.move_str(m))
            state.push(m)
            pushed += 1
    finally:
        for _ in range(pushed):
            state.pop()
    return " ".join(out)
