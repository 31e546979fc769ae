"""One parallel map for every experiment: local cores (joblib) or a Dask cluster.

Experiments call :func:`pmap` instead of ``joblib.Parallel``; ``gameai reproduce --backend
dask --scheduler ADDR`` wraps the run in :func:`using`, so the same experiment code runs on
a cluster. Results come back in job order whatever the backend and the number of workers,
so the tables are the same (wall-clock columns aside).

A job is a tuple of positional arguments for ``fn``. A list of ``joblib.delayed(f)(...)``
calls (each a ``(f, args, kwargs)`` triple) runs with ``pmap(call, jobs)``.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from gameai.errors import SpecError

BACKENDS = ("joblib", "dask")
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
CONNECT_TIMEOUT = 3.0  # seconds: an unreachable scheduler is an error now, not a hang


@dataclass
class _Setting:
    backend: str = "joblib"
    scheduler: str | None = None
    workers: int | None = None   # joblib processes or local Dask workers (None: every core)
    client: Any = None           # the open Dask client inside ``using``


_current = _Setting()


def call(fn: Callable[..., Any], args: tuple = (), kwargs: dict | None = None) -> Any:
    """Run one ``joblib.delayed`` triple: ``pmap(call, [delayed(f)(x), ...])``."""
    return fn(*args, **(kwargs or {}))


def check_backend(backend: str, scheduler: str | None) -> str | None:
    """Validate a backend and scheduler address before anything runs; return the address
    with its scheme (``host:port`` means ``tcp://host:port``)."""
    if backend not in BACKENDS:
        raise SpecError(f"backend {backend!r}: expected one of {', '.join(BACKENDS)}")
    if scheduler is None:
        return None
    if backend != "dask":
        raise SpecError(f"--scheduler {scheduler}: a scheduler address needs --backend dask")
    scheme, sep, rest = scheduler.rpartition("://")
    scheme = scheme if sep else "tcp"
    host, colon, port = rest.rpartition(":")
    if scheme not in SCHEMES or not host or not colon or not port.isdigit() or not 0 < int(port) < 65536:
        raise SpecError(f"--scheduler {scheduler!r}: expected a Dask scheduler address "
                        f"SCHEME://HOST:PORT (SCHEME one of {', '.join(SCHEMES)}), e.g. tcp://10.0.0.5:8786")
    return f"{scheme}://{rest}"


def _connect(scheduler: str | None, workers: int | None):
    """A Dask client of the scheduler (failing within CONNECT_TIMEOUT when it is not there),
    or of a new local cluster; and the cluster to close afterwards (None for a scheduler)."""
    from distributed import Client, LocalCluster
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        return Client(cluster), cluster
    try:
        return Client(scheduler, timeout=CONNECT_TIMEOUT), None
    except (OSError, TimeoutError) as exc:
        raise SpecError(f"cannot reach the Dask scheduler at {scheduler} within "
                        f"{CONNECT_TIMEOUT:g} s: {exc}") from None


@contextmanager
def using(backend: str = "joblib", scheduler: str | None = None,
          workers: int | None = None) -> Iterator[None]:
    """Make every :func:`pmap` inside the block run on ``backend``. For Dask, connect once
    here (so a wrong address fails before any experiment starts) and close on the way out."""
    global _current
    scheduler = check_backend(backend, scheduler)
    if workers is not None and workers < 1:
        raise SpecError(f"workers must be at least 1, got {workers}")
    client = cluster = None
    if backend == "dask":
        client, cluster = _connect(scheduler, workers)
    previous, _current = _current, _Setting(backend, scheduler, workers, client)
    try:
        yield
    finally:
        _current = previous
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def current() -> tuple[str, str | None]:
    """The backend and scheduler :func:`pmap` uses when not told (for manifests and logs)."""
    return _current.backend, _current.scheduler


def scheduler_address() -> str | None:
    """The address of the Dask cluster of the enclosing :func:`using` block (its local
    cluster's too), for code that submits work itself (tournaments); None outside one."""
    return _current.client.scheduler.address if _current.client is not None else None


def _progress(results: Iterator[Any], total: int, desc: str | None, unit: str) -> Iterator[Any]:
    if desc is None:
        yield from results
        return
    from tqdm import tqdm
    with tqdm(total=total, desc=desc, unit=unit) as bar:
        for r in results:
            bar.update()
            yield r


def _joblib(fn: Callable[..., Any], jobs: list[tuple], workers: int | None, batch_size: int) -> Iterator[Any]:
    if workers == 1:  # in-process: no worker start-up, easy to debug
        for job in jobs:
            yield fn(*job)
        return
    from joblib import Parallel, delayed
    yield from Parallel(n_jobs=workers or -1, return_as="generator", batch_size=batch_size)(
        delayed(fn)(*job) for job in jobs)


def _dask(fn: Callable[..., Any], jobs: list[tuple], client) -> Iterator[Any]:
    futures = [client.submit(fn, *job, pure=False) for job in jobs]
    try:
        for fut in futures:  # in job order, not completion order
            yield fut.result()
    finally:
        client.cancel(futures)


def pmap(fn: Callable[..., Any], jobs: Iterable[tuple], *, backend: str | None = None,
         scheduler: str | None = None, desc: str | None = None, unit: str = "job",
         batch_size: int = 1) -> Iterator[Any]:
    """``fn(*job)`` for every job, run in parallel, yielded in job order. ``backend`` and
    ``scheduler`` default to the enclosing :func:`using` block (joblib on every local core
    outside one); ``desc`` shows a progress bar. ``fn`` must be importable by the workers
    (a module-level function), as must its arguments."""
    jobs = [tuple(j) for j in jobs]
    if backend is None:
        setting = _current
    else:
        setting = _Setting(backend, check_backend(backend, scheduler), _current.workers)
    if setting.backend == "joblib":
        results = _joblib(fn, jobs, setting.workers, batch_size)
    elif setting.client is not None:
        results = _dask(fn, jobs, setting.client)
    else:
        results = _dask_once(fn, jobs, setting)
    return _progress(results, len(jobs), desc, unit)


def _dask_once(fn: Callable[..., Any], jobs: list[tuple], setting: _Setting) -> Iterator[Any]:
    """A Dask map outside :func:`using`: connect for this map only."""
    client, cluster = _connect(setting.scheduler, setting.workers)
    try:
        yield from _dask(fn, jobs, client)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
