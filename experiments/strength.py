"""Strength: tournaments that test what the source documents say about playing strength.

Claims in one Holm family (:data:`FAMILY`), plus one control per Gomoku game:

* **Look-ahead with the evaluation held equal (002 document; Gomoku and Renju).** The 002
  document says its one-shot point weighting "cannot look ahead like minimax". A fair test
  of look-ahead needs an evaluation with which a depth-1 search *is* the one-shot player;
  the old ``gomoku.pointweight`` position value (best own point minus best opponent point)
  is not one (its depth-1 control lost 197 of 200 games to the player it should equal).
  Here alpha-beta evaluates with the line-sum point weighting
  (:mod:`experiments.lookahead_eval`: the alternating sum of each placed stone's point
  weight at the time it was placed), with which a depth-1 search picks from the one-shot
  player's best points (a test checks it on every suite position). **Depth 1 is the
  control:** a check, not a claim: when its 95% interval does not include 50%, the look-
  ahead rows of that game are not judged. Depths 2 and 3 then measure look-ahead alone.
  (Depth 4 is left out: on the Python backend, which the Python evaluation needs, a
  depth-4 move costs about 3 s.) **Budget: fixed depth** (the one-shot player has no node
  count to match; games do not follow machine load).
* **Practical row (002 document).** The strongest searcher of a fixed effort (the threat
  player: NegaScout at depth 4 with threat search, compiled) against the one-shot player.
* **Equal effort (Xiangqi; 2 claims; 000, 001 and 003 documents).** The 001 document's
  fixed two-ply max-min (``minimax2``) against alpha-beta with the history heuristic and
  against NegaScout with a transposition table, both in iterative deepening. The earlier
  design (a budget equal to the max-min's *mean* nodes per move) measured where the budget
  fell: NegaScout with only a TT did not finish depth 2 on some positions and played its
  depth-1 move there (-153 Elo). **Budget: the max-min's own count on every move**
  (:mod:`experiments.equal_effort`): before each move the deepening searcher runs the
  max-min on the same position and gets exactly its node count; a stopped iteration keeps
  its best fully searched root move, as engines do. The sides' mean nodes per move are
  reported; if they differ by more than :data:`NODE_TOLERANCE`, the claim is not judged.

**Games** (from power, fixed before any game is played): ``--full`` plays
:data:`GAMES` = 200 games per claim, 100 seeded openings each played with colours swapped
(random openings of :data:`OPENING_PLIES` plies: 4 in Gomoku/Renju, where the first stone
is forced to the centre and 2 plies give only 24 openings; 2 in Xiangqi). 200 games detect
a true advantage of about 70 Elo with 80% power at two-sided 5% (:func:`detectable_elo`,
the conservative no-draw variance), about 90 Elo at Holm's strictest level (0.05/8). The quick
setting plays 2 games per claim (Xiangqi games capped at 120 plies): a smoke test whose
verdicts are inconclusive by design.

**Cost** (:func:`estimate`, from CPU seconds per game measured for every pairing,
:data:`GAME_CPU_S`): about 53 minutes for ``--full`` on 2 cores, most of it the depth-2
and depth-3 line-sum games on the Python backend; about a minute for the quick setting.

**Intervals** (:func:`score_interval`): the score of the claim's side is (wins +
draws/2)/games; its interval is the union of the Wilson interval over games and the
normal interval over colour-swapped pairs (pentanomial: each pair scores 0, 1/4, ..., 1).
The pentanomial interval accounts for the pairing (games from one opening are not
independent); Wilson's stays honest near a sweep, where the pentanomial variance
collapses. Mapped to Elo; an open end of a sweep is said in words, never printed as inf.

**Verdict rule** (:func:`verdicts`, fixed before any game was played): each claim's
p-value (:func:`p_value`, the smallest level at which the interval above excludes 0 Elo) is
Holm-corrected over the family of all claims of the experiment (Holm 1979: the k-th
smallest is judged at 5%/(m - k + 1), stopping at the first that is not rejected). A claim
holds when its interval at its Holm level lies wholly above 0 Elo, does not hold when
wholly below, and is otherwise inconclusive. The 95% interval is reported beside it.

Every game is a pure function of the seed (fixed depths, node budgets, seeded openings and
tie-breaks), so a rerun gives the same table on any machine and backend; wall-clock
columns aside.
"""
from __future__ import annotations

