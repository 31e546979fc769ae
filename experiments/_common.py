"""What every experiment shares: its results folder, table/figure/manifest writers and the
claims it checks (the rows of results/README.md).

Results go below ``./results`` of the current folder unless told otherwise (never next to
the code: after ``pip install .`` that would be inside site-packages)."""
from __future__ import annotations

import argparse
import inspect
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

import pandas as pd

from gameai.errors import GameError, RecordError, SpecError
from gameai.manifest import atomic_write_bytes, code_fingerprint, table_records, verify_tables, write_manifest

from . import parallel

QUICK_DIR = "results-quick"
UNFINISHED = "unfinished.json"   # in an experiment folder while a run of it is under way
# what a tournament (or a single experiment) folder holds at its top: not a results root
FOREIGN = ("manifest.json", "journal.jsonl", "games.parquet")


def default_root(full: bool = True) -> Path:
    """Where ``gameai reproduce`` writes by default: ``./results`` for the full (headline)
    run, ``./results-quick`` for the quick smoke test, so a quick run never lands on the
    headline."""
    return Path.cwd() / ("results" if full else QUICK_DIR)


@dataclass
class Claim:
    """One claim from a source document and what we measured about it."""

    experiment: str
    source: str        # which source document (source("004")) or paper (author, year)
    claim: str         # the claim, quoted or paraphrased from the source
    measured: str      # what we measured, in words and numbers
    holds: bool | None # True/False, or None where the claim is not testable as stated
    command: str       # the command that regenerates it
    #: one of experiments.intervals.VERDICTS (holds, does not hold, equivalent, inconclusive,
    #: not judged); derived from ``holds`` when not given
    verdict: str | None = None
    short: str = ""            # the claim in a few words, for the results page's one line
    estimate: str = ""         # the measured ratio or score with its 95% interval
    n: int | None = None       # positions or games behind the estimate
    family: str = ""           # the Holm family the verdict was corrected in, if any

    def __post_init__(self) -> None:
        if self.verdict is None:
            self.verdict = verdict_of({"holds": self.holds})


def verdict_of(claim: dict) -> str:
    """A claim's verdict class; a claim of the old format (``holds`` only) cannot tell
    inconclusive from not judged and says so."""
    if claim.get("verdict"):
        return claim["verdict"]
    return {True: "holds", False: "does not hold"}.get(claim.get("holds"), "inconclusive or not judged")


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


def verdict_word(c: "Claim") -> str:
    return (c.verdict or VERDICT_WORD[c.holds]).upper() if c.verdict == "does not hold" else \
        (c.verdict or VERDICT_WORD[c.holds])


