"""A player that drives an external program over UCI, UCCI or Gomocup (a subprocess).

Like cutechess-cli and fastchess, it runs any engine: options are sent after the
handshake, a fresh game is started for every game (so results do not depend on how many
games a process played before), move text is translated to the engine's notation, and
limits map to each protocol's own words (see the Engines page of the documentation).

The work is split by concern: :mod:`~gameai.players.engine_process` supervises the
process (deadlines on every read, :class:`EngineFault`, a bounded ``close``),
:mod:`~gameai.players.engine_uci` speaks UCI/UCCI and
:mod:`~gameai.players.engine_gomocup` speaks Gomocup; :class:`EnginePlayer` here ties
them together. Every name these modules define publicly is importable from here too.
"""
from __future__ import annotations

import queue
import subprocess
import time as _time
from typing import Annotated, Any, Literal

from ..errors import GameError, SpecError
from ..spec import Depth, Nodes, Range, Seconds
from .engine_gomocup import GOMOCUP_RULES, GomocupProtocol, _count, _seconds, parse_gomocup_message
from .engine_process import QUIT_GRACE, EngineFault, EngineProcess, _signal_group, stop_process
from .engine_uci import UciProtocol, _parse_info, _parse_option, _try_convert, mate_value
from .protocol import Decision
from .search import limits_dict

__all__ = ["PROTOCOLS", "DEFAULT_MOVE_TIME", "GOMOCUP_RULES", "QUIT_GRACE", "CLOCK_MARGIN",
           "DEFAULTS", "OPTION_PREFIX", "EngineFault", "EnginePlayer", "parse_clock",
           "stop_process", "mate_value", "parse_gomocup_message"]
#: Re-exported for callers of the module before the split (tests, benches).
_REEXPORTED = (_count, _seconds, _signal_group, _parse_info, _parse_option, _try_convert)

PROTOCOLS = ("uci", "ucci", "gomocup")
#: Seconds per move when neither the spec nor the tournament sets a limit (never "infinite").
DEFAULT_MOVE_TIME = 1.0
#: Seconds an engine may overrun its game clock before it loses on time.
CLOCK_MARGIN = 0.1
#: Parameters whose value comes from the spec, else the engines file, else here.
DEFAULTS: dict[str, Any] = {"protocol": "uci", "depth": None, "nodes": None, "time": None,
                            "clock": None, "notation": "auto", "timeout": 30.0,
                            "startup": 30.0, "pace": 0.05, "name": None, "cwd": None,
                            "reuse": True}
OPTION_PREFIX = "option."


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


class EnginePlayer(UciProtocol, GomocupProtocol, EngineProcess):
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
        EngineProcess._reset_process_state(self)
        self._ready = False           # handshake done
        self._announced: dict[str, dict[str, Any]] = {}  # option name -> {type, vars}
        self._seed_option = False
        self._configured = False      # options sent
        self._engine_notation: str | None = None
        self._dirty = False           # the process has searched since its last reset
        self._sent: list | None = None  # gomocup: moves the engine knows
        self._started_size: int | None = None
        self._info: dict[str, int] = {}  # gomocup INFO values sent this game

    def _paced(self) -> bool:
        return self.protocol == "gomocup"

    def _quit_line(self) -> bytes:
        return b"END\n" if self.protocol == "gomocup" else b"quit\n"

    # -- handshake, new game ----------------------------------------------------------
    def _handshake(self) -> None:
        """A running process (started anew if it died or never ran), past the UCI/UCCI
        handshake; Gomocup has none (``START`` comes with the game)."""
        if not self._alive():
            if self.proc is not None:
                self.close()
            self._start()
        if self.protocol != "gomocup":
            self._uci_handshake()

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
            self._prepare_uci(state)
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
