"""Standings from game rows: per-pairing W/D/L with trinomial and pentanomial Elo, per-player table."""
from __future__ import annotations

import csv
import math
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from .stats import SPRT, Z95, elo_pentanomial, elo_trinomial, fit_ratings, los


def _score_for(game: dict[str, Any], name: str) -> float:
    s0 = float(game["score0"])
    return s0 if game["player0"] == name else 1.0 - s0


def _forfeit(game: dict[str, Any]) -> bool:
    return int(game.get("faulty", -1)) >= 0


def forfeits_only(games: list[dict[str, Any]]) -> bool:
    """True when every one of ``games`` was lost by a forfeit (a player that crashed, could
    not start, played an illegal move, ...): their score says nothing about strength."""
    return bool(games) and all(map(_forfeit, games))


def forfeited_players(games: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Players who forfeited every game they played, each with its first forfeit's reason
    (the error without its traceback): such a player never played, so the tournament failed."""
    played: dict[str, int] = defaultdict(int)
    lost: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for g in sorted(games, key=lambda g: g["game_id"]):
        for side in (0, 1):
            played[g[f"player{side}"]] += 1
        if _forfeit(g):
            lost[g[f"player{int(g['faulty'])}"]].append(g)
    out = {}
    for name, gs in lost.items():
        if len(gs) == played[name]:
            error = str(gs[0].get("error") or "").split("\nTraceback (most recent call last)")[0]
            out[name] = f"{gs[0].get('reason')}: {error.strip()}"
    return out


def pairing_rows(games: Iterable[dict[str, Any]], sprt: SPRT | None = None,
                 order: list[str] | None = None) -> list[dict[str, Any]]:
    """One row per pairing, from the point of view of the pairing's first-listed player.

    The first-listed player ``a`` is the one earlier in ``order`` (the ``--player`` order;
    default: colour 0 of the pairing's first game). Pairs are the two games of one opening with colours swapped;
    an incomplete pair (the other game not played yet) is left out of the pentanomial.
    """
    by_pairing: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for g in games:
        by_pairing[int(g["pairing"])].append(g)
    rows = []
    for pi in sorted(by_pairing):
        gs = sorted(by_pairing[pi], key=lambda g: g["game_id"])
        a, b = gs[0]["player0"], gs[0]["player1"]
        if order and a in order and b in order and order.index(b) < order.index(a):
            a, b = b, a
        w = sum(1 for g in gs if _score_for(g, a) == 1.0)
        d = sum(1 for g in gs if _score_for(g, a) == 0.5)
        l_ = len(gs) - w - d
        pairs: dict[int, list[float]] = defaultdict(list)
        for g in gs:
            pairs[int(g["pair"])].append(_score_for(g, a))
        penta = [0] * 5
        for scores in pairs.values():
            if len(scores) == 2:
                penta[int(round(2 * sum(scores)))] += 1
        tri = elo_trinomial(w, d, l_)
        pen = elo_pentanomial(penta)
        row = {"pairing": pi, "player": a, "opponent": b, "games": len(gs),
               "wins": w, "draws": d, "losses": l_, "score": (w + d / 2) / len(gs),
               "elo": tri.elo, "elo_error": tri.error, "elo_low": tri.low, "elo_high": tri.high,
               "elo_bound": tri.bound_text(),
               "penta": " ".join(map(str, penta)), "penta_elo": pen.elo, "penta_error": pen.error,
               "penta_bound": pen.bound_text(),
               "elo_undetermined": tri.undetermined, "penta_undetermined": pen.undetermined,
               "los": los(w, l_),
               "faults": sum(map(_forfeit, gs))}
        if forfeits_only(gs):  # undefined, not +-inf: nobody's strength was measured
            row.update(elo=math.nan, elo_error=math.nan, elo_low=math.nan, elo_high=math.nan,
                       elo_bound="", penta_elo=math.nan, penta_error=math.nan, penta_bound="",
                       los=math.nan)
        if sprt is not None:
            llr = sprt.llr_pentanomial(penta) if sum(penta) else sprt.llr_trinomial(w, d, l_)
            row["llr"] = llr
            row["sprt"] = sprt.decide(llr) or "-"
        rows.append(row)
    return rows


def player_rows(games: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per player: games, W/D/L, points, score and a fitted Elo rating (pool mean 0).

    The rating is the logistic maximum-likelihood fit over all pairings
    (:func:`gameai.tournament.stats.fit_ratings`), so a player who met stronger opponents
    is not punished as a plain score percentage would; ``elo_95`` is 1.96 standard errors.
    Pairings decided only by forfeits are left out of the fit (a player with nothing else
    has no rating: NaN).
    """
    games = list(games)
    acc: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    by_pair: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for g in games:
        for name in (g["player0"], g["player1"]):
            s = _score_for(g, name)
            acc[name][0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
        by_pair[tuple(sorted((g["player0"], g["player1"])))].append(g)
    h2h = {(a, b): (sum(_score_for(g, a) for g in gs), len(gs))
           for (a, b), gs in by_pair.items() if not forfeits_only(gs)}
    ratings = fit_ratings(h2h) if h2h else {}
    rows = []
    for name, (w, d, l_) in acc.items():
        n = w + d + l_
        elo, se = ratings.get(name, (math.nan, math.nan))
        rows.append({"player": name, "games": n, "wins": w, "draws": d, "losses": l_,
                     "points": w + d / 2, "score": (w + d / 2) / n,
                     "elo": elo, "elo_95": Z95 * se if math.isfinite(se) else se,
                     # in the fit, but the games do not fix its rating (never "+- 0")
                     "elo_undetermined": name in ratings and math.isnan(elo)})
    rows.sort(key=lambda r: (-r["elo"] if not math.isnan(r["elo"]) else math.inf, -r["score"], r["player"]))
    for i, r in enumerate(rows, 1):
        r["rank"] = i
    return rows


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        if math.isnan(v):
            return "n/a"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        v += 0.0  # no "-0.000"
        text = f"{v:.1f}" if abs(v) >= 1 else f"{v:.3f}"
        return "0.000" if text in ("-0.000", "-0.0") else text
    return str(v)


def format_table(rows: list[dict[str, Any]], columns: list[str]) -> str:
    """A plain fixed-width text table."""
    cells = [[c for c in columns]] + [[_fmt(r.get(c, "")) for c in columns] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
    lines = ["  ".join(c.ljust(w) if i < 1 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
             for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def render(games: list[dict[str, Any]], sprt: SPRT | None = None,
           order: list[str] | None = None) -> str:
    """The terminal report: player standings, then every pairing with both Elo models."""
    if not games:
        return "no games played"
    players = player_rows(games)
    pairs = pairing_rows(games, sprt, order)
    und = "undetermined"
    players_shown = [{**r, "elo": und, "elo_95": und} if r["elo_undetermined"] else r
                     for r in players]
    out = [format_table(players_shown, ["player", "rank", "games", "wins", "draws", "losses",
                                        "points", "score", "elo", "elo_95"])]
    cols = ["player", "opponent", "games", "wins", "draws", "losses", "score", "elo", "elo_error",
            "penta", "penta_elo", "penta_error", "los", "faults"]
    if sprt is not None:
        cols += ["llr", "sprt"]
    out.append("")
    # a pairing whose interval reaches a score of 0 or 1 shows its one-sided bound ("< -317")
    # where a +-error would be infinite
    shown = [{**r, "elo_error": r["elo_bound"] or r["elo_error"],
              "penta_error": r["penta_bound"] or r["penta_error"],
              **({"elo": und, "elo_error": und} if r["elo_undetermined"] else {}),
              **({"penta_elo": und, "penta_error": und} if r["penta_undetermined"] else {})}
             for r in pairs]
    out.append(format_table(shown, cols))
    out.append("Elo: logistic. Players: maximum-likelihood fit, pool mean 0, +-1.96 SE. Pairings:"
               " 95% interval, trinomial as cutechess-cli, pentanomial over colour-swapped pairs"
               " (penta = pairs scoring 0,1/2,1,3/2,2 for the player). An error column"
               " reading '< x' or '> x' is a one-sided 95% bound (Clopper-Pearson): the score"
               " reached 0 or 1, where a two-sided interval has no finite end.")
    if any(r["elo_undetermined"] or r["penta_undetermined"] for r in pairs) \
            or any(r["elo_undetermined"] for r in players):
        out.append("undetermined: the games fix no Elo. A pairing with no decisive game (or"
                   " whose pairs all scored alike) shows no spread to size an interval from,"
                   " where the formula would print a certain-looking +-0; a player's rating is"
                   " undetermined when, setting aside players who won or lost every game, it"
                   " has no game left, scored all or nothing in them, or is outside the largest"
                   " group whose members all took points from one another through some chain."
                   " More games (decisive ones) decide it.")
    if any(r["faults"] == r["games"] for r in pairs):
        out.append("n/a: undefined. A pairing whose every game was forfeited (faults = games: a"
                   " player crashed, could not start or played illegally) measures no strength,"
                   " so it has no Elo or LOS and is left out of the players' fit.")
    return "\n".join(out)


def write_csv(path: str | Path, rows: list[dict[str, Any]]) -> None:
    """Write rows as CSV (atomically, via a temporary file)."""
    import io

    from ..manifest import atomic_write_bytes
    buf = io.StringIO()
    if rows:
        writer = csv.DictWriter(buf, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    atomic_write_bytes(path, buf.getvalue().encode())
