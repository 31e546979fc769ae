"""What the protocol servers share: a command reader with the search running beside it.

The reader (the caller's thread) never waits for a search: a move request starts a
:class:`Thinking` in a worker thread and returns, so ``isready``, ``stop``, ``ponderhit``
and ``quit`` are answered at once, as the UCI specification asks ("the engine must always
be able to process input from stdin, even while thinking"). Each request ends with exactly
one answer, sent by the worker: the searched move, or, when the request was bad or the
search failed, a legal fallback move and the reason. A ``go infinite`` or ``go ponder``
answer is held back until ``stop`` (or ``ponderhit``).

Time: a request carries a soft and a hard budget in seconds (from
:func:`gameai.search.timeman.allocate` for clocks). The searcher gets both as
``Limits(time=hard, soft_time=soft)`` plus the ``stop`` event; while pondering the clock
starts at ``ponderhit``, and the server enforces the budget itself (a timer for the hard
limit, a check after each iteration for the soft one).
"""
from __future__ import annotations

import inspect
import math
import sys
import threading
import time
import typing
from dataclasses import dataclass
from typing import IO, Any, Callable, Iterable

from ..players.protocol import Decision
from ..presets import is_preset, presets_for
from ..registry import SEARCHERS, game_name, make_player, make_searcher, resolve_preset
from ..spec import Nodes, Seconds

#: Searchers for engine mode when no ``--player`` is given and the game has no ``strong``
#: preset (:mod:`gameai.presets`; first one present): NegaScout with TT, history, killers,
#: iterative deepening and quiescence; a ``go`` without limits searches its default depth.
DEFAULT_SEARCHERS = ("negascout(id=true,tt=true,history=true,killers=true,quiescence=true)",
                     "alphabeta(depth=3)", "minimax(depth=2)")
#: Deepest nominal depth a request may ask for; time, node and infinite searches use it
#: as their depth, so that only the clock, the node budget or ``stop`` ends them.
MAX_DEPTH = 64
#: Seconds kept back from a time budget for the reply to reach the GUI (pipe, Python).
MOVE_OVERHEAD = 0.05
#: Largest node budget and time budget (seconds) a request keeps: what a searcher's
#: ``nodes=``/``time=`` accept (:mod:`gameai.spec`); larger wire values are clamped.
MAX_NODES = int(typing.get_args(Nodes)[1].hi)
MAX_SECONDS = float(typing.get_args(Seconds)[1].hi)
#: Seconds a search still running at end of input may go on before it is stopped (its
#: move is then printed and the engine exits, all within about a second).
EOF_WAIT = 0.5


def default_player_spec(game: Any = None) -> str:
    """``strong`` when ``game`` has that preset, else a searcher when the search layer is
    installed, else ``random``."""
    if game is not None and "strong" in presets_for(game_name(game)):
        return "strong"
    names = set(SEARCHERS.names())
    for spec in DEFAULT_SEARCHERS:
        if spec.split("(")[0] in names:
            return spec
    return "random"


def build_player(spec: str | None, game: Any = None) -> Any:
    """The player behind ``--player`` (default :func:`default_player_spec`). A preset is
    used without its own time limit: the GUI's clock decides how long a move takes, and
    a preset's time would otherwise cap ``go depth`` and ``go infinite``."""
    spec = spec or default_player_spec(game)
    if is_preset(spec):
        return make_player(resolve_preset(spec, game, timed=False), name=spec)
    return make_player(spec, game=game)


def reserve(seconds: float) -> float:
    """``seconds`` minus the reply overhead (never more than a fifth of it, never < 1 ms)."""
    return max(0.001, seconds - min(MOVE_OVERHEAD, seconds / 5))


def parse_int(key: str, text: str, lo: int = 1) -> int:
    """An integer option value >= ``lo`` (however large: the request clamps it);
    ``ValueError`` naming the option otherwise."""
    try:
        v = int(text)
    except ValueError:
        raise ValueError(f"{key} needs an integer, got {text!r}") from None
    if v < lo:
        raise ValueError(f"{key} must be >= {lo}, got {v}")
    return v


