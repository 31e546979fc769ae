"""The README stays short and true to CI; the docs site's sources are where mkdocs looks.

The site itself is built by ``.ci/run`` (``mkdocs build --strict``, the ``docs`` extra);
these checks need nothing beyond the standard library.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _commands(text: str) -> list[str]:
    return re.findall(r"```bash\n(.*?)\n```", text, flags=re.S)


def test_readme_is_short():
    assert len(README.splitlines()) <= 300


def test_readme_cites_no_scratch_paths():
    assert "/tmp" not in README
    assert not re.search(r"\bissue \d+", README, flags=re.I)


def test_ci_runs_exactly_the_readme_test_command():
    test_cmd = [c for c in _commands(README) if "pytest" in c]
    assert len(test_cmd) == 1
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_cmd[0] in ci


def test_every_api_page_names_an_existing_module():
    for page in (ROOT / "docs" / "reference").glob("*.md"):
        for name in re.findall(r"^::: ([\w.]+)$", page.read_text(encoding="utf-8"), flags=re.M):
            path = ROOT.joinpath(*name.split("."))
            assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), \
                f"{page.name}: no module {name}"
