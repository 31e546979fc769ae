"""A player that drives an external program over UCI, UCCI or Gomocup (a subprocess).

Like cutechess-cli and fastchess, it runs any engine: options are sent after the
handshake, a fresh game is started for every game (so results do not depend on how many
games a process played before), move text is translated to the engine's notation, and
limits map to each protocol's own words (see the README's "Playing against other
engines").

Every read has a deadline, so a hanging, silent, dead or garbling engine costs at most
``timeout`` seconds (plus the move's time) and raises :class:`EngineFault`, whose
``reason`` the tournament records as the termination reason of a lost game. ``close``
asks the engine to quit, then terminates and kills its whole process group, each step
with a bounded wait, so no engine outlives its player.
"""
from __future__ import annotations

import os
import queue
import re
import select
import shlex
import signal
import subprocess
import threading
import time as _time
from typing import Annotated, Any, Literal

from ..errors import GameError, SpecError
from ..games.notation import (board_size, detect_xiangqi_notation, fen_of, from_xy,
                              root_and_moves, to_xy, variant_of, xiangqi_convert)
from ..search.stats import MATE
from ..spec import Depth, Nodes, Range, Seconds
from .protocol import Decision
from .search import limits_dict

PROTOCOLS = ("uci", "ucci", "gomocup")
#: Seconds per move when neither the spec nor the tournament sets a limit (never "infinite").
DEFAULT_MOVE_TIME = 1.0
#: Gomocup ``INFO rule`` bits for the gomoku game's ``rule`` names.
GOMOCUP_RULES = {"freestyle": 0, "standard": 1, "exact": 1, "renju": 4}
#: Seconds the engine gets to exit after ``quit``/``END``, and again after SIGTERM.
QUIT_GRACE = 1.0
#: Seconds an engine may overrun its game clock before it loses on time.
CLOCK_MARGIN = 0.1
#: Parameters whose value comes from the spec, else the engines file, else here.
DEFAULTS: dict[str, Any] = {"protocol": "uci", "depth": None, "nodes": None, "time": None,
                            "clock": None, "notation": "auto", "timeout": 30.0,
                            "startup": 30.0, "pace": 0.05, "name": None, "cwd": None,
                            "reuse": True}
OPTION_PREFIX = "option."


class EngineFault(GameError):
    """The engine misbehaved; ``reason`` is one of engine-crash, engine-timeout,
    illegal-move, malformed-reply, engine-error, time-forfeit."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason


def parse_clock(text: str | None) -> tuple[float, float] | None:
    """``"60+0.5"`` -> (60.0, 0.5): a game clock's base and increment in seconds."""
    if text is None:
        return None
    base, _, inc = str(text).partition("+")
    try:
        b, i = float(base), float(inc or 0)
    except ValueError:
        b = i = float("nan")
    if not (b > 0 and i >= 0 and b < float("inf") and i < float("inf")):
        raise SpecError(f"engine clock={text!r}: expected BASE or BASE+INC in seconds "
                        "(finite, BASE > 0, INC >= 0)")
    return b, i


def _check_number(key: str, value: Any, kind: type, positive: bool = True) -> None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind is int:
        ok = ok and float(value).is_integer()
    if ok:
        ok = value > 0 if positive else value >= 0
        ok = ok and value < float("inf")
    if not ok:
        raise SpecError(f"engine {key}={value!r}: expected a finite "
                        f"{'positive' if positive else 'non-negative'} "
                        f"{'integer' if kind is int else 'number'}")


