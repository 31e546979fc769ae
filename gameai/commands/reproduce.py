"""gameai reproduce: rerun the experiments and regenerate the results README.

The quick setting (default) is a smoke test and writes to ./results-quick; ``--full`` is
the headline and writes to ./results. A quick run never writes over full results. Before
it starts, a run prints what each experiment will cost; ``--resume DIR`` continues a run
that was stopped (experiments already finished with the same setting and code are
skipped; a damaged table is named and its experiment rerun, never kept); ``--check``
says whether the results in a folder are today's: each table intact against its
manifest's row counts and hashes, and a seeded sample of each experiment's deterministic
rows (node counts) searched again at the working tree and equal, exactly (exit 0), or not
(exit 1, with the reasons); with ``--report`` it regenerates the folder's README with
that status (a visible STALE line when the check fails).
"""
from __future__ import annotations

import importlib
import math
import time
from pathlib import Path
from types import ModuleType

from ..errors import SpecError
from ..manifest import code_fingerprint

# in the order they run: the quick, exact ones first
EXPERIMENTS = ("minimal_tree", "branching_factor", "depth_cost", "ablation", "enhancements", "strength")


def experiments_package() -> ModuleType:
    """The experiment scripts: ``gameai.experiments`` once installed (pyproject maps the
    repository's ``experiments/`` folder there), or the top-level ``experiments`` package
    of a source checkout run with ``PYTHONPATH=.`` (not installed)."""
    try:
        return importlib.import_module("gameai.experiments")
    except ModuleNotFoundError as exc:
        if exc.name != "gameai.experiments":
            raise
        return importlib.import_module("experiments")


def committed_root(pkg: ModuleType) -> Path:
    """The committed headline results: ``results/`` of the source checkout the experiments
    come from; ``./results`` for an installed copy (it ships no results)."""
    folder = Path(pkg.__file__).resolve().parent
    if folder.name == "experiments" and (folder.parent / "pyproject.toml").exists():
        return folder.parent / "results"
    return Path.cwd() / "results"


def add_parser(sub):
    p = sub.add_parser("reproduce", help="rerun the experiments that test the source documents' claims",
                       description=__doc__)
    p.add_argument("--full", action="store_true",
                   help="the long settings, the headline results (see each experiment)")
    p.add_argument("--only", nargs="+", choices=EXPERIMENTS, metavar="NAME",
                   help=f"run only these experiments ({', '.join(EXPERIMENTS)})")
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="results root (default ./results with --full, ./results-quick without; "
                        "with --check, the checkout's committed results/)")
    p.add_argument("--seed", type=int, default=1, help="master seed of every experiment (default 1)")
    p.add_argument("--resume", type=Path, default=None, metavar="DIR",
                   help="continue a stopped run in DIR: skip the experiments finished with this "
                        "setting and code, continue or rerun the others")
    p.add_argument("--check", action="store_true",
                   help="say whether each experiment folder of --out is today's: tables intact, and a "
                        "seeded sample of its node counts recounted at the working tree equal (exit 0 "
                        "if all are, 1 if not; the folder's README says stale when not)")
    p.add_argument("--sample", type=int, default=None, metavar="K",
                   help="with --check: rows recounted per experiment (default 4; 0: integrity only)")
    p.add_argument("--report", action="store_true",
                   help="with --check: regenerate the folder's README.md with the check's status "
                        "(a visible STALE line when it fails)")
    p.add_argument("--backend", choices=("joblib", "dask"), default="joblib",
                   help="where the experiments' independent jobs run: joblib (local cores, the "
                        "default) or dask (a local cluster, or --scheduler's)")
    p.add_argument("--scheduler", default=None, metavar="ADDR",
                   help="Dask scheduler address tcp://HOST:PORT (with --backend dask; every worker "
                        "needs gameai installed)")
    return p


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def estimate(module: ModuleType, full: bool) -> float | None:
    """The experiment's own estimate of its wall time in seconds (its ``estimate(full)``
    hook), or None when it has none or gives no usable number."""
    hook = getattr(module, "estimate", None)
    if hook is None:
        return None
    try:
        seconds = float(hook(full))
    except (TypeError, ValueError, ArithmeticError):
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _check(args, pkg: ModuleType, common: ModuleType, names: list[str]) -> int:
    """``--check``: per experiment folder, its setting, its tables' integrity, and a seeded
    sample of its deterministic rows recounted at the working tree (``experiments.check``);
    print which are stale and why, and write the verdict into the folder's README."""
    if args.resume is not None:
        raise SpecError("--check runs nothing, so there is nothing to resume; give the folder with --out")
    check = importlib.import_module(f"{pkg.__name__}.check")
    report = importlib.import_module(f"{pkg.__name__}.claims_report")
    headline = committed_root(pkg)
    root = args.out if args.out is not None else headline
    if not root.is_dir():
        raise SpecError(f"--check {root}: no such folder")
    # a folder that holds full results (or is the headline) is only ever refreshed by --full
    full = args.full or root.resolve() == headline.resolve() or bool(common.full_runs(root, strict=False))
    k = check.SAMPLE if args.sample is None else max(0, args.sample)
    print(f"checking {root.resolve()} against the working tree: each table against its manifest, and "
          f"{k} seeded rows of node counts per experiment recounted (seed {args.seed}); expecting "
          f"{common.setting_text(full, args.seed)}")
    differ, status = [], {}
    for name in names:
        folder = root / name
        try:
            m = common.read_manifest(folder)
        except Exception as exc:                       # noqa: BLE001 - an unreadable manifest is stale
            m, why = None, [str(exc)]
        else:
            why = [] if m is not None else ["not run (no manifest.json)"]
        if (folder / common.UNFINISHED).exists():
            why.insert(0, f"unfinished: a run stopped before writing its results ({common.UNFINISHED} is there)")
        notes = []
        if m is not None:
            if common.is_full(m) != full or m.get("seed") != args.seed:
                why.append(f"setting {common.setting_text(common.is_full(m), m.get('seed'))}, expected "
                           f"{common.setting_text(full, args.seed)}")
            module = importlib.import_module(f"{pkg.__name__}.{name}")
            v = check.check_folder(name, module, folder, m, k, args.seed)
            why += v.problems
            notes = v.notes
            if m.get("code_fingerprint") != code_fingerprint(experiment=name):
                notes.append("its code fingerprint differs from today's (informative: the recount decides)")
        commit = ((m or {}).get("commit") or "unknown")[:12]
        if why:
            differ.append(name)
            print(f"  {name}: STALE (made at commit {commit}): " + "; ".join(why))
        else:
            print(f"  {name}: current (made at commit {commit})")
        for n in notes:
            print(f"      {n}")
        status[name] = why
    if args.report:
        path = report.write_report(root, status={**report.read_status(root), **status})
        print(f"wrote {path} with this check's status")
    if differ:
        flag = " --full" if full else ""
        print(f"{len(differ)} of {len(names)} stale; to bring them up to date: gameai reproduce{flag} "
              f"--resume {root} --only {' '.join(differ)}")
        return 1
    print(f"all {len(names)} current")
    return 0


