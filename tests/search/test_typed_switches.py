"""The switch table is the one source of the searcher's parameters: the typed view
(:mod:`gameai.search.options`) and the docs' tables are generated from it and must be
current, its groups are the ones the docs and the types show, and ``gameai/search/`` is
clean under mypy (which reads that typed view)."""
from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from gameai.search import options, switchgen
from gameai.search.negamax import Searcher
from gameai.search.switches import BY_NAME, GROUPS, SWITCHES

ROOT = Path(__file__).resolve().parents[2]


def test_the_generated_types_and_docs_tables_are_what_the_table_generates():
    assert switchgen.stale() == [], "run: python -m gameai.search.switchgen"


def test_limits_callbacks_and_the_threat_settings_have_their_own_groups():
    by_group = {g: [s.name for s in SWITCHES if s.group == g] for g in GROUPS}
    assert set(s.group for s in SWITCHES) == set(GROUPS)
    assert by_group["limits"] == ["depth", "nodes", "time", "clock"]
    assert by_group["callbacks"] == ["on_iteration", "on_root_move"]
    assert by_group["threats"] == [s.name for s in SWITCHES if s.name.startswith("threat")]
    assert len(by_group["threats"]) == 11 and "threat_reply_share" in by_group["threats"]


def test_the_typed_view_declares_every_row_once_in_its_group():
    in_groups = [s.name for g in GROUPS for s in SWITCHES if s.group == g]
    assert list(options.Keywords.__annotations__) == in_groups
    assert [name for cls in options.Options.__mro__[1:-1] for name in cls.__annotations__] \
        == in_groups
    for suffix in ("Keywords", "Options"):
        for group in GROUPS:
            cls = getattr(options, group.capitalize().removesuffix("s") + suffix)
            assert list(cls.__annotations__) == [s.name for s in SWITCHES if s.group == group]
    assert options.Options in Searcher.__mro__
    assert list(inspect.signature(Searcher).parameters) == list(BY_NAME)


def test_the_types_follow_the_rows():
    def kind(name):
        return switchgen.python_type(BY_NAME[name].kind)
    assert kind("history_inc") == 'Literal["pow2", "square", "gravity"]'
    assert kind("depth") == "int | None"                         # the ranges: checked at run time
    assert kind("on_root_move") == "Callable[[int, int, Any, int], None] | None"
    assert kind("eval") == "str | Callable[[Any], float] | None"
    attrs = options.LimitOptions.__annotations__
    assert attrs["depth"] == "int" and attrs["clock"] == "GameClock | None"   # as kept
    with pytest.raises(TypeError, match="no source text"):
        switchgen.python_type(complex(1, 2))


def test_the_docs_details_describe_only_rows_of_the_table():
    assert set(switchgen.DETAILS) <= set(BY_NAME)
    page = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    for s in SWITCHES:
        assert f"| `{s.name}` |" in page


def test_a_stale_page_is_found_and_a_page_without_markers_refused():
    page = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    edited = page.replace("| `lmr` | true or false |", "| `lmr` | yes or no |")
    assert edited != page and switchgen.spliced(edited) == page
    with pytest.raises(ValueError, match="needs one"):
        switchgen.spliced("no markers here")


def test_mypy_finds_no_error_in_gameai_search():
    api = pytest.importorskip("mypy.api", reason="mypy is in the test extra: pip install -e '.[test]'")
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                "--cache-dir", str(ROOT / ".mypy_cache"),
                                str(ROOT / "gameai" / "search")])
    assert status == 0, out + err
    assert "Success" in out
