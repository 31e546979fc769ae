"""Tournament records on disk: games.parquet, moves.parquet and a crash-safe journal.

Every finished game is appended at once to ``journal.jsonl`` (one JSON line, flushed and
fsynced), then the two parquet tables are rewritten atomically (write to a temporary file,
``os.replace``; throttled to ``flush_every`` seconds, always at the end). A killed run
therefore loses no finished game: on restart the journal is read back (a torn last line
is dropped) and only games not in it are played. Readers of the parquet files always see
a complete file, never half of one.
"""
from __future__ import annotations

import io
import json
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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


def _table(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    cols = {f.name: [r.get(f.name) for r in rows] for f in schema}
    return pa.Table.from_pydict(cols, schema=schema)


def _parquet_bytes(table: pa.Table) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


@contextmanager
def folder_errors(out: Path, action: str):
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
            and all(isinstance(m, dict) for m in rec["moves"]))


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


class RecordStore:
    """The output folder of one tournament: load what exists, append finished games."""

    GAMES = "games.parquet"
    MOVES = "moves.parquet"
    JOURNAL = "journal.jsonl"

    def __init__(self, out: str | Path, flush_every: float = 2.0) -> None:
        self.out = Path(out)
        self.flush_every = flush_every
        self.games: dict[int, dict[str, Any]] = {}
        self.moves: dict[int, list[dict[str, Any]]] = {}
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

    def _load(self) -> None:
        path = self.journal_path
        if path.exists():
            good: list[bytes] = []
            raw = path.read_bytes().split(b"\n")
            torn = False
            for i, line in enumerate(raw):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except ValueError:
                    if i >= len(raw) - 2:  # a torn final line from a killed run
                        torn = True
                        continue
                    rec = None
                try:
                    if not _valid_record(rec):
                        raise ValueError("not a {game, moves} record")
                    gid = int(rec["game"]["game_id"])
                except (ValueError, KeyError, TypeError):
                    raise RecordError(f"{path}: line {i + 1} is corrupt (expected a JSON "
                                      "object with a game row and its moves list); "
                                      "nothing was changed") from None
                self.games[gid] = rec["game"]
                self.moves[gid] = rec["moves"]
                good.append(line)
            if torn:  # rewrite without the torn line so appends start on a fresh line
                with folder_errors(self.out, "repair the journal's torn last line"):
                    atomic_write_bytes(path, b"".join(g + b"\n" for g in good))
        elif (self.out / self.GAMES).exists():
            # records without a journal (journal removed by hand): trust the tables
            try:
                games = pq.read_table(self.out / self.GAMES).to_pylist()
                moves = pq.read_table(self.out / self.MOVES).to_pylist() if \
                    (self.out / self.MOVES).exists() else []
            except (OSError, pa.ArrowException) as exc:
                raise RecordError(f"{self.out}: unreadable records: {exc}") from None
            for g in games:
                self.games[int(g["game_id"])] = g
                self.moves.setdefault(int(g["game_id"]), [])
            for m in moves:
                self.moves.setdefault(int(m["game_id"]), []).append(m)
            with folder_errors(self.out, "rebuild the journal"):
                atomic_write_bytes(path, b"".join(self._line(gid) for gid in sorted(self.games)))

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
        games = self.games_rows()
        moves = [m for g in sorted(self.moves) for m in sorted(self.moves[g], key=lambda r: r["ply"])]
        with folder_errors(self.out, "write the parquet tables"):
            atomic_write_bytes(self.out / self.GAMES, _parquet_bytes(_table(games, GAMES_SCHEMA)))
            atomic_write_bytes(self.out / self.MOVES, _parquet_bytes(_table(moves, MOVES_SCHEMA)))
        self._last_flush = time.monotonic()
        self._dirty = False
