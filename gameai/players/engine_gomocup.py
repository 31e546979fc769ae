"""The Gomocup side of the engine player: ``START``/``RESTART``, ``INFO``, ``BEGIN``/
``TURN``/``BOARD``, and the ``MESSAGE`` lines that carry a brain's search figures.

Limits map to ``INFO timeout_turn``, ``max_node``, ``max_depth``, and a game clock to
``timeout_match``/``time_left``. Lines go through
:class:`~gameai.players.engine_process.EngineProcess`, which waits ``pace`` before
each write (brains drop input that arrives right after their move).
"""
from __future__ import annotations

import re
import time as _time
from typing import Any

from ..errors import GameError
from ..games.notation import board_size, from_xy, root_and_moves, to_xy
from ..search.stats import MATE
from .engine_process import EngineFault
from .protocol import Decision

#: Gomocup ``INFO rule`` bits for the gomoku game's ``rule`` names.
GOMOCUP_RULES = {"freestyle": 0, "standard": 1, "exact": 1, "renju": 4}


class GomocupProtocol:
    """Gomocup for :class:`~gameai.players.engine.EnginePlayer` (a mixin: it uses the
    player's process methods and its ``clock``, ``startup`` and per-process state)."""

    def _prepare_gomocup(self, state) -> None:
        deadline = _time.monotonic() + self.startup
        size = board_size(state)
        if self._started_size == size:
            self._write("RESTART")
            if not self._expect_ok(deadline, fail=False):  # no RESTART: a new process
                self.close()
                self._handshake()
        if self._started_size != size:
            self._write(f"START {size}")
            self._expect_ok(deadline)
            self._started_size = size
        self._sent = []
        self._info = {}
        self._write(f"INFO rule {GOMOCUP_RULES.get(str(getattr(state, 'rule', 'freestyle')).lower(), 0)}")
        if self.clock:
            self._send_info("timeout_match", int(self.clock[0] * 1000))

    def _send_info(self, key: str, value: int) -> None:
        if self._info.get(key) != value:
            self._write(f"INFO {key} {value}")
            self._info[key] = value

    def _choose_gomocup(self, state, lim: dict[str, Any]) -> Decision:
        if "time" in lim:
            self._send_info("timeout_turn", max(1, int(lim["time"] * 1000)))
        elif self.clock:  # (timeout_turn 0 would mean "as fast as possible"): the whole clock
            self._send_info("timeout_turn", max(1, int(self._clock_left * 1000)))
        if "nodes" in lim:
            self._send_info("max_node", int(lim["nodes"]))
        if "depth" in lim:
            self._send_info("max_depth", int(lim["depth"]))
        if self.clock:
            self._write(f"INFO time_left {max(1, int(self._clock_left * 1000))}")
        root, moves = root_and_moves(state)
        sent = self._sent or []
        if not moves:
            self._write("BEGIN")
        elif len(moves) == len(sent) + 1 and moves[:-1] == sent:
            x, y = to_xy(state, moves[-1])
            self._write(f"TURN {x},{y}")
        else:
            me = state.to_move
            self._write("BOARD")
            for i, m in enumerate(moves):
                x, y = to_xy(state, m)
                side = (root.to_move + i) % 2  # sides alternate from the root position
                self._write(f"{x},{y},{1 if side == me else 2}")
            self._write("DONE")
        deadline = _time.monotonic() + self._move_window(lim)
        info: dict[str, Any] = {}
        value = None
        while True:
            line = self._read(deadline).strip()
            head = line.split(" ", 1)[0].upper()
            if head == "MESSAGE":
                value = parse_gomocup_message(line[len("MESSAGE"):], info, value)
                continue
            if head in ("DEBUG", "SUGGEST") or not line:
                continue
            if head in ("ERROR", "UNKNOWN"):
                raise EngineFault("engine-error", line)
            try:
                x, y = (int(v) for v in line.split(","))
            except ValueError:
                raise EngineFault("malformed-reply", f"{line!r} is not x,y") from None
            try:
                move = from_xy(state, x, y)
            except GameError as exc:  # parse_move validates (occupied, forbidden, off-board)
                raise EngineFault("illegal-move", f"{x},{y}: {exc}") from None
            self._sent = moves + [move]
            return Decision(move, value, info)

    def _expect_ok(self, deadline: float, fail: bool = True) -> bool:
        while True:
            line = self._read(deadline).strip()
            head = line.split(" ", 1)[0].upper()
            if head == "OK":
                return True
            if head in ("ERROR", "UNKNOWN"):
                if not fail:
                    return False
                raise EngineFault("engine-error", line)


