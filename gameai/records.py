"""Game records in the forms game programs read: Xiangqi PGN and Gomoku/Renju PSQ.

**Xiangqi PGN** is the chess PGN layout as Xiangqi programs and databases use it
(XQBase, cchess, xiangqi.js, the Obsidian and web viewers): ``[Tag "value"]`` pairs with
``[Game "Chinese Chess"]``, ``[FEN "..."]`` when the game does not start from the
initial position and ``[Format "ICCS"]``, then numbered moves in ICCS coordinates and the
result (``1-0``, ``0-1``, ``1/2-1/2``, ``*``). The writer emits ``H2-E2`` (the XQBase
spelling); the reader also takes ``h2e2`` and ``h2-e2``, skips ``{comments}``,
``(variations)``, ``;`` line comments and ``$n`` glyphs, and refuses other move formats
(Chinese or WXF notation) with a clear error rather than guessing.

**Gomoku/Renju PSQ** is Piskvork's record (:mod:`gameai.games.gomoku_records`); the rule
is kept in a ``rule=renju`` line after the result code, which Piskvork never reads
(it stops after the two player names).

:func:`write_record`/:func:`read_record` pick the form from the game or the file suffix;
tournaments write every finished game this way (``games/<id>.pgn|.psq`` beside the
Parquet files) and ``gameai play`` saves and loads them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import GameError, RecordError
from .games.protocol import Outcome

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_ROSTER = ("Game", "Event", "Site", "Date", "Round", "Red", "Black", "Result")
_TAG = re.compile(r'^\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_ICCS = re.compile(r"^([a-iA-I])([0-9])-?([a-iA-I])([0-9])$")
_MOVE_NO = re.compile(r"^\d+\.(\.\.)?$")


@dataclass
class PgnGame:
    """One game of a PGN file: its tags, ICCS moves (``"h2e2"``) and result text."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    result: str = "*"

    def state(self, **params: Any):
        """The final position, every move checked by the rules (``params`` go to the game:
        e.g. ``repetitions``); a bad move raises :class:`RecordError` naming it."""
        from .games.xiangqi import Xiangqi
        try:
            s = Xiangqi(fen=self.tags.get("FEN") or None, **params)
        except GameError as exc:
            raise RecordError(f"pgn: FEN tag: {exc}") from None
        for n, text in enumerate(self.moves):
            try:
                s.push(s.parse_move(text))
            except GameError as exc:
                raise RecordError(f"pgn: move {n // 2 + 1}{'.' if n % 2 == 0 else '...'} "
                                  f"{text}: {exc}") from None
        return s


def result_text(outcome: Outcome | None) -> str:
    """PGN result for an outcome (player 0 is Red): ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``."""
    if outcome is None:
        return "*"
    return "1/2-1/2" if outcome.winner is None else ("1-0" if outcome.winner == 0 else "0-1")


def _initial_fen(state) -> str:
    root = state.copy()
    while root.move_stack:
        root.pop()
    return root.fen()


def write_pgn(state, tags: dict[str, Any] | None = None, result: str | None = None) -> str:
    """PGN text of the game that led to ``state`` (a Xiangqi position with its moves).

    ``tags`` adds or overrides tags (Event, Red, Black, Date, ...); ``result`` defaults to
    the ``Result`` tag given, else the position's own result (``*`` while it goes on).
    """
    if getattr(state, "name", "") != "xiangqi":
        raise RecordError(f"pgn: records Xiangqi games, not {getattr(state, 'name', state)!r}")
    result = result or (tags or {}).get("Result") or result_text(state.result())
    if result not in RESULTS:
        raise RecordError(f"pgn: result must be one of {', '.join(RESULTS)}, got {result!r}")
    t: dict[str, str] = {"Game": "Chinese Chess", "Event": "?", "Site": "?", "Date": "????.??.??",
                         "Round": "?", "Red": "?", "Black": "?"}
    t.update({str(k): str(v) for k, v in (tags or {}).items()})
    t["Result"] = result
    fen = _initial_fen(state)
    if fen.split()[:2] != START_FEN.split()[:2]:
        t["FEN"] = fen
    t["Format"] = "ICCS"
    order = [k for k in _ROSTER if k in t] + [k for k in t if k not in _ROSTER]
    lines = [f'[{k} "{_escape(t[k])}"]' for k in order]
    root = state.copy()
    moves = list(root.move_stack)
    while root.move_stack:
        root.pop()
    words: list[str] = []
    black_first = root.to_move == 1
    for i, m in enumerate(moves):
        text = root.move_str(m).upper()
        root.push(m)
        ply = i + (1 if black_first else 0)
        number = f"{ply // 2 + 1}. " if ply % 2 == 0 else (f"{ply // 2 + 1}... " if i == 0 else "")
        words.append(f"{number}{text[:2]}-{text[2:]}")
    words.append(result)
    body, line = [], ""
    for w in words:  # PGN lines stay under 80 characters
        if line and len(line) + 1 + len(w) > 79:
            body.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    body.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"


