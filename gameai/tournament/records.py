"""Tournament records on disk: games.parquet, moves.parquet and a crash-safe journal.

Every finished game is appended at once to ``journal.jsonl`` (one JSON line, flushed and
fsynced), then the two parquet tables are rewritten atomically (write to a temporary file,
``os.replace``; throttled to ``flush_every`` seconds, always at the end). A killed run
therefore loses no finished game. Readers of the parquet files always see a complete file.

On restart both places are read and reconciled: a game recorded in either one is kept
(the tables may lag behind the journal; a journal may have been truncated or deleted), a
torn last journal line (a killed run's half-written append) is dropped with a note, and
anything else that does not fit (a line that does not parse, the same game recorded
differently in two places, moves without a game) is a :class:`RecordError` raised before
anything is written. The repairs (journal rewritten to hold every game, temporary files
of a killed run removed) wait for :meth:`RecordStore.prepare`, which the runner calls only
once the records have also been checked against the schedule.
"""
from __future__ import annotations

import io
import json
import math
import os
import re
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import RecordError
from ..manifest import atomic_write_bytes
from ..search.stats import SearchStats

GAMES_SCHEMA = pa.schema([
    ("game_id", pa.int64()), ("pairing", pa.int64()), ("pair", pa.int64()),
    ("player0", pa.string()), ("player1", pa.string()),
    ("spec0", pa.string()), ("spec1", pa.string()),
    ("opening_id", pa.int64()), ("opening", pa.string()),
    ("result", pa.string()), ("winner", pa.int64()), ("score0", pa.float64()),
    ("reason", pa.string()), ("faulty", pa.int64()), ("error", pa.string()),
    ("plies", pa.int64()), ("time_s", pa.float64()), ("seed", pa.int64()),
])
#: moves.parquet: who played what, then one column per SearchStats field (the schema
#: follows gameai.search.stats, so a new counter there is a new column here), then the PV
#: text; ``time_s`` is the tournament's wall-clock of the whole move, for every player.
MOVES_SCHEMA = pa.schema(
    [("game_id", pa.int64()), ("ply", pa.int64()), ("side", pa.int64()),
     ("player", pa.string()), ("move", pa.string()), ("value", pa.float64())]
    + [(name, pa.int64() if tp is int else pa.float64()) for name, tp in SearchStats.record_fields()]
    + [("pv", pa.string())])
#: the temporary files of ``atomic_write_bytes`` (``.NAME.XXXXXXXX.tmp``, from mkstemp)
_TEMPORARY = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")