_SCALE = {"": 1, "k": 10 ** 3, "m": 10 ** 6, "g": 10 ** 9, "b": 10 ** 9}
_NUMBER = re.compile(r"^(-?\d+(?:\.\d+)?)([kmgb]?)$", re.IGNORECASE)
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|min)?$", re.IGNORECASE)
_MATE_TEXT = re.compile(r"([+-])M(\d+)")   #: Rapfi's proven result, "+M9" or "-M10"


def _count(text: str) -> int | None:
    """``12345``, ``120K``, ``1.5M`` -> an integer (None if it is not one)."""
    m = _NUMBER.match(text.strip())
    return None if m is None else int(float(m.group(1)) * _SCALE[m.group(2).lower()])


def _seconds(text: str, unit: str = "ms") -> float | None:
    """``996ms``, ``1.2s``, ``2min`` or a bare number in ``unit`` -> seconds."""
    m = _DURATION.match(text.strip())
    if m is None:
        return None
    return float(m.group(1)) * {"ms": 1e-3, "s": 1.0, "min": 60.0}[(m.group(2) or unit).lower()]


def parse_gomocup_message(text: str, info: dict[str, Any], value):
    """Pick depth/seldepth/nodes/time and the value out of a Gomocup ``MESSAGE`` line, as
    the UCI ``info`` lines are (``engine_uci._parse_info``); a later message overrides an earlier
    one, so the last finished iteration's figures are recorded. Returns the value.

    Two forms are read: Rapfi's default ``Depth 12-20 | Eval 35 | Node 1.5M | Time 996ms``
    (fields split by ``|``, the depth as ``depth-seldepth``, counts with K/M/G suffixes),
    and the UCI-like one of Rapfi's ``MESSAGEMODE 1`` and of ``gameai engine``:
    ``depth 12-20 ev 35 n 1.5M tm 996 pv ...`` or ``depth 9 seldepth 14 ev 35 nodes 81234
    time 996 pv ...``, whose proven results read ``ev win in 3 plies`` (``MATE - 3``);
    Rapfi writes its proven results ``Eval +M9`` / ``Eval -M10`` (won or lost in that many
    plies; ``+M*``, a database win of unknown length, is left unread).
    Anything else (free text) changes nothing."""
    words = text.replace("|", " ").split()
    i = 0
    while i + 1 < len(words):
        key, arg = words[i].lower(), words[i + 1]
        i += 2
        if key == "depth":
            d, _, sel = arg.partition("-")
            if d.isdigit():
                info["depth"] = int(d)
                if sel.isdigit():
                    info["seldepth"] = int(sel)
        elif key == "seldepth" and arg.isdigit():
            info["seldepth"] = int(arg)
        elif key in ("eval", "ev"):
            rest = words[i:i + 3]
            if arg in ("win", "loss") and len(rest) >= 2 and rest[0] == "in" and rest[1].isdigit():
                plies = int(rest[1])   # gameai engine's "ev win in 3 plies": a mate score
                value = MATE - plies if arg == "win" else -(MATE - plies)
                i += 3 if rest[2:] == ["plies"] else 2
                continue
            mate = _MATE_TEXT.fullmatch(arg)
            if mate is not None:       # Rapfi's "+M9" / "-M10": a win (loss) in N plies
                plies = int(mate.group(2))
                value = MATE - plies if mate.group(1) == "+" else -(MATE - plies)
                continue
            v = _count(arg)
            value = v if v is not None else value
        elif key in ("node", "nodes", "n"):
            n = _count(arg)
            if n is not None:
                info["nodes"] = n
        elif key in ("time", "tm"):
            s = _seconds(arg)
            if s is not None:
                info["time_s"] = s
        elif key == "pv":
            break   # board coordinates, not move text: not recorded
        else:
            i -= 1  # not a key with an argument: step one word
    return value
