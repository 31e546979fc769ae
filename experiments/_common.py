"""What every experiment shares: its results folder, table/figure/manifest writers and the
claims it checks (the rows of results/README.md).

Results go below ``./results`` of the current folder unless told otherwise (never next to
the code: after ``pip install .`` that would be inside site-packages)."""
from __future__ import annotations

import argparse
import inspect
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from gameai.errors import SpecError
from gameai.manifest import atomic_write_bytes, write_manifest



def default_root() -> Path:
    """``./results`` in the current folder: where ``gameai reproduce`` writes by default."""
    return Path.cwd() / "results"


@dataclass
class Claim:
    """One claim from a source document and what we measured about it."""

    experiment: str
    source: str        # which source document (source("004")) or paper (author, year)
    claim: str         # the claim, quoted or paraphrased from the source
    measured: str      # what we measured, in words and numbers
    holds: bool | None # True/False, or None where the claim is not testable as stated
    command: str       # the command that regenerates it


# The source documents by what they are (they carry no title or author of their own); see
# the summary of each in the seeds' README. Papers are cited by author and year directly.
SOURCES = {
    "000": "the 000 document (a shared Xiangqi/Gomoku AI base class, C#)",
    "001": "the 001 document (two-ply max-min in a Qt Xiangqi game, C++)",
    "002": "the 002 document (Gomoku with one-shot point weighting, C#)",
    "003": "the 003 document (a Gomoku thesis, VC++)",
    "004": "the 004 document (a Xiangqi engine write-up, C)",
}


def source(key: str) -> str:
    """How a claim cites a source document: its number and what it is, never a file name."""
    return SOURCES[key]


VERDICT_WORD = {True: "holds", False: "DOES NOT HOLD", None: "inconclusive or not judged"}


def cli(name: str, doc: str, run, argv=None) -> int:
    """Run one experiment from the command line (``python -m experiments.NAME [--full]``);
    the same options as ``gameai reproduce --only NAME``."""
    p = argparse.ArgumentParser(prog=f"experiments.{name}", description=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--full", action="store_true", help="the long setting (see above)")
    p.add_argument("--out", type=Path, default=None,
                   help=f"results root (default ./results); this experiment writes to OUT/{name}")
    p.add_argument("--resume", type=Path, default=None, metavar="DIR",
                   help="continue an interrupted run in results root DIR instead of starting afresh")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    root = resolve_root(args.out, args.resume)
    kwargs = {"resume": True} if args.resume and accepts_resume(run) else {}
    for c in run(args.full, args.seed, root / name, **kwargs):
        print(f"[{VERDICT_WORD[c.holds]}] {c.claim}\n    measured: {c.measured}")
    return 0


def resolve_root(out: Path | None, resume: Path | None) -> Path:
    """The results root of a run: ``--resume DIR`` continues in DIR, ``--out DIR`` (or
    ./results) starts afresh; both at once must name the same folder."""
    if resume is not None:
        if out is not None and Path(out).resolve() != Path(resume).resolve():
            raise SpecError(f"--resume {resume} and --out {out}: a resumed run writes into the "
                             "folder it resumes; give one of them")
        if not Path(resume).is_dir():
            raise SpecError(f"--resume {resume}: no such folder (nothing to resume)")
        return Path(resume)
    return Path(out) if out is not None else default_root()


def accepts_resume(run) -> bool:
    """Whether an experiment keeps state that a run can resume (tournament journals)."""
    return "resume" in inspect.signature(run).parameters


class Results:
    """The folder ``results/<experiment>/`` and the files an experiment writes into it."""

    def __init__(self, name: str, out: Path | None = None) -> None:
        self.name = name
        self.dir = Path(out) if out else default_root() / name
        self.dir.mkdir(parents=True, exist_ok=True)

    def table(self, df: pd.DataFrame, stem: str = "table") -> Path:
        """Write ``df`` as CSV (for eyes and diffs) and Parquet (for pandas, typed)."""
        atomic_write_bytes(self.dir / f"{stem}.csv", df.to_csv(index=False).encode())
        path = self.dir / f"{stem}.parquet"
        df.to_parquet(path, index=False)
        return path

    def figure(self, fig, stem: str = "figure") -> Path:
        path = self.dir / f"{stem}.png"
        fig.savefig(path, dpi=110, bbox_inches="tight")
        import matplotlib.pyplot as plt
        plt.close(fig)
        return path

    def claims(self, claims: list[Claim]) -> Path:
        path = self.dir / "claims.json"
        atomic_write_bytes(path, json.dumps([asdict(c) for c in claims], indent=2).encode())
        return path

    def manifest(self, config: dict[str, Any], seed: int | None) -> dict[str, Any]:
        return write_manifest(self.dir / "manifest.json", {"experiment": self.name, **config}, seed)


def command_for(name: str, full: bool) -> str:
    return f"gameai reproduce --only {name}" + (" --full" if full else "")
