"""The pilot that sizes the ablation: the spread of each contrast's log ratios, the positions
that spread needs, and what a position costs.

Run ``python -m experiments.power`` (``--positions K``, ``--shallower S``). It searches the
first ``K`` positions of each pool with every ablation configuration at the full setting's
depths less ``S`` plies (a pilot must cost a fraction of the run it sizes), then:

* per game and contrast, the standard deviation of the log ratios at the pilot's deepest
  depth, and the positions a paired t-test needs to detect a 5% difference (MTD(f)'s
  claimed 5-10%, the smallest effect any contrast speaks of) with 80% power at the
  strictest Holm level of the family (0.05 / 12); the spread is taken from the pilot's
  depth, one or two plies short of the run's, and said so;
* per game, the nodes a position costs at the full setting's depths: each configuration's
  deepest pilot count times its last measured growth per ply, for the missing plies (an
  iterative-deepening configuration is searched once, to its deepest depth; a fixed-depth
  one at every depth).

It writes ``experiments/suites/pilot.json``, whose spreads the ablation's claims quote
(the smallest effect their ``n`` detects), and prints the table.
"""
from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np
import pandas as pd

from . import ablation, suites
from .intervals import contrast, positions_for_power

PILOT = ablation.PILOT
EFFECT = 0.05


def pilot_setting(k: int, shallower: int) -> dict:
    full = ablation.FULL
    return {"positions": {g: k for g in suites.GAMES},
            "depth": {g: {f: max(1, d - shallower) for f, d in fam.items()} for g, fam in full["depth"].items()},
            "minimal": {g: 0 for g in suites.GAMES}, "backend": "compiled"}


def run(k: int = 6, shallower: int = 1) -> dict:
    setting = pilot_setting(k, shallower)
    t0 = time.perf_counter()
    rows = ablation.run_jobs(ablation.jobs(setting), "pilot")
    wall = time.perf_counter() - t0
    df = pd.DataFrame(rows)
    ok, bad = ablation.completed(df)
    family = len(suites.GAMES) * len(ablation.CONTRASTS)
    out = {"positions": k, "shallower": shallower, "effect": EFFECT, "family": family,
           "wall_s": wall, "node_rate": float(df.nodes.sum() / df.time_s.sum()),
           "excluded_cells": len(bad), "contrasts": {}, "nodes_per_position": {}}
    for g in suites.GAMES:
        for key, _, _, num, den, metric in ablation.CONTRASTS:
            depth, ratios = ablation.paired_ratios(ok, g, num, den, metric)
            c = contrast(ratios.to_numpy())
            need = positions_for_power(max(c.sd_log, 1e-6), EFFECT, family)
            out["contrasts"][f"{g}/{key}"] = {"depth": depth, "ratio": c.ratio, "sd_log": c.sd_log,
                                              "n": c.n, "positions_needed": need}
        total = 0.0
        sub = ok[ok.game == g]
        for cfg in ablation.configs():
            x = sub[sub.label == cfg["label"]].groupby("depth").nodes.apply(
                lambda v: float(np.exp(np.log(v).mean())))
            target = ablation.FULL["depth"][g][ablation.family(cfg)]
            per = dict(x)
            growth = per[max(per)] / per[max(per) - 1] if len(per) > 1 else 1.0
            run_depths = range(1, target + 1) if "id=true" not in cfg["spec"] else (target,)
            for d in run_depths:            # an iterative search runs once, to its deepest depth
                total += per.get(d, per[max(per)] * growth ** (d - max(per)))
        out["nodes_per_position"][g] = total
    PILOT.write_text(json.dumps(out, indent=2) + "\n")
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="experiments.power", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--positions", type=int, default=6)
    p.add_argument("--shallower", type=int, default=1)
    args = p.parse_args(argv)
    out = run(args.positions, args.shallower)
    print(f"pilot: {args.positions} positions a game, {args.shallower} ply shallower than --full, "
          f"{out['wall_s']:.0f} s, {out['node_rate']:.3g} nodes/s")
    for key, c in out["contrasts"].items():
        print(f"  {key:22s} depth {c['depth']}: ratio {c['ratio']:.3f}, sd(log) {c['sd_log']:.3f} -> "
              f"{c['positions_needed']} positions for {EFFECT:.0%} at 80% power (Holm level 0.05/{out['family']})")
    for g, nodes in out["nodes_per_position"].items():
        print(f"  {g}: {nodes:.3g} nodes a position at the full depths, "
              f"{nodes / out['node_rate']:.0f} s of one core")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
