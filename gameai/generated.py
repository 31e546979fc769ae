"""Generated parts of the repository's files: written from the code, checked by tests.

A table that is copied by hand drifts from what it copies; a generator writes it instead,
either a whole file or a block of a page between two marker lines. :func:`splice` puts a
block in its place; :func:`main` is the command of every generator (``--check`` only says
which files are stale, exit 1 if any; tests run it).
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable


def splice(page: str, begin: str, end: str, block: str, where: Path | str) -> str:
    """``page`` with the block from its ``begin`` line to its ``end`` line replaced by
    ``block`` (which holds both lines); ValueError when the page lacks one of them."""
    if page.count(begin) != 1 or page.count(end) != 1:
        raise ValueError(f"{where}: needs one {begin!r} line and one {end!r} line")
    head, rest = page.split(begin)
    return head + block + rest.split(end, 1)[1]


def stale(outputs: dict[Path, Callable[[str], str]]) -> list[str]:
    """The files whose text differs from what their generator makes of it now."""
    texts = {p: p.read_text(encoding="utf-8") for p in outputs}
    return [str(p) for p, make in outputs.items() if make(texts[p]) != texts[p]]


def main(prog: str, description: str, outputs: dict[Path, Callable[[str], str]],
         argv: list[str] | None = None) -> int:
    """Regenerate ``outputs`` (path -> the new text made from the old), or with ``--check``
    print the stale ones and exit 1 when there are any."""
    ap = argparse.ArgumentParser(prog=prog, description=description)
    ap.add_argument("--check", action="store_true", help="only say which files are stale")
    args = ap.parse_args(argv)
    missing = [str(p) for p in outputs if not p.is_file()]
    if missing:
        ap.error(f"{', '.join(missing)} not found: run this in a checkout of the repository")
    if args.check:
        found = stale(outputs)
        for f in found:
            print(f"stale: {f}")
        return 1 if found else 0
    for path, make in outputs.items():
        path.write_text(make(path.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote {path}")
    return 0
