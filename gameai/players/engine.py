"""A player that drives an external program over UCI, UCCI or Gomocup (a subprocess).

Every read has a deadline, so a hanging engine costs at most ``timeout`` seconds (plus the
move's time limit); a dead, hanging or lying engine raises :class:`EngineFault`, whose
``reason`` the tournament records as the termination reason of a lost game.
"""
from __future__ import annotations

import queue
import shlex
import subprocess
import threading
import time as _time
from typing import Any, Literal

from ..engine.notation import board_size, fen_of, from_xy, root_and_moves, to_xy
from ..errors import GameError
from ..spec import Depth, Nodes, Seconds
from .protocol import Decision
from .search import limits_dict

PROTOCOLS = ("uci", "ucci", "gomocup")
#: Seconds per move when neither the spec nor the tournament sets a limit (never "infinite").
DEFAULT_MOVE_TIME = 1.0
#: Gomocup ``INFO rule`` bits for the gomoku game's ``rule`` names.
GOMOCUP_RULES = {"freestyle": 0, "standard": 1, "exact": 1, "renju": 4}


class EngineFault(GameError):
    """The engine misbehaved; ``reason`` is one of engine-crash, engine-timeout,
    illegal-move, malformed-reply, engine-error."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason


class EnginePlayer:
    """``engine(cmd="prog args", protocol=uci|ucci|gomocup, depth=, nodes=, time=, timeout=)``.

    ``time`` is seconds per move (UCI ``movetime``, UCCI ``time .. movestogo 1``, Gomocup
    ``INFO timeout_turn``); ``depth``/``nodes`` are sent as ``go depth``/``go nodes`` (UCI,
    UCCI only); with no limit at all the engine gets ``DEFAULT_MOVE_TIME`` (1 s) per move.
    ``timeout`` bounds each wait for a reply beyond the move time; ``startup``
    bounds the handshake. The process lives across games (``new_game`` resets it) and is
    restarted if it died. With ``reuse=true`` (default) a tournament worker keeps a
    well-behaved engine running for its next game instead of starting a new process.
    """

    accepts_limits = True

    def __init__(self, cmd: str, protocol: Literal["uci", "ucci", "gomocup"] = "uci",
                 depth: Depth | None = None, nodes: Nodes | None = None,
                 time: Seconds | None = None, timeout: Seconds = 30.0, startup: Seconds = 30.0,
                 name: str | None = None, cwd: str | None = None, reuse: bool = True) -> None:
        if protocol not in PROTOCOLS:
            raise GameError(f"engine protocol {protocol!r}: expected one of {', '.join(PROTOCOLS)}")
        if not cmd or not str(cmd).strip():
            raise GameError("engine: cmd is empty")
        self.cmd = str(cmd)
        self.protocol = protocol
        self.limits = limits_dict({"depth": depth, "nodes": nodes, "time": time})
        self.timeout = float(timeout)
        self.startup = float(startup)
        self.cwd = cwd
        self.reusable = bool(reuse)  # the tournament may keep the process for the next game
        self._seed_option = False
        self.name = name or f"engine({self.cmd})"
        self.proc: subprocess.Popen | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._ready = False
        self._broken = False
        self._sent: list | None = None  # gomocup: moves the engine knows
        self._started_size: int | None = None
        self._rule: int | None = None

    # -- process --------------------------------------------------------------------
    def _start(self) -> None:
        try:
            argv = shlex.split(self.cmd)
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                         cwd=self.cwd)
        except (OSError, ValueError) as exc:
            raise EngineFault("engine-crash", f"cannot start {self.cmd!r}: {exc}") from None
        self._lines = queue.Queue()
        threading.Thread(target=self._pump, args=(self.proc, self._lines), daemon=True).start()
        self._ready = False
        self._broken = False
        self._seed_option = False
        self._sent = None
        self._started_size = None
        self._rule = None

    @staticmethod
    def _pump(proc: subprocess.Popen, lines: "queue.Queue[str | None]") -> None:
        try:
            for line in proc.stdout:
                lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        lines.put(None)

    def _alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _write(self, line: str) -> None:
        if not self._alive():
            raise EngineFault("engine-crash", f"engine exited (code {self.proc.poll() if self.proc else None})")
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise EngineFault("engine-crash", f"cannot write to engine: {exc}") from None

    def _read(self, deadline: float) -> str:
        left = deadline - _time.monotonic()
        try:
            line = self._lines.get(timeout=max(0.0, left))
        except queue.Empty:
            self._broken = True  # mid-search and unresponsive: kill rather than ask to quit
            raise EngineFault("engine-timeout", f"no reply within {self.timeout:g} s") from None
        if line is None:
            self._lines.put(None)  # keep reporting EOF
            raise EngineFault("engine-crash", f"engine exited (code {self.proc.wait()})")
        return line

    def _expect(self, token: str, deadline: float) -> None:
        while True:
            line = self._read(deadline)
            if line.strip().split()[:1] == [token] or line.strip() == token:
                return

    def _ensure(self) -> None:
        if not self._alive():
            if self.proc is not None:
                self.close()
            self._start()
        if not self._ready and self.protocol in ("uci", "ucci"):
            deadline = _time.monotonic() + self.startup
            self._write(self.protocol)
            while True:  # the option list comes before uciok/ucciok
                words = self._read(deadline).split()
                if words[:1] == [f"{self.protocol}ok"]:
                    break
                low = [w.lower() for w in words[:3]]
                if low[:3] == ["option", "name", "seed"] or low[:2] == ["option", "seed"]:
                    self._seed_option = True
            self._write("isready")
            self._expect("readyok", deadline)
            self._ready = True

    # -- player protocol ------------------------------------------------------------
    def new_game(self, seed: int) -> None:
        self._ensure()
        if self._seed_option:  # engines that take a seed get the game's (reproducible reuse)
            self._write(f"setoption name Seed value {seed % 2**31}" if self.protocol == "uci"
                        else f"setoption Seed {seed % 2**31}")
        if self.protocol == "uci":
            self._write("ucinewgame")
            self._write("isready")
            self._expect("readyok", _time.monotonic() + self.startup)
        elif self.protocol == "gomocup" and self._started_size is not None:
            self._write("RESTART")
            self._expect("OK", _time.monotonic() + self.startup)
            self._sent = []

    def choose(self, state, limits=None) -> Decision:
        lim = limits_dict(limits) or self.limits or {"time": DEFAULT_MOVE_TIME}
        self._ensure()
        if self.protocol == "gomocup":
            return self._choose_gomocup(state, lim)
        return self._choose_uci(state, lim)

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None:
            return
        try:
            if proc.poll() is None and not self._broken:
                proc.stdin.write("END\n" if self.protocol == "gomocup" else "quit\n")
                proc.stdin.flush()
                proc.stdin.close()  # EOF as well: most engines stop on either
                proc.wait(timeout=1)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for f in (proc.stdin, proc.stdout):
            try:
                f.close()
            except (OSError, ValueError):
                pass

    def __del__(self) -> None:  # last resort: never leave an orphaned engine behind
        try:
            self.close()
        except Exception:
            pass

    # -- UCI / UCCI -------------------------------------------------------------------
    def _choose_uci(self, state, lim: dict[str, Any]) -> Decision:
        root, moves = root_and_moves(state)
        fen = fen_of(root)
        texts = []
        for m in moves:  # move texts need the position they were played in
            texts.append(root.move_str(m))
            root.push(m)
        pos = f"position fen {fen}" if fen else "position startpos"
        self._write(pos + (" moves " + " ".join(texts) if texts else ""))
        go = ["go"]
        if "depth" in lim:
            go += ["depth", str(int(lim["depth"]))]
        if "nodes" in lim:
            go += ["nodes", str(int(lim["nodes"]))]
        if "time" in lim:
            ms = str(max(1, int(lim["time"] * 1000)))
            go += ["movetime", ms] if self.protocol == "uci" else ["time", ms, "movestogo", "1"]
        self._write(" ".join(go))
        deadline = _time.monotonic() + self.timeout + lim.get("time", 0.0)
        info: dict[str, Any] = {}
        value = None
        while True:
            line = self._read(deadline)
            words = line.split()
            if not words:
                continue
            if words[0] == "info":
                value = _parse_info(words, info, value)
            elif words[0] == "nobestmove" or words[:2] == ["bestmove", "(none)"]:
                raise EngineFault("illegal-move", "engine reports no move in a position with legal moves")
            elif words[0] == "bestmove":
                if len(words) < 2:
                    raise EngineFault("malformed-reply", f"{line!r}")
                try:
                    move = state.parse_move(words[1])
                except GameError as exc:  # parse_move validates the move in full
                    raise EngineFault("illegal-move", f"{words[1]!r}: {exc}") from None
                return Decision(move, value, info)

    # -- Gomocup --------------------------------------------------------------------
    def _choose_gomocup(self, state, lim: dict[str, Any]) -> Decision:
        deadline = _time.monotonic() + self.startup
        size = board_size(state)
        rule = GOMOCUP_RULES.get(str(getattr(state, "rule", "freestyle")).lower(), 0)
        if self._started_size != size:
            self._write(f"START {size}")
            self._expect_ok(deadline)
            self._started_size, self._sent, self._rule = size, [], None
        if self._rule != rule:
            self._write(f"INFO rule {rule}")
            self._rule = rule
        if "time" in lim:
            self._write(f"INFO timeout_turn {max(1, int(lim['time'] * 1000))}")
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
        deadline = _time.monotonic() + self.timeout + lim.get("time", 0.0)
        while True:
            line = self._read(deadline).strip()
            head = line.split(" ", 1)[0].upper()
            if head in ("MESSAGE", "DEBUG", "SUGGEST") or not line:
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
            return Decision(move, None, {})

    def _expect_ok(self, deadline: float) -> None:
        while True:
            line = self._read(deadline).strip()
            head = line.split(" ", 1)[0].upper()
            if head == "OK":
                return
            if head in ("ERROR", "UNKNOWN"):
                raise EngineFault("engine-error", line)


def _parse_info(words: list[str], info: dict[str, Any], value):
    """Pick depth/seldepth/nodes/time/score/pv out of a UCI ``info`` line."""
    i = 1
    while i < len(words):
        w = words[i]
        if w in ("depth", "seldepth", "nodes") and i + 1 < len(words):
            try:
                info[w] = int(words[i + 1])
            except ValueError:
                pass
            i += 2
        elif w == "time" and i + 1 < len(words):
            try:
                info["time_s"] = int(words[i + 1]) / 1000
            except ValueError:
                pass
            i += 2
        elif w == "score" and i + 2 < len(words):
            try:
                v = int(words[i + 2])
                value = v if words[i + 1] == "cp" else (10**9 - abs(v)) * (1 if v > 0 else -1)
            except ValueError:
                pass
            i += 3
        elif w == "pv":
            info["pv"] = " ".join(words[i + 1:])
            break
        elif w == "string":
            break
        else:
            i += 1
    return value