def parse_ms(key: str, text: str) -> float:
    """A finite time in milliseconds (negative clocks count as 0); ``ValueError`` otherwise."""
    try:
        v = float(text)
    except ValueError:
        raise ValueError(f"{key} needs a number of milliseconds, got {text!r}") from None
    if not math.isfinite(v):
        raise ValueError(f"{key} must be finite, got {text!r}")
    return max(0.0, v)


@dataclass
class Request:
    """One move request as a protocol parsed it (times in seconds, None = no limit)."""

    depth: int | None = None
    nodes: int | None = None
    hard: float | None = None      #: never search longer than this
    soft: float | None = None      #: start no new iteration after this
    infinite: bool = False         #: answer only after ``stop``
    ponder: bool = False           #: answer only after ``ponderhit`` or ``stop``; clock starts at ponderhit
    error: str | None = None       #: a bad request: play a fallback move and say why
    moves: tuple | None = None     #: only these root moves (UCI searchmoves, UCCI banmoves); None = all
    notes: tuple[str, ...] = ()    #: harmless remarks (ignored tokens, clamped values)

    def clamp(self) -> None:
        """Bring the wire's values within what a searcher accepts (depth ``MAX_DEPTH``,
        nodes ``MAX_NODES``, seconds ``MAX_SECONDS``), a note naming each change."""
        notes = list(self.notes)
        if self.depth is not None and self.depth > MAX_DEPTH:
            notes.append(f"depth {self.depth} searched as {MAX_DEPTH}")
            self.depth = MAX_DEPTH
        if self.nodes is not None and self.nodes > MAX_NODES:
            notes.append(f"nodes {self.nodes} searched as {MAX_NODES}")
            self.nodes = MAX_NODES
        if self.hard is not None and self.hard > MAX_SECONDS:
            notes.append(f"time budget {self.hard:.6g} s searched as {MAX_SECONDS:g} s")
            self.hard = MAX_SECONDS
        if self.soft is not None:
            self.soft = min(self.soft, MAX_SECONDS)
        self.notes = tuple(notes)

    def search_depth(self) -> int | None:
        """The depth to search: the request's, else MAX_DEPTH when something else bounds
        the search (clock, nodes, stop), else None (the player's own default)."""
        if self.depth is not None:
            return min(self.depth, MAX_DEPTH)
        if self.hard is not None or self.nodes is not None or self.infinite or self.ponder:
            return MAX_DEPTH
        return None


def line_texts(state, moves: Iterable, text: Callable[[Any, Any], str]) -> list[str]:
    """Move texts of a line from ``state`` (each in its own position; state restored),
    stopping at the first move that is not legal there (a PV patched from a TT)."""
    out, pushed = [], 0
    try:
        for m in moves:
            if state.result() is not None or m not in state.legal_moves():
                break
            out.append(text(state, m))
            state.push(m)
            pushed += 1
    finally:
        for _ in range(pushed):
            state.pop()
    return out


def _accepts(func, name: str) -> bool:
    try:
        return name in inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False


def fallback_move(state, allowed: Iterable | None = None):
    """A legal move found fast: a one-ply search capped at 0.2 s, else the first legal move
    (among ``allowed`` when it names any legal move)."""
    moves = state.legal_moves()
    if allowed is not None:
        moves = [m for m in moves if m in set(allowed)] or moves
    if not moves:
        return None
    try:
        m = make_searcher("alphabeta(depth=1)").search(state.copy(), {"depth": 1, "time": 0.2},
                                                       root_moves=moves).move
        if m in moves:
            return m
    except Exception:  # the fallback itself must never fail
        pass
    return moves[0]