import math
import os
import random
import shutil
from dataclasses import dataclass
from statistics import NormalDist

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import pandas as pd

import gameai
from gameai.errors import RecordError
from gameai.tournament.runner import TournamentConfig, run_tournament
from gameai.tournament.stats import score_to_elo

from . import equal_effort, lookahead_eval, parallel
from ._common import Claim, Results, cli, command_for, source
from .parallel import pmap

NAME = "strength"
ALPHA, POWER = 0.05, 0.80
Z = NormalDist().inv_cdf(1 - ALPHA / 2)
GAMES = (2, 200)                       # games per claim (quick, --full), colour-swapped pairs
DEPTHS = {"gomoku": (1, 2, 3), "renju": (1, 2, 3)}   # alpha-beta depths against the one-shot player
RADIUS = 2                             # Gomoku/Renju candidate points: within this distance of a stone
XQ_MAX_PLIES = (120, 300)              # Xiangqi game length cap (a draw when reached)
GOMOKU_MAX_PLIES = 225                 # a full board
OPENING_PLIES = {"gomoku": 4, "renju": 4, "xiangqi": 2}
NODE_TOLERANCE = 1.33                  # "equal nodes": mean nodes/move within this factor
CALIBRATION = (4, 60)                  # minimax2 self-play games and searched plies each
RULES = {"gomoku": "freestyle", "renju": "renju"}
#: the deepening players, each held on every move to the max-min's own node count on that
#: position (experiments.equal_effort)
XQ_SEARCHERS = {equal_effort.spec(equal_effort.AlphaBetaHistory): "000",
                equal_effort.spec(equal_effort.NegaScoutTT): "003"}
#: the practical row: the strongest searcher of a fixed effort against the one-shot player
#: (the threat player at depth 4, as the suites' self-play uses it; fixed depth, not time,
#: so that games do not follow machine load)
PRACTICAL = ("negascout(depth=4,id=true,tt=true,history=true,killers=true,threats=true,"
             "threat_order=true,threat_forced=true,threat_depth=3,backend=compiled)")


FAMILY = "strength claims"


def is_control(side: str) -> bool:
    """Whether a player is a look-ahead control (depth 1 with the line-sum evaluation)."""
    return side == lookahead(1)


def lookahead(depth: int) -> str:
    """The alpha-beta player whose depth-1 search IS the one-shot player: the line-sum
    point weighting (:mod:`experiments.lookahead_eval`), on the Python backend (the
    evaluation is Python), with history and killers for ordering and no transposition
    table (the evaluation depends on the order of the line, so transpositions differ)."""
    return f"alphabeta(depth={depth},eval={lookahead_eval.spec()},history=true,killers=true)"


# --- cost: measured before choosing the budgets ----------------------------------------------

# CPU seconds per game of each claim's pairing at the --full setting, on the 2-core reference
# machine while other work shared it (load average 5-12, so an idle machine does no worse):
# the mean of 4 seeded games per pairing after one untimed game (measure_costs(4, settings=
# (True,))), so the depth-3 and depth-4 figures are rough; quick games are no longer.
# The redesigned pairings (line-sum look-ahead on the Python backend, the practical threat
# player, per-move equal effort in Xiangqi): measure_costs(2, settings=(True,)), 2 games a
# pairing after an untimed one, on the 2-core machine under a load of 5-7. Rough (2 games).
GAME_CPU_S = {("gomoku", 1): 0.08, ("gomoku", 2): 2.1, ("gomoku", 3): 6.6, ("gomoku", "practical"): 3.4,
              ("renju", 1): 0.13, ("renju", 2): 6.0, ("renju", 3): 7.0, ("renju", "practical"): 4.3,
              ("xiangqi", "000"): 0.91, ("xiangqi", "003"): 0.75}
# per run: the workers' start in each of the three tournaments and the calibration, with
# numba's cache warm (as after the experiments before this one; a cold cache adds a few
# CPU minutes of compiling the Gomoku and Xiangqi kernels once)
START_S = 30.0


def estimate(full: bool) -> float:
    """Wall seconds of a run: the games' measured CPU seconds shared by the local cores,
    plus compiling the kernels and starting the workers."""
    cpu = GAMES[full] * sum(GAME_CPU_S.values())
    return START_S + cpu / (os.cpu_count() or 1)


