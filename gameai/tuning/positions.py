"""Positions and results for tuning, read from the game records the toolkit writes.

Sources (any mix, one game kind):

* a tournament folder (``games.parquet`` + ``moves.parquet``, see
  :mod:`gameai.tournament.records`): the opening and moves are replayed by the rules, the
  result is the ``result`` column and the searcher's ``value`` of each move is kept
  (the score of the position before it, mover's view) for tuning against scores;
* a ``.pgn`` file (Xiangqi, every game in it) or a ``.psq`` file (Gomoku/Renju, one
  game; its result is read off the final position);
* a ``.txt`` move-list file: one game per non-empty line, moves separated by spaces,
  optionally ending with ``1-0``, ``0-1`` or ``1/2-1/2`` (first player's view); without
  one the final position must be decided;
* a folder without parquet files: every ``.pgn``/``.psq``/``.txt`` file in it.

Games without a known result (``*``, an unfinished PSQ) are skipped and counted; a file
that cannot be read, a folder that does not exist, games of another kind or a tournament
folder whose ``moves.parquet`` has moves of games missing from ``games.parquet`` are
:class:`~gameai.errors.RecordError`, never skipped silently.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..errors import GameError, RecordError

_SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
_FILE_SUFFIXES = (".pgn", ".psq", ".txt")


@dataclass
class RecordedGame:
    """One game: the start spec, its moves as text, the first player's score (1, 1/2, 0),
    how many opening plies were forced on it, and per ply the mover's search value."""

    source: str
    moves: list[str]
    result: float
    opening_plies: int = 0
    values: dict[int, float] = field(default_factory=dict)
    fen: str | None = None


@dataclass
class Records:
    """Games read from every source, with what was skipped (and why)."""

    games: list[RecordedGame]
    skipped: dict[str, int]
    sources: list[str]


def game_kind(spec: str) -> str:
    """``xiangqi``, ``gomoku`` or ``renju``: the kind of game a game spec builds."""
    from ..registry import load_game
    name = getattr(load_game(spec), "name", spec)
    if name not in ("xiangqi", "gomoku", "renju"):
        raise RecordError(f"tuning reads xiangqi, gomoku and renju records, not {name!r}")
    return name


def read_records(paths: Iterable[str | Path], game: str, values_of: str | None = None) -> Records:
    """Every game of ``paths`` (folders or files, see the module doc) for the game spec ``game``.

    ``values_of`` keeps only the search values of the moves that player made (a
    tournament's player name, e.g. an engine's), for tuning towards one program's scores."""
    kind = game_kind(game)
    games: list[RecordedGame] = []
    skipped: dict[str, int] = {}
    sources: list[str] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise RecordError(f"records {p}: no such file or folder")
        sources.append(str(p))
        if p.is_dir():
            if (p / "games.parquet").exists():
                games += _read_tournament(p, kind, skipped, values_of)
                continue
            files = sorted(f for f in p.iterdir() if f.suffix.lower() in _FILE_SUFFIXES)
            if not files:
                raise RecordError(f"records {p}: a folder with neither games.parquet nor "
                                  f".pgn/.psq/.txt files")
            for f in files:
                games += _read_file(f, kind, skipped)
        else:
            games += _read_file(p, kind, skipped)
    if values_of is not None and not any(g.values for g in games):
        raise RecordError(f"records: no move of a player named {values_of!r} has a recorded "
                          "value (the players are named in each folder's games.parquet)")
    return Records(games, skipped, sources)


def _skip(skipped: dict[str, int], why: str) -> None:
    skipped[why] = skipped.get(why, 0) + 1


