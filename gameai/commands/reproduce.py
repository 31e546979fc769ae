"""gameai reproduce: rerun every experiment (quick by default) and regenerate the results README.

Every number is computed afresh unless ``--resume DIR`` says to continue an earlier
(interrupted) run in DIR. Results go to ``--out DIR`` (default ``./results`` in the current
folder), never inside the installed package.
"""
from __future__ import annotations

import importlib
import time
from pathlib import Path
from types import ModuleType

from tqdm import tqdm

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


def add_parser(sub):
    p = sub.add_parser("reproduce", help="rerun the experiments that test the source documents' claims",
                       description=__doc__)
    p.add_argument("--full", action="store_true", help="the long settings (see each experiment)")
    p.add_argument("--only", nargs="+", choices=EXPERIMENTS, metavar="NAME",
                   help=f"run only these experiments ({', '.join(EXPERIMENTS)})")
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="results root (default ./results in the current folder)")
    p.add_argument("--seed", type=int, default=1, help="master seed of every experiment (default 1)")
    p.add_argument("--resume", type=Path, default=None, metavar="DIR",
                   help="continue an earlier run in DIR (its tournament journals) instead of starting afresh")
    return p


def run(args) -> int:
    pkg = experiments_package()
    common = importlib.import_module(f"{pkg.__name__}._common")
    report = importlib.import_module(f"{pkg.__name__}.claims_report")
    root = common.resolve_root(args.out, args.resume)
    names = args.only or EXPERIMENTS
    failed = []
    print(f"writing to {root.resolve()}" + (" (resuming)" if args.resume else ""))
    bar = tqdm(names, desc="reproduce", unit="experiment")
    for name in bar:
        bar.set_postfix_str(name)
        module = importlib.import_module(f"{pkg.__name__}.{name}")
        kwargs = {"resume": True} if args.resume and common.accepts_resume(module.run) else {}
        t0 = time.perf_counter()
        claims = module.run(full=args.full, seed=args.seed, out=root / name, **kwargs)
        tqdm.write(f"{name}: {len(claims)} claims in {time.perf_counter() - t0:.1f} s")
        for c in claims:
            tqdm.write(f"  [{common.VERDICT_WORD[c.holds]}] {c.claim}\n      measured: {c.measured}")
            if c.holds is False:
                failed.append(f"{name}: {c.claim}")
    path = report.write_report(root)
    print(f"wrote {path}")
    if failed:
        print(f"{len(failed)} claim(s) do not hold (reported, not hidden):")
        for f in failed:
            print(f"  - {f}")
    return 0
