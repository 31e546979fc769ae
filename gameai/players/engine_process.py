"""Supervision of an external engine process, whatever protocol it speaks.

Every read has a deadline, so a hanging, silent, dead or garbling engine costs at most
``timeout`` seconds (plus the move's time) and raises :class:`EngineFault`, whose
``reason`` the tournament records as the termination reason of a lost game. ``close``
asks the engine to quit, then terminates and kills its whole process group, each step
with a bounded wait, so no engine outlives its player. The protocols
(:mod:`~gameai.players.engine_uci`, :mod:`~gameai.players.engine_gomocup`) only write
and read lines through :class:`EngineProcess`.
"""
from __future__ import annotations

import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time as _time

from ..errors import GameError

#: Seconds the engine gets to exit after ``quit``/``END``, and again after SIGTERM.
QUIT_GRACE = 1.0


class EngineFault(GameError):
    """The engine misbehaved; ``reason`` is one of engine-crash, engine-timeout,
    illegal-move, malformed-reply, engine-error, time-forfeit."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason


class EngineProcess:
    """The process of an engine player: start, write, read with deadlines, stop.

    The player sets ``cmd``, ``cwd``, ``timeout`` and ``pace`` and defines
    :meth:`_reset_process_state` (calling this one), :meth:`_paced` and :meth:`_quit_line`
    for its protocol.
    """

    cmd: str
    cwd: str | None
    timeout: float
    pace: float
    proc: subprocess.Popen | None = None

    def _reset_process_state(self) -> None:
        self._broken = False          # unresponsive: kill rather than ask to quit
        self._last_reply = 0.0

    def _paced(self) -> bool:
        """Whether writes wait ``pace`` after the last reply (Gomocup engines drop input
        that arrives right after their move)."""
        return False

    def _quit_line(self) -> bytes:
        """What asks the engine to exit."""
        return b"quit\n"

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
        """Wait ``pace`` after a reply where :meth:`_paced` says the protocol needs it."""
        if self._paced():
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
                proc.stdin.write(self._quit_line())
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
