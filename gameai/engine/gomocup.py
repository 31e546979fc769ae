"""Gomocup (Piskvork) protocol server: ``gameai engine --game gomoku --protocol gomocup``.

Commands: ``START n``, ``RESTART``, ``BEGIN``, ``TURN x,y``, ``BOARD`` ... ``DONE`` (fields
1 = own stone, 2 = opponent), ``INFO key value``, ``TAKEBACK x,y``, ``PLAY x,y``, ``ABOUT``
and ``END``. Coordinates are 0-based ``x,y`` = (column, row) of the game's point names
(``a1`` = 0,0). Errors answer ``ERROR <message>``; unknown commands ``UNKNOWN <command>``.

The search runs beside the command reader (the protocol's two-thread brain): ``INFO``
and ``ABOUT`` are answered while thinking, ``END`` stops a search and exits at once, and
a command that changes the position first ends the running search (its move is still
sent). Every ``BEGIN``/``TURN``/``BOARD`` gets exactly one reply, a move or ``ERROR``.

``INFO`` keys: ``timeout_turn`` (ms per move, 0 = as fast as possible), ``timeout_match``
(ms per game, 0 = no limit) and ``time_left`` (ms left in the game) set the budget through
:func:`gameai.search.timeman.allocate` (the per-move limit as a clock with one move to go,
the game clock with the allocator's own estimate); ``max_node``/``max_depth`` (0 = none)
limit nodes and depth (a negative time means "play at once", a negative limit none,
values beyond what the searcher takes are clamped; each such reading is said in a
``MESSAGE`` before the move); ``rule`` bits 1 = exactly five, 4 = renju choose the game's rule
when the game has a ``rule`` parameter. After every finished iteration the brain prints
``MESSAGE depth D seldepth S ev V nodes N nps N time MS pv x,y ...``.
"""
from __future__ import annotations

import sys
from typing import IO

from .. import __version__
from ..errors import GameError
from ..players.protocol import Decision
from ..registry import GAMES, load_game
from ..search.stats import mate_in
from ..spec import format_spec, parse_spec
from .base import MOVE_OVERHEAD, LineServer, Request, build_player, line_texts, parse_int
from .notation import board_size, from_xy, root_and_moves, to_xy

#: Gomocup ``INFO rule`` bitmask -> the gomoku game's ``rule`` parameter value.
RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju", 5: "renju"}
#: INFO keys that are whole numbers we use (milliseconds or counts).
_INT_INFO = ("timeout_turn", "timeout_match", "time_left", "max_node", "max_depth", "rule")