class Thinking:
    """One search running in a worker thread beside the command reader.

    ``report(row, root)`` is called after every finished iteration (``row`` as the
    searcher's ``on_iteration`` gives it; ``root`` a private copy of the position), and
    ``answer(decision, why, root)`` exactly once at the end (``why``: None, or the reason a
    fallback move was played). Both run in the worker thread.
    """

    def __init__(self, player, state, request: Request,
                 report: Callable[[dict, Any], None],
                 answer: Callable[[Decision, str | None, Any], None]) -> None:
        self.player, self.request = player, request
        self.report, self.answer = report, answer
        self.root = state.copy()             # for move texts; the search gets its own copy
        self.work = state.copy()
        self.stop = threading.Event()        # set: stop searching now
        self.release = threading.Event()     # set: the answer may be sent
        self.reported = 0
        self._hit_at: float | None = None
        self._timer: threading.Timer | None = None
        if not (request.infinite or request.ponder):
            self.release.set()
        self.thread = threading.Thread(target=self._run, name="gameai-search", daemon=True)
        self.thread.start()

    # -- commands from the reader ---------------------------------------------------
    def halt(self) -> None:
        """``stop``: end the search and let the answer out."""
        self.stop.set()
        self.release.set()

    def ponderhit(self) -> None:
        """The opponent played the expected move: our clock starts now."""
        if not self.request.ponder or self._hit_at is not None:
            return
        self._hit_at = time.monotonic()
        req = self.request
        if req.hard is None and req.depth is None and req.nodes is None:
            self.stop.set()  # nothing bounds the search from here: answer with what we have
        if req.hard is not None:
            self._timer = threading.Timer(req.hard, self.stop.set)
            self._timer.daemon = True
            self._timer.start()
        self.release.set()

    def join(self, timeout: float | None = None) -> None:
        self.thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self.thread.is_alive()

    # -- the worker -----------------------------------------------------------------
    def _run(self) -> None:
        decision, why = None, self.request.error
        try:
            if self.root.result() is not None or not self.root.legal_moves():
                decision, why = Decision(None), None  # game over: nothing to search
            elif why is None:
                decision = self._search()
        except Exception as exc:  # a failing search still answers with a legal move
            why = f"search failed ({type(exc).__name__}: {exc})"
        try:
            allowed = self.request.moves
            if decision is not None and decision.move is not None and allowed is not None \
                    and decision.move not in allowed:   # a player that cannot restrict its moves
                decision, why = None, why or "the player's move was not among the allowed root moves"
            if decision is None or (decision.move is None and self.root.legal_moves()):
                decision = Decision(fallback_move(self.root.copy(), allowed))
        except Exception as exc:
            decision, why = Decision(None), f"no move available ({type(exc).__name__}: {exc})"
        self.release.wait()
        if self._timer is not None:
            self._timer.cancel()
        try:
            self.answer(decision, why, self.root)
        except Exception as exc:  # the reply must still come: "no move" names the failure
            self.answer(Decision(None), f"cannot send the move ({type(exc).__name__}: {exc})",
                        self.root)

    def _iteration(self, row: dict) -> None:
        self.reported += 1
        try:
            self.report(row, self.root)
        except Exception:  # reporting is a courtesy; it must not cost the move
            pass
        soft = self.request.soft
        if self._hit_at is not None and soft is not None and time.monotonic() - self._hit_at >= soft:
            self.stop.set()

    def _search(self) -> Decision:
        req = self.request
        searcher = getattr(self.player, "searcher", None)
        if searcher is None or not hasattr(searcher, "search"):  # random, engines, ...
            limits = {k: v for k, v in (("depth", req.depth), ("nodes", req.nodes),
                                        ("time", req.hard)) if v is not None}
            if limits and getattr(self.player, "accepts_limits", False):
                return self.player.choose(self.work, limits=limits)
            return self.player.choose(self.work)
        from ..search.stats import Limits
        timed = not (req.ponder or req.infinite)  # pondering: the clock has not started
        limits = Limits(depth=req.search_depth(), nodes=req.nodes,
                        time=req.hard if timed else None, soft_time=req.soft if timed else None)
        kwargs: dict[str, Any] = {}
        for name, value in (("on_iteration", self._iteration), ("stop", self.stop),
                            ("root_moves", req.moves)):
            if value is not None and _accepts(searcher.search, name):
                kwargs[name] = value
        result = searcher.search(self.work, limits, **kwargs)
        st = result.stats
        if not self.reported and result.move is not None:  # no iteration reported: one line
            self._iteration({"depth": st.depth, "seldepth": st.seldepth, "value": result.value,
                             "nodes": st.nodes, "time_s": st.time_s, "pv": list(result.pv)})
        return Decision(result.move, result.value, {"pv": list(result.pv)})


