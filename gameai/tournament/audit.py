"""Check recorded games against the schedule that should have produced them.

A resumed tournament keeps every recorded game and plays only the others, so what it
keeps must be this tournament's games and must be what was played: the schedule's
players, opening and seed under the game's id (a folder whose manifest is gone is
accepted only so), and moves that replay legally from the opening to the recorded
result. Anything else is a :class:`RecordError` naming where the game is recorded,
raised before anything is written.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import RecordError
from ..registry import load_game
from .play import RESULT_TEXT, is_legal
from .records import RecordStore
from .schedule import GameTask

#: game-row columns the schedule fixes before the game is played
SCHEDULED = ("spec0", "spec1", "player0", "player1", "pairing", "pair", "opening_id", "opening",
             "seed")


def scheduled_row(task: GameTask) -> dict[str, Any]:
    """The columns of ``task``'s game row that do not depend on how the game went."""
    return {"spec0": task.players[0], "spec1": task.players[1], "player0": task.names[0],
            "player1": task.names[1], "pairing": task.pairing, "pair": task.pair,
            "opening_id": task.opening_id, "opening": " ".join(task.opening), "seed": task.seed}


def _not_scheduled(game: dict[str, Any], task: GameTask | None) -> str | None:
    if task is None:
        return "its id is not scheduled"
    want = scheduled_row(task)
    for key in SCHEDULED:
        if game.get(key) != want[key]:
            return f"{key} {game.get(key)!r} recorded, {want[key]!r} scheduled"
    return None


def _ending(state, plies: int, max_plies: int | None) -> tuple[int | None, str] | None:
    """(winner, reason) the tournament gives a game standing at ``state``; None: not over."""
    outcome = state.result()
    if outcome is not None:
        return outcome.winner, outcome.reason
    if max_plies is not None and plies >= max_plies:
        return None, "ply-limit"
    if not state.legal_moves():
        return None, "no-moves"
    return None


def replay_problem(task: GameTask, game: dict[str, Any], moves: list[dict[str, Any]]) -> str | None:
    """Why ``game`` and ``moves`` cannot be what playing ``task`` recorded; None if they can."""
    state = load_game(task.game)
    for text in task.opening:
        state.push(state.parse_move(text))
    plies = len(task.opening)
    for m in moves:
        side = state.to_move
        got = (m.get("game_id"), m.get("ply"), m.get("side"), m.get("player"))
        want = (task.game_id, plies, side, task.names[side])
        if got != want:
            return (f"has a move row (game_id, ply, side, player) {got!r} where {want!r} "
                    "belongs")
        if _ending(state, plies, task.max_plies) is not None:
            return f"has a move at ply {plies}, after the game was over"
        text = m.get("move")
        try:
            move = state.parse_move(text)
            legal = is_legal(state, move, [])
        except (ValueError, TypeError):
            legal = False
        if not legal:
            return f"has the illegal move {text!r} at ply {plies}"
        state.push(move)
        plies += 1
    if game.get("plies") != plies:
        return f"says {game.get('plies')!r} plies but its opening and moves make {plies}"
    winner, faulty, reason = game.get("winner"), game.get("faulty"), game.get("reason")
    won = None if winner == -1 else winner
    if won not in RESULT_TEXT or game.get("result") != RESULT_TEXT[won] or \
            game.get("score0") != (0.5 if won is None else float(won == 0)):
        return (f"has result {game.get('result')!r}, winner {winner!r} and score0 "
                f"{game.get('score0')!r}, which do not agree")
    ending = _ending(state, plies, task.max_plies)
    if faulty in (0, 1):
        if moves and ending is not None:  # (a player may fail to start in any position)
            return f"says player {faulty} forfeited, but the game was already over ({ending[1]})"
        if moves and faulty != state.to_move:
            return f"says player {faulty} forfeited, but it was not that player's turn"
        if won != 1 - faulty:
            return f"says player {faulty} forfeited, but winner is {winner!r}"
        return None
    if faulty != -1:
        return f"has faulty {faulty!r} (expected -1, 0 or 1)"
    if ending is None:
        return "ends before the game is over (no forfeit recorded)"
    if (won, reason) != ending:
        return (f"records {game.get('result')} ({reason}) but its moves give "
                f"{RESULT_TEXT[ending[0]]} ({ending[1]})")
    return None


def check_foreign(store: RecordStore, tasks: list[GameTask], out: Path) -> None:
    """Refuse records that this schedule cannot have produced (another tournament's, or
    hand-edited ones) before anything is written: every game must sit under its scheduled
    id with the schedule's players, opening and seed, and its moves must replay legally to
    its recorded result."""
    by_id = {t.game_id: t for t in tasks}
    foreign = {gid: why for gid in sorted(store.games)
               if (why := _not_scheduled(store.games[gid], by_id.get(gid))) is not None}
    if foreign:
        shown = ", ".join(map(str, list(foreign)[:10])) + (" ..." if len(foreign) > 10 else "")
        gid, why = next(iter(foreign.items()))
        raise RecordError(f"{out}: the records hold {len(foreign)} game(s) that are not in this "
                          f"tournament's schedule of {len(tasks)} games (game ids {shown}; "
                          f"game {gid}: {why}); they belong to another tournament: use another "
                          "output folder (nothing was changed)")
    for gid in sorted(store.games):
        try:
            why = replay_problem(by_id[gid], store.games[gid], store.moves.get(gid, []))
        except (ValueError, TypeError, KeyError) as exc:
            why = f"does not replay ({exc})"
        if why:
            raise RecordError(f"{out}: game {gid} in {store.where.get(gid, 'the records')} {why}; "
                              "nothing was changed")
