"""Gomoku game records: the move-list text (``h8 i9 h9``) and Gomocup's PSQ format.

Move-list text: points separated by spaces, commas or newlines; ``#`` starts a comment
that runs to the end of the line. Written as one line of space-separated points.

PSQ (the Piskvork/Gomocup manager's record): a header line ``Piskvorky WxH, a:b, h``
(board size, two player-level fields, a 0/1 flag), then one line ``x,y,t`` per move with
1-based ``x`` (column, left to right), 1-based ``y`` (row from the *top*, screen order)
and ``t`` the time the move took in milliseconds, then the two player names (Piskvork
writes ``homo-1``/``homo-2`` for people, engine files otherwise) and a final number (the
manager's error/result code). Piskvork reads nothing after the names, so the rule of the
game goes in one more line, ``rule=renju`` (``freestyle``, ``standard``). The reader takes
moves until the first line that is not ``x,y[,t]`` and the rule from a ``rule=`` line;
the writer emits the header, the moves with the times given (default 0), the names,
the code ``0`` and the rule.
"""
from __future__ import annotations

import re

from ..errors import GameError, RecordError
from .gomoku import Gomoku

_PSQ_HEADER = re.compile(r"^\s*Piskvorky\s+(\d+)\s*x\s*(\d+)\s*,\s*(-?\d+)\s*:\s*(-?\d+)\s*,\s*(-?\d+)\s*$")
_PSQ_RULE = re.compile(r"^\s*rule\s*=\s*(\w+)\s*$", re.M)
_PSQ_MOVE = re.compile(r"^\s*(-?\d+)\s*,\s*(-?\d+)\s*(?:,\s*(-?\d+)\s*)?$")


def read_moves(text: str, rule: str = "freestyle", size: int = 15, **params) -> Gomoku:
    """A game from move-list text; errors name the move number and point."""
    body = " ".join(line.split("#", 1)[0] for line in text.splitlines())
    tokens = body.replace(",", " ").split()
    state = Gomoku(size=size, rule=rule, **params)
    for n, tok in enumerate(tokens, 1):
        try:
            state.push(state.parse_move(tok))
        except GameError as exc:
            raise RecordError(f"move list: move {n} ({tok!r}): {exc}") from None
    return state


def write_moves(state: Gomoku) -> str:
    """The move-list text of every stone in placement order (setup stones first)."""
    return " ".join(state.move_str(m) for m in state.placed)


def read_psq(text: str, rule: str | None = None, **params) -> tuple[Gomoku, list[int]]:
    """A game and the per-move times (ms) from PSQ text. The rule is ``rule`` if given,
    else the record's ``rule=`` line, else freestyle; a given rule that contradicts the
    recorded one is an error."""
    lines = text.splitlines()
    recorded = _PSQ_RULE.search(text)
    if recorded and rule is not None and recorded.group(1) != rule:
        raise RecordError(f"psq: the record says rule={recorded.group(1)} but rule={rule} was asked")
    rule = rule or (recorded.group(1) if recorded else "freestyle")
    if not lines:
        raise RecordError("psq: empty record")
    m = _PSQ_HEADER.match(lines[0])
    if not m:
        raise RecordError(f"psq: line 1 is not a 'Piskvorky WxH, a:b, h' header: {lines[0]!r}")
    w, h = int(m.group(1)), int(m.group(2))
    if w != h:
        raise RecordError(f"psq: board {w}x{h} is not square; gameai boards are square")
    try:
        state = Gomoku(size=w, rule=rule, **params)
    except GameError as exc:
        raise RecordError(f"psq: {exc}") from None
    times: list[int] = []
    for n, line in enumerate(lines[1:], 2):
        mv = _PSQ_MOVE.match(line)
        if not mv:
            break
        x, y = int(mv.group(1)), int(mv.group(2))
        if not (1 <= x <= w and 1 <= y <= h):
            raise RecordError(f"psq line {n}: point {x},{y} is off the {w}x{h} board")
        move = state.move_at(x - 1, h - y)
        try:
            state.push(state.parse_move(state.move_str(move)))
        except GameError as exc:
            raise RecordError(f"psq line {n} ({line.strip()!r}): {exc}") from None
        times.append(int(mv.group(3) or 0))
    return state, times


def write_psq(state: Gomoku, times: list[int] | None = None, levels: tuple[int, int] = (0, 0),
              names: tuple[str, str] = ("homo-1", "homo-2")) -> str:
    """PSQ text for ``state``'s stones in placement order (``times`` in ms, default 0),
    the two players' names (Black, White) and the rule."""
    n = state.size
    stones = state.placed
    if times is not None and len(times) != len(stones):
        raise RecordError(f"psq: {len(times)} times for {len(stones)} moves")
    out = [f"Piskvorky {n}x{n}, {levels[0]}:{levels[1]}, 0"]
    for k, m in enumerate(stones):
        c, r = state.point(m)
        out.append(f"{c + 1},{n - r},{times[k] if times else 0}")
    out += [str(name).replace("\n", " ") for name in names]
    out += ["0", f"rule={state.rule}"]
    return "\n".join(out) + "\n"