# --- statistics: written before the data -------------------------------------------------

def _z(level: float) -> float:
    return NormalDist().inv_cdf(0.5 + level / 2)


def wilson(points: float, n: int, level: float = 1 - ALPHA) -> tuple[float, float]:
    """Wilson interval of a score fraction (Wilson 1927); draws count half a point."""
    if n <= 0:
        raise ValueError("no games")
    z = _z(level)
    p = points / n
    denom = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, mid - half), min(1.0, mid + half)


def _pair_moments(pairs: list[int]) -> tuple[int, float, float]:
    """Pairs, mean pair score fraction and its standard error (pair points 0, 1/2, ..., 2)."""
    n = sum(pairs)
    mu = sum(c * k / 4 for k, c in enumerate(pairs)) / n
    var = sum(c * (k / 4 - mu) ** 2 for k, c in enumerate(pairs)) / n
    return n, mu, math.sqrt(var / n)


def score_interval(points: float, n: int, pairs: list[int] | None = None,
                   level: float = 1 - ALPHA) -> tuple[float, float]:
    """The union of the Wilson interval over games and the pentanomial (normal) interval
    over colour-swapped pairs: wide enough for both the pairing and a near-sweep."""
    lo, hi = wilson(points, n, level)
    if pairs and sum(pairs):
        _, mu, se = _pair_moments(pairs)
        z = _z(level)
        lo, hi = min(lo, max(0.0, mu - z * se)), max(hi, min(1.0, mu + z * se))
    return lo, hi


def p_value(points: float, n: int, pairs: list[int] | None = None) -> float:
    """Two-sided p-value of "score = 50%" matching :func:`score_interval`: the larger of
    the score test's (the Wilson interval's inverse) and the pentanomial z-test's."""
    p = 2 * (1 - NormalDist().cdf(abs(points / n - 0.5) * 2 * math.sqrt(n)))
    if pairs and sum(pairs):
        _, mu, se = _pair_moments(pairs)
        pent = (0.0 if mu != 0.5 else 1.0) if se == 0 else 2 * (1 - NormalDist().cdf(abs(mu - 0.5) / se))
        p = max(p, pent)
    return p


def elo_text(lo: float, hi: float) -> str:
    """An Elo interval from a score interval, the open end of a sweep said in words."""
    left = f"{score_to_elo(lo):+.0f}" if lo > 0 else "no lower bound (every game lost)"
    right = f"{score_to_elo(hi):+.0f}" if hi < 1 else "no upper bound (every game won)"
    return f"[{left}, {right}]"


def _elo_point(score: float) -> str:
    return f", Elo {score_to_elo(score) + 0.0:+.0f}" if 0 < score < 1 else ""


def power_text(n: int, m: int) -> str:
    """What ``n`` games can detect: at 5% two-sided and at Holm's strictest level of a
    family of ``m`` claims (a true advantage that needs a near-sweep is said in words)."""
    def at(alpha: float) -> str:
        elo = detectable_elo(n, alpha=alpha)
        return f"a true {elo:+.0f} Elo" if elo < 1000 else "nothing short of a near-sweep"
    return (f"80% power against {at(ALPHA)} at 5% two-sided "
            f"({at(ALPHA / m)} at Holm's strictest {ALPHA / m:.2%})")


def detectable_elo(n: int, power: float = POWER, alpha: float = ALPHA) -> float:
    """The true Elo advantage that ``n`` games detect with ``power`` at two-sided level
    ``alpha`` (normal approximation; the per-game spread sqrt(p(1-p)) of a game without
    draws, the conservative case)."""
    za, zb = NormalDist().inv_cdf(1 - alpha / 2), NormalDist().inv_cdf(power)
    lo, hi = 0.5, 1.0 - 1e-9
    for _ in range(100):  # bisection on the true score p
        p = (lo + hi) / 2
        need = ((za * 0.5 + zb * math.sqrt(p * (1 - p))) / (p - 0.5)) ** 2
        lo, hi = (p, hi) if need > n else (lo, p)
    return score_to_elo(hi)


def interval_verdict(lo: float, hi: float) -> bool | None:
    """A score interval's direction: True above 50%, False below, None across it."""
    if lo > 0.5:
        return True
    if hi < 0.5:
        return False
    return None


