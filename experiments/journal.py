"""A parallel map whose finished jobs survive a kill, for the experiments that run for hours.

The ablation and enhancements experiments are thousands of independent searches; stopped
halfway (a session's end, a reboot), a run used to start them all again. Here each job's
output is appended to a journal (one JSON line per job, flushed as it arrives) in the
experiment's folder; ``gameai reproduce --resume`` continues the same setting on the same
code (the folder's unfinished marker says so) and skips the jobs the journal holds. A line
names its job, so a journal that does not match the job list is not trusted: a job whose
line is missing, torn or names another job is run again.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from .parallel import pmap

JOURNAL = "jobs.jsonl"   #: the journal's name in an experiment's folder (deleted once finished)


def job_key(job: tuple) -> str:
    """A job ``(fn, args)`` as text: its function's name and its arguments."""
    fn, args = job
    return fn.__name__ + json.dumps(args, sort_keys=True, default=str)


def _plain(value: Any) -> Any:
    """numpy scalars as Python numbers (the rows hold counts and values)."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"a job's output holds {type(value).__name__}, which a journal cannot keep")


def _read(path: Path, keys: list[str]) -> dict[int, Any]:
    """The outputs the journal at ``path`` holds for these jobs (index -> output)."""
    done: dict[int, Any] = {}
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        return done
    for line in lines:
        try:
            entry = json.loads(line)
            i = entry["i"]
        except (ValueError, KeyError, TypeError):
            continue                        # a line torn by the kill
        if isinstance(i, int) and 0 <= i < len(keys) and entry.get("key") == keys[i]:
            done[i] = entry["out"]
    return done


def journaled_map(run_job: Callable[..., Any], jobs: list[tuple], path: Path | None, *,
                  resume: bool = False, **pmap_kwargs: Any) -> list[Any]:
    """``run_job(fn, args)`` for every job ``(fn, args)``, in job order, run in parallel by
    :func:`experiments.parallel.pmap`. With a ``path``, each output is journaled as it
    arrives; with ``resume``, the jobs already in the journal are not run again (without
    it, an old journal is discarded first)."""
    if path is None:
        return list(pmap(run_job, jobs, **pmap_kwargs))
    path = Path(path)
    keys = [job_key(j) for j in jobs]
    done = _read(path, keys) if resume else {}
    if not resume:
        path.unlink(missing_ok=True)
    todo = [i for i in range(len(jobs)) if i not in done]
    with path.open("a") as f:
        if f.tell() and not path.read_bytes().endswith(b"\n"):
            f.write("\n")                  # end a line torn by the kill
        for i, out in zip(todo, pmap(run_job, [jobs[i] for i in todo], **pmap_kwargs)):
            line = json.dumps({"i": i, "key": keys[i], "out": out}, default=_plain)
            f.write(line + "\n")
            f.flush()
            done[i] = json.loads(line)["out"]   # as a resumed run reads it
    return [done[i] for i in range(len(jobs))]
