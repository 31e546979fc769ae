"""Provenance for results: config, seed, package version, git commit, Python and machine,
and a fingerprint of the code that produced them."""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any


_UMASK = os.umask(0)
os.umask(_UMASK)


def git_commit(path: str | Path = ".") -> str | None:
    """The commit checked out at ``path`` (``+dirty`` if tracked code differs from it), or None
    outside git."""
    try:
        rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=path, capture_output=True,
                             text=True, timeout=10)
        if rev.returncode != 0:
            return None
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=path, capture_output=True, text=True, timeout=10)
        # results/ is what experiments write: regenerating it does not make the code dirty
        changed = [ln for ln in dirty.stdout.splitlines() if ln[3:] and not ln[3:].startswith("results/")]
        return rev.stdout.strip() + ("+dirty" if changed else "")
    except (OSError, subprocess.SubprocessError):
        return None


def experiments_folder() -> Path | None:
    """The experiment scripts' folder, found without importing them: ``gameai.experiments``
    once installed (or installed editable), else a top-level ``experiments`` package."""
    for name in ("gameai.experiments", "experiments"):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is not None and spec.submodule_search_locations:
            return Path(next(iter(spec.submodule_search_locations))).resolve()
    return None


def _local_imports(path: Path) -> set[str]:
    """The sibling modules a module of the experiments package imports (``from . import x``,
    ``from .x import y``, ``import experiments.x``, ``gameai.experiments.x``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level == 1:
                names.update([mod.split(".")[0]] if mod else [a.name for a in node.names])
            elif mod.startswith(("experiments.", "gameai.experiments.")):
                names.add(mod.split(".")[-1] if mod.startswith("experiments.") else mod.split(".")[2])
        elif isinstance(node, ast.Import):
            for a in node.names:
                for prefix in ("experiments.", "gameai.experiments."):
                    if a.name.startswith(prefix):
                        names.add(a.name[len(prefix):].split(".")[0])
    return names


def _experiment_closure(experiments: Path, name: str) -> set[Path]:
    """``experiments/<name>.py`` and every module of the package it imports, directly or not."""
    todo, seen = [name], set()
    while todo:
        mod = todo.pop()
        path = experiments / f"{mod}.py"
        if mod in seen or not path.exists():
            continue
        seen.add(mod)
        todo.extend(_local_imports(path))
    return {experiments / f"{m}.py" for m in seen} | {experiments / "__init__.py"}


def _code_files(package: Path, experiments: Path | None, experiment: str | None = None) -> dict[str, Path]:
    """The files whose content determines the numbers, keyed by a layout-free name
    (``gameai/...`` and ``experiments/...``), so a checkout and an installed copy of the
    same code give the same keys. With ``experiment``, only the experiment modules that one
    imports (so a change to another experiment leaves its results current). The speed
    benchmarks (``gameai.benchmarks``, inside the package once installed) make no results,
    so they are not part of it."""
    files: dict[str, Path] = {}
    apart = [f for f in (experiments, package / "benchmarks") if f is not None]
    for path in package.rglob("*.py"):
        if "__pycache__" in path.parts or any(f in path.parents for f in apart):
            continue
        files["gameai/" + path.relative_to(package).as_posix()] = path
    if experiments is not None:
        scripts = (_experiment_closure(experiments, experiment) if experiment is not None
                   else [p for p in experiments.rglob("*.py") if "__pycache__" not in p.parts])
        for path in [*scripts, *experiments.glob("suites/*.txt"), *experiments.glob("suites/*.json")]:
            if path.exists():
                files["experiments/" + path.relative_to(experiments).as_posix()] = path
    return files


def code_fingerprint(package: str | Path | None = None, experiments: str | Path | None = None,
                     experiment: str | None = None) -> str:
    """A hash of the source that produced a result: the gameai package, the experiment
    scripts (with ``experiment``, that experiment's module and those it imports) and their
    committed position suites. Computed from the files, not from git, so it identifies the
    code of an installed copy too; it changes whenever any of them does."""
    package = Path(package).resolve() if package is not None else Path(__file__).resolve().parent
    experiments = Path(experiments).resolve() if experiments is not None else experiments_folder()
    digest = hashlib.sha256()
    for key, path in sorted(_code_files(package, experiments, experiment).items()):
        data = path.read_bytes()
        digest.update(f"{key}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def manifest(config: dict[str, Any], seed: int | None = None, **extra: Any) -> dict[str, Any]:
    """A JSON-ready record of what produced a result."""
    from . import __version__
    here = Path(__file__).resolve().parent
    commit = git_commit(here)
    return {
        "config": config,
        "seed": seed,
        "gameai_version": __version__,
        "commit": commit,
        "git_commit": commit,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_count": os.cpu_count(),
        "created_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        **extra,
    }


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never half."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the file normal permissions
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_manifest(path: str | Path, config: dict[str, Any], seed: int | None = None,
                   **extra: Any) -> dict[str, Any]:
    """Write :func:`manifest` as pretty JSON (atomically) and return it."""
    data = manifest(config, seed, **extra)
    atomic_write_bytes(path, (json.dumps(data, indent=2, sort_keys=True, default=str) + "\n").encode())
    return data


#: the table files an experiment writes, whose integrity its manifest records
TABLE_SUFFIXES = (".csv", ".parquet")


def _rows(path: Path) -> int:
    """Rows of a table file: data lines of a CSV (quoted newlines included), or the
    Parquet footer's count (reading the footer fails on a truncated file)."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq
        return int(pq.read_metadata(path).num_rows)
    import pandas as pd
    return len(pd.read_csv(path, low_memory=False))


def table_records(folder: str | Path) -> dict[str, dict[str, Any]]:
    """Every table file of an experiment folder: ``{file: {"rows": n, "sha256": hex}}``."""
    folder = Path(folder)
    out = {}
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.suffix in TABLE_SUFFIXES and not path.name.startswith("."):
            out[path.name] = {"rows": _rows(path),
                              "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}
    return out


def verify_tables(folder: str | Path, manifest: dict[str, Any]) -> list[str]:
    """What is wrong with a folder's tables against its manifest's records: each damaged,
    missing or unrecorded table named (empty when every table is as written)."""
    folder = Path(folder)
    records = manifest.get("tables")
    if not isinstance(records, dict):
        return ["the manifest records no table row counts or hashes (made before they were recorded)"]
    problems = []
    for name, rec in records.items():
        path = folder / name
        if not path.exists():
            problems.append(f"{name}: missing")
            continue
        try:
            rows = _rows(path)
        except Exception as exc:                       # noqa: BLE001 - a damaged file
            problems.append(f"{name}: unreadable ({type(exc).__name__}), damaged")
            continue
        if rows != rec.get("rows"):
            problems.append(f"{name}: {rows} rows, the manifest records {rec.get('rows')}: damaged")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != rec.get("sha256"):
            problems.append(f"{name}: content differs from the manifest's hash: edited or damaged")
    for path in sorted(folder.iterdir()):
        if path.suffix in TABLE_SUFFIXES and path.name not in records and not path.name.startswith("."):
            problems.append(f"{path.name}: a table the manifest does not record")
    return problems