@dataclass(frozen=True)
class Outcome:
    """What a claim's games gave its side: points, games and colour-swapped pair counts."""

    points: float
    games: int
    pairs: tuple[int, ...] = ()


def holm_levels(pvalues: list[float], alpha: float = ALPHA) -> list[tuple[int, float, bool]]:
    """Holm's step-down procedure (Holm 1979): per claim, its step (1 = smallest p), the
    confidence level it is judged at, 1 - alpha/(m - step + 1), and whether it is
    rejected (every smaller p rejected too)."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out: list[tuple[int, float, bool]] = [(0, 0.0, False)] * m
    going = True
    for step, i in enumerate(order, 1):
        a = alpha / (m - step + 1)
        going = going and pvalues[i] < a
        out[i] = (step, 1 - a, going)
    return out


def verdicts(outcomes: list[Outcome], alpha: float = ALPHA) -> list[tuple[bool | None, str, tuple[float, float]]]:
    """The family's verdicts: per claim True (holds), False (does not hold) or None
    (inconclusive), why, and its score interval at its Holm level."""
    ps = [p_value(o.points, o.games, list(o.pairs)) for o in outcomes]
    out = []
    m = len(outcomes)
    for o, p, (step, level, rejected) in zip(outcomes, ps, holm_levels(ps, alpha)):
        iv = score_interval(o.points, o.games, list(o.pairs), level)
        at = f"Holm step {step} of {m}, judged at the {level:.2%} level (p = {p:.2g})"
        v = interval_verdict(*iv) if rejected else None
        if v is True:
            why = f"holds: the interval lies wholly above 0 Elo ({at})"
        elif v is False:
            why = f"does not hold: the interval lies wholly below 0 Elo ({at})"
        elif interval_verdict(*iv) is not None:
            why = f"inconclusive: a smaller p-value of the family was not rejected first ({at})"
        else:
            why = f"inconclusive: the interval includes 0 Elo ({at})"
        out.append((v, why, iv))
    return out


# --- playing ------------------------------------------------------------------------------

def _match(res: Results, label: str, cfg: TournamentConfig, resume: bool = False):
    """Play one tournament into its folder: afresh (earlier games there are discarded), or,
    with ``resume``, continuing the games an interrupted run of the same config recorded."""
    out = res.dir / label
    if not resume and out.exists():
        shutil.rmtree(out)
    try:
        return run_tournament(cfg, out, jobs=None, backend=parallel.current()[0],
                              scheduler=parallel.scheduler_address(), progress=True, log=None)
    except RecordError as exc:
        raise RecordError(f"cannot resume {out}: {exc}") from None


def minimax2_nodes_per_move(seed: int, plies: int = CALIBRATION[1]) -> tuple[int, int]:
    """Nodes and searched moves of the 001 document's two-ply max-min on a seeded self-play
    game (2 random plies, then ``plies`` searched moves): the equal-nodes budget's basis,
    the same on every machine."""
    rng = random.Random(seed)
    s = gameai.load_game("xiangqi")
    searcher = gameai.make_searcher("minimax2")
    nodes = moves = 0
    while s.result() is None and moves < plies:
        if s.ply < 2:
            s.push(rng.choice(s.legal_moves()))
            continue
        r = searcher.search(s)
        nodes, moves = nodes + r.stats.nodes, moves + 1
        s.push(r.move)
    return nodes, moves


def _outcome(games: pd.DataFrame, side: str) -> tuple[Outcome, dict]:
    """The side's points, W/D/L and pair counts over a pairing's games."""
    s = games.score0.where(games.player0 == side, 1 - games.score0)
    pairs = [0] * 5
    for _, g in s.groupby(games.pair):
        if len(g) == 2:
            pairs[round(2 * g.sum())] += 1
    wdl = {"wins": int((s == 1).sum()), "draws": int((s == 0.5).sum()), "losses": int((s == 0).sum())}
    return Outcome(float(s.sum()), len(s), tuple(pairs)), wdl


def _rows(result, against: str, match: str, cfg: TournamentConfig) -> list[dict]:
    """One row per pairing, from the side the claim favours (the player who is not
    ``against``): outcome, pair counts and each side's mean nodes and seconds per move."""
    games = pd.read_parquet(result.out / "games.parquet")
    moves = pd.read_parquet(result.out / "moves.parquet")
    # seconds per move: the median, since a worker's first move may include compiling
    per = moves.groupby("player").agg(nodes=("nodes", "mean"), secs=("time_s", "median"), depth=("depth", "mean"))
    rows = []
    for pi, g in games.groupby("pairing"):
        side = next(p for p in (g.player0.iloc[0], g.player1.iloc[0]) if p != against)
        o, wdl = _outcome(g, side)
        rows.append({"match": match, "side": side, "opponent": against, "game": cfg.game,
                     "games": o.games, **wdl, "points": o.points,
                     **{f"pairs_{k}": c for k, c in enumerate(o.pairs)},
                     "mean_plies": float(g.plies.mean()),
                     "side_nodes_per_move": float(per.nodes.get(side, math.nan)),
                     "opponent_nodes_per_move": float(per.nodes.get(against, math.nan)),
                     "side_s_per_move": float(per.secs.get(side, math.nan)),
                     "opponent_s_per_move": float(per.secs.get(against, math.nan)),
                     "side_depth": float(per.depth.get(side, math.nan))})
    return rows


