"""Gomocup (Piskvork) protocol server: ``gameai engine --game gomoku --protocol gomocup``.

Commands: ``START n``, ``RESTART``, ``BEGIN``, ``TURN x,y``, ``BOARD`` ... ``DONE`` (fields
1 = own stone, 2 = opponent), ``INFO key value`` (``timeout_turn`` in ms becomes the per-move
time limit; ``rule`` bits 1 = exactly five, 4 = renju choose the game's rule when the game
has a ``rule`` parameter), ``TAKEBACK x,y``, ``PLAY x,y``, ``ABOUT`` and ``END``.
Coordinates are 0-based ``x,y`` = (column, row) of the game's point names (``a1`` = 0,0).
Errors answer ``ERROR <message>``; unknown commands ``UNKNOWN <command>``.
"""
from __future__ import annotations

import sys
from typing import IO, Any

from .. import __version__
from ..errors import GameError
from ..registry import GAMES, load_game
from ..spec import format_spec, parse_spec
from .base import LineServer, build_player, choose
from .notation import board_size, from_xy, root_and_moves, to_xy

#: Gomocup ``INFO rule`` bitmask -> the gomoku game's ``rule`` parameter value.
RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju", 5: "renju"}
#: Share of ``timeout_turn`` we actually use (the rest is safety margin for Python startup).
TIME_SHARE = 0.7


class GomocupServer(LineServer):
    """One Gomocup session reading commands from the manager and answering on ``out``."""

    def __init__(self, game: str = "gomoku", player: str | None = None,
                 out: IO[str] | None = None, seed: int = 0) -> None:
        self.game_spec = game
        self.player = build_player(player)
        self.out = out or sys.stdout
        self.seed = seed
        self.limits: dict[str, Any] = {}
        self.rule: int | None = None
        self.size: int | None = None
        self.state = None
        self._board_lines: list[str] | None = None

    # -- helpers -------------------------------------------------------------------
    def _game_spec(self) -> str:
        name, params = parse_spec(self.game_spec)
        accepted = GAMES.parameters(name)
        if self.rule is not None and (accepted is None or "rule" in accepted):
            params["rule"] = RULE_NAMES.get(self.rule & 5, "freestyle")
        if self.size is not None and (accepted is None or "size" in accepted):
            params.setdefault("size", self.size)
        return format_spec(name, params)

    def _new_state(self):
        state = load_game(self._game_spec())
        if self.size is not None and board_size(state) != self.size:
            raise GameError(f"unsupported board size {self.size}")
        return state

    def _reply(self) -> None:
        if self.state.result() is not None or not self.state.legal_moves():
            self.send("ERROR no legal move (game over)")
            return
        d = choose(self.player, self.state.copy(), self.limits or None)
        self.state.push(d.move)
        x, y = to_xy(self.state, d.move)
        info = d.info or {}
        if "depth" in info:
            self.send(f"MESSAGE depth {info['depth']} value {d.value} nodes {info.get('nodes', 0)}")
        self.send(f"{x},{y}")

    def _xy(self, text: str) -> tuple[int, int]:
        try:
            x, y = (int(v) for v in text.split(",")[:2])
        except ValueError:
            raise GameError(f"expected x,y, got {text!r}") from None
        return x, y

    def _need_state(self) -> None:
        if self.state is None:
            raise GameError("no game: send START first")

    # -- commands ------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Process one line; False means END."""
        text = line.strip()
        if self._board_lines is not None:
            if text.upper() == "DONE":
                lines, self._board_lines = self._board_lines, None
                try:
                    self._board(lines)
                except GameError as exc:
                    self.send(f"ERROR {exc}")
            elif text:
                self._board_lines.append(text)
            return True
        if not text:
            return True
        cmd, _, rest = text.partition(" ")
        cmd = cmd.upper()
        try:
            if cmd == "START":
                self.size = int(rest.strip())
                self.state = self._new_state()
                self.player.new_game(self.seed)
                self.send("OK")
            elif cmd == "RESTART":  # same seed every game (no history dependence)
                self.state = self._new_state()
                self.player.new_game(self.seed)
                self.send("OK")
            elif cmd == "BEGIN":
                self._need_state()
                if root_and_moves(self.state)[1]:
                    raise GameError("BEGIN on a non-empty board")
                self._reply()
            elif cmd == "TURN":
                self._need_state()
                x, y = self._xy(rest)
                self.state.push(from_xy(self.state, x, y))
                self._reply()
            elif cmd == "BOARD":
                self._need_state()
                self._board_lines = []
            elif cmd == "INFO":
                self._info(rest)
            elif cmd == "TAKEBACK":
                self._need_state()
                _, moves = root_and_moves(self.state)
                if not moves or to_xy(self.state, moves[-1]) != self._xy(rest):
                    raise GameError(f"TAKEBACK {rest}: not the last move")
                self.state.pop()
                self.send("OK")
            elif cmd == "PLAY":
                self._need_state()
                x, y = self._xy(rest)
                self.state.push(from_xy(self.state, x, y))
                self.send(f"{x},{y}")
            elif cmd == "ABOUT":
                self.send(f'name="gameai", version="{__version__}", author="gameai", '
                          f'country="", www="", player="{self.player.name}"')
            elif cmd == "END":
                return False
            elif cmd == "RECTSTART":
                self.send("ERROR rectangular boards are not supported")
            else:
                self.send(f"UNKNOWN {cmd}")
        except (GameError, ValueError) as exc:
            self.send(f"ERROR {exc}")
        return True

    def _info(self, rest: str) -> None:
        key, _, value = rest.strip().partition(" ")
        key = key.lower()
        if key == "timeout_turn":
            ms = int(value)
            if ms > 0:
                self.limits["time"] = ms / 1000 * TIME_SHARE
        elif key == "rule":
            rule = int(value)
            if rule != self.rule:
                self.rule = rule
                if self.state is not None:  # rebuild the position under the new rule
                    _, moves = root_and_moves(self.state)
                    fresh = self._new_state()
                    for m in moves:  # same board size, so the move ints carry over
                        fresh.push(m)
                    self.state = fresh
        # other keys (timeout_match, time_left, max_memory, game_type, folder) are ignored

    def _board(self, lines: list[str]) -> None:
        own, opp = [], []
        for text in lines:
            parts = text.split(",")
            if len(parts) != 3:
                raise GameError(f"BOARD line {text!r}: expected x,y,field")
            x, y, field = (int(p) for p in parts)
            if field == 1:
                own.append((x, y))
            elif field == 2:
                opp.append((x, y))
            else:
                raise GameError(f"BOARD line {text!r}: field must be 1 or 2 (continuous games unsupported)")
        if len(own) == len(opp):
            order = [p for pair in zip(own, opp) for p in pair]
        elif len(opp) == len(own) + 1:
            order = [p for pair in zip(opp, own) for p in pair] + [opp[-1]]
        else:
            raise GameError(f"BOARD: {len(own)} own and {len(opp)} opponent stones cannot be our turn")
        state = self._new_state()
        for x, y in order:
            state.push(from_xy(state, x, y))
        self.state = state
        self._reply()
