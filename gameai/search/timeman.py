"""Time management: how much of a game clock one move may use.

A search gets two budgets (as engines such as Stockfish do): ``soft`` -- do not start
another iterative-deepening iteration after this many seconds (an iteration started
late would rarely finish) -- and ``hard`` -- abort the search whatever it is doing
(the last finished iteration is returned). :func:`allocate` turns a clock reading into
a :class:`Budget`; the searchers' ``clock=`` option and the engine servers (UCI
``wtime/winc/movestogo``, UCCI ``time/increment/movestogo``, Gomocup ``time_left``)
all use it, so a change here changes every player's time use.

The rule is the classic one: spread the remaining time over the moves still to play
(``movestogo`` when the time control says it, else an assumed horizon of
``horizon`` moves), add most of the increment, keep ``overhead_s`` in reserve for
the move's transmission, and let the hard limit stretch to a few soft budgets but
never beyond a fixed share of what is left.

Clock text (searchers' ``clock=``) follows the PGN ``TimeControl`` tag's forms:
``"300"`` (300 s for the game), ``"300+5"`` (plus 5 s per move), ``"40/300"``
(300 s for every 40 moves).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..errors import SpecError


@dataclass(frozen=True)
class Budget:
    """Seconds for one move: ``soft`` (start no new iteration after) <= ``hard`` (abort)."""

    soft: float
    hard: float


@dataclass(frozen=True)
class Clock:
    """A time control: ``seconds`` per game or period, ``increment`` per move, ``movestogo``."""

    seconds: float
    increment: float = 0.0
    movestogo: int | None = None


def _seconds(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or value < 0:
        raise SpecError(f"time manager: {name} must be a finite number of seconds >= 0, got {value!r}")
    return float(value)


def allocate(remaining_s: float, increment_s: float = 0.0, movestogo: int | None = None, *,
             horizon: int = 30, overhead_s: float = 0.05, max_share: float = 0.5,
             hard_factor: float = 4.0) -> Budget:
    """The budget for the next move with ``remaining_s`` on the clock (see the module docstring).

    Guarantees: ``0 < soft <= hard <= max(remaining_s - overhead_s, 0.001)``; over
    ``movestogo`` moves the soft budgets add up to no more than the time available.
    """
    remaining = _seconds("remaining_s", remaining_s)
    inc = _seconds("increment_s", increment_s)
    if movestogo is not None and (isinstance(movestogo, bool) or not isinstance(movestogo, int)
                                  or movestogo < 1):
        raise SpecError(f"time manager: movestogo must be a positive integer, got {movestogo!r}")
    usable = max(remaining - overhead_s, 0.0)
    moves = movestogo if movestogo is not None else horizon
    if moves == 1:                       # the last move before the time control
        soft = hard = usable
    else:
        soft = min(usable / moves + 0.75 * inc, usable * max_share)
        hard = min(soft * hard_factor, usable * max_share)
    floor = 0.001                        # always allow a depth-1 answer
    soft, hard = max(soft, floor), max(hard, floor)
    return Budget(soft=min(soft, hard), hard=hard)


_CLOCK = re.compile(r"^\s*(?:(\d+)\s*/\s*)?(\d+(?:\.\d*)?)\s*(?:\+\s*(\d+(?:\.\d*)?))?\s*$")


def parse_clock(text: "str | float | int | Clock") -> Clock:
    """Read ``"300"``, ``"300+5"`` or ``"40/300"`` (PGN TimeControl forms) into a :class:`Clock`."""
    if isinstance(text, Clock):
        return text
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        secs = _seconds("clock", text)
        if secs <= 0:
            raise SpecError(f"clock must be positive seconds, got {text!r}")
        return Clock(secs)
    m = _CLOCK.match(text) if isinstance(text, str) and text.isascii() else None
    if m is None:
        raise SpecError(f"clock {text!r}: expected SECONDS, SECONDS+INCREMENT or MOVES/SECONDS "
                        "(e.g. 300, 300+5, 40/300)")
    mtg, period, inc = m.groups()
    if float(period) <= 0 or (mtg is not None and int(mtg) < 1):
        raise SpecError(f"clock {text!r}: seconds and moves must be positive")
    return Clock(float(period), float(inc or 0.0), int(mtg) if mtg is not None else None)


class GameClock:
    """One player's clock through a game: allocates each move's budget and charges its time.

    With ``movestogo`` the period's seconds are added again every ``movestogo`` moves.
    """

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.reset()

    def reset(self) -> None:
        self.remaining = self.clock.seconds
        self.moves = 0

    def budget(self) -> Budget:
        c = self.clock
        mtg = c.movestogo - self.moves % c.movestogo if c.movestogo else None
        return allocate(max(self.remaining, 0.0), c.increment, mtg)

    def charge(self, used_s: float) -> None:
        """Record one move that took ``used_s`` seconds."""
        c = self.clock
        self.remaining += c.increment - used_s
        self.moves += 1
        if c.movestogo and self.moves % c.movestogo == 0:
            self.remaining += c.seconds
