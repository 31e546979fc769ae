"""Provenance for results: config, seed, package version, git commit, Python and machine."""
from __future__ import annotations

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


def manifest(config: dict[str, Any], seed: int | None = None, **extra: Any) -> dict[str, Any]:
    """A JSON-ready record of what produced a result."""
    from . import __version__
    here = Path(__file__).resolve().parent
    return {
        "config": config,
        "seed": seed,
        "gameai_version": __version__,
        "git_commit": git_commit(here),
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