def cli(name: str, doc: str, run, argv=None) -> int:
    """Run one experiment from the command line (``python -m experiments.NAME [--full]``);
    the same options as ``gameai reproduce --only NAME``."""
    p = argparse.ArgumentParser(prog=f"experiments.{name}", description=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--full", action="store_true", help="the long setting (see above)")
    p.add_argument("--out", type=Path, default=None,
                   help=f"results root (default ./results with --full, else ./{QUICK_DIR}); "
                        f"this experiment writes to OUT/{name}")
    p.add_argument("--resume", type=Path, default=None, metavar="DIR",
                   help="continue an interrupted run in results root DIR instead of starting afresh")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    try:
        root = resolve_root(args.out, args.resume, args.full)
        prepare_root(root, full=args.full, resume=args.resume is not None, names=(name,))
    except GameError as exc:
        p.error(str(exc))
    for c in run_experiment(name, run, root, args.full, args.seed, resume=args.resume is not None):
        print(f"[{verdict_word(c)}] {c.claim}\n    measured: {c.measured}")
    return 0


def resolve_root(out: Path | None, resume: Path | None, full: bool = False) -> Path:
    """The results root of a run: ``--resume DIR`` continues in DIR, ``--out DIR`` (or the
    default of the setting, :func:`default_root`) starts afresh; both at once must name the
    same folder."""
    if resume is not None:
        if out is not None and Path(out).resolve() != Path(resume).resolve():
            raise SpecError(f"--resume {resume} and --out {out}: a resumed run writes into the "
                             "folder it resumes; give one of them")
        if not Path(resume).is_dir():
            raise SpecError(f"--resume {resume}: no such folder (nothing to resume)")
        return Path(resume)
    return Path(out) if out is not None else default_root(full)


def accepts_resume(run) -> bool:
    """Whether an experiment keeps state that a run can resume (tournament journals)."""
    return "resume" in inspect.signature(run).parameters


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """An experiment folder's manifest.json, None when there is none; a corrupt one is an
    error naming the file."""
    path = Path(folder) / "manifest.json"
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise RecordError(f"{path}: unreadable manifest ({exc})") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: not a manifest (expected a JSON object)")
    return data


def is_full(manifest: dict[str, Any]) -> bool:
    """Whether a manifest records a ``--full`` run."""
    config = manifest.get("config")
    return bool(config.get("full")) if isinstance(config, dict) else False


def setting_text(full: bool, seed: Any) -> str:
    return f"{'full' if full else 'quick'}, seed {seed}"


def full_runs(root: Path, strict: bool = True) -> list[str]:
    """The experiment folders below ``root`` whose manifest records a full run; an
    unreadable manifest is an error (``strict``: it might be a full one) or passed over."""
    found = []
    for path in sorted(Path(root).glob("*/manifest.json")):
        try:
            m = read_manifest(path.parent)
        except RecordError:
            if strict:
                raise
            continue
        if is_full(m or {}):
            found.append(path.parent.name)
    return found


def prepare_root(root: Path, *, full: bool, resume: bool, names: Iterable[str]) -> None:
    """Refuse, before anything runs, a results root that cannot take this run: a folder
    that is not a results root (a tournament's or an experiment's own folder), one a quick
    run would overwrite full results in, or one that cannot be written."""
    root = Path(root)
    names = list(names)
    if root.exists() and not root.is_dir():
        raise SpecError(f"{root}: not a folder (the results root must be one)")
    foreign = [f for f in FOREIGN if (root / f).exists()]
    if foreign:
        raise SpecError(f"{root} is not a results root of gameai reproduce (it holds "
                        f"{', '.join(foreign)}: a tournament or experiment folder); give another folder")
    if resume and not any((root / n).is_dir() for n in names):
        raise SpecError(f"--resume {root}: no experiment folder ({', '.join(names)}) in it; "
                        "it is not a results root of gameai reproduce (nothing to resume)")
    if not full:
        held = full_runs(root) if root.is_dir() else []
        if held:
            raise SpecError(f"{root} holds full results ({', '.join(held)}); a quick run never "
                            "replaces them: add --full, or write the quick run elsewhere with --out")
    try:
        root.mkdir(parents=True, exist_ok=True)
        for folder in [root, *(root / n for n in names if (root / n).is_dir())]:
            fd, probe = tempfile.mkstemp(dir=folder, prefix=".probe.")
            os.close(fd)
            os.unlink(probe)
    except OSError as exc:
        raise SpecError(f"cannot write results to {exc.filename or root}: "
                        f"{exc.strerror or exc}") from None


def stale_reason(folder: Path, full: bool, seed: int, fingerprint: str) -> str | None:
    """Why ``folder`` does not hold a finished run of this setting on this code, or None
    when it does (then a resumed run skips it)."""
    folder = Path(folder)
    if not folder.is_dir():
        return "not run (no folder)"
    if (folder / UNFINISHED).exists():
        return f"unfinished: a run stopped before writing its results ({UNFINISHED} is there)"
    try:
        m = read_manifest(folder)
    except RecordError as exc:
        return str(exc)
    if m is None:
        return "not run or unfinished (no manifest.json)"
    missing = [f for f in ("table.csv", "claims.json") if not (folder / f).exists()]
    if missing:
        return f"incomplete (no {' or '.join(missing)})"
    damaged = verify_tables(folder, m)
    if damaged:
        return "damaged tables, rerun: " + "; ".join(damaged)
    reasons = []
    if is_full(m) != full or m.get("seed") != seed:
        reasons.append(f"setting {setting_text(is_full(m), m.get('seed'))}, expected {setting_text(full, seed)}")
    made = m.get("code_fingerprint")
    if made is None:
        reasons.append("no code fingerprint (made before fingerprints were recorded)")
    elif made != fingerprint:
        reasons.append(f"the code changed since (fingerprint {made}, today's code {fingerprint}; "
                       f"made at commit {m.get('commit') or m.get('git_commit') or 'unknown'})")
    return "; ".join(reasons) or None


def run_experiment(name: str, run, root: Path, full: bool, seed: int, resume: bool = False) -> list[Claim]:
    """Run one experiment into ``root/name``, marked unfinished until its results are all
    written. With ``resume``, an experiment that keeps state (tournament journals) continues
    an unfinished run of the same setting and code; anything else starts afresh."""
    folder = Path(root) / name
    marker = folder / UNFINISHED
    mark = {"full": full, "seed": seed, "code_fingerprint": code_fingerprint(experiment=name)}
    kwargs = {}
    if resume and accepts_resume(run) and marker.exists():
        try:
            earlier = json.loads(marker.read_text())
        except (OSError, ValueError):
            earlier = {}  # a torn marker: start afresh
        if isinstance(earlier, dict) and {k: earlier.get(k) for k in mark} == mark:
            kwargs["resume"] = True
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    atomic_write_bytes(marker, json.dumps({**mark, "started_utc": started}, indent=2).encode())
    claims = run(full, seed, folder, **kwargs)
    marker.unlink()
    return claims


class Results:
    """The folder ``results/<experiment>/`` and the files an experiment writes into it."""

    def __init__(self, name: str, out: Path | None = None) -> None:
        self.name = name
        self.dir = Path(out) if out else default_root() / name
        self.dir.mkdir(parents=True, exist_ok=True)
        self.fingerprint = code_fingerprint(experiment=name)

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
        """Written last: with claims.json, it marks the experiment finished. Names the code
        that made the numbers (``code_fingerprint``, read when the experiment started) and
        the backend its jobs ran on."""
        backend, scheduler = parallel.current()
        return write_manifest(self.dir / "manifest.json", {"experiment": self.name, **config}, seed,
                              code_fingerprint=self.fingerprint,
                              run={"backend": backend, "scheduler": scheduler},
                              tables=table_records(self.dir))


def command_for(name: str, full: bool) -> str:
    return f"gameai reproduce --only {name}" + (" --full" if full else "")