def _tournaments(full: bool, seed: int, budget: int) -> list[tuple[str, str, TournamentConfig]]:
    """(folder, player the claims play against, config) of each tournament of a run."""
    n, radius = GAMES[full], RADIUS
    out = [(game, "pointweight", TournamentConfig(
        game=f"gomoku(rule={RULES[game]},radius={radius})",
        players=["pointweight", *map(lookahead, DEPTHS[game]), PRACTICAL],
        games=n, seed=seed, format="gauntlet", opening_plies=OPENING_PLIES[game], max_plies=GOMOKU_MAX_PLIES))
        for game in RULES]
    xq = [spec.format(n=budget) for spec in XQ_SEARCHERS]
    out.append(("xiangqi", "minimax2", TournamentConfig(
        game="xiangqi", players=["minimax2", *xq], games=n, seed=seed, format="gauntlet",
        opening_plies=OPENING_PLIES["xiangqi"], max_plies=XQ_MAX_PLIES[full])))
    return out


def _budget(seed: int) -> tuple[int, list[tuple[int, int]]]:
    """minimax2's mean nodes per move over the calibration games (seeds ``seed``, ...)."""
    counts = list(pmap(minimax2_nodes_per_move, [(seed + k,) for k in range(CALIBRATION[0])]))
    return round(sum(c[0] for c in counts) / sum(c[1] for c in counts)), counts


def _claim_text(row, radius: int, budget: int) -> tuple[str, str]:
    """A claim's text and its source documents."""
    if row.match == "xiangqi":
        doc = next(d for s, d in XQ_SEARCHERS.items() if s.format(n=budget) == row.side)
        name = "alphabeta" if doc == "000" else "negascout"
        text = (f"xiangqi: at equal effort per move, {name} in iterative deepening "
                f"({'history heuristic' if doc == '000' else 'transposition table'}) plays better than the "
                f"001 document's two-ply max-min (equal nodes on every move: the max-min's own count on "
                f"that position; an unfinished iteration keeps its best fully searched move)")
        return text, f"{source(doc)}; {source('001')}"
    if row.side == PRACTICAL:
        return (f"{row.match}: a searcher beats one-shot point weighting (practical row: the threat "
                f"player, NegaScout at depth 4 with threat search, against the one-shot player)", source("002"))
    depth = int(row.side.split("depth=")[1].split(",")[0])
    if depth == 1:
        text = (f"{row.match}: control: alpha-beta at depth 1 with the line-sum point weighting plays as "
                "the one-shot player (it picks from the same best points), so it scores 50% (a check of "
                "the design: the look-ahead rows of this game are judged only if it passes)")
    else:
        text = (f"{row.match}: one-shot point weighting cannot look ahead like minimax, so alpha-beta at "
                f"depth {depth} with an evaluation that makes depth 1 the one-shot player (the line-sum "
                f"point weighting) beats the one-shot player (look-ahead alone; both sides choose among "
                f"points within {radius} of a stone)")
    return text, source("002")


