"""Which threat solver proves the VCTs that won games, within which node budget.

On the positions a post-mortem found (``gameai bench threat_strength -- --postmortem
... --out DIR`` writes ``DIR/postmortem.csv``: the position just after the loser's move
that allowed a proven VCT), each solver searches from scratch (a fresh compiled solver)
for a win of the side to move: the depth-first solver deepening its ply limit 1, 3, 5,
... (what the threat player's checks do), the depth-first solver in one search at the
full limit (``threat_deepen=false``), and df-pn (``pn=true``). For each it prints how
many VCTs were proven within each node mark and within the budget, and the seconds for
all positions.

Why: the threat player's checks have a few thousand nodes per root move and about
300,000 for the move it plays, and the VCTs that beat it take up to a million nodes to
prove by the first solver. A solver that proves more of them within those marks is a
candidate for the checks; one that does not is not worth a match.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

SOLVERS = ("deepening", "one search", "df-pn")


def positions(paths: list[str | Path]) -> list[tuple[str, object]]:
    """``(label, position)`` for each row of the post-mortem files that found a VCT: the
    game of the row's record folder replayed up to and including the losing move."""
    import pandas as pd

    import gameai
    from .bench_threat_strength import read_run
    out = []
    for path in paths:
        try:
            pm = pd.read_csv(path)
        except Exception as e:              # pandas' errors for a missing or broken file
            raise ValueError(f"{path} cannot be read as a post-mortem table: {e}")
        need = {"folder", "game_id", "opening", "ply", "move"}
        if not need <= set(pm.columns):
            raise ValueError(f"{path}: not a post-mortem table (needs columns {sorted(need)})")
        for folder, rows in pm.dropna(subset=["ply"]).groupby("folder", sort=False):
            config, _games = read_run(folder)
            try:
                moves = pd.read_parquet(Path(folder) / "moves.parquet",
                                        columns=["game_id", "ply", "move"])
            except Exception as e:          # pyarrow's errors for a missing or broken file
                raise ValueError(f"{Path(folder) / 'moves.parquet'} cannot be read: {e}")
            for r in rows.itertuples():
                state = gameai.load_game(config["game"], moves=r.opening)
                played = moves[moves.game_id == r.game_id].sort_values("ply").move
                for text in list(played)[:int(r.ply) - len(state.move_stack) + 1]:
                    state.push(state.parse_move(text))
                if state.move_str(state.move_stack[-1]) != r.move:
                    raise ValueError(f"{path}: game {r.game_id} of {folder} does not have "
                                     f"{r.move} at ply {int(r.ply)}")
                out.append((f"{folder}#{r.game_id}", state))
    return out


def prove_with(kind: str, state, plies: int, budget: int) -> tuple[int, int, float]:
    """One fresh compiled VCT solver's search: ``(plies to the win or 0, nodes, seconds)``."""
    from gameai.compiled.threats import ThreatSolver
    from gameai.compiled.threats_pn import prove
    sv = ThreatSolver(vct=True)
    t0 = time.perf_counter()
    if kind == "df-pn":
        n = max(prove(sv, state, plies, budget)[0], 0)
    else:
        n = sv.win_within(state, plies, 0, budget, kind == "deepening")
    return n, sv.nodes, time.perf_counter() - t0


def run(paths: list[str | Path], depths: list[int], budget: int, marks: list[int],
        jobs: int = 1, out: str | None = None) -> str:
    import pandas as pd
    from joblib import Parallel, delayed
    from tqdm import tqdm

    from gameai.compiled.threats_pn import warm_up
    from gameai.manifest import write_manifest
    warm_up()                                # compiling is no solver's time
    todo = positions(paths)
    tasks = [(label, state, kind, d) for label, state in todo for d in depths for kind in SOLVERS]
    found = tqdm(Parallel(n_jobs=jobs, return_as="generator")(
        delayed(_one)(state, kind, d, budget) for _l, state, kind, d in tasks),
        total=len(tasks), desc="proofs", unit="search")
    rows = [dict(position=label, solver=kind, plies_limit=d, plies=n, nodes=nodes, seconds=sec)
            for (label, _s, kind, d), (n, nodes, sec) in zip(tasks, found)]
    df = pd.DataFrame(rows)
    lines = [f"{len(todo)} positions; each solver from scratch, budget {budget:,} nodes",
             "| solver | ply limit | " + " | ".join(f"proven within {m:,}" for m in marks) +
             " | proven | seconds |", "|---|---|" + "---|" * (len(marks) + 2)]
    for d in depths:
        for kind in SOLVERS:
            part = df[(df.solver == kind) & (df.plies_limit == d)]
            ok = part.plies > 0
            within = [int((ok & (part.nodes <= m)).sum()) for m in marks]
            lines.append(f"| {kind} | {d} | " + " | ".join(map(str, within)) +
                         f" | {int(ok.sum())} | {part.seconds.sum():.1f} |")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        df.to_csv(Path(out) / "proofs.csv", index=False)
        write_manifest(Path(out) / "manifest.json",
                       dict(command="bench proofs", postmortems=[str(p) for p in paths],
                            depths=depths, budget=budget, marks=marks, solvers=list(SOLVERS)))
    return "\n".join(lines)


def _one(state, kind: str, plies: int, budget: int) -> tuple[int, int, float]:
    from gameai.compiled.threats_pn import warm_up
    warm_up()                                # (in a worker process, before its clock)
    return prove_with(kind, state, plies, budget)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="gameai bench proofs", description=__doc__.splitlines()[0])
    ap.add_argument("postmortem", nargs="+", help="postmortem.csv files (bench threat_strength "
                    "-- --postmortem ... --out DIR)")
    ap.add_argument("--depths", type=int, nargs="+", default=[17, 21], help="ply limits")
    ap.add_argument("--budget", type=int, default=1_000_000, help="nodes per search")
    ap.add_argument("--marks", type=int, nargs="+", default=[6_000, 50_000, 300_000],
                    help="node counts to count proofs within")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--out", help="folder for proofs.csv and manifest.json")
    args = ap.parse_args(argv)
    if args.budget < 1 or any(d < 1 or d > 200 for d in args.depths):
        print("bench proofs: --budget must be positive and each depth in 1..200")
        return 2
    try:
        print(run(args.postmortem, args.depths, args.budget, args.marks, args.jobs, args.out))
    except ValueError as e:
        print(f"bench proofs: {e}")
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
