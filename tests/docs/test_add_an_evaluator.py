"""The guide "Add an evaluator" does what it says: its ``myeval.py`` is written out, its
Python blocks run, its commands run as printed (``PYTHONPATH=. gameai ...`` in a folder
holding ``myeval.py``), and the messages its table of mistakes quotes are the ones raised."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import gameai
from gameai import SpecError
from gameai.registry import EVALUATORS

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "guide" / "add-an-evaluator.md").read_text(encoding="utf-8")
PYTHON = re.findall(r"```python\n(.*?)\n```", PAGE, flags=re.S)
BASH = re.findall(r"```bash\n(.*?)\n```", PAGE, flags=re.S)
MODULE = next(b for b in PYTHON if b.startswith("# myeval.py"))


def _forget_myeval() -> None:
    """Drop the imported module and the registry's resolved ``myeval:...`` references."""
    sys.modules.pop("myeval", None)
    for table in (EVALUATORS._factories, EVALUATORS._hints):
        for key in [k for k in table if k.startswith("myeval:")]:
            del table[key]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    _forget_myeval()
    (tmp_path / "myeval.py").write_text(MODULE + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    _forget_myeval()


def test_the_python_blocks_run(folder):
    blocks = [b for b in PYTHON if b is not MODULE]
    assert len(blocks) >= 2
    ns: dict = {}
    for block in blocks:
        exec(compile(block, "add-an-evaluator.md", "exec"), ns)   # noqa: S102 (our own page)
    mine, base = ns["mine"], ns["base"]
    assert mine.move is not None and mine.stats.nodes > 0 and base.stats.nodes > 0


def test_the_commands_run_as_printed(folder):
    lines = [ln for b in BASH for ln in b.splitlines() if ln.startswith("PYTHONPATH=. gameai ")]
    assert any(" search " in ln for ln in lines) and any(" tournament " in ln for ln in lines)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(folder), str(ROOT)]))
    for line in lines:
        argv = shlex.split(line)[2:]                 # after "PYTHONPATH=." and "gameai"
        r = subprocess.run([sys.executable, "-c", "import sys; from gameai.cli import main; "
                            "sys.exit(main(sys.argv[1:]))", *argv], cwd=folder, env=env,
                           capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, f"{line}\n{r.stderr}"
    games = pq.read_table(folder / "mobility-trial" / "games.parquet").to_pylist()
    assert games and all(g["faulty"] == -1 for g in games)       # played, no forfeits


#: rows of the table of mistakes -> (a spec that makes that mistake, the game)
MISTAKES = {
    "the module cannot be found": ("alphabeta(eval=myeval:Mobility)", "xiangqi"),
    "no such attribute": ("alphabeta(eval=myeval:Mobilty)", "xiangqi"),
    "a parameter its `__init__` lacks, or a bad value": (
        ["alphabeta(eval=myeval:Mobility(size=3))", "alphabeta(eval=myeval:Mobility(weight=x))"],
        "xiangqi"),
    "parameters given to a function": ("alphabeta(eval=myeval:centre(x=1))", "xiangqi"),
    "its `games` lacks the game played": ("alphabeta(depth=1,eval=myeval:Mobility)", "gomoku"),
}


def _error(spec: str, game: str) -> str:
    with pytest.raises(SpecError) as info:
        gameai.make_searcher(spec).search(gameai.load_game(game))
    return str(info.value)


def test_the_table_of_mistakes_quotes_the_real_messages(tmp_path, monkeypatch):
    _forget_myeval()
    rows = dict(re.findall(r"^\| ([^|]+?) \| (.+?) \|$", PAGE, flags=re.M))
    for mistake, (specs, game) in MISTAKES.items():
        assert mistake in rows, mistake
        if mistake == "the module cannot be found":
            errors = [_error(specs, game)]           # before myeval.py is on sys.path
        else:
            if not (tmp_path / "myeval.py").exists():
                (tmp_path / "myeval.py").write_text(MODULE + "\n")
                monkeypatch.syspath_prepend(str(tmp_path))
            errors = [_error(s, game) for s in ([specs] if isinstance(specs, str) else specs)]
        quoted = re.findall(r"`([^`]+)`", rows[mistake])
        assert quoted, mistake
        for text, error in zip(quoted, errors * len(quoted) if len(errors) == 1 else errors):
            pattern = ".*".join(re.escape(p.strip()) for p in re.split(r"\.\.\.|\(its file\)", text))
            assert re.search(pattern, error), f"{mistake}: {text!r} not in {error!r}"
    _forget_myeval()