def run(full: bool = False, seed: int = 1, out=None, resume: bool = False) -> list[Claim]:
    res = Results(NAME, out)
    if not resume:  # a fresh run: no tournament folder of an earlier run (or layout) survives
        for child in res.dir.iterdir():
            if child.is_dir():
                shutil.rmtree(child)
    budget, calibration = _budget(seed)
    radius = RADIUS
    rows = []
    for label, against, cfg in _tournaments(full, seed, budget):
        rows += _rows(_match(res, label, cfg, resume), against, label, cfg)
    df = pd.DataFrame(rows)
    outcomes = [Outcome(r.points, r.games, tuple(getattr(r, f"pairs_{k}") for k in range(5)))
                for r in df.itertuples()]
    # the depth-1 controls are checks, not claims of the family: a control passes when its
    # 95% interval includes 50%; a game whose control fails has its look-ahead rows not judged
    control = [is_control(r.side) for r in df.itertuples()]
    family = [i for i, c in enumerate(control) if not c]
    judged_family = verdicts([outcomes[i] for i in family])
    judged: list = [None] * len(outcomes)
    for i, j in zip(family, judged_family):
        judged[i] = j
    failed = set()
    for i, c in enumerate(control):
        if c:
            o = outcomes[i]
            lo, hi = score_interval(o.points, o.games, list(o.pairs))
            ok = lo <= 0.5 <= hi
            judged[i] = (None, ("check passed: the 95% interval includes 50%" if ok else
                                "check FAILED: the 95% interval excludes 50%, so this game's look-ahead "
                                "rows are not judged"), (lo, hi))
            if not ok:
                failed.add(df.match.iloc[i])
    m = len(family)
    cmd = command_for(NAME, full)
    claims, cols = [], []
    for k, (row, o, (v, why, (hlo, hhi))) in enumerate(zip(df.itertuples(), outcomes, judged)):
        lo, hi = score_interval(o.points, o.games, list(o.pairs))
        score = o.points / o.games
        verdict = {True: "holds", False: "does not hold", None: "inconclusive"}[v]
        if control[k]:
            verdict = "not judged"
        elif row.match in failed and row.side != PRACTICAL:
            v, verdict, why = None, "not judged", f"not judged: the control of {row.match} failed; {why}"
        side_cost = (f"{row.side_nodes_per_move:.0f} nodes a move (fixed depth)" if row.match != "xiangqi"
                     else f"{row.side_nodes_per_move:.0f} nodes a move (the max-min's own count on each move)")
        opp_cost = ("one-shot, no nodes" if row.match != "xiangqi"
                    else f"{row.opponent_nodes_per_move:.0f} nodes a move")
        if row.match == "xiangqi":
            ratio = row.side_nodes_per_move / row.opponent_nodes_per_move
            if not 1 / NODE_TOLERANCE <= ratio <= NODE_TOLERANCE:
                v, verdict, why = None, "not judged", f"not judged: nodes per move not equal (ratio {ratio:.2f}); {why}"
        record = (f"{row.side} vs {row.opponent}: +{row.wins} ={row.draws} -{row.losses} in {row.games} games "
                  f"({sum(o.pairs)} colour-swapped pairs, pair points 0/0.5/1/1.5/2: "
                  + "/".join(map(str, o.pairs)) + f"), score {score:.1%}{_elo_point(score)}, "
                  f"95% interval (Wilson over games and pentanomial over pairs, the union) "
                  f"{elo_text(lo, hi)} Elo; at its Holm level {elo_text(hlo, hhi)} Elo; "
                  f"{power_text(o.games, m)}; "
                  f"effort: {side_cost}, mean depth {row.side_depth:.1f}, {row.side_s_per_move * 1000:.1f} ms a move; "
                  f"opponent {opp_cost}, {row.opponent_s_per_move * 1000:.1f} ms a move (median wall seconds, "
                  f"under the run's load); "
                  f"mean game {row.mean_plies:.0f} plies")
        text, src = _claim_text(row, radius, budget)
        if not control[k]:
            text += f" [one of {m} claims, verdicts Holm-corrected over the family]"
        short = (f"{row.match}: control, depth 1 = one-shot player (50%)" if control[k] else
                 f"{row.match}: practical, threat player beats one-shot" if row.side == PRACTICAL else
                 f"xiangqi: {'alpha-beta+history' if '000' in src else 'NegaScout+TT'} beats the max-min, equal nodes"
                 if row.match == "xiangqi" else
                 f"{row.match}: look-ahead depth {row.side.split('depth=')[1].split(',')[0]} beats one-shot")
        claims.append(Claim(NAME, src, text, f"{record}. Verdict: {why}", v, cmd, verdict=verdict, short=short,
                            estimate=f"{score:.1%}, Elo {elo_text(lo, hi)}", n=o.games,
                            family="" if control[k] else FAMILY))
        cols.append({"score": score, "score_lo": lo, "score_hi": hi, "elo": score_to_elo(score),
                     "elo_lo": score_to_elo(lo), "elo_hi": score_to_elo(hi), "holm_lo": hlo, "holm_hi": hhi,
                     "p_value": p_value(o.points, o.games, list(o.pairs)),
                     "detectable_elo": detectable_elo(o.games), "verdict": v, "why": why})
    df = pd.concat([df, pd.DataFrame(cols)], axis=1)
    res.table(df)
    res.figure(_figure(df))
    res.claims(claims)
    res.manifest({"full": full, "games_per_claim": GAMES[full], "depths": {g: list(d) for g, d in DEPTHS.items()},
                  "gomoku_radius": radius, "opening_plies": OPENING_PLIES,
                  "lookahead_players": {g: [lookahead(d) for d in ds] for g, ds in DEPTHS.items()},
                  "xiangqi_players": [s.format(n=budget) for s in XQ_SEARCHERS], "practical": PRACTICAL,
                  "xiangqi_budget": "per move: the max-min's own node count on that position",
                  "xiangqi_maxmin_mean_nodes_per_move": budget, "xiangqi_max_plies": XQ_MAX_PLIES[full],
                  "calibration_nodes_moves": calibration, "node_tolerance": NODE_TOLERANCE,
                  "alpha": ALPHA, "power": POWER, "verdict_rule": verdicts.__doc__}, seed)
    return claims


