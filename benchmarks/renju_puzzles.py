"""Published Renju threat puzzles: the loader of ``tests/data/renju_puzzles.json``.

The data are test data (``tests/data``, described in its README); ``gameai bench threats``
times the same puzzles, so the installed ``gameai.benchmarks`` carries a copy as package
data (``gameai/benchmarks/data/``, mapped from ``tests/data`` in pyproject.toml). Each
puzzle is a dict: ``name``, ``mode`` (``vcf``/``vct``), ``attacker``, ``attacks``,
``expect`` (comma-separated moves) and ``board`` (15 rows) or ``moves``.
"""
from __future__ import annotations

import json
from pathlib import Path

FILE = "renju_puzzles.json"
# the installed package's copy, then the source checkout's test data
_PLACES = (Path(__file__).resolve().parent / "data", Path(__file__).resolve().parents[1] / "tests" / "data")


def data_file() -> Path:
    """Where the puzzle file is: next to this module once installed, else in tests/data."""
    for folder in _PLACES:
        if (folder / FILE).is_file():
            return folder / FILE
    raise FileNotFoundError(f"{FILE} is in neither {' nor '.join(map(str, _PLACES))}: "
                            "reinstall gameai, or run from a source checkout")


PUZZLES: list[dict] = json.loads(data_file().read_text(encoding="utf-8"))["puzzles"]


def load(puzzle: dict):
    """The puzzle's position as a renju game (attacker to move)."""
    import gameai
    if "moves" in puzzle:
        return gameai.load_game("renju", moves=" ".join(puzzle["moves"].lower().split(",")))
    rows = [r.split() for r in puzzle["board"]]
    if len(rows) != 15 or any(len(r) != 15 for r in rows):
        raise ValueError(f"puzzle {puzzle['name']}: the board is not 15 rows of 15 points")
    black, white = [], []
    for i, row in enumerate(rows):
        for c, ch in enumerate(row):
            pt = f"{chr(97 + c)}{15 - i}"
            if ch == "o":
                black.append(pt)
            elif ch == "x":
                white.append(pt)
    return gameai.load_game("renju", black=" ".join(black), white=" ".join(white))