def _table(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    cols = {name: [r.get(name) for r in rows] for name in schema.names}
    return pa.Table.from_pydict(cols, schema=schema)


def _parquet_bytes(table: pa.Table) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def _same(a: Any, b: Any) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def _difference(a: dict[str, Any], b: dict[str, Any], schema: pa.Schema) -> str | None:
    """The first column in which two rows differ, as text; None when they agree."""
    if a == b:
        return None
    for name in schema.names:
        if not _same(a.get(name), b.get(name)):
            return f"{name} {a.get(name)!r} vs {b.get(name)!r}"
    return None


def _moves_difference(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str | None:
    if len(a) != len(b):
        return f"{len(a)} moves vs {len(b)}"
    for i, (x, y) in enumerate(zip(a, b)):
        diff = _difference(x, y, MOVES_SCHEMA)
        if diff:
            return f"move {i + 1}: {diff}"
    return None


@contextmanager
def folder_errors(out: Path, action: str) -> Iterator[None]:
    """Turn an operating-system failure on the records folder (not a folder, read-only,
    disk full, ...) into a :class:`RecordError` that names the folder and the cause.
    Every write is atomic or an append, so games recorded before the failure are kept."""
    try:
        yield
    except OSError as exc:
        why = exc.strerror or str(exc)
        where = exc.filename or out
        raise RecordError(f"tournament folder {out}: cannot {action}: {why} ({where})") from None


def _valid_record(rec: Any) -> bool:
    return (isinstance(rec, dict) and isinstance(rec.get("game"), dict)
            and isinstance(rec.get("moves"), list)
            and all(isinstance(m, dict) for m in rec["moves"])
            and type(rec["game"].get("game_id")) is int)


def _lock_folder(out: Path):
    """Hold an exclusive lock on ``out/.lock`` so two runs never write one folder."""
    fh = open(out / ".lock", "a+")
    try:
        import fcntl
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except ImportError:  # no fcntl (Windows): no protection, as before
        pass
    except OSError:
        fh.close()
        raise RecordError(f"{out} is in use by another running tournament") from None
    return fh


def _fits(rows: list[dict[str, Any]], schema: pa.Schema) -> bool:
    try:
        _table(rows, schema)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        return False
    return True


class RecordStore:
    """The output folder of one tournament: load what exists, append finished games.

    ``where[game_id]`` says where a loaded game is recorded (``journal.jsonl line 7``,
    ``games.parquet``), for messages; ``notes`` lists what loading found and will repair.
    """

    GAMES = "games.parquet"
    MOVES = "moves.parquet"
    JOURNAL = "journal.jsonl"

    def __init__(self, out: str | Path, flush_every: float = 2.0) -> None:
        self.out = Path(out)
        self.flush_every = flush_every
        self.games: dict[int, dict[str, Any]] = {}
        self.moves: dict[int, list[dict[str, Any]]] = {}
        self.where: dict[int, str] = {}
        self.notes: list[str] = []
        self._journal_complete = True  # the journal holds exactly self.games, line by line
        self._prepared = False
        self._last_flush = 0.0
        self._dirty = False
        self._lock = None
        with folder_errors(self.out, "open the records folder"):
            if self.out.exists() and not self.out.is_dir():
                raise NotADirectoryError(20, "not a folder", str(self.out))
            self.out.mkdir(parents=True, exist_ok=True)
            self._lock = _lock_folder(self.out)
            try:
                self._load()
            except BaseException:
                self.close()
                raise

    @property
    def journal_path(self) -> Path:
        return self.out / self.JOURNAL

    # -- loading (reads only) ----------------------------------------------------------------
    def _read_journal(self) -> dict[int, tuple[int, dict[str, Any]]]:
        """Journal records by game id, with their line numbers; a torn last line is dropped."""
        path = self.journal_path
        if not path.exists():
            return {}
        with folder_errors(self.out, "read the journal"):
            data = path.read_bytes()
        if data and not data.endswith(b"\n"):
            self._journal_complete = False  # rewrite it, so appends start on a fresh line
        raw = data.split(b"\n")
        found: dict[int, tuple[int, dict[str, Any]]] = {}
        for n, line in enumerate(raw, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as exc:
                if n == len(raw):  # the last line, unterminated: a killed run's append
                    self.notes.append(f"{path.name}: dropped its torn last line {n} "
                                      f"({len(line)} bytes, not a complete record)")
                    continue
                raise RecordError(f"{path}: line {n} does not parse as JSON ({exc}); nothing "
                                  "was changed") from None
            if not _valid_record(rec):
                raise RecordError(f"{path}: line {n} is corrupt (expected a JSON object with a "
                                  "game row, its integer game_id and its moves list); nothing "
                                  "was changed")
            gid = rec["game"]["game_id"]
            if gid in found:
                first, old = found[gid]
                diff = _difference(old["game"], rec["game"], GAMES_SCHEMA) or \
                    _moves_difference(old["moves"], rec["moves"])
                if diff:
                    raise RecordError(f"{path}: lines {first} and {n} both record game {gid}, "
                                      f"differently ({diff}); nothing was changed")
                self._journal_complete = False  # a repeated line: written once on rewrite
                continue
            found[gid] = (n, rec)
        games = [rec["game"] for _, rec in found.values()]
        moves = [m for _, rec in found.values() for m in rec["moves"]]
        if not (_fits(games, GAMES_SCHEMA) and _fits(moves, MOVES_SCHEMA)):
            for n, rec in sorted(found.values(), key=lambda x: x[0]):
                if not (_fits([rec["game"]], GAMES_SCHEMA) and _fits(rec["moves"], MOVES_SCHEMA)):
                    raise RecordError(f"{path}: line {n} holds a value of the wrong type for the "
                                      "parquet tables' columns; nothing was changed")
        return found

    def _read_table(self, name: str) -> list[dict[str, Any]] | None:
        """The rows of one parquet table (None: no such file). A damaged file fails in
        many ways inside pyarrow (Arrow errors, undecodable text, ...); each is unreadable."""
        path = self.out / name
        if not path.exists():
            return None
        try:
            rows = pq.read_table(path).to_pylist()
        except Exception as exc:
            raise RecordError(f"{path}: unreadable ({exc}); nothing was changed (if the journal "
                              "holds every game, move this file away and rerun: it is rebuilt "
                              "from the journal)") from None
        if any(type(r.get("game_id")) is not int for r in rows):
            raise RecordError(f"{path}: a row without a game_id; nothing was changed")
        return rows

    def _load(self) -> None:
        journal = self._read_journal()
        table_games = self._read_table(self.GAMES) or []
        table_moves: dict[int, list[dict[str, Any]]] = {}
        for m in self._read_table(self.MOVES) or []:
            table_moves.setdefault(m["game_id"], []).append(m)
        for rows in table_moves.values():
            rows.sort(key=lambda r: (r.get("ply") is None, r.get("ply") or 0))
        in_tables: dict[int, dict[str, Any]] = {}
        for g in table_games:
            gid = g["game_id"]
            diff = _difference(in_tables[gid], g, GAMES_SCHEMA) if gid in in_tables else None
            if diff:
                raise RecordError(f"{self.out / self.GAMES}: two rows for game {gid}, differing "
                                  f"({diff}); nothing was changed")
            in_tables[gid] = g
        for gid in sorted(set(journal) | set(in_tables)):
            line, rec = journal.get(gid, (None, None))
            row, moves = in_tables.get(gid), table_moves.get(gid)
            if rec is not None:
                where = f"{self.JOURNAL} line {line}"
                diff = (_difference(rec["game"], row, GAMES_SCHEMA) if row is not None else None) \
                    or (_moves_difference(rec["moves"], moves) if moves is not None else None)
                if diff:
                    raise RecordError(f"{self.out}: game {gid} is recorded differently in {where} "
                                      f"and in the parquet tables ({diff}); nothing was changed")
                self.games[gid], self.moves[gid] = rec["game"], rec["moves"]
                self.where[gid] = where + (f" and {self.GAMES}" if row is not None else "")
                if row is None or (moves is None and rec["moves"]):
                    self._dirty = True  # the tables lag behind the journal
            else:
                self.games[gid], self.moves[gid] = row, moves or []
                self.where[gid] = f"{self.GAMES} and {self.MOVES}"
                self._journal_complete = False
        orphans = sorted(set(table_moves) - set(self.games))
        if orphans:  # move rows are not a game: without its row nothing says how it ended
            self.notes.append(f"{self.MOVES}: dropping the moves of game(s) "
                              f"{', '.join(map(str, orphans[:10]))}, which no game row records "
                              "(they are played again)")
            self._dirty = True
        missing = len(self.games) - len(journal)
        if missing:
            self.notes.append(f"{self.JOURNAL}: restoring {missing} game(s) that only the "
                              "parquet tables hold")

    # -- repairs and writes ------------------------------------------------------------------
    def _temporaries(self) -> list[Path]:
        return [p for d in (self.out, self.out / "games") if d.is_dir()
                for p in d.iterdir() if _TEMPORARY.match(p.name) and p.is_file()]

    def prepare(self) -> None:
        """Repair what loading found, once the caller has accepted the records: rewrite the
        journal to hold every game (after a torn line, or games only the tables held) and
        remove the temporary files a killed run left. The first write calls it too."""
        if self._prepared:
            return
        with folder_errors(self.out, "repair the records"):
            if not self._journal_complete:
                atomic_write_bytes(self.journal_path,
                                   b"".join(self._line(g) for g in sorted(self.games)))
                self._journal_complete = True
            temporaries = self._temporaries()
            for p in temporaries:
                p.unlink()
        if temporaries:
            self.notes.append(f"removed {len(temporaries)} temporary file(s) left by a killed run")
        self._prepared = True

    def _line(self, gid: int, record: dict[str, Any] | None = None) -> bytes:
        rec = record or {"game": self.games[gid], "moves": self.moves.get(gid, [])}
        return (json.dumps({"game": rec["game"], "moves": rec["moves"]},
                           separators=(",", ":")) + "\n").encode()

    def close(self) -> None:
        """Release the folder lock (also released when the process exits)."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def done_ids(self) -> set[int]:
        return set(self.games)

    def add(self, record: dict[str, Any]) -> None:
        """Record one finished game durably (journal now, parquet tables soon)."""
        self.prepare()
        gid = int(record["game"]["game_id"])
        line = self._line(gid, record)
        with folder_errors(self.out, f"record game {gid}"):
            with open(self.journal_path, "ab") as fh:
                fh.write(line)
                fh.flush()
                os.fsync(fh.fileno())
        self.games[gid] = record["game"]   # only once it is durable
        self.moves[gid] = record["moves"]
        self._dirty = True
        if time.monotonic() - self._last_flush >= self.flush_every:
            self.flush()

    def discard_from(self, first_id: int) -> None:
        """Forget games with id >= ``first_id`` (an SPRT stop: the match ended before them)."""
        self.prepare()
        drop = [g for g in self.games if g >= first_id]
        if not drop:
            return
        for g in drop:
            del self.games[g]
            self.moves.pop(g, None)
        with folder_errors(self.out, "rewrite the journal"):
            atomic_write_bytes(self.journal_path, b"".join(self._line(g) for g in sorted(self.games)))
        self._dirty = True

    def games_rows(self) -> list[dict[str, Any]]:
        return [self.games[g] for g in sorted(self.games)]

    def flush(self) -> None:
        """Rewrite games.parquet and moves.parquet atomically from everything recorded."""
        self.prepare()
        games = self.games_rows()
        moves = [m for g in sorted(self.moves) for m in sorted(self.moves[g], key=lambda r: r["ply"])]
        with folder_errors(self.out, "write the parquet tables"):
            atomic_write_bytes(self.out / self.GAMES, _parquet_bytes(_table(games, GAMES_SCHEMA)))
            atomic_write_bytes(self.out / self.MOVES, _parquet_bytes(_table(moves, MOVES_SCHEMA)))
        self._last_flush = time.monotonic()
        self._dirty = False