def _escape(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"')


def read_pgn_games(text: str) -> list[PgnGame]:
    """Every game of a PGN text (moves as lower-case ICCS ``"h2e2"``); see the module docstring."""
    games: list[PgnGame] = []
    cur: PgnGame | None = None
    in_moves = False
    body: list[str] = []

    def finish() -> None:
        nonlocal cur, body
        if cur is not None:
            _parse_movetext(cur, " ".join(body), len(games) + 1)
            games.append(cur)
        cur, body = None, []

    for n, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        line = raw.strip()
        if line.startswith("%"):
            continue
        m = _TAG.match(line)
        if m:
            if cur is None or in_moves:
                finish()
                cur, in_moves = PgnGame(), False
            cur.tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
            continue
        if line.startswith("[") and not in_moves:
            raise RecordError(f"pgn line {n}: malformed tag {raw!r}")
        if line:
            if cur is None:
                cur = PgnGame()
            in_moves = True
            body.append(line)
    finish()
    if not games:
        raise RecordError("pgn: no game found")
    return games


def read_pgn(text: str) -> PgnGame:
    """The first game of a PGN text (use :func:`read_pgn_games` for all of them)."""
    return read_pgn_games(text)[0]


def _parse_movetext(game: PgnGame, text: str, index: int) -> None:
    fmt = game.tags.get("Format", "ICCS")
    if fmt.upper() != "ICCS":
        raise RecordError(f"pgn game {index}: Format {fmt!r} is not read; only ICCS moves are")
    text = re.sub(r"\{[^}]*\}", " ", text)           # comments
    text = re.sub(r";[^\n]*", " ", text)
    while "(" in text:                                # variations (possibly nested)
        new = re.sub(r"\([^()]*\)", " ", text)
        if new == text:
            raise RecordError(f"pgn game {index}: unbalanced '(' in the moves")
        text = new
    result = None
    for tok in re.sub(r"(\d+\.(?:\.\.)?)", r" \1 ", text).split():
        if _MOVE_NO.match(tok) or tok.startswith("$") or tok in ("!", "?", "!!", "??", "!?", "?!"):
            continue
        if tok in RESULTS:
            result = tok
            continue
        if result is not None:
            raise RecordError(f"pgn game {index}: move {tok!r} after the result {result}")
        m = _ICCS.match(tok.rstrip("+#!?"))
        if not m:
            raise RecordError(f"pgn game {index}: {tok!r} is not an ICCS move like H2-E2")
        game.moves.append("".join(m.groups()).lower())
    game.result = result or game.tags.get("Result", "*")


# ---------------------------------------------------------------- either game, on disk
def record_suffix(state) -> str:
    """``.pgn`` for Xiangqi, ``.psq`` for Gomoku/Renju."""
    name = getattr(state, "name", "")
    if name == "xiangqi":
        return ".pgn"
    if name in ("gomoku", "renju"):
        return ".psq"
    raise RecordError(f"records: no record format for game {name!r}")


def record_text(state, tags: dict[str, Any] | None = None) -> str:
    """The record of the game that led to ``state``: PGN (Xiangqi) or PSQ (Gomoku/Renju;
    ``tags`` ``Black``/``White`` become its player lines, the rule its ``rule=`` line)."""
    if record_suffix(state) == ".pgn":
        return write_pgn(state, tags)
    from .games.gomoku_records import write_psq
    t = tags or {}
    return write_psq(state, names=(str(t.get("Black", "homo-1")), str(t.get("White", "homo-2"))))


def write_record(state, path: str | Path, tags: dict[str, Any] | None = None) -> Path:
    """Write the game's record to ``path`` (a suffix is added if it has none).

    A suffix that names another form (``g.psq`` for Xiangqi, ``x.txt``) is refused, as
    :func:`read_record` would refuse the file; so is a path that cannot be written. Both
    are a :class:`RecordError` naming the path, and nothing is written."""
    path = Path(path)
    suffix = record_suffix(state)
    if not path.name:                        # "." or "/": no file name to give a suffix
        raise RecordError(f"{path}: cannot write: a file name is needed, e.g. game{suffix}")
    if not path.suffix:
        path = path.with_suffix(suffix)
    elif path.suffix.lower() != suffix:
        raise RecordError(f"{path}: a {state.name} game is recorded as {suffix}, "
                          f"not {path.suffix}; name the file with {suffix} or no suffix")
    text = record_text(state, tags)
    try:
        path.write_text(text, encoding="utf-8")
    except (OSError, ValueError) as exc:     # (ValueError: a NUL in the name)
        raise RecordError(f"{path}: cannot write: {getattr(exc, 'strerror', None) or exc}") from None
    return path


def read_record(path: str | Path, game: str | None = None):
    """The final position of a recorded game: ``.pgn`` (Xiangqi) or ``.psq`` (Gomoku/Renju,
    rule from the file, else from ``game`` such as ``"renju"``). Errors name the file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        text = path.read_bytes().decode("gb18030", errors="replace")  # Chinese databases
    except (OSError, ValueError) as exc:     # (ValueError: a NUL in the name)
        raise RecordError(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    try:
        if path.suffix.lower() == ".pgn":
            return read_pgn(text).state()
        if path.suffix.lower() == ".psq":
            from .games.gomoku_records import read_psq
            rule = None
            if game is not None:
                rule = "renju" if game.startswith("renju") else \
                    (re.search(r"rule=(\w+)", game) or [None, None])[1]
            return read_psq(text, rule=rule)[0]
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    raise RecordError(f"{path}: unknown record suffix {path.suffix!r}; use .pgn or .psq")


def write_tournament_records(folder: str | Path, game: str, games: list[dict[str, Any]],
                             moves: dict[int, list[dict[str, Any]]]) -> list[Path]:
    """One record file per tournament game (``folder/<game_id>.pgn|.psq``) from the rows
    of games.parquet and moves.parquet: opening and moves replayed by the rules, players
    and result as tags. Rewritten whole each time (the journal is the source of truth).
    Games without a record format (Connect Four, synthetic trees) get none."""
    from .registry import load_game
    if getattr(load_game(game), "name", "") not in ("xiangqi", "gomoku", "renju"):
        return []
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for g in games:
        state = load_game(game)
        texts = (g.get("opening") or "").split() + \
            [m["move"] for m in sorted(moves.get(int(g["game_id"]), []), key=lambda r: r["ply"])]
        for text in texts:
            state.push(state.parse_move(text))
        winner = g.get("winner", -1)
        result = "1/2-1/2" if winner in (-1, None) else ("1-0" if winner == 0 else "0-1")
        first, second = ("Red", "Black") if state.name == "xiangqi" else ("Black", "White")
        tags = {"Event": "gameai tournament", "Round": g["game_id"], first: g.get("player0", "?"),
                second: g.get("player1", "?"), "Result": result,
                "Termination": g.get("reason", "")}
        paths.append(write_record(state, folder / f"{int(g['game_id']):06d}", tags))
    return paths
