"""gameai reproduce: rerun every experiment (quick by default) and regenerate results/README.md."""
from __future__ import annotations

import importlib
import time

from tqdm import tqdm

EXPERIMENTS = ("minimal_tree", "branching_factor", "depth_cost", "ablation", "strength")


def add_parser(sub):
    p = sub.add_parser("reproduce", help="rerun the experiments that test the source documents' claims")
    p.add_argument("--full", action="store_true", help="the long settings (see each experiment)")
    p.add_argument("--only", nargs="+", choices=EXPERIMENTS, help="run only these experiments")
    p.add_argument("--seed", type=int, default=1)
    return p


def run(args) -> int:
    from experiments._common import VERDICT_WORD
    from experiments.claims_report import write_report
    names = args.only or EXPERIMENTS
    failed = []
    bar = tqdm(names, desc="reproduce", unit="experiment")
    for name in bar:
        bar.set_postfix_str(name)
        module = importlib.import_module(f"experiments.{name}")
        t0 = time.perf_counter()
        claims = module.run(full=args.full, seed=args.seed)
        tqdm.write(f"{name}: {len(claims)} claims in {time.perf_counter() - t0:.1f} s")
        for c in claims:
            tqdm.write(f"  [{VERDICT_WORD[c.holds]}] {c.claim}\n      measured: {c.measured}")
            if c.holds is False:
                failed.append(f"{name}: {c.claim}")
    path = write_report()
    print(f"wrote {path}")
    if failed:
        print(f"{len(failed)} claim(s) do not hold (reported, not hidden):")
        for f in failed:
            print(f"  - {f}")
    return 0