class LineServer:
    """A text protocol spoken line by line on stdin/stdout, the search beside the reader.

    Subclasses define ``dispatch(line) -> bool`` (False ends the session) and
    ``error(message)``; any exception a line raises is reported with ``error`` and the
    session goes on, so no input line can crash the engine or make it fall silent.
    """

    out: IO[str]
    thinking: Thinking | None = None

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.closed = False

    def send(self, line: str) -> None:
        """Write one line (thread-safe); a closed output ends the session quietly."""
        with self._lock:
            if self.closed:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (OSError, ValueError):  # the GUI went away
                self.closed = True

    def serve(self, inp: IO | Iterable | None = None) -> None:
        """Read commands until quit/end-of-input; bytes are decoded as UTF-8 (bad bytes
        replaced). At end of input a running search gets ``EOF_WAIT`` seconds to finish,
        then it is stopped: its move is printed and the session ends within about a second,
        whatever limits the last request had (nobody is left to send ``stop``)."""
        source = inp if inp is not None else sys.stdin.buffer
        try:
            for raw in source:
                line = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
                if not self.handle(line) or self.closed:
                    break
            else:
                t = self.thinking
                if t is not None:
                    if not (t.request.infinite or t.request.ponder):
                        t.join(EOF_WAIT)
                    t.halt()
        finally:
            self.finish_thinking(timeout=2.0)
            with self._lock:  # a search that would not stop must not write during exit
                self.closed = True
            self.player.close()

    def handle(self, line: str) -> bool:
        """Process one line; False means the session is over."""
        try:
            return self.dispatch(line.replace("\x00", "").strip())
        except Exception as exc:  # noqa: BLE001 - the engine must survive any line
            self.error(f"{type(exc).__name__}: {exc}" if not isinstance(exc, ValueError) else str(exc))
            return True

    def dispatch(self, line: str) -> bool:
        raise NotImplementedError

    def error(self, message: str) -> None:
        raise NotImplementedError

    def note(self, message: str) -> None:
        """A line for the GUI's log that needs no answer (UCI ``info string``, Gomocup
        ``MESSAGE``)."""
        raise NotImplementedError

    # -- the search beside the reader ---------------------------------------------------
    def think(self, request: Request) -> None:
        """Start a search of ``self.state`` (after ending any previous one)."""
        self.finish_thinking()
        self.thinking = Thinking(self.player, self.state, request, self.report, self.answer)

    def prepare(self) -> None:
        """When no search runs: let the searcher compile and fault in its tables now
        (``Searcher.prepare``), not on the first ``go``'s clock. When a kernel has to be
        compiled (an empty disk cache), a :meth:`note` says so before and after. A failure
        is reported and costs nothing: the search does the same work when it starts."""
        t = self.thinking
        if t is not None and t.alive:
            return
        searcher = getattr(self.player, "searcher", None)
        if searcher is not None and hasattr(searcher, "prepare"):
            from ..prepare import on_first_compile
            t0 = time.perf_counter()
            compiling = []

            def started() -> None:
                compiling.append(True)
                self.note("preparing: compiling the search, once on this machine (up to a "
                          "minute or two; 'gameai prepare' does it ahead)")
            try:
                with on_first_compile(started):
                    searcher.prepare(self.state)
            except Exception as exc:  # noqa: BLE001 - the engine must survive it
                self.error(f"warm-up failed ({type(exc).__name__}: {exc})")
            else:
                if compiling:
                    self.note(f"prepared in {time.perf_counter() - t0:.1f} s")

    def finish_thinking(self, timeout: float | None = None) -> None:
        """Stop the running search (its answer is still sent) and wait for it."""
        t = self.thinking
        if t is not None:
            t.halt()
            t.join(timeout)
            if not t.alive:
                self.thinking = None

    def wait(self, timeout: float | None = None) -> None:
        """Wait until the running search (if any) has answered, without stopping it."""
        t = self.thinking
        if t is not None:
            t.join(timeout)

    def report(self, row: dict, root) -> None:
        """One finished iteration (subclasses print it)."""

    def answer(self, decision: Decision, why: str | None, root) -> None:
        """The one reply to a move request (``root``: the position searched)."""
        raise NotImplementedError
