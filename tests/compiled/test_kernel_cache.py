"""The compiled kernels' disk cache is keyed on every source a kernel reads: the compiled
package and the modules it imports (a constant such as ``MATE`` lives in the Python
reference), and on nothing else, so an unrelated edit does not recompile the kernels."""
import shutil
from pathlib import Path

import pytest

import gameai
from gameai.compiled.jit import _source_hash, kernel_sources

PACKAGE = Path(gameai.__file__).parent


def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "gameai"
    shutil.copytree(PACKAGE, root, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_the_sources_are_the_compiled_package_and_what_it_imports():
    names = {p.relative_to(PACKAGE).as_posix() for p in kernel_sources()}
    assert {p.relative_to(PACKAGE).as_posix() for p in (PACKAGE / "compiled").glob("*.py")} <= names
    # read by the kernels: the search constants, the game tables
    assert {"search/stats.py", "search/tt.py", "search/pruning.py",
            "games/xiangqi_tables.py", "games/gomoku_rules.py"} <= names
    assert not {"tournament/standings.py", "cli.py", "commands/play.py"} & names


def test_an_edit_of_an_imported_constant_changes_the_key_an_unrelated_one_does_not(tmp_path):
    root = _copy(tmp_path)
    before = _source_hash(root)
    assert before == _source_hash(PACKAGE)           # the key does not depend on the place
    standings = root / "tournament" / "standings.py"
    standings.write_text(standings.read_text() + "\n# an unrelated edit\n")
    _source_hash.cache_clear()
    assert _source_hash(root) == before
    stats = root / "search" / "stats.py"
    stats.write_text(stats.read_text().replace("MATE = 10 ** 9", "MATE = 10 ** 8"))
    _source_hash.cache_clear()
    assert _source_hash(root) != before


def _unusable_cache_dirs(tmp_path):
    """A file, and a folder this process cannot write to (made read-only; root writes
    anyway, so /sys stands in, which no one may write)."""
    import os
    import stat
    f = tmp_path / "a-file"
    f.write_text("not a folder")
    ro = tmp_path / "read-only"
    ro.mkdir()
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    return [f, ro if not os.access(ro, os.W_OK) else Path("/sys/gameai-cache")]


@pytest.mark.parametrize("command", [["prepare", "--game", "xiangqi"],
                                     ["search", "--searcher", "strong", "--depth", "1"],
                                     ["perft", "--backend", "compiled", "--depth", "1"]])
def test_an_unusable_cache_folder_is_an_error_before_any_compiling(tmp_path, command):
    import os
    import subprocess
    import sys
    import time
    from gameai.compiled import AVAILABLE
    if not AVAILABLE:
        pytest.skip("without numba nothing is cached")
    for bad in _unusable_cache_dirs(tmp_path):
        t = time.monotonic()
        p = subprocess.run([sys.executable, "-m", "gameai.cli", *command],
                           env=dict(os.environ, GAMEAI_CACHE_DIR=str(bad)),
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 2 and p.stdout == "", (bad, p.stdout)
        assert f"GAMEAI_CACHE_DIR={bad} cannot hold compiled kernels" in p.stderr
        assert "nothing was compiled" in p.stderr
        assert time.monotonic() - t < 60          # refused up front, not after compiling