class GomocupServer(LineServer):
    """One Gomocup session reading commands from the manager and answering on ``out``."""

    def __init__(self, game: str = "gomoku", player: str | None = None,
                 out: IO[str] | None = None, seed: int = 0) -> None:
        super().__init__()
        self.game_spec = game
        name = load_game(game).name
        if name == "xiangqi":   # pieces that move, not stones on points
            raise GameError(f"{name} has no Gomocup engine mode: the Gomocup protocol is for "
                            "Gomoku and Renju (use --protocol ucci or uci)")
        self.player = build_player(player, game)
        self.out = out or sys.stdout
        self.seed = seed
        self.info: dict[str, int] = {}
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

    def _xy(self, text: str) -> tuple[int, int]:
        parts = text.split(",")
        if len(parts) != 2:
            raise GameError(f"expected x,y, got {text!r}")
        try:
            return int(parts[0]), int(parts[1])
        except ValueError:
            raise GameError(f"expected x,y, got {text!r}") from None

    def _need_state(self) -> None:
        if self.state is None:
            raise GameError("no game: send START first")

    def request(self) -> Request:
        """This move's limits from the ``INFO`` values received so far. A value that makes
        no sense still gets a move: a negative limit counts as none (depth, nodes) or as
        "play at once" (times), values beyond what the searcher takes are clamped, and
        each such reading is a note (sent as ``MESSAGE``)."""
        info, req, notes = self.info, Request(), []
        for key in ("max_depth", "max_node"):
            if info.get(key, 0) < 0:
                notes.append(f"INFO {key} {info[key]} is negative: read as 0 (no limit)")
        if info.get("max_depth", 0) > 0:
            req.depth = info["max_depth"]
        if info.get("max_node", 0) > 0:
            req.nodes = info["max_node"]
        turn = info.get("timeout_turn")
        left = info.get("time_left", info.get("timeout_match", 0) or None)
        for key, v in (("timeout_turn", turn),
                       ("time_left" if "time_left" in info else "timeout_match", left)):
            if v is not None and v < 0:
                notes.append(f"INFO {key} {v} is negative: playing at once (depth 1)")
        if (turn is not None and turn <= 0) or (left is not None and left / 1000 <= MOVE_OVERHEAD):
            req.depth = 1  # "play as fast as possible" / the match clock is spent
        else:
            from ..search.timeman import allocate
            budgets = []
            if turn is not None:  # all of this move's own limit is ours
                budgets.append(allocate(turn / 1000, 0.0, 1))
            if left is not None:
                budgets.append(allocate(left / 1000, 0.0, None))
            if budgets:  # the tighter of the two (allocate keeps the reply overhead)
                req.hard = min(b.hard for b in budgets)
                req.soft = min(min(b.soft for b in budgets), req.hard)
        req.notes = tuple(notes)
        req.clamp()
        return req

    def _think(self) -> None:
        if self.state.result() is not None or not self.state.legal_moves():
            self.send("ERROR no legal move (game over)")
            return
        req = self.request()
        for note in req.notes:
            self.send(f"MESSAGE {note}")
        self.think(req)

    # -- commands ------------------------------------------------------------------
    def error(self, message: str) -> None:
        self.send(f"ERROR {message}")

    def note(self, message: str) -> None:
        self.send(f"MESSAGE {message}")

    def dispatch(self, line: str) -> bool:
        if self._board_lines is not None:
            if line.upper() == "DONE":
                lines, self._board_lines = self._board_lines, None
                self._board(lines)
            elif line:
                self._board_lines.append(line)
            return True
        if not line:
            return True
        cmd, _, rest = line.partition(" ")
        cmd, rest = cmd.upper(), rest.strip()
        if cmd == "INFO":
            self._info(rest)
            return True
        if cmd == "ABOUT":
            self.send(f'name="gameai", version="{__version__}", author="gameai", '
                      f'country="", www="", player="{self.player.name}"')
            return True
        if cmd == "END":
            self.finish_thinking(timeout=0.5)
            return False
        self.finish_thinking()  # everything else changes or reads the position
        if cmd == "START":
            self.size = parse_int("START board size", rest, lo=5)
            self.state = self._new_state()
            self.player.new_game(self.seed)
            self.prepare()  # compile and fault in before the first turn's clock
            self.send("OK")
        elif cmd == "RESTART":  # same seed every game (no history dependence)
            self.state = self._new_state()
            self.player.new_game(self.seed)
            self.prepare()
            self.send("OK")
        elif cmd == "BEGIN":
            self._need_state()
            if root_and_moves(self.state)[1]:
                raise GameError("BEGIN on a non-empty board")
            self._think()
        elif cmd == "TURN":
            self._need_state()
            x, y = self._xy(rest)
            self.state.push(from_xy(self.state, x, y))
            self._think()
        elif cmd == "BOARD":
            self._need_state()
            self._board_lines = []
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
        elif cmd == "RECTSTART":
            self.send("ERROR rectangular boards are not supported")
        else:
            self.send(f"UNKNOWN {cmd}")
        return True

    def _info(self, rest: str) -> None:
        key, _, value = rest.partition(" ")
        key, value = key.lower(), value.strip()
        key = {"max_nodes": "max_node"}.get(key, key)
        if key not in _INT_INFO:
            return  # max_memory, game_type, folder, evaluate: nothing to do
        try:
            v = int(value)
        except ValueError:
            raise GameError(f"INFO {key}: expected an integer, got {value!r}") from None
        if key != "rule":
            self.info[key] = v  # applies from the next move on
        elif v != self.rule:
            self.finish_thinking()
            self.rule = v
            if self.state is not None:  # rebuild the position under the new rule
                _, moves = root_and_moves(self.state)
                fresh = self._new_state()
                for m in moves:  # same board size, so the move ints carry over
                    fresh.push(m)
                self.state = fresh

    def _board(self, lines: list[str]) -> None:
        own, opp = [], []
        for text in lines:
            parts = text.split(",")
            try:
                x, y, field = (int(p) for p in parts)
            except ValueError:
                raise GameError(f"BOARD line {text!r}: expected x,y,field") from None
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
        self._think()

    # -- replies (from the search thread) -----------------------------------------------
    def report(self, row: dict, root) -> None:
        value = row.get("value")
        depth, nodes = int(row.get("depth", 0)), int(row.get("nodes", 0))
        ms = max(0, int(round(float(row.get("time_s", 0.0)) * 1000)))
        plies = mate_in(value) if value is not None else None
        ev = "" if value is None else f" ev {int(round(value))}" if plies is None else \
            f" ev {'win' if plies > 0 else 'loss'} in {abs(plies)} plies"
        pv = line_texts(root, row.get("pv") or [], lambda s, m: "%d,%d" % to_xy(s, m))
        self.send(f"MESSAGE depth {depth} seldepth {int(row.get('seldepth', depth))}{ev} "
                  f"nodes {nodes} nps {nodes * 1000 // ms if ms else nodes * 1000} time {ms}"
                  + (f" pv {' '.join(pv)}" if pv else ""))

    def answer(self, decision: Decision, why: str | None, root) -> None:
        if why:
            self.send(f"MESSAGE {why}")
        if decision.move is None:
            self.send("ERROR no legal move")
            return
        x, y = to_xy(root, decision.move)
        self.state.push(decision.move)  # the reader ends a search before touching the state
        self.send(f"{x},{y}")
