"""The compiled kernels' disk cache is keyed on every source a kernel reads: the compiled
package and the modules it imports (a constant such as ``MATE`` lives in the Python
reference), and on nothing else, so an unrelated edit does not recompile the kernels."""
import shutil
from pathlib import Path

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