def run(args) -> int:
    pkg = experiments_package()
    common = importlib.import_module(f"{pkg.__name__}._common")
    parallel = importlib.import_module(f"{pkg.__name__}.parallel")
    names = list(dict.fromkeys(args.only or EXPERIMENTS))
    scheduler = parallel.check_backend(args.backend, args.scheduler)
    if args.check:
        return _check(args, pkg, common, names)
    report = importlib.import_module(f"{pkg.__name__}.claims_report")
    root = common.resolve_root(args.out, args.resume, args.full)
    resume = args.resume is not None
    common.prepare_root(root, full=args.full, resume=resume, names=names)
    setting = common.setting_text(args.full, args.seed)
    where = args.backend + (f" at {scheduler}" if scheduler else "")
    print(f"writing to {root.resolve()} ({setting}; jobs on {where})" + (" (resuming)" if resume else ""))
    todo, total, unknown = [], 0.0, []
    for name in names:
        module = importlib.import_module(f"{pkg.__name__}.{name}")
        if resume and common.stale_reason(root / name, args.full, args.seed,
                                       code_fingerprint(experiment=name)) is None:
            print(f"  {name:<17} finished with this setting and code: skipped")
            continue
        seconds = estimate(module, args.full)
        if seconds is None:
            unknown.append(name)
        else:
            total += seconds
        print(f"  {name:<17} " + (f"about {_duration(seconds)}" if seconds is not None else "unknown (no estimate)"))
        todo.append((name, module))
    if todo and len(unknown) == len(todo):
        print("estimated total: unknown (no experiment gives an estimate)")
    elif todo:
        print(f"estimated total: {'at least ' if unknown else ''}{_duration(total)}"
              + (f" ({len(unknown)} without an estimate)" if unknown else ""))

    failed = []
    with parallel.using(args.backend, scheduler):
        for i, (name, module) in enumerate(todo, 1):
            print(f"[{i}/{len(todo)}] {name}")
            t0 = time.perf_counter()
            claims = common.run_experiment(name, module.run, root, args.full, args.seed, resume=resume)
            print(f"{name}: {len(claims)} claims in {time.perf_counter() - t0:.1f} s")
            for c in claims:
                print(f"  [{common.verdict_word(c)}] {c.claim}\n      measured: {c.measured}")
                if c.holds is False:
                    failed.append(f"{name}: {c.claim}")
    # the experiments of this run are checked as --check would (tables against their
    # manifests, two rows recounted), so the page's status is this run's, not an older one
    check = importlib.import_module(f"{pkg.__name__}.check")
    status = report.read_status(root)
    for name, module in todo:
        m = common.read_manifest(root / name) or {}
        status[name] = check.check_folder(name, module, root / name, m, 2, args.seed).problems
    path = report.write_report(root, status=status)
    print(f"wrote {path}")
    if failed:
        print(f"{len(failed)} claim(s) do not hold (reported, not hidden):")
        for f in failed:
            print(f"  - {f}")
    return 0
