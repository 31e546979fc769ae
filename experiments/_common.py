"""What every experiment shares: its results folder, table/figure/manifest writers and the
claims it checks (the rows of results/README.md)."""
from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from gameai.manifest import atomic_write_bytes, write_manifest

RESULTS = Path(__file__).resolve().parent.parent / "results"


@dataclass
class Claim:
    """One claim from a source document and what we measured about it."""

    experiment: str
    source: str        # which source document (file name) or reference
    claim: str         # the claim, quoted or paraphrased from the source
    measured: str      # what we measured, in words and numbers
    holds: bool | None # True/False, or None where the claim is not testable as stated
    command: str       # the command that regenerates it


VERDICT_WORD = {True: "holds", False: "DOES NOT HOLD", None: "n/a"}


def cli(name: str, doc: str, run, argv=None) -> int:
    """Run one experiment from the command line (``python -m experiments.NAME [--full]``)."""
    p = argparse.ArgumentParser(prog=f"experiments.{name}", description=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--full", action="store_true", help="the long setting (see above)")
    p.add_argument("--out", type=Path, default=RESULTS / name, help="output folder")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    for c in run(args.full, args.seed, args.out):
        print(f"[{VERDICT_WORD[c.holds]}] {c.claim}\n    measured: {c.measured}")
    return 0


class Results:
    """The folder ``results/<experiment>/`` and the files an experiment writes into it."""

    def __init__(self, name: str, out: Path | None = None) -> None:
        self.name = name
        self.dir = Path(out) if out else RESULTS / name
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
