"""The README stays short and true to CI; the docs site's sources are where mkdocs looks.

The site itself is built by ``.ci/run`` (``mkdocs build --strict``, the ``docs`` extra);
these checks need nothing beyond the standard library.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

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


def test_api_reference_roles_become_links_and_reexports_are_listed_once():
    """The griffe extension of mkdocs.yml: no raw reST role is left in a rendered module's
    docstrings, a role to a rendered object is an autorefs link, and a re-export whose own
    module is rendered is dropped (each object listed once)."""
    import importlib.util
    griffe = pytest.importorskip("griffe")    # the docs extra
    spec = importlib.util.spec_from_file_location("sphinx_roles",
                                                  ROOT / "docs" / "hooks" / "sphinx_roles.py")
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    assert "docs/hooks/sphinx_roles.py:SphinxRoles" in (ROOT / "mkdocs.yml").read_text()
    pkg = griffe.load("gameai", search_paths=[str(ROOT)], allow_inspection=False,
                      extensions=griffe.Extensions(ext.SphinxRoles()))
    shown = ext.rendered_modules()
    role = re.compile(r":(func|class|meth|mod|attr|data|exc):`")

    def walk(obj):
        yield obj
        for m in obj.members.values():
            if not m.is_alias:
                yield from walk(m)
    for path in shown:
        for obj in walk(pkg[path.removeprefix("gameai.")] if path != "gameai" else pkg):
            if obj.docstring is not None:
                assert not role.search(obj.docstring.value), obj.path
    assert "[`gameai.search.stats`][gameai.search.stats]" in pkg["search"].docstring.value
    assert "Limits" not in pkg["search"].members        # shown under gameai.search.stats
    assert "Limits" in pkg["search.stats"].members