class EnginePlayer:
    """``engine(cmd="prog args", protocol=uci|ucci|gomocup, depth=, nodes=, time=, clock=,
    option.NAME=VALUE, ...)`` or ``engine(conf=NAME[, engines=FILE])``.

    Limits (per move): ``depth``, ``nodes``, ``time`` seconds per move (UCI
    ``go movetime``; UCCI ``go time T increment 0``, a sudden-death clock of T, of which
    engines spend a fraction; Gomocup ``INFO timeout_turn``), or ``clock="BASE+INC"``
    seconds for the game (UCI ``wtime/btime/winc/binc``, UCCI ``time/increment``,
    Gomocup ``timeout_match``/``time_left``; overrunning it loses on time). With no limit
    the engine gets ``DEFAULT_MOVE_TIME`` per move. Limits passed by the tournament
    override these.

    ``option.NAME=VALUE`` sets an engine option after the handshake and before
    ``isready`` (``option.Skill_Level`` also matches an announced ``Skill Level``); an
    announced ``UCI_Variant`` is set to the game being played unless given.
    ``notation``: Xiangqi move text, ``iccs`` (ranks 0-9), ``uci`` (ranks 1-10, as
    Fairy-Stockfish writes UCI Xiangqi) or ``auto`` (ICCS under UCCI; under UCI read from
    the engine's own move on the start position). ``timeout`` bounds each wait for a
    reply beyond the move's time; ``startup`` bounds the handshake; ``pace`` is the pause
    before writing after a Gomocup reply (engines drop input that arrives right after
    their move). ``reuse=true`` lets a tournament worker keep the process for its next
    game; each game still starts fresh (``ucinewgame``, UCCI ``setoption newgame`` or a
    restart, Gomocup ``RESTART``).
    """

    accepts_limits = True

    def __init__(self, cmd: str | None = None,
                 protocol: Literal["uci", "ucci", "gomocup"] | None = None,
                 depth: Depth | None = None, nodes: Nodes | None = None,
                 time: Seconds | None = None, clock: str | None = None,
                 notation: Literal["auto", "iccs", "uci"] | None = None,
                 timeout: Seconds | None = None, startup: Seconds | None = None,
                 pace: Annotated[float, Range(0, 10)] | None = None, name: str | None = None,
                 cwd: str | None = None, reuse: bool | None = None, conf: str | None = None,
                 engines: str | None = None, **options: str) -> None:
        given = {"cmd": cmd, "protocol": protocol, "depth": depth, "nodes": nodes,
                 "time": time, "clock": clock, "notation": notation, "timeout": timeout,
                 "startup": startup, "pace": pace, "name": name, "cwd": cwd, "reuse": reuse}
        bad = sorted(k for k in options if not k.startswith(OPTION_PREFIX) or k == OPTION_PREFIX)
        if bad:
            raise SpecError(f"engine has no parameter(s) {bad}; accepted: "
                            f"{', '.join([*given, 'conf', 'engines'])} and option.NAME=VALUE")
        file_def: dict[str, Any] = {}
        if conf is not None:
            from .engines_file import engine_definition
            file_def = dict(engine_definition(str(conf), engines))
            file_def.setdefault("name", str(conf))
        elif engines is not None:
            raise SpecError("engine: engines= names a file of definitions; pick one with conf=NAME")
        p = {**DEFAULTS, **{k: v for k, v in file_def.items() if k != "options"},
             **{k: v for k, v in given.items() if v is not None}}
        self.options: dict[str, Any] = {**file_def.get("options", {}),
                                        **{k[len(OPTION_PREFIX):]: v for k, v in options.items()}}
        if p["protocol"] not in PROTOCOLS:
            raise GameError(f"engine protocol {p['protocol']!r}: expected one of {', '.join(PROTOCOLS)}")
        if p["notation"] not in ("auto", "iccs", "uci"):
            raise SpecError(f"engine notation={p['notation']!r}: expected auto, iccs or uci")
        if not p.get("cmd") or not str(p["cmd"]).strip():
            raise GameError("engine: cmd is empty")
        for key, kind in (("depth", int), ("nodes", int), ("time", float), ("timeout", float),
                          ("startup", float)):
            if p[key] is not None:
                _check_number(key, p[key], kind)
        _check_number("pace", p["pace"], float, positive=False)
        self.cmd = str(p["cmd"])
        self.protocol: str = p["protocol"]
        self.notation: str = p["notation"]
        self.limits = limits_dict({"depth": p["depth"], "nodes": p["nodes"], "time": p["time"]})
        self.clock = parse_clock(p["clock"])
        if self.clock and self.clock[1] and self.protocol == "gomocup":
            raise SpecError(f"engine clock={p['clock']!r}: Gomocup has no increment "
                            "(timeout_match and time_left only); use clock=BASE")
        self.timeout = float(p["timeout"])
        self.startup = float(p["startup"])
        self.pace = float(p["pace"])
        self.cwd = p["cwd"]
        self.reusable = bool(p["reuse"])  # the tournament may keep the process for the next game
        self.name = p["name"] or f"engine({self.cmd})"
        self.proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._seed: int | None = None
        self._game_ready = False
        self._clock_left = 0.0
        self._reset_process_state()

    def _reset_process_state(self) -> None:
        self._ready = False           # handshake done
        self._broken = False          # unresponsive: kill rather than ask to quit
        self._announced: dict[str, dict[str, Any]] = {}  # option name -> {type, vars}
        self._seed_option = False
        self._configured = False      # options sent
        self._engine_notation: str | None = None
        self._dirty = False           # the process has searched since its last reset
        self._sent: list | None = None  # gomocup: moves the engine knows
        self._started_size: int | None = None
        self._info: dict[str, int] = {}  # gomocup INFO values sent this game
        self._last_reply = 0.0

    # -- process --------------------------------------------------------------------
    def _start(self) -> None:
        try:
            argv = shlex.split(self.cmd)
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, cwd=self.cwd,
                                         start_new_session=True)  # its own process group
            os.set_blocking(self.proc.stdin.fileno(), False)
        except (OSError, ValueError) as exc:
            self.proc = None
            raise EngineFault("engine-crash", f"cannot start {self.cmd!r}: {exc}") from None
        self._lines = queue.Queue()
        threading.Thread(target=self._pump, args=(self.proc, self._lines), daemon=True).start()
        self._reset_process_state()

    @staticmethod
    def _pump(proc: subprocess.Popen, lines: queue.Queue) -> None:
        """Reader thread: decoded lines, ``("bad", bytes)`` for invalid UTF-8, None at EOF."""
        try:
            for raw in iter(proc.stdout.readline, b""):
                raw = raw.rstrip(b"\r\n")
                try:
                    lines.put(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    lines.put(("bad", raw[:80]))
        except (OSError, ValueError):
            pass
        lines.put(None)

    def _alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def _write(self, line: str) -> None:
        if not self._alive():
            code = self.proc.poll() if self.proc else None
            raise EngineFault("engine-crash", f"engine exited (code {code})")
        self._pace()
        data = (line + "\n").encode("utf-8")
        fd = self.proc.stdin.fileno()
        deadline = _time.monotonic() + self.timeout
        while data:  # non-blocking: an engine that stops reading cannot block us either
            try:
                data = data[os.write(fd, data):]
            except BlockingIOError:
                left = deadline - _time.monotonic()
                if left <= 0:
                    self._broken = True
                    raise EngineFault("engine-timeout", f"the engine read no input for "
                                      f"timeout={self.timeout:g} s") from None
                select.select([], [fd], [], min(left, 0.1))
            except (OSError, ValueError) as exc:
                raise EngineFault("engine-crash", f"cannot write to engine: {exc}") from None

    def _pace(self) -> None:
        """Gomocup engines drop input that arrives right after a reply: wait ``pace``."""
        if self.protocol == "gomocup":
            wait = self._last_reply + self.pace - _time.monotonic()
            if wait > 0:
                _time.sleep(wait)

    def _read(self, deadline: float) -> str:
        left = deadline - _time.monotonic()
        try:
            line = self._lines.get(timeout=max(0.0, left))
        except queue.Empty:
            self._broken = True
            raise EngineFault("engine-timeout", f"no reply within the move's time plus "
                              f"timeout={self.timeout:g} s") from None
        if line is None:
            self._lines.put(None)  # keep reporting EOF
            self._broken = True
            code = None
            try:
                code = self.proc.wait(timeout=QUIT_GRACE) if self.proc else None
            except subprocess.TimeoutExpired:
                pass  # output closed but still running: close() terminates it
            raise EngineFault("engine-crash", "engine closed its output"
                              + (f" (exit code {code})" if code is not None else " and kept running"))
        if isinstance(line, tuple):
            self._broken = True
            raise EngineFault("malformed-reply", f"invalid UTF-8 in engine output: {line[1]!r}")
        self._last_reply = _time.monotonic()
        return line

    def _expect(self, token: str, deadline: float) -> list[str]:
        while True:
            words = self._read(deadline).split()
            if words[:1] == [token]:
                return words

    def close(self) -> None:
        """Stop the engine: ``quit`` (or ``END``), then SIGTERM, then SIGKILL to its process
        group, each with a bounded wait; never blocks for long, never leaves an orphan."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        if proc.poll() is None and not self._broken:
            self._pace()  # END is input too: sent too soon, the engine drops it
            try:
                proc.stdin.write(b"END\n" if self.protocol == "gomocup" else b"quit\n")
                proc.stdin.flush()
            except (OSError, ValueError):
                pass
        try:
            proc.stdin.close()  # EOF as well: most engines stop on either
        except (OSError, ValueError):
            pass
        stop_process(proc, grace=0.0 if self._broken else QUIT_GRACE)
        try:
            proc.stdout.close()
        except (OSError, ValueError):
            pass
        self._reset_process_state()

    def __del__(self) -> None:  # last resort: never leave an orphaned engine behind
        try:
            self.close()
        except Exception:
            pass

    # -- handshake, options, new game ------------------------------------------------
    def _handshake(self) -> None:
        if not self._alive():
            if self.proc is not None:
                self.close()
            self._start()
        if self._ready or self.protocol == "gomocup":
            return
        deadline = _time.monotonic() + self.startup
        self._write(self.protocol)
        while True:  # the option list comes before uciok/ucciok
            words = self._read(deadline).split()
            if words[:1] == [f"{self.protocol}ok"]:
                break
            if words[:1] == ["option"]:
                name, spec = _parse_option(words)
                if name:
                    self._announced[name] = spec
        self._seed_option = self._option_name("Seed") is not None
        self._ready = True

    def _option_name(self, name: str) -> str | None:
        """The announced option ``name`` means (exact, any case, or ``_`` for a space)."""
        if name in self._announced:
            return name
        for cand in (name.lower(), name.replace("_", " ").lower()):
            for k in self._announced:
                if k.lower() == cand:
                    return k
        return None

    def _setoption(self, name: str, value: Any = None) -> None:
        if isinstance(value, bool):
            value = "true" if value else "false"
        if self.protocol == "uci":
            self._write(f"setoption name {name}" + ("" if value is None else f" value {value}"))
        else:  # UCCI: no "name"/"value" words
            self._write(f"setoption {name}" + ("" if value is None else f" {value}"))

    def _configure(self, state) -> None:
        """Options after the handshake and before ``isready``: the user's, then the variant."""
        for key, value in self.options.items():
            name = self._option_name(key)
            if name is None and self._announced:
                raise EngineFault("engine-error", f"the engine has no option {key!r}; it offers: "
                                  f"{', '.join(self._announced)}")
            self._setoption(name or key, value)
        variant_opt = self._option_name("UCI_Variant")
        variant = variant_of(state)
        if (variant_opt and not any(self._option_name(k) == variant_opt for k in self.options)
                and variant in self._announced[variant_opt].get("vars", ())):
            self._setoption(variant_opt, variant)
        if self.protocol == "ucci" and self._option_name("usemillisec"):
            self._setoption(self._option_name("usemillisec"), True)  # times below are in ms
        self._write("isready")
        self._expect("readyok", _time.monotonic() + self.startup)
        self._configured = True

    def _detect_notation(self, state) -> str:
        """Xiangqi move text of this engine: declared, ICCS under UCCI, else its own move."""
        if variant_of(state) != "xiangqi":
            return "iccs"
        if self.notation != "auto":
            return self.notation
        if self.protocol == "ucci":
            return "iccs"
        start = type(state)()
        self._write("position startpos")
        self._write("go depth 1")
        self._dirty = True
        words = self._expect("bestmove", _time.monotonic() + self.startup)
        if len(words) < 2:
            raise EngineFault("malformed-reply", " ".join(words))
        try:
            return detect_xiangqi_notation(start, words[1])
        except GameError as exc:
            raise EngineFault("illegal-move", str(exc)) from None

    def new_game(self, seed: int) -> None:
        """Start the engine (so a program that cannot start loses at once); the game itself
        is set up on the first move, when the game being played is known."""
        self._seed = seed
        self._game_ready = False
        self._handshake()

    def _prepare(self, state) -> None:
        """A fresh game for every protocol, options set, notation known."""
        if self.protocol == "ucci" and self._dirty and not self._option_name("newgame"):
            self.close()  # UCCI without a newgame option: a new process is the only reset
        self._handshake()
        if self.protocol == "gomocup":
            self._prepare_gomocup(state)
        else:
            if not self._configured:
                self._configure(state)
            if self._engine_notation is None:
                self._engine_notation = self._detect_notation(state)
            if self._seed_option and self._seed is not None:  # reproducible engines take the game's seed
                self._setoption(self._option_name("Seed"), self._seed % 2**31)
            if self.protocol == "uci":
                self._write("ucinewgame")
            elif self._option_name("newgame"):
                self._setoption(self._option_name("newgame"))
            self._write("isready")
            self._expect("readyok", _time.monotonic() + self.startup)
        self._dirty = False
        self._clock_left = self.clock[0] if self.clock else 0.0
        self._game_ready = True

    # -- player protocol ------------------------------------------------------------
    def prepare(self, state) -> None:
        """Set the game up (options, ``ucinewgame``, ``isready``/``readyok``, or Gomocup's
        ``START``) before the first timed move, so its clock measures only the move."""
        if not self._game_ready:
            self._prepare(state)

    def choose(self, state, limits=None) -> Decision:
        lim = limits_dict(limits) or self.limits or ({} if self.clock else {"time": DEFAULT_MOVE_TIME})
        if not self._game_ready:  # (an engine that died mid-game is a crash, not restarted)
            self._prepare(state)
        self._dirty = True
        t0 = _time.monotonic()
        if self.protocol == "gomocup":
            d = self._choose_gomocup(state, lim)
        else:
            d = self._choose_uci(state, lim)
        if self.clock and "time" not in lim:
            self._clock_left -= _time.monotonic() - t0
            if self._clock_left < -CLOCK_MARGIN:
                raise EngineFault("time-forfeit", f"clock overrun by {-self._clock_left:.3f} s")
            self._clock_left += self.clock[1]
        return d

    def _move_window(self, lim: dict[str, Any]) -> float:
        """Seconds the engine may think before a reply is overdue."""
        if "time" in lim:
            return self.timeout + lim["time"]
        if self.clock:
            return self.timeout + max(0.0, self._clock_left)
        return self.timeout

    # -- UCI / UCCI -------------------------------------------------------------------
    def _to_engine(self, text: str) -> str:
        if self._engine_notation in (None, "iccs"):
            return text
        return xiangqi_convert(text, "iccs", self._engine_notation)

    def _from_engine(self, text: str) -> str:
        if self._engine_notation in (None, "iccs"):
            return text
        return xiangqi_convert(text, self._engine_notation, "iccs")

    def go_command(self, lim: dict[str, Any]) -> str:
        """The ``go`` line for these limits in this protocol (see the class docstring)."""
        go = ["go"]
        if "depth" in lim:
            go += ["depth", str(int(lim["depth"]))]
        if "nodes" in lim:
            go += ["nodes", str(int(lim["nodes"]))]
        if "time" in lim:
            ms = str(max(1, int(lim["time"] * 1000)))
            go += ["movetime", ms] if self.protocol == "uci" else ["time", ms, "increment", "0"]
        elif self.clock:
            ms = str(max(1, int(self._clock_left * 1000)))
            inc = str(int(self.clock[1] * 1000))
            if self.protocol == "uci":  # the opponent's clock is not ours to know: mirror ours
                go += ["wtime", ms, "btime", ms, "winc", inc, "binc", inc]
            else:
                go += ["time", ms, "increment", inc]
        return " ".join(go)

    def _choose_uci(self, state, lim: dict[str, Any]) -> Decision:
        root, moves = root_and_moves(state)
        fen = fen_of(root)
        texts = []
        for m in moves:  # move texts need the position they were played in
            texts.append(self._to_engine(root.move_str(m)))
            root.push(m)
        pos = f"position fen {fen}" if fen else "position startpos"
        self._write(pos + (" moves " + " ".join(texts) if texts else ""))
        self._write(self.go_command(lim))
        deadline = _time.monotonic() + self._move_window(lim)
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
                    move = state.parse_move(self._from_engine(words[1]))
                except GameError as exc:  # parse_move validates the move in full
                    raise EngineFault("illegal-move", f"{words[1]!r}: {exc}") from None
                if "pv" in info:
                    info["pv"] = " ".join(_try_convert(self._from_engine, t) for t in info["pv"].split())
                return Decision(move, value, info)

    # -- Gomocup --------------------------------------------------------------------
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


def stop_process(proc: subprocess.Popen, grace: float = QUIT_GRACE) -> None:
    """Wait ``grace`` s for ``proc`` to exit, then SIGTERM its process group, wait, then
    SIGKILL it; bounded in time, and children the engine started go with it."""
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if proc.poll() is not None:
            break
        _signal_group(proc, sig)
        try:
            proc.wait(timeout=QUIT_GRACE)
        except subprocess.TimeoutExpired:
            pass
    _signal_group(proc, signal.SIGKILL)  # leftovers in the group (a wrapper's children)


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError, OSError):
        if proc.poll() is None:
            try:
                proc.send_signal(sig)
            except OSError:
                pass


