"""Play one scheduled game to the end and return its records (runs inside a worker).

Players are created fresh for every game from their specs, so a game's result depends
only on its task (specs, opening, seed, limits) and not on which worker played it or
what it played before: that is what makes joblib, Dask and a resumed run agree.

Names the parent process registered at run time (:func:`gameai.registry.registrations`)
come with every game and are registered here first; :func:`check_players` runs in a
worker before the first game, so a player no worker can make stops the run instead of
forfeiting its games.
"""
from __future__ import annotations

import atexit
import os
import threading
import time
import traceback
from typing import Any

from ..errors import SpecError
from ..players.check import check_player
from ..registry import Registration, load_game, make_player, register_all
from ..search.stats import SearchStats
from .schedule import GameTask

#: Columns copied from a Decision's info into moves.parquet (missing ones stay null): every
#: SearchStats field; ``time_s`` is measured here instead, the same way for every player.
MOVE_STATS = tuple((name, tp) for name, tp in SearchStats.record_fields() if name != "time_s")
RESULT_TEXT = {0: "1-0", 1: "0-1", None: "1/2-1/2"}


#: Idle reusable players (external engines) of this worker process, by spec: starting an
#: engine costs far more than a ``new_game``, so a worker keeps its engines between games.
_IDLE: dict[str, list] = {}


def _acquire(spec: str):
    idle = _IDLE.get(spec)
    return idle.pop() if idle else make_player(spec)


def _release(spec: str, player, ok: bool) -> None:
    """Keep a well-behaved reusable player for the next game; close anything else."""
    if ok and getattr(player, "reusable", False):
        _IDLE.setdefault(spec, []).append(player)
        return
    try:
        player.close()
    except Exception:
        pass


@atexit.register
def close_idle_players() -> None:
    """Close the engines this process kept (at exit, or when a caller wants them gone)."""
    while _IDLE:
        _, players = _IDLE.popitem()
        for p in players:
            try:
                p.close()
            except Exception:
                pass


_WATCHED: set[int] = set()


def _alive(pid: int) -> bool:
    if os.getppid() == pid:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


def watch_parent(pid: int, every: float = 0.25) -> None:
    """In a pool worker: exit as soon as the tournament process ``pid`` is gone.

    A killed tournament (SIGKILL leaves it no time to stop its pool) must not leave
    workers playing games whose results nobody will record. One daemon thread per worker
    polls the runner's pid; when it has died the worker closes its idle engines and exits
    at once (engines in use see their input close and end). The runner itself never watches.
    """
    if pid in _WATCHED or pid == os.getpid():
        return
    _WATCHED.add(pid)

    def run() -> None:
        while _alive(pid):
            time.sleep(every)
        try:
            close_idle_players()
        finally:
            os._exit(70)

    threading.Thread(target=run, name="gameai-watch-runner", daemon=True).start()


def is_legal(state, move, legal: list) -> bool:
    """Legal by the rules, not just in ``legal_moves()``: games may list only candidate
    moves (Gomoku lists points near stones), so other moves are checked with the game's
    ``is_legal`` or else its validating ``parse_move``."""
    if move in legal:
        return True
    check = getattr(state, "is_legal", None)  # a game's own referee check, when it has one
    if callable(check):
        try:
            return bool(check(move))
        except Exception:
            return False
    try:
        return state.parse_move(state.move_str(move)) == move
    except Exception:  # GameError, or a move value the game cannot even print
        return False


def _choose(player, state, limits):
    if limits and getattr(player, "accepts_limits", False):
        return player.choose(state, limits=limits)
    return player.choose(state)


