"""gameai tune: fit a linear evaluator's weights on recorded games (Texel's method)."""
from __future__ import annotations

import math
import sys
import warnings


def add_parser(sub):
    p = sub.add_parser("tune", help="fit an evaluator's weights on recorded games (Texel's "
                       "method, scipy L-BFGS-B, held-out split by game); writes a weights file")
    p.add_argument("--game", required=True, help="xiangqi, gomoku or renju (a game spec)")
    p.add_argument("--records", required=True, nargs="+", action="extend", metavar="DIR|FILE",
                   help="tournament folders (games.parquet + moves.parquet), .pgn/.psq/.txt "
                        "files, or folders of them (repeatable)")
    p.add_argument("--eval", default=None, metavar="SPEC",
                   help="the linear evaluator to tune (default xiangqi.tuned / gomoku.tuned; "
                        "with weights=FILE it starts from that file)")
    p.add_argument("--out", required=True, metavar="FILE", help="weights file to write (JSON)")
    p.add_argument("--force", action="store_true", help="overwrite an existing --out")
    p.add_argument("--held-out", type=float, default=0.2,
                   help="fraction of games held out to measure the fit (default 0.2)")
    p.add_argument("--seed", type=int, default=0, help="seed of the held-out split (default 0)")
    p.add_argument("--score-weight", type=float, default=0.0, metavar="L",
                   help="target (1-L)*result + L*sigmoid(K*recorded search value); default 0 "
                        "(results only)")
    p.add_argument("--values-of", default=None, metavar="PLAYER",
                   help="with --score-weight: only this player's recorded values (a tournament "
                        "player name, e.g. rapfi in gameai bench engines' records), on a scale "
                        "of their own fitted to the results")
    p.add_argument("--l2", type=float, default=1e-4,
                   help="ridge pull towards the starting weights, standardised units (default 1e-4)")
    p.add_argument("--max-iter", type=int, default=500, help="L-BFGS-B iterations (default 500)")
    p.add_argument("--min-ply", type=int, default=0,
                   help="skip positions before this ply (the forced opening is always skipped)")
    p.add_argument("--every", type=int, default=1, help="keep every n-th position (default 1)")
    return p


def run(args) -> int:
    from pathlib import Path

    from ..errors import GameError
    from ..tuning import tune
    from ..tuning.texel import TuneWarning
    out = Path(args.out)
    if out.exists() and not args.force:   # refuse before the (long) fit, not after it
        raise GameError(f"--out {out} exists; pass --force to overwrite it")
    if not out.parent.is_dir():
        raise GameError(f"--out {out}: the folder {out.parent} does not exist")
    if args.every < 1 or args.max_iter < 1 or args.min_ply < 0:
        raise GameError("--every and --max-iter must be >= 1, --min-ply >= 0")
    for option, value, ok, fits in (
            ("--l2", args.l2, "a finite number >= 0", lambda v: v >= 0),
            ("--held-out", args.held_out, "a fraction in [0, 1)", lambda v: 0 <= v < 1),
            ("--score-weight", args.score_weight, "a number in [0, 1]", lambda v: 0 <= v <= 1)):
        if not (math.isfinite(value) and fits(value)):   # nan passes a plain v < 0 test
            raise GameError(f"{option} {value}: expected {ok}")
    if args.values_of is not None and args.score_weight <= 0:
        raise GameError("--values-of picks the recorded values --score-weight fits towards: "
                        "give --score-weight too")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", TuneWarning)
        r = tune(args.game, args.records, args.eval, held_out=args.held_out, seed=args.seed,
                 score_weight=args.score_weight, l2=args.l2, max_iter=args.max_iter,
                 min_ply=args.min_ply, every=args.every, values_of=args.values_of, log=print)
    for w in caught:
        if not issubclass(w.category, TuneWarning):
            warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    r.write(out, overwrite=args.force)
    L = r.loss
    print(f"K = {r.scale:.6g}; {r.optimiser['iterations']} L-BFGS-B iterations "
          f"({r.optimiser['message']})")
    if args.values_of is not None:
        print(f"{args.values_of}'s values: scale {r.optimiser['value_scale']:.6g} "
              "(fitted to the results)")
    print(f"log-loss  train {L['train_before']:.4f} -> {L['train_after']:.4f} "
          f"({L['train_games']} games, {L['train_positions']} positions)")
    if not math.isnan(L["test_before"]):
        print(f"log-loss  held-out {L['test_before']:.4f} -> {L['test_after']:.4f} "
              f"({L['test_games']} games, {L['test_positions']} positions)")
    for w in caught:   # said below the losses they are about
        if issubclass(w.category, TuneWarning):
            print(f"gameai tune: warning: {w.message}", file=sys.stderr)
    width = max(len(f) for f in r.features)
    print(f"{'feature':<{width}}  {'start':>10}  {'tuned':>10}")
    for f, a, b in zip(r.features, r.start, r.weights):
        print(f"{f:<{width}}  {a:>10.4g}  {b:>10.4g}")
    print(f"weights: {out}  (use eval={r.evaluator}(weights={out}))")
    return 0
