"""Strength: tournaments that test what the source documents say about playing strength.

* Gomoku and Renju: the 002 document's one-shot point weighting (no search) against
  alpha-beta (with history heuristic, pattern evaluator) at depths 1-3 (quick) or 1-4
  (``--full``), a gauntlet with every opening played twice, colours swapped.
* Xiangqi at equal time per move: the 001 document's two-ply max-min, alpha-beta with
  the history heuristic (000) and NegaScout with a transposition table (003), both in
  iterative deepening under the same per-move time budget (minimax2 is fixed at two plies
  and uses what it needs). Time-limited games depend on machine load, so unlike the
  depth-limited games they are not bit-for-bit reproducible.

Win rates come with Elo differences and 95% intervals (trinomial, as cutechess-cli;
gameai.tournament.stats); a claim is judged by the likelihood of superiority (LOS > 95%
holds, < 5% fails, otherwise inconclusive). Quick: 24 games per Gomoku/Renju pairing and 12 per Xiangqi
pairing at 0.05 s/move; ``--full``: 40 and 20, at 0.5 s/move.
"""
from __future__ import annotations

import shutil

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

from gameai.errors import RecordError
from gameai.tournament.runner import TournamentConfig, run_tournament

from ._common import Claim, Results, cli, command_for

NAME = "strength"


def _verdict(los: float) -> bool | None:
    """Decide by the likelihood of superiority (cutechess-cli's LOS, from wins and losses):
    True above 95%, False below 5%, None (inconclusive at this sample size) between."""
    if los > 0.95:
        return True
    if los < 0.05:
        return False
    return None


def _match(res: Results, label: str, cfg: TournamentConfig, resume: bool = False) -> pd.DataFrame:
    """Play one tournament into its folder: afresh (earlier games there are discarded), or,
    with ``resume``, continuing the games an interrupted run of the same config recorded."""
    out = res.dir / label
    if not resume and out.exists():
        shutil.rmtree(out)
    try:
        r = run_tournament(cfg, out, jobs=None, progress=True, log=None)
    except RecordError as exc:
        raise RecordError(f"cannot resume {out}: {exc}") from None
    df = pd.DataFrame(r.pairings)
    df["match"] = label
    return df


def run(full: bool = False, seed: int = 1, out=None, resume: bool = False) -> list[Claim]:
    res = Results(NAME, out)
    depths = range(1, 5 if full else 4)
    n_games = 40 if full else 24
    tables = []
    for rule in ("freestyle", "renju"):
        game = "gomoku" if rule == "freestyle" else "renju"
        players = ["pointweight"] + [f"alphabeta(depth={d},history=true)" for d in depths]
        cfg = TournamentConfig(game=game, players=players, games=n_games, seed=seed,
                               format="gauntlet", opening_plies=2, max_plies=225)
        tables.append(_match(res, game, cfg, resume))
    xq_time = 0.5 if full else 0.05
    xq_players = ["minimax2", "alphabeta(depth=30,id=true,history=true)",
                  "negascout(depth=30,id=true,tt=true)"]
    cfg = TournamentConfig(game="xiangqi", players=xq_players, games=20 if full else 12, seed=seed,
                           format="roundrobin", opening_plies=2, time=xq_time,
                           max_plies=300 if full else 160)
    tables.append(_match(res, "xiangqi", cfg, resume))
    df = pd.concat(tables, ignore_index=True)
    df["elo_lo"] = df.elo - df.elo_error
    df["elo_hi"] = df.elo + df.elo_error
    res.table(df)

    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5))
    for ax, match in zip(axes, ("gomoku", "renju", "xiangqi")):
        sub = df[df.match == match]
        labels = [f"{p}\nvs {o}" for p, o in zip(sub.player, sub.opponent)]
        ax.barh(labels, sub.score, xerr=None, color="#48a")
        ax.axvline(0.5, color="k", lw=0.8)
        ax.set_xlim(0, 1)
        ax.set_xlabel("score of the first-named player")
        ax.set_title(f"{match}: {int(sub.games.sum())} games")
        ax.tick_params(axis="y", labelsize=7)
    fig.tight_layout()
    res.figure(fig)

    cmd = command_for(NAME, full)
    claims = []
    for match in ("gomoku", "renju"):
        sub = df[df.match == match]
        for row in sub.itertuples():
            # rows are from pointweight's side (first in --player order): negate for alpha-beta
            lo, hi = -row.elo_hi, -row.elo_lo
            one_ply = "depth=1," in row.opponent
            claims.append(Claim(
                NAME, "002_5a91ab6e5fec2a2a.txt",
                f"{match}: one-shot point weighting cannot look ahead like minimax/alpha-beta search "
                f"(so {row.opponent} should beat it)",
                f"{row.opponent} vs pointweight: +{row.losses} ={row.draws} -{row.wins} in {row.games} games, "
                f"Elo {-row.elo:+.0f}, 95% interval [{lo:+.0f}, {hi:+.0f}], LOS {1 - row.los:.1%}"
                + (" (depth 1 looks no further than point weighting: reported, not judged)" if one_ply else ""),
                None if one_ply else _verdict(1 - row.los), cmd))
    sub = df[df.match == "xiangqi"]
    for row in sub.itertuples():
        if row.player != "minimax2":
            continue
        lo, hi = -row.elo_hi, -row.elo_lo
        claims.append(Claim(
            NAME, "000_0a1355427a5f8415.txt / 003_0e015e2797335d1b.txt",
            f"xiangqi: at equal time ({xq_time} s/move) {row.opponent} plays better than the 001 document's two-ply max-min",
            f"{row.opponent} vs minimax2: +{row.losses} ={row.draws} -{row.wins} in {row.games} games, "
            f"Elo {-row.elo:+.0f}, 95% interval [{lo:+.0f}, {hi:+.0f}], LOS {1 - row.los:.1%}",
            _verdict(1 - row.los), cmd))
    res.claims(claims)
    res.manifest({"full": full, "gomoku_depths": list(depths), "games_per_pairing": n_games,
                  "xiangqi_players": xq_players, "xiangqi_time_per_move": xq_time}, seed)
    return claims


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