def _figure(df: pd.DataFrame):
    """Score of the claim's side with its 95% interval and its Holm-level interval."""
    def label(m, s):
        if m == "xiangqi":
            return f"xiangqi: {s.split(':')[-1]} (deepening, the max-min's nodes each move)"
        if s == PRACTICAL:
            return f"{m}: threat player, depth 4 (practical)"
        return f"{m}: alpha-beta depth {s.split('depth=')[1].split(',')[0]}, line-sum point weighting"
    labels = [label(m, s) + f"\nvs {o}, {g} games" for m, s, o, g in zip(df.match, df.side, df.opponent, df.games)]
    fig, ax = plt.subplots(figsize=(9, 0.8 * len(df) + 1.4))
    y = list(range(len(df)))
    ax.errorbar(df.score, y, xerr=[df.score - df.holm_lo, df.holm_hi - df.score], fmt="none",
                color="#aab", capsize=2, lw=4, label="interval at its Holm level (the verdict's)")
    ax.errorbar(df.score, y, xerr=[df.score - df.score_lo, df.score_hi - df.score], fmt="o",
                color="#248", capsize=4, label="95% interval")
    ax.axvline(0.5, color="k", lw=0.8)
    ax.set_yticks(y, labels, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("score of the side the claim favours (1 = wins every game)", fontsize=11)
    ax.set_title("Strength claims (Wilson and pentanomial intervals, Holm over the family)", fontsize=12)
    ax.legend(fontsize=9, loc="lower left")
    fig.tight_layout()
    return fig


def measure_costs(games: int = 10, seed: int = 11, settings: tuple[bool, ...] = (True, False)) -> dict:
    """CPU seconds per game of every claim's pairing, played in this process one after
    another (the first game of each untimed: it may compile); :data:`GAME_CPU_S` holds what
    this gave on the reference machine."""
    import time

    from gameai.tournament.play import play_game
    from gameai.tournament.runner import make_tasks
    out = {}
    for full in settings:
        for label, against, cfg in _tournaments(full, seed, _budget(seed)[0]):
            cfg.games = games
            tasks = make_tasks(cfg)
            for pi in sorted({t.pairing for t in tasks}):
                mine = [t for t in tasks if t.pairing == pi]
                play_game(mine[0])
                t0 = time.process_time()
                for t in mine:
                    play_game(t)
                key = [*DEPTHS[label], "practical"][pi] if label != "xiangqi" else list(XQ_SEARCHERS.values())[pi]
                out.setdefault(full, {})[(label, key)] = (time.process_time() - t0) / len(mine)
    return out


def main(argv=None) -> int:
    return cli(NAME, __doc__, run, argv)


if __name__ == "__main__":
    raise SystemExit(main())