def check_players(game: str, specs: list[str] | tuple[str, ...],
                  registrations: tuple[Registration, ...] = (),
                  watch_pid: int | None = None) -> list[str]:
    """In a worker (or in-process), before the first game: register ``registrations``,
    then check that every player of ``specs`` can play ``game``
    (:func:`gameai.players.check.check_player`). Returns the problems, one line each,
    each naming its spec (empty: every player can play). ``watch_pid``: as a game's."""
    if watch_pid is not None:
        watch_parent(watch_pid)
    problems = []
    try:
        register_all(registrations)
        state = load_game(game)
    except Exception as exc:
        return [f"{type(exc).__name__}: {exc}"]
    for spec in dict.fromkeys(specs):
        try:
            check_player(spec, state)
        except SpecError as exc:
            problems.append(f"{spec}: {exc}")
        except Exception as exc:
            problems.append(f"{spec}: {type(exc).__name__}: {exc}")
    return problems


def play_game(task: GameTask, registrations: tuple[Registration, ...] = ()) -> dict[str, Any]:
    """Play ``task``; returns ``{"game": row, "moves": [rows]}`` (plain Python values).
    ``registrations``: names the parent registered at run time, registered here first."""
    t_start = time.perf_counter()
    if registrations:
        register_all(registrations)
    if task.watch_pid is not None:
        watch_parent(task.watch_pid)
    state = load_game(task.game)
    for text in task.opening:
        state.push(state.parse_move(text))
    plies = len(task.opening)
    players = [None, None]
    move_rows: list[dict[str, Any]] = []
    winner: int | None = None
    reason = ""
    error = ""
    faulty = -1
    try:
        for side in (0, 1):
            try:
                players[side] = _acquire(task.players[side])
                players[side].new_game(task.seed + side)
                prepare = getattr(players[side], "prepare", None)
                if prepare is not None:   # compile, start, handshake: off the move clock
                    prepare(state)
            except Exception as exc:  # a player that cannot even start loses
                winner, faulty = 1 - side, side
                reason = getattr(exc, "reason", "player-error")
                error = f"{type(exc).__name__}: {exc}"
                break
        while faulty < 0:
            outcome = state.result()
            if outcome is not None:
                winner, reason = outcome.winner, outcome.reason
                break
            if task.max_plies is not None and plies >= task.max_plies:
                winner, reason = None, "ply-limit"
                break
            side = state.to_move
            legal = state.legal_moves()
            if not legal:
                winner, reason = None, "no-moves"
                break
            key_before = state.key
            t0 = time.perf_counter()
            try:
                d = _choose(players[side], state, task.limits)
            except Exception as exc:
                winner, faulty = 1 - side, side
                reason = getattr(exc, "reason", "player-error")
                error = f"{type(exc).__name__}: {exc}"
                if reason == "player-error":
                    error += "\n" + traceback.format_exc(limit=4)
                break
            dt = time.perf_counter() - t0
            if state.key != key_before:
                winner, faulty, reason = 1 - side, side, "corrupted-position"
                error = "player left the position changed"
                break
            if not is_legal(state, d.move, legal):
                winner, faulty, reason = 1 - side, side, "illegal-move"
                error = f"move {d.move!r} is not legal"
                break
            info = d.info or {}
            row = {"game_id": task.game_id, "ply": plies, "side": side,
                   "player": task.names[side], "move": state.move_str(d.move),
                   "value": None if d.value is None else float(d.value)}
            for k, tp in MOVE_STATS:
                v = info.get(k)
                row[k] = None if v is None else tp(v)
            row["time_s"] = dt
            row["pv"] = str(info["pv"]) if info.get("pv") else None  # move text, as the player gave it
            move_rows.append(row)
            state.push(d.move)
            plies += 1
    finally:
        for side, p in enumerate(players):
            if p is not None:
                _release(task.players[side], p, ok=faulty != side)
    game_row = {
        "game_id": task.game_id, "pairing": task.pairing, "pair": task.pair,
        "player0": task.names[0], "player1": task.names[1],
        "spec0": task.players[0], "spec1": task.players[1],
        "opening_id": task.opening_id, "opening": " ".join(task.opening),
        "result": RESULT_TEXT[winner], "winner": -1 if winner is None else int(winner),
        "score0": 0.5 if winner is None else float(winner == 0),
        "reason": reason, "faulty": faulty, "error": error, "plies": plies,
        "time_s": time.perf_counter() - t_start, "seed": task.seed,
    }
    return {"game": game_row, "moves": move_rows}
