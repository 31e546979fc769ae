"""Are a results folder's numbers those of today's code? Decided by re-running, not hashing.

``gameai reproduce --check`` asks each experiment folder two questions:

1. **Are its tables intact?** The manifest records every table's row count and SHA-256
   (:func:`gameai.manifest.table_records`); a table whose bytes or rows differ (a hand-edited
   CSV, a truncated Parquet) is named, and ``--resume`` reruns its experiment instead of
   keeping it.
2. **Does today's code count the same nodes?** A seeded sample of the experiment's
   deterministic rows (node counts of fixed searches, perft paths, leaf counts of synthetic
   trees) is searched again at the working tree and compared exactly with the table: what
   a code change actually changes makes the folder stale, a change that leaves the counts
   alone does not. The sample is drawn from the rows cheap enough to recount on the Python
   backend, which counts the same nodes as the compiled one (the compiled tests check it
   switch by switch): at most :data:`MAX_NODES` nodes a row.

Each experiment says which rows are deterministic and how to recount one in its
``CHECK`` table (:class:`Recount`). An experiment without one (``strength``: games
between players) is checked by the integrity of its tables only, and says so.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from gameai.manifest import verify_tables

#: the largest row (in nodes, paths or leaves) a check recounts: about a second in Python
MAX_NODES = 20_000
#: rows recounted per experiment by default (``--sample``)
SAMPLE = 4


class Gone(Exception):
    """A row whose position or configuration today's experiment no longer has: stale."""


@dataclass
class Recount:
    """How to recount an experiment's rows: the table, the columns compared exactly, which
    rows qualify (deterministic and cheap), and the function that recounts one row (given
    the row and the manifest, returns the compared columns)."""

    table: str
    columns: tuple[str, ...]
    eligible: Callable[[pd.DataFrame], pd.DataFrame]
    recount: Callable[[dict, dict], dict]
    label: Callable[[dict], str] = field(default=lambda r: str(r))


@dataclass
class Verdict:
    """One experiment folder's check: the problems found (empty: current) and what was
    done."""

    name: str
    problems: list[str]
    notes: list[str]

    @property
    def current(self) -> bool:
        return not self.problems


def sample_rows(df: pd.DataFrame, k: int, seed: int) -> list[dict]:
    """``k`` rows drawn with ``random.Random(seed)`` (the same rows for the same table)."""
    rows = df.to_dict("records")
    if len(rows) <= k:
        return rows
    return random.Random(seed).sample(rows, k)


def _same(a: Any, b: Any) -> bool:
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


def check_folder(name: str, module, folder: Path, manifest: dict, k: int = SAMPLE,
                 seed: int = 0) -> Verdict:
    """Both questions for one experiment folder (see the module docstring)."""
    folder = Path(folder)
    problems = verify_tables(folder, manifest)
    notes: list[str] = []
    spec: Recount | None = getattr(module, "CHECK", None)
    if problems or k <= 0:
        return Verdict(name, problems, notes)
    if spec is None:
        notes.append("no deterministic rows to recount (games between players): tables' integrity only")
        return Verdict(name, problems, notes)
    try:
        df = pd.read_parquet(folder / spec.table)
    except Exception as exc:                       # noqa: BLE001 - any unreadable table is stale
        return Verdict(name, [f"{spec.table}: unreadable ({exc})"], notes)
    try:
        pool = spec.eligible(df)
    except (KeyError, AttributeError) as exc:
        return Verdict(name, [f"{spec.table}: no column {exc} to recount"], notes)
    picked = sample_rows(pool, k, seed)
    if not picked:
        notes.append(f"no row of {spec.table} small enough to recount (at most {MAX_NODES:,} nodes)")
        return Verdict(name, problems, notes)
    for row in picked:
        try:
            got = spec.recount(row, manifest)
        except Gone as exc:
            problems.append(f"{spec.label(row)}: {exc}")
            continue
        diff = [f"{c} {row[c]!s} in the table, {got[c]!s} today" for c in spec.columns
                if not _same(row[c], got[c])]
        if diff:
            problems.append(f"{spec.table} row {spec.label(row)}: " + ", ".join(diff))
    notes.append(f"recounted {len(picked)} of {len(pool)} eligible rows of {spec.table} "
                 f"(seed {seed}): {'all equal' if not problems else f'{len(problems)} differ'}")
    return Verdict(name, problems, notes)