def _parse_option(words: list[str]) -> tuple[str, dict[str, Any]]:
    """``option name Skill Level type spin ...`` (UCI) or ``option Hash type spin ...``
    (UCCI) -> (name, {"type": ..., "vars": [...]})."""
    rest = words[1:]
    if rest[:1] == ["name"]:
        rest = rest[1:]
    cut = rest.index("type") if "type" in rest else len(rest)
    name = " ".join(rest[:cut])
    spec: dict[str, Any] = {"type": rest[cut + 1] if cut + 1 < len(rest) else None, "vars": []}
    for i, w in enumerate(rest):
        if w == "var" and i + 1 < len(rest):
            spec["vars"].append(rest[i + 1])
    return name, spec


def _try_convert(f, text: str) -> str:
    try:
        return f(text)
    except GameError:
        return text


def mate_value(moves: int) -> int:
    """UCI ``score mate N`` (moves, negative when mated) in our units: ``MATE - plies``."""
    if moves > 0:
        return MATE - (2 * moves - 1)
    return -(MATE - 2 * -moves)


_SCALE = {"": 1, "k": 10 ** 3, "m": 10 ** 6, "g": 10 ** 9, "b": 10 ** 9}
_NUMBER = re.compile(r"^(-?\d+(?:\.\d+)?)([kmgb]?)$", re.IGNORECASE)
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)(ms|s|min)?$", re.IGNORECASE)


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
    the UCI ``info`` lines are (:func:`_parse_info`); a later message overrides an earlier
    one, so the last finished iteration's figures are recorded. Returns the value.

    Two forms are read: Rapfi's default ``Depth 12-20 | Eval 35 | Node 1.5M | Time 996ms``
    (fields split by ``|``, the depth as ``depth-seldepth``, counts with K/M/G suffixes),
    and the UCI-like one of Rapfi's ``MESSAGEMODE 1`` and of ``gameai engine``:
    ``depth 12-20 ev 35 n 1.5M tm 996 pv ...`` or ``depth 9 seldepth 14 ev 35 nodes 81234
    time 996 pv ...``, whose proven results read ``ev win in 3 plies`` (``MATE - 3``).
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


def _parse_info(words: list[str], info: dict[str, Any], value):
    """Pick depth/seldepth/nodes/time/score/pv out of a UCI or UCCI ``info`` line.

    Scores: UCI ``score cp N`` and ``score mate N``; UCCI's bare ``score N``. Lines of a
    secondary ``multipv`` and ``info string`` lines are ignored. Returns the value.
    """
    if "string" in words[1:2]:
        return value
    if "multipv" in words:
        i = words.index("multipv")
        if i + 1 < len(words) and words[i + 1] != "1":
            return value
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
        elif w == "score" and i + 1 < len(words):
            j, kind = i + 1, "cp"
            if words[j] in ("cp", "mate"):
                kind, j = words[j], j + 1
            try:
                v = int(words[j])
                value = v if kind == "cp" else mate_value(v)
                j += 1
            except (ValueError, IndexError):
                pass
            i = j
        elif w == "pv":
            info["pv"] = " ".join(words[i + 1:])
            break
        elif w == "string":
            break
        else:
            i += 1
    return value
