"""The guide "Add an evaluator" does what it says: its modules (``myeval.py``,
``myfast.py``) are written out, its Python blocks run, its commands run as printed
(``PYTHONPATH=. gameai ...`` in a folder holding them), and the messages its tables of
mistakes quote are the ones raised."""
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
#: the modules the page tells the reader to save: file name -> text
MODULES = {b.split(":", 1)[0][2:]: b for b in PYTHON if re.match(r"# \w+\.py:", b)}
MODULE = MODULES["myeval.py"]
#: the section on compiled speed (its blocks compile a search: a test of their own)
FAST = PAGE.index("## 5. At compiled speed")


def _forget_myeval() -> None:
    """Drop the imported module and the registry's resolved ``myeval:...`` references."""
    for name in MODULES:
        sys.modules.pop(name[:-3], None)
    for table in (EVALUATORS._factories, EVALUATORS._hints):
        for key in [k for k in table if k.startswith(tuple(f"{n[:-3]}:" for n in MODULES))]:
            del table[key]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    _forget_myeval()
    for name, text in MODULES.items():
        (tmp_path / name).write_text(text + "\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    _forget_myeval()


def _run_blocks(text: str) -> dict:
    """Run the Python blocks of ``text`` but the modules, in order, in one namespace."""
    blocks = [b for b in re.findall(r"```python\n(.*?)\n```", text, flags=re.S)
              if b not in MODULES.values()]
    assert len(blocks) >= 1
    ns: dict = {}
    for block in blocks:
        exec(compile(block, "add-an-evaluator.md", "exec"), ns)   # noqa: S102 (our own page)
    return ns


def test_the_python_blocks_run(folder):
    ns = _run_blocks(PAGE[:FAST])
    mine, base = ns["mine"], ns["base"]
    assert mine.move is not None and mine.stats.nodes > 0 and base.stats.nodes > 0


def test_the_compiled_speed_blocks_run(folder):
    pytest.importorskip("numba")
    ns = _run_blocks(PAGE[FAST:])                   # they assert the equal numbers themselves
    assert ns["fast"].stats.nodes == ns["twin"].stats.nodes > 1000


def _halves(G, w):
    return G[0] / 2                                 # a float score


def _untyped(G, w):
    return G.no_such_attribute                      # numba cannot type it


#: rows of the compiled section's table of mistakes -> an evaluator that makes the mistake
#: (``m``: myfast.py, ``nb``: gameai.compiled.evaluator), searched compiled on Xiangqi
FAST_MISTAKES = {
    "a Python evaluator with `backend=compiled`": lambda m, nb: m.crossed_pawns_twin,
    "a function without `@numba.njit`": lambda m, nb: nb.NumbaEvaluator(
        m.crossed_pawns.py_func, games=("xiangqi",)),
    "no `games`": lambda m, nb: nb.NumbaEvaluator(m.crossed_pawns),
    "it returns a float": lambda m, nb: nb.NumbaEvaluator(
        __import__("numba").njit(_halves), games=("xiangqi",)),
    "numba cannot compile it (a typing error)": lambda m, nb: nb.NumbaEvaluator(
        __import__("numba").njit(_untyped), games=("xiangqi",)),
}


def test_the_compiled_mistakes_quote_the_real_messages(folder):
    pytest.importorskip("numba")
    import gameai.compiled.evaluator as nb
    import myfast
    rows = dict(re.findall(r"^\| ([^|]+?) \| (.+?) \|$", PAGE[FAST:], flags=re.M))
    for mistake, make in FAST_MISTAKES.items():
        assert mistake in rows, mistake
        with pytest.raises(SpecError) as info:
            gameai.make_searcher("alphabeta(depth=1,backend=compiled)",
                                 eval=make(myfast, nb)).search(gameai.load_game("xiangqi"))
        for text in re.findall(r"`([^`]+)`", rows[mistake]):
            pattern = ".*".join(re.escape(p.strip()) for p in text.split("..."))
            assert re.search(pattern, str(info.value)), f"{mistake}: {text!r} not in {info.value!r}"


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
    for out in ("mobility-trial", "crossed-trial"):
        games = pq.read_table(folder / out / "games.parquet").to_pylist()
        assert games and all(g["faulty"] == -1 for g in games)   # played, no forfeits


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
