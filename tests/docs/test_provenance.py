"""Provenance that cannot rot: every ``tests/...py`` file the code and the docs cite exists;
no file names a path of one machine (a home folder, a checkout, a virtualenv, a scratch
run); and every spec quoted in the README and the docs that is nearly a preset's is that
preset's, as ``gameai list`` prints it (the research notes, dated records of what was run
then, may quote older configurations)."""
from __future__ import annotations

import re
from pathlib import Path

from gameai import SpecError
from gameai.cli import main
from gameai.spec import parse_spec

ROOT = Path(__file__).resolve().parents[2]
SKIP_DIRS = {".git", ".venv", "venv", "site", "node_modules", "__pycache__", ".ipynb_checkpoints",
             ".pytest_cache", ".hypothesis", "build", "dist"}
TEXT = {".py", ".md", ".ipynb", ".toml", ".yml", ".yaml", ".txt", ".cfg", ".ini", ".json",
        ".js", ".css", ".sh", ""}

#: Citations known stale in files this check's change could not edit (their owners fix
#: them; the test fails once one is fixed, so the entry is removed with the fix).
PENDING_CITATIONS: set[tuple[str, str]] = set()
#: Scratch paths known in files this change could not edit (same rule).
PENDING_SCRATCH: set[str] = set()


def text_files() -> dict[str, str]:
    """Every text file of the tree (relative path -> text), build and venv folders aside."""
    out = {}
    for p in ROOT.rglob("*"):
        rel = p.relative_to(ROOT)
        if any(part in SKIP_DIRS or part.endswith(".egg-info") for part in rel.parts[:-1]):
            continue
        if not p.is_file() or p.suffix not in TEXT or p.stat().st_size > 5_000_000:
            continue
        try:
            out[rel.as_posix()] = p.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
    return out


FILES = text_files()


def test_every_cited_test_file_exists():
    cited = {(f, m) for f, text in FILES.items() if f != "tests/docs/test_provenance.py"
             for m in re.findall(r"(?<![\w/.-])tests/[\w/.-]+?\.py\b", text)}
    assert len(cited) > 20                          # the scan finds the citations
    missing = {c for c in cited if not (ROOT / c[1]).is_file()}
    assert missing - PENDING_CITATIONS == set(), "cited test files that do not exist"
    fixed = PENDING_CITATIONS - missing
    assert not fixed, f"fixed now, remove from PENDING_CITATIONS: {fixed}"


#: a home folder, this kind of machine's checkout root, or a virtualenv named by its
#: absolute path (``.venv/bin/python`` relative to the checkout is fine)
MACHINE = re.compile(r"(?<![\w.~-])/(?:home|Users|root|work|mnt)/[\w.-]|[A-Za-z]:\\Users\\|"
                     r"(?<![\w.])/[\w./-]*venv[\w.-]*/bin/")


def test_no_file_names_a_path_of_one_machine():
    found = sorted(f"{f}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}"
                   for f, text in FILES.items() if f != "tests/docs/test_provenance.py"
                   for m in MACHINE.finditer(text))
    assert not found


def test_no_doc_notebook_or_module_cites_a_scratch_path():
    found = {f for f, text in FILES.items()
             if (f.endswith((".md", ".ipynb")) or f.startswith("gameai/")) and "/tmp/" in text}
    assert found - PENDING_SCRATCH == set()
    fixed = PENDING_SCRATCH - found
    assert not fixed, f"fixed now, remove from PENDING_SCRATCH: {fixed}"


def listed_presets(capsys) -> dict[tuple[str, str], str]:
    """(name, game) -> spec, as ``gameai list --brief`` prints the presets."""
    assert main(["list", "--brief"]) == 0
    out = capsys.readouterr().out
    return {(n, g): s for n, g, s in re.findall(r"^  (\w+) \[(\w+)\]  (\S+)$", out, flags=re.M)}


#: a searcher spec, its parameters plain or a quoted spec (``eval="gomoku.forks(...)"``)
SPEC = re.compile(r"\b(?:minimax|alphabeta|negascout|mtdf)\((?:[^()\s\"'`]|\"[^\"\s]*\")*\)")


def test_every_preset_spec_quoted_in_the_docs_is_the_presets(capsys):
    presets = listed_presets(capsys)
    assert len(presets) >= 6
    parsed = {spec: parse_spec(spec) for spec in set(presets.values())}
    pages = {f: t for f, t in FILES.items()
             if (f == "README.md" or f.startswith("docs/")) and f.endswith(".md")
             and not f.startswith("docs/notes/")}
    quoted = 0
    for page, text in pages.items():
        for m in SPEC.finditer(text):
            try:
                name, params = parse_spec(m.group(0))
            except SpecError:            # an elided example: "negascout(depth=6,...)"
                continue
            near = []
            for spec, (pname, pparams) in parsed.items():
                # a copy of a long preset, perhaps stale: most of its settings, same values
                # (a short preset such as plain is only a start for other specs)
                same = sum(k in params and params[k] == v for k, v in pparams.items())
                if name == pname and len(pparams) >= 5 and same >= 0.7 * len(pparams):
                    near.append(spec)
            if near:                     # (Gomoku's and Renju's presets are near each other)
                quoted += 1
                assert any((name, params) == parsed[spec] for spec in near), (
                    f"{page}: {m.group(0)} is nearly the preset(s) {near} but none of them")
    assert quoted >= 4                                  # README and Getting started quote them


def test_the_presets_table_in_getting_started_is_generated_from_the_presets():
    """``python -m gameai.presetdoc --check``: the page's table is what the presets give
    now; an edited cell makes the page stale (the check can fail)."""
    from gameai import presetdoc
    from gameai.presets import PRESETS
    page = presetdoc.DOCS.read_text(encoding="utf-8")
    assert presetdoc.spliced(page) == page, "run python -m gameai.presetdoc"
    edited = page.replace(PRESETS[0].spec, PRESETS[0].spec.replace("time=1", "time=2"), 1)
    assert edited != page and presetdoc.spliced(edited) == page
    assert all(p.spec in page for p in PRESETS)