def _read_tournament(folder: Path, kind: str, skipped: dict[str, int],
                     values_of: str | None = None) -> list[RecordedGame]:
    import pandas as pd
    manifest = folder / "manifest.json"
    if manifest.exists():
        try:
            spec = json.loads(manifest.read_text())["config"]["game"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise RecordError(f"records {folder}: unreadable manifest.json: {exc}") from None
        theirs = game_kind(spec)
        if theirs != kind:
            raise RecordError(f"records {folder}: these are {theirs} games ({spec!r}), "
                              f"not {kind}; pass --game {theirs}")
    try:
        g = pd.read_parquet(folder / "games.parquet")
        m = pd.read_parquet(folder / "moves.parquet", columns=["game_id", "ply", "move", "value",
                                                               "player"])
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise RecordError(f"records {folder}: cannot read the parquet tables: {exc}") from None
    by_game = {gid: rows.sort_values("ply") for gid, rows in m.groupby("game_id")}
    orphans = sorted(set(by_game) - set(g.game_id))
    if orphans:   # the two tables were written together: a damaged or mixed folder
        shown = ", ".join(map(str, orphans[:5])) + (", ..." if len(orphans) > 5 else "")
        raise RecordError(f"records {folder}: moves.parquet has moves of {len(orphans)} "
                          f"game(s) missing from games.parquet (game_id {shown}); their "
                          "results are unknown, so the folder cannot be read as it is")
    out = []
    for row in g.itertuples(index=False):
        if (getattr(row, "faulty", -1) or -1) >= 0 or row.result not in _SCORES:
            _skip(skipped, "faulty or unfinished")
            continue
        opening = (row.opening or "").split()
        rows = by_game.get(row.game_id)
        moves = list(opening)
        values: dict[int, float] = {}
        if rows is not None:
            for ply, mv, val, who in zip(rows.ply, rows.move, rows.value, rows.player):
                moves.append(mv)
                if val == val and (values_of is None or who == values_of):  # not NaN
                    values[int(ply)] = float(val)
        out.append(RecordedGame(f"{folder}#{row.game_id}", moves, _SCORES[row.result],
                                len(opening), values))
    return out


def _read_file(path: Path, kind: str, skipped: dict[str, int]) -> list[RecordedGame]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        text = path.read_bytes().decode("gb18030", errors="replace")
    except OSError as exc:
        raise RecordError(f"records {path}: cannot read: {exc.strerror or exc}") from None
    suffix = path.suffix.lower()
    if suffix == ".pgn":
        if kind != "xiangqi":
            raise RecordError(f"records {path}: a PGN file holds Xiangqi games, not {kind}")
        from ..records import read_pgn_games
        try:
            pgn = read_pgn_games(text)
        except RecordError as exc:
            raise RecordError(f"records {path}: {exc}") from None
        out = []
        for n, g in enumerate(pgn):
            if g.result not in _SCORES:
                _skip(skipped, "no result")
                continue
            out.append(RecordedGame(f"{path}#{n}", list(g.moves), _SCORES[g.result],
                                    fen=g.tags.get("FEN") or None))
        return out
    if suffix == ".psq":
        if kind == "xiangqi":
            raise RecordError(f"records {path}: a PSQ file holds Gomoku/Renju games, not xiangqi")
        from ..games.gomoku_records import read_psq
        try:
            state, _ = read_psq(text, rule="renju" if kind == "renju" else None)
        except RecordError as exc:
            raise RecordError(f"records {path}: {exc}") from None
        if state.name != kind:
            raise RecordError(f"records {path}: a {state.name} game, not {kind}")
        score = _final_score(state)
        if score is None:
            _skip(skipped, "no result")
            return []
        return [RecordedGame(str(path), [state.move_str(mv) for mv in state.move_stack], score)]
    if suffix == ".txt":
        out = []
        for n, line in enumerate(text.splitlines(), 1):
            tokens = line.split("#", 1)[0].replace(",", " ").split()
            if not tokens:
                continue
            score = _SCORES.get(tokens[-1])
            if score is not None or tokens[-1] == "*":
                tokens = tokens[:-1]
            out.append(RecordedGame(f"{path}:{n}", tokens, -1.0 if score is None else score))
        return out
    raise RecordError(f"records {path}: unknown suffix {path.suffix!r}; use a tournament "
                      f"folder, .pgn, .psq or .txt")


def _final_score(state) -> float | None:
    """The first player's score from a decided final position, else None."""
    outcome = state.result()
    if outcome is None:
        return None
    return 0.5 if outcome.winner is None else (1.0 if outcome.winner == 0 else 0.0)


def replay(game: RecordedGame, spec: str):
    """Yield ``(ply, state)`` for the start and after each move of ``game`` (one state,
    mutated in place: read it before the next step). Errors name the game and move."""
    from ..registry import load_game
    state = load_game(spec, fen=game.fen) if game.fen else load_game(spec)
    yield 0, state
    for n, text in enumerate(game.moves):
        try:
            state.push(state.parse_move(text))
        except GameError as exc:
            raise RecordError(f"records {game.source}: move {n + 1} ({text!r}): {exc}") from None
        yield n + 1, state
    if game.result < 0:                      # a move list without a result: the end decides
        score = _final_score(state)
        game.result = -2.0 if score is None else score
