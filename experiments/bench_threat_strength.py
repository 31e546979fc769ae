"""gameai bench threat_strength: the threat player against the same searcher without threats.

Issue 11 item 5 (Gomoku half): "the VCF/VCT-enabled player wins at least 90% against
today's best alpha-beta player". For each rule (``--rules gomoku renju``) one match of
``--games`` games through the tournament machinery, each opening played twice with
colours swapped, the threat player against the plain one (:func:`specs`), both on
``--backend``. The openings (``--openings``) are by default the 26 standard Renju
openings (:mod:`gameai.games.gomoku_openings`: three stones in the centre, so 52 games);
``random`` plays ``--opening-plies`` random moves instead, which throw White's stones
anywhere and often leave Black a win whoever plays it (the colour-split pairs of the
pentanomial count show how often). ``balanced`` (:func:`balanced_openings`) plays
five-stone openings that the *plain* player judges even: why, because in freestyle
Gomoku most standard openings give Black a win that even the weaker player finds, so a
pair split by colour measures the opening, not the players; Renju's professional opening
rules add stones and swaps for the same reason. ``--judge-depths 4 5`` judges by the
mean of two adjacent depths, which cancels the horizon's parity (the default, depth 4
alone, keeps openings that favour White).

Printed per rule: W-D-L, the point score with its Wilson 95% interval (draws half a
point), the trinomial and pentanomial Elo with their 95% errors, the mean seconds per
move of each side, and for every game the threat player lost a short diagnosis, read
back from the records: the game's length, the first ply from which the winner's moves
to the end were a proven VCF or VCT (searched backwards over the winner's turns with
``vcf``/``vct`` at ``--diag-depth`` plies, ``--diag-time`` seconds each, until one is
not proven), that win's length, and the threat player's own value for its last move
before it (a mate score there means it saw the loss coming).

**Decision rule** (:func:`verdict`, fixed before the games it judges): per rule, the goal
is **shown** iff the Wilson 95% interval of the point score lies wholly at or above 90%,
**refuted** iff it lies wholly below, otherwise **undecided**; the point score against
90% is printed beside it ("point >= 90%" or not), since one match's point score alone
cannot vouch for a rate (19 of 20 has a lower bound near 76%; a lower bound of 90% needs
35 straight wins, 53 games with one loss or 69 with two). With several ``--seeds``
each rule is played once per seed and then pooled; other seeds give other games only
with random openings or time-limited players (fixed-depth players are deterministic).
A benchmark, not a test: figures go to the README with this command and the commit they
ran on.

``--pool DIR...`` plays nothing: it pools the games of several record folders of the same
two players (other seeds, run at other times) into one verdict (:func:`pool_runs`).
``--compare A B`` plays nothing: it reads two record folders written by ``--out`` (one
rule each, e.g. ``DIR/renju``) on the same openings, matches their games by opening and
the threat player's colour, and prints the paired difference of the two threat players'
scores (:func:`gameai.tournament.stats.paired_difference`). Why: two versions of a player
on the same openings differ only where their play differs, so the comparison is much
tighter than two separate intervals (and two runs on different seeds compare openings
as much as players).

``--replay DIR...`` replays every (opening, colour) the threat player lost in the record
folders, against the runs' plain player, once with each ``--replay-with`` spec (default:
the runs' threat player), and prints how many each saved, with Wilson intervals and, for
two specs, the paired difference. Why: a colour-split pair may mean an opening that its
colour wins whoever plays it (a cap no player can lift) or a loss by chance. Replaying
the same setting tells the two apart, and a longer time tells whether strength helps.

    gameai bench threat_strength -- --backend compiled --jobs 2
    gameai bench threat_strength -- --rules renju --backend compiled --out DIR
    gameai bench threat_strength -- --compare DIR_A/renju DIR_B/renju
    gameai bench threat_strength -- --pool SEED16/gomoku SEED17/gomoku
    gameai bench threat_strength -- --openings random --seeds 11 12 13 --games 20
``--postmortem DIR...`` plays nothing: for each game the threat player lost, its first
move after which the winner had a VCT proven by ``vct(depth=--pm-depth,nodes=--pm-nodes)``,
that VCT's length and nodes, and which of the other moves there were not shown lost
(``--pm-alt-nodes`` each; none: the game was lost before that move). Why: it tells a loss
the reply checks could have caught (a VCT beyond their plies or nodes) from one no check
of our moves could (every move lost).

    gameai bench threat_strength -- --replay A/gomoku B/gomoku --replay-with T10 T2 --out DIR
    gameai bench threat_strength -- --postmortem A/gomoku B/gomoku --backend compiled --jobs 2
"""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

#: the searchers compared: the same NegaScout, with and without the threat part
BASE = "negascout(depth=3,tt=true,history=true,id=true{extra}{backend})"
THREAT_SWITCHES = ",threats=true,threat_order=true"
GOAL = 0.90
#: balanced openings: the plain player's value (White to move) at most this far
#: from 0, in evaluation points (a live three is 1,000 to 3,000 of them)
BALANCE = 500


def specs(args) -> tuple[str, str]:
    """(threat player, plain player) for the chosen backend."""
    backend = "" if args.backend == "python" else f",backend={args.backend}"
    threat = args.threat or BASE.format(extra=THREAT_SWITCHES, backend=backend)
    plain = args.plain or BASE.format(extra="", backend=backend)
    return threat, plain


def verdict(points: float, games: int) -> str:
    """The goal's rule: "shown" when the Wilson 95% interval of the score lies wholly at or
    above 90%, "refuted" when wholly below, otherwise "undecided"."""
    from .strength import wilson
    lo, hi = wilson(points, games)
    return "shown" if lo >= GOAL else "refuted" if hi < GOAL else "undecided"


def _goal_text() -> str:
    return f"goal (score at least {GOAL:.0%}): " + " ".join(verdict.__doc__.split(":", 1)[1].split())


def central_stones(state, rng) -> None:
    """Push a White stone uniformly at random in the central 7x7 square, then a Black one
    in the central 9x9 (the areas of Renju's Taraguchi opening rule)."""
    c = state.size // 2
    for half in (3, 4):
        near = [m for m in state.legal_moves()
                if max(abs(x - c) for x in state.geo.col_row(m)) <= half]
        state.push(rng.choice(near))


def balanced_openings(rule: str, count: int, seed: int, backend: str = "python",
                      limit: int = BALANCE, depths: tuple[int, ...] = (4,)
                      ) -> list[tuple[str, ...]]:
    """``count`` five-stone openings the plain player judges even (module docstring).

    Candidates: the 26 standard openings in turn, then White's stone uniformly at random
    in the central 7x7 square and Black's in the central 9x9 (the areas of Renju's
    Taraguchi opening rule), duplicates of a position skipped. One is kept iff the mean
    of ``negascout(depth=d,tt=true,history=true,id=true)``'s values for White over
    ``depths`` (the plain player at fixed depths, so the choice is the same on every
    machine; a fresh TT per search) lies within ``limit`` of 0, and
    ``vct(depth=15,nodes=20000)`` proves White no win. The judge is the opponent, never
    the threat player, whose strength is measured.

    Why ``depths=(4, 5)`` is the fairer judge: a Gomoku value swings with the parity of
    the horizon, since the side that moves last gets the last stone (on 60 Renju
    candidates the median value was -880 at depth 4, +1,650 at depth 5 and -1,170 at
    depth 6). Depth 4 alone flatters Black, so "even" at depth 4 keeps openings that
    favour White; the mean of two adjacent depths cancels the parity. The default stays
    ``(4,)`` so that earlier runs' commands choose the same openings.
    """
    import random

    import gameai
    from gameai.games.gomoku_openings import standard_openings
    b = "" if backend == "python" else f",backend={backend}"
    judges = [gameai.make_searcher(f"negascout(depth={d},tt=true,history=true,id=true{b})")
              for d in depths]
    vct = gameai.make_searcher(f"vct(depth=15,nodes=20000{b})")
    from tqdm import tqdm
    rng = random.Random(f"{seed}/balanced/{rule}")
    starts = standard_openings()
    out: list[tuple[str, ...]] = []
    seen: set[int] = set()
    tries = 0
    bar = tqdm(total=count, desc=f"{rule} openings", unit="opening", leave=False)
    while len(out) < count:
        bar.set_postfix_str(f"{tries} tried", refresh=False)
        if tries > 200 * count:
            bar.close()
            raise RuntimeError(f"only {len(out)} of {count} balanced openings after {tries} tries")
        state = gameai.load_game(rule, moves=" ".join(starts[tries % len(starts)]))
        tries += 1
        central_stones(state, rng)
        if state.key in seen or state.result() is not None:
            continue
        seen.add(state.key)
        values = []
        for judge in judges:
            judge.new_game()
            values.append(judge.search(state).value)
        if abs(sum(values) / len(values)) > limit:
            continue
        won = vct.search(state).value
        if won and won > 0:
            continue
        out.append(tuple(state.move_str(m) for m in state.move_stack))
        bar.update()
    bar.close()
    return out


def main(argv: list[str] | None = None) -> int:
    from gameai.games.gomoku_openings import standard_openings
    from gameai.tournament.runner import TournamentConfig, run_tournament

    ap = argparse.ArgumentParser(prog="gameai bench threat_strength",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--rules", nargs="+", default=["gomoku", "renju"], choices=["gomoku", "renju"])
    ap.add_argument("--games", type=int, default=None,
                    help="games per rule and seed (default 52 with standard openings, else 20)")
    ap.add_argument("--seed", "--seeds", dest="seeds", type=int, nargs="+", default=[11],
                    help="opening seeds; with several, a row per seed and then pooled")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--backend", default="python", choices=["python", "compiled"])
    ap.add_argument("--openings", default="standard", choices=["standard", "random", "balanced"],
                    help="standard: the 26 Renju openings, each played with both colours "
                         "(--games defaults to 52); random: --opening-plies random moves; "
                         "balanced: five-stone openings the plain player judges even "
                         "(--games defaults to 104)")
    ap.add_argument("--balance", type=int, default=BALANCE,
                    help="balanced openings: the judge's largest |value| (default %(default)s)")
    ap.add_argument("--judge-depths", type=int, nargs="+", default=[4],
                    help="balanced openings: the judge's depths, its value the mean over them "
                         "(default 4, as earlier runs; 4 5 cancels the horizon's parity, "
                         "see balanced_openings)")
    ap.add_argument("--opening-plies", type=int, default=4)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--threat", default=None, help="the threat player's spec (default: %s)"
                    % BASE.format(extra=THREAT_SWITCHES, backend=""))
    ap.add_argument("--plain", default=None, help="the plain player's spec")
    ap.add_argument("--out", default=None, help="keep the records here (one folder per rule; "
                    "an interrupted run resumes)")
    ap.add_argument("--diag-depth", type=int, default=15, help="plies of the loss diagnosis's VCT")
    ap.add_argument("--diag-time", type=float, default=10.0, help="seconds per diagnosis search")
    ap.add_argument("--compare", nargs=2, metavar=("A", "B"), default=None,
                    help="play nothing: compare two record folders of --out game by game")
    ap.add_argument("--pool", nargs="+", metavar="DIR", default=None,
                    help="play nothing: the verdict over several record folders of --out "
                         "(other seeds, one rule) pooled")
    ap.add_argument("--replay", nargs="+", metavar="DIR", default=None,
                    help="replay the games the threat player lost in these record folders")
    ap.add_argument("--replay-with", nargs="+", metavar="SPEC", default=None,
                    help="--replay: the threat players to replay with (default: the runs')")
    ap.add_argument("--postmortem", nargs="+", metavar="DIR", default=None,
                    help="play nothing: where each game the threat player lost in these record "
                         "folders first allowed a proven VCT")
    ap.add_argument("--pm-depth", type=int, default=21, help="--postmortem: plies of the VCT")
    ap.add_argument("--pm-nodes", type=int, default=1_000_000,
                    help="--postmortem: nodes of the VCT after each of our moves")
    ap.add_argument("--pm-alt-nodes", type=int, default=300_000,
                    help="--postmortem: nodes of the VCT after each other move at that point")
    args = ap.parse_args(argv)
    if args.postmortem:
        try:
            print(postmortem(args.postmortem, args.pm_depth, args.pm_nodes, args.pm_alt_nodes,
                             args.jobs, args.out, args.backend))
        except (OSError, ValueError) as e:
            print(f"gameai bench threat_strength: --postmortem: {e}")
            return 2
        return 0
    if args.replay:
        try:
            print(replay_losses(args.replay, args.replay_with, args.jobs, args.out,
                                args.max_plies))
        except (OSError, ValueError) as e:
            print(f"gameai bench threat_strength: --replay: {e}")
            return 2
        return 0
    if args.pool:
        try:
            games, threat, plain, repeated = pool_runs(args.pool)
        except (OSError, ValueError) as e:
            print(f"gameai bench threat_strength: --pool: {e}")
            return 2
        print(f"threat player: {threat}\nplain player:  {plain}\n{_goal_text()}")
        if repeated:
            print(f"{repeated} opening(s) played in more than one of the runs (each time "
                  f"its games were played again)")
        _print_match(f"{len(args.pool)} runs pooled", games, threat, plain)
        return 0
    if args.compare:
        try:
            print(compare_runs(*args.compare))
        except (OSError, ValueError) as e:
            print(f"gameai bench threat_strength: --compare: {e}")
            return 2
        return 0
    threat, plain = specs(args)
    if args.games is None:
        args.games = {"standard": 2 * len(standard_openings()), "balanced": 104}.get(args.openings, 20)
    opening_text = {"standard": "the 26 standard openings",
                    "balanced": f"balanced five-stone openings (|value| <= {args.balance}, "
                                f"judged at depth {'+'.join(map(str, args.judge_depths))})"}.get(
        args.openings, f"{args.opening_plies}-ply random openings")
    print(f"threat player: {threat}\nplain player:  {plain}\n{args.games} games per rule and "
          f"seed, {opening_text}, seeds {' '.join(map(str, args.seeds))}, "
          f"{args.jobs} workers\n{_goal_text()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.out) if args.out else Path(tmp)
        book = None
        if args.openings == "standard":
            root.mkdir(parents=True, exist_ok=True)
            book = root / "standard_openings.txt"
            book.write_text("# the 26 standard Renju openings (gameai.games.gomoku_openings)\n"
                            + "".join(" ".join(o) + "\n" for o in standard_openings()))
        for rule in args.rules:
            pooled = []
            for k, seed in enumerate(args.seeds):
                if args.openings == "balanced":     # per rule and seed, kept with the records
                    root.mkdir(parents=True, exist_ok=True)
                    depths = tuple(args.judge_depths)
                    tag = "" if depths == (4,) else "_d" + "".join(map(str, depths))
                    book = root / f"balanced_{rule}_seed{seed}{tag}.txt"
                    if not book.exists():
                        t0 = time.perf_counter()
                        chosen = balanced_openings(rule, (args.games + 1) // 2, seed,
                                                   args.backend, args.balance, depths)
                        book.write_text(f"# {len(chosen)} balanced openings, {rule}, seed {seed}, "
                                        f"|value| <= {args.balance}, judged at depths "
                                        f"{' '.join(map(str, depths))} (bench_threat_strength."
                                        f"balanced_openings)\n"
                                        + "".join(" ".join(o) + "\n" for o in chosen))
                        print(f"{rule}, seed {seed}: {len(chosen)} balanced openings chosen in "
                              f"{time.perf_counter() - t0:.0f} s", flush=True)
                cfg = TournamentConfig(game=rule, players=[threat, plain], games=args.games,
                                       seed=seed, opening_plies=args.opening_plies,
                                       openings_file=str(book) if book else None,
                                       max_plies=args.max_plies)
                out = root / rule if len(args.seeds) == 1 else root / f"{rule}_seed{seed}"
                t0 = time.perf_counter()
                r = run_tournament(cfg, out, jobs=args.jobs, progress=True, log=None)
                dt = time.perf_counter() - t0
                _print_match(f"{rule}, seed {seed}", r.games, threat, plain)
                spm = seconds_per_move(r.out, [threat, plain])
                print(f"  seconds per move: threat {spm[0]:.2f}, plain {spm[1]:.2f}; "
                      f"{dt / max(1, r.played):.0f} s per game played (wall, {args.jobs} workers)")
                for line in diagnose_losses(r.out, rule, threat, args.diag_depth, args.diag_time):
                    print("  " + line, flush=True)
                # pairs of different seeds are different openings: keep their ids apart
                pooled += [dict(g, pair=int(g["pair"]) + k * 1_000_000) for g in r.games]
            if len(args.seeds) > 1:
                _print_match(f"{rule}, seeds pooled", pooled, threat, plain)
    return 0


def read_run(folder: str | Path):
    """A record folder of ``--out`` (one rule): its manifest's config (``players`` checked
    present) and its games (a DataFrame), each game checked to hold the threat player (the
    first player) and no opening played twice with the same colours; a clear
    ``ValueError`` otherwise."""
    import pandas as pd
    folder = Path(folder)
    for name in ("manifest.json", "games.parquet"):
        if not (folder / name).is_file():
            raise ValueError(f"{folder} holds no {name} (give a folder written by --out, "
                             f"one rule: DIR/gomoku or DIR/renju)")
    try:
        config = json.loads((folder / "manifest.json").read_text())["config"]
        players = config["players"]
        threat = players[0]
        games = pd.read_parquet(folder / "games.parquet")
    except (json.JSONDecodeError, KeyError, IndexError, TypeError) as e:
        raise ValueError(f"{folder / 'manifest.json'}: no players list in its config ({e!r})")
    except Exception as e:                  # pyarrow's errors for a broken file
        raise ValueError(f"{folder / 'games.parquet'} cannot be read: {e}")
    seen = set()
    for g in games.itertuples():
        black = g.player0 == threat
        if not black and g.player1 != threat:
            raise ValueError(f"{folder}: game {g.game_id} has no {threat}")
        if (g.opening, black) in seen:
            raise ValueError(f"{folder}: opening {g.opening!r} is played twice with the "
                             f"threat player as {'Black' if black else 'White'}")
        seen.add((g.opening, black))
    return config, games


def run_scores(folder: str | Path) -> tuple[str, dict[tuple[str, bool], float]]:
    """The threat player's spec (the first player of the run's manifest) and its score in
    each game of a record folder, keyed by (opening, threat player has Black)."""
    config, games = read_run(folder)
    threat = config["players"][0]
    return threat, {(g.opening, g.player0 == threat):
                    float(g.score0 if g.player0 == threat else 1 - g.score0)
                    for g in games.itertuples()}


def compare_runs(a: str | Path, b: str | Path) -> str:
    """``--compare``: the paired difference of two runs' threat players (module docstring)."""
    from gameai.tournament.stats import paired_difference
    (ta, sa), (tb, sb) = run_scores(a), run_scores(b)
    if sa.keys() != sb.keys():
        raise ValueError(f"the runs played different games: {len(sa.keys() - sb.keys())} only "
                         f"in A, {len(sb.keys() - sa.keys())} only in B (the same --rules, "
                         f"--openings and --seeds are needed)")
    keys = sorted(sa)
    d = paired_difference([sa[k] for k in keys], [sb[k] for k in keys])
    lines = [f"A: {ta} ({a})", f"B: {tb} ({b})",
             f"{d.games} games on the same openings and colours: A {sum(sa.values()):g}, "
             f"B {sum(sb.values()):g} points; A scored more in {d.better_a}, B in "
             f"{d.better_b}, the same in {d.games - d.better_a - d.better_b}",
             f"difference A - B: {d.mean:+.1%} of a point a game, 95% interval "
             f"[{d.lo:+.1%}, {d.hi:+.1%}]; sign test p = {d.p_sign:.3f}"]
    for black in (True, False):
        ks = [k for k in keys if k[1] == black]
        lines.append(f"  threat player as {'Black' if black else 'White'}: A "
                     f"{sum(sa[k] for k in ks):g}, B {sum(sb[k] for k in ks):g} of {len(ks)}")
    return "\n".join(lines)


def pool_runs(folders: list[str | Path]) -> tuple[list[dict], str, str, int]:
    """``--pool``: the games of several record folders of the same two players (runs on
    other seeds, played at different times) as one match: (games, threat, plain, the
    number of openings played in more than one of the runs).

    Why: a verdict over several seeds should not need them played in one command. The
    pairs and game ids of each folder are kept apart. The same folder twice, or other
    players, is refused (the games would count twice, or measure something else); an
    opening that two seeds both drew is kept (its games were played again) and counted."""
    games: list[dict] = []
    runs: dict[Path, str] = {}
    openings: dict[str, int] = {}
    players = None
    for k, folder in enumerate(folders):
        real = Path(folder).resolve()
        if real in runs:
            raise ValueError(f"{folder} is given twice (as {runs[real]})")
        runs[real] = str(folder)
        config, run = read_run(folder)
        names = config["players"]
        if len(names) != 2:
            raise ValueError(f"{folder}: {len(names)} players, not two")
        if players is not None and tuple(names) != players:
            raise ValueError(f"{folder} has other players than {folders[0]}: {tuple(names)}")
        players = tuple(names)
        for o in set(run.opening):
            openings[o] = openings.get(o, 0) + 1
        for g in run.to_dict("records"):
            games.append(dict(g, pairing=0, game_id=int(g["game_id"]) + k * 1_000_000,
                              pair=int(g["pair"]) + k * 1_000_000))
    if players is None:
        raise ValueError("no record folders given")
    return games, players[0], players[1], sum(n > 1 for n in openings.values())


def lost_assignments(folders: list[str | Path]) -> tuple[str, str, str, list[tuple[str, bool]]]:
    """``--replay``: (game, threat player, plain player, every (opening, threat player has
    Black) the threat player lost in the record folders, once each, in order). The runs
    must share their game and plain player (else the replays would measure another match)."""
    found: dict[tuple[str, bool], None] = {}
    ident = None
    for folder in folders:
        config, games = read_run(folder)
        names = config["players"]
        if "game" not in config:
            raise ValueError(f"{Path(folder) / 'manifest.json'}: no game in its config")
        game = config["game"]
        if ident is not None and (game, names[1]) != ident[::2]:
            raise ValueError(f"{folder}: another game or plain player ({game}, {names[1]}) "
                             f"than {folders[0]} ({ident[0]}, {ident[2]})")
        ident = ident or (game, names[0], names[1])
        for g in games.itertuples():
            black = g.player0 == names[0]
            if g.winner == (1 if black else 0):
                found[(g.opening, black)] = None
    if ident is None:
        raise ValueError("no record folders given")
    return (*ident, list(found))


def replay_losses(folders: list[str | Path], specs: list[str] | None, jobs: int,
                  out: str | None = None, max_plies: int = 400) -> str:
    """``--replay`` (module docstring): the report; with ``out``, the games as
    ``replay.csv`` plus ``manifest.json``, and each game in ``out``'s journal as soon as
    it ends, so a stopped replay loses no finished game and resumes where it stopped."""
    import pandas as pd

    from gameai.tournament.schedule import GameTask, derive_seed, display_name

    game, threat, plain, lost = lost_assignments(folders)
    specs = list(specs or [threat])
    twice = sorted({s for s in specs if specs.count(s) > 1})
    if twice:
        raise ValueError(f"--replay-with names {', '.join(twice)} more than once (its games "
                         f"would count twice); give each spec once")
    if not lost:
        return f"the threat player lost no game in {' '.join(map(str, folders))}"
    tasks, colours = [], []
    for i, (opening, black) in enumerate(lost):
        for spec in specs:
            colours.append(black)
            players = (spec, plain) if black else (plain, spec)
            tasks.append(GameTask(game_id=len(tasks), game=game, players=players,
                                  names=tuple(display_name(x) for x in players), pairing=0,
                                  pair=i, opening_id=i, opening=tuple(opening.split()),
                                  seed=derive_seed("replay", opening, black, spec),
                                  max_plies=max_plies))
    config = {"replay": [str(f) for f in folders], "game": game, "plain": plain,
              "specs": specs, "max_plies": max_plies}
    results = _play_replays(tasks, jobs, out, config)
    rows = []
    for t, black, g in zip(tasks, colours, results):
        side = 0 if black else 1
        rows.append({"opening": g["opening"], "threat_black": black,
                     "threat": t.players[side], "plain": plain, "winner": g["winner"],
                     "score": 0.5 if g["winner"] < 0 else float(g["winner"] == side),
                     "reason": g["reason"], "plies": g["plies"], "time_s": g["time_s"]})
    df = pd.DataFrame(rows)
    if out:
        df.to_csv(Path(out) / "replay.csv", index=False)
    return _replay_report(df, specs, plain, len(lost), folders)


def _play_replays(tasks: list, jobs: int, out: str | None, config: dict) -> list[dict]:
    """Every task's game row, in task order. With ``out``: games already in its journal
    are not played again (the manifest must hold the same replay, else ``ValueError``
    and nothing is changed), and each new game is journaled as it ends."""
    from joblib import Parallel, delayed
    from tqdm import tqdm

    from gameai.manifest import write_manifest
    from gameai.tournament.play import play_game
    from gameai.tournament.records import RecordStore
    from gameai.tournament.runner import check_foreign

    def play(todo):
        return tqdm(Parallel(n_jobs=jobs, return_as="generator")(
            delayed(play_game)(t) for t in todo), total=len(todo), desc="replay", unit="game")
    if not out:
        return [r["game"] for r in play(tasks)]
    man = Path(out) / "manifest.json"
    if man.is_file():
        try:
            old = json.loads(man.read_text())["config"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{man} cannot be read ({e!r}); use another --out folder")
        if old != config:
            raise ValueError(f"{out} holds another replay ({old}); use another --out folder")
    store = RecordStore(out)
    try:
        check_foreign(store, tasks, Path(out))
        write_manifest(man, config)
        for r in play([t for t in tasks if t.game_id not in store.games]):
            store.add(r)
        store.flush()
    finally:
        store.close()
    return [store.games[t.game_id] for t in tasks]


def _replay_report(df, specs: list[str], plain: str, lost: int, folders) -> str:
    """The saves of each spec with Wilson intervals, and for two specs their paired difference."""
    from gameai.tournament.stats import paired_difference

    from .strength import wilson
    lines = [f"{lost} lost games (opening, colour) of {' '.join(map(str, folders))} "
             f"replayed against {plain}"]
    scores = []
    for spec in specs:
        d = df[df.threat == spec]
        scores.append(list(d.score))
        saved = int((d.score > 0).sum())
        lo, hi = wilson(saved, len(d))
        b, w = d[d.threat_black], d[~d.threat_black]
        lines.append(f"{spec}: saved {saved} of {len(d)} (won {int((d.score == 1).sum())}, "
                     f"drawn {int((d.score == 0.5).sum())}), {saved / len(d):.1%}, Wilson 95% "
                     f"[{lo:.1%}, {hi:.1%}]; as Black {int((b.score > 0).sum())} of {len(b)}, "
                     f"as White {int((w.score > 0).sum())} of {len(w)}")
    if len(specs) == 2:
        p = paired_difference(*scores)
        lines.append(f"paired: the first scored more in {p.better_a}, the second in "
                     f"{p.better_b}; difference {p.mean:+.1%} of a point a game, 95% interval "
                     f"[{p.lo:+.1%}, {p.hi:+.1%}]; sign test p = {p.p_sign:.3f}")
    return "\n".join(lines)


def _print_match(label: str, games: list, threat: str, plain: str) -> None:
    from gameai.tournament.standings import pairing_rows

    from .strength import elo_text, wilson
    row = pairing_rows(games, order=[threat, plain])[0]
    points = row["wins"] + row["draws"] / 2
    lo, hi = wilson(points, row["games"])
    as_black = [g for g in games if g["player0"] == threat]
    won_black = sum(g["winner"] == 0 for g in as_black)
    won_white = sum(g["player1"] == threat and g["winner"] == 1 for g in games)
    print(f"\n{label}: {row['wins']}-{row['draws']}-{row['losses']} (W-D-L) in {row['games']} "
          f"games (won {won_black} of {len(as_black)} as black, {won_white} of "
          f"{row['games'] - len(as_black)} as white), score {row['score']:.1%}, Wilson 95% "
          f"[{lo:.1%}, {hi:.1%}] (Elo {elo_text(lo, hi)}); point "
          f"{'>=' if row['score'] >= GOAL else '<'} {GOAL:.0%}; goal "
          f"{verdict(points, row['games'])}")
    print(f"  Elo trinomial {row['elo']:+.0f} ± {row['elo_error']:.0f}, pentanomial "
          f"{row['penta_elo']:+.0f} ± {row['penta_error']:.0f} (pairs {row['penta']}), "
          f"LOS {row['los']:.4f}, faults {row['faults']}", flush=True)


def seconds_per_move(out: Path, names: list[str]) -> list[float]:
    """Mean wall-clock seconds per move of each named player (from moves.parquet)."""
    import pandas as pd
    df = pd.read_parquet(Path(out) / "moves.parquet", columns=["player", "time_s"])
    return [float(df.loc[df.player == n, "time_s"].mean()) for n in names]


def diagnose_losses(out: Path, rule: str, loser: str, depth: int, seconds: float) -> list[str]:
    """One line per game ``loser`` lost (see the module docstring)."""
    import pandas as pd
    games = pd.read_parquet(Path(out) / "games.parquet")
    moves = pd.read_parquet(Path(out) / "moves.parquet")
    lines = []
    for g in games.sort_values("game_id").itertuples():
        if g.winner < 0 or getattr(g, f"player{g.winner}") == loser:
            continue
        ms = moves[moves.game_id == g.game_id].sort_values("ply")
        start, plies, kind = final_threat_line(rule, g.opening, list(ms.move), g.winner, depth, seconds)
        ours = ms[(ms.player == loser) & (ms.ply < start)]
        seen = f"its value before it {ours.value.iloc[-1]:+.0f}" if len(ours) else "no move of ours before it"
        colour = "black" if g.winner == 1 else "white"
        lines.append(f"lost game {g.game_id} (opening {g.opening}; we were {colour}, "
                     f"{g.plies} plies, {g.reason}): the winner's {kind} of {plies} plies from "
                     f"move {start + 1}; {seen}")
    return lines or ["no game lost"]


def final_threat_line(rule: str, opening: str, played: list[str], winner: int, depth: int,
                      seconds: float) -> tuple[int, int, str]:
    """The earliest ply from which every turn of ``winner`` to the end has a proven VCF or
    VCT: ``(ply, plies of that win, "VCF"|"VCT")``; the last move's ply and ``"five"``
    when even that is not proven."""
    import gameai
    from gameai.search import mate_in
    state = gameai.load_game(rule, moves=opening)
    base = len(state.move_stack)
    for text in played:
        state.push(state.parse_move(text))
    last = len(state.move_stack) - 1
    best = (last, 1, "five")
    searchers = [("VCF", gameai.make_searcher(f"vcf(depth={depth},time={seconds})")),
                 ("VCT", gameai.make_searcher(f"vct(depth={depth},time={seconds})"))]
    while len(state.move_stack) > base:
        state.pop()
        if state.to_move != winner:
            continue
        ply = len(state.move_stack)
        for kind, sr in searchers:
            r = sr.search(state)
            if r.move is not None:              # its length, from the value
                best = (ply, mate_in(r.value), kind)
                break
        else:
            break
    return best


def first_allowed_vct(rule: str, opening: str, played: list[str], loser: int, depth: int,
                      nodes: int, alt_nodes: int, backend: str = "python") -> dict | None:
    """The first move of ``loser`` (0 Black, 1 White) in a game after which the other side
    has a VCT proven within ``depth`` plies and ``nodes`` nodes, or None: ``ply``, ``move``,
    ``plies`` (that win's length), ``nodes`` (to prove it, from a cleared table), ``legal``
    (the moves there) and ``safe`` (those after which no VCT is proven within
    ``alt_nodes``: none means the position was lost before that move)."""
    import gameai
    from gameai.search import mate_in
    state = gameai.load_game(rule, moves=opening)
    check, alt = (gameai.make_searcher(f"vct(depth={depth},nodes={n},backend={backend})")
                  for n in (nodes, alt_nodes))

    def proven(searcher) -> tuple[int, int]:
        searcher.new_game()                 # each proof from scratch: its nodes are its own
        r = searcher.search(state)
        return (mate_in(r.value) if r.move is not None else 0), r.stats.nodes

    for text in played:
        move = state.parse_move(text)
        if state.to_move == loser and state.result() is None:
            ply = len(state.move_stack)
            state.push(move)
            plies, used = proven(check)
            state.pop()
            if plies:
                legal = state.legal_moves()
                safe = []
                for m in legal:
                    name = state.move_str(m)
                    state.push(m)
                    if not proven(alt)[0]:
                        safe.append(name)
                    state.pop()
                return dict(ply=ply, move=text, plies=plies, nodes=used, legal=len(legal),
                            safe=safe)
        state.push(move)
    return None


def postmortem(folders: list[str | Path], depth: int = 21, nodes: int = 1_000_000,
               alt_nodes: int = 300_000, jobs: int = 1, out: str | None = None,
               backend: str = "python") -> str:
    """``--postmortem``: for every game the threat player lost in the record folders, its
    first move after which the winner has a proven VCT (:func:`first_allowed_vct`), that
    VCT's length against the player's own ``threat_vct_depth``, and how many other moves
    there were not shown lost. With ``out``: ``postmortem.csv``.

    Why: a loss to a VCT the reply checks could not reach (too long, or too many nodes)
    asks for other checks than a loss in a position where every move already allowed one
    (decided earlier, by a quiet move of the winner's)."""
    import pandas as pd
    from joblib import Parallel, delayed
    from tqdm import tqdm

    import gameai
    tasks = []
    for folder in folders:
        config, games = read_run(folder)
        threat = config["players"][0]
        if "game" not in config:
            raise ValueError(f"{Path(folder) / 'manifest.json'}: no game in its config")
        if not (Path(folder) / "moves.parquet").is_file():
            raise ValueError(f"{folder} holds no moves.parquet")
        try:
            moves = pd.read_parquet(Path(folder) / "moves.parquet",
                                    columns=["game_id", "ply", "move"])
        except Exception as e:              # pyarrow's errors for a broken file
            raise ValueError(f"{Path(folder) / 'moves.parquet'} cannot be read: {e}")
        parts = getattr(gameai.make_searcher(threat), "threats", None)
        limit = parts.vct_depth if parts is not None else None
        for g in games.sort_values("game_id").itertuples():
            black = g.player0 == threat
            if g.winner != (1 if black else 0):
                continue
            played = list(moves[moves.game_id == g.game_id].sort_values("ply").move)
            tasks.append((str(folder), int(g.game_id), g.opening, black, limit,
                          (config["game"], g.opening, played, 0 if black else 1, depth, nodes,
                           alt_nodes, backend)))
    found = tqdm(Parallel(n_jobs=jobs, return_as="generator")(
        delayed(first_allowed_vct)(*t[-1]) for t in tasks), total=len(tasks),
        desc="postmortem", unit="game")
    rows, lines = [], []
    shown = beyond = before = 0                 # VCTs found; longer than the limit; lost before
    for (folder, gid, opening, black, limit, _a), f in zip(tasks, found):
        colour = "Black" if black else "White"
        row = dict(folder=folder, game_id=gid, opening=opening, threat_black=black,
                   threat_vct_depth=limit)
        if f is None:
            lines.append(f"{folder} game {gid} ({opening}; we were {colour}): no VCT proven "
                         f"after any of our moves ({depth} plies, {nodes:,} nodes)")
            rows.append(row)
            continue
        rows.append(dict(row, ply=f["ply"], move=f["move"], vct_plies=f["plies"],
                         vct_nodes=f["nodes"], legal=f["legal"], not_shown_lost=len(f["safe"]),
                         not_shown_lost_moves=" ".join(f["safe"])))
        shown += 1
        long = bool(limit) and f["plies"] > limit
        beyond += long
        before += not f["safe"]
        note = f" (beyond our threat_vct_depth={limit})" if long else ""
        there = (f"every one of the {f['legal']} moves there allows one: lost before it"
                 if not f["safe"] else f"{len(f['safe'])} of the {f['legal']} moves there are "
                 f"not shown lost ({alt_nodes:,} nodes): {' '.join(f['safe'][:8])}"
                 f"{' ...' if len(f['safe']) > 8 else ''}")
        lines.append(f"{folder} game {gid} ({opening}; we were {colour}): our move {f['move']} "
                     f"(ply {f['ply']}) allowed a VCT of {f['plies']} plies{note}, proven in "
                     f"{f['nodes']:,} nodes; {there}")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        pd.DataFrame(rows).to_csv(Path(out) / "postmortem.csv", index=False)
    if not rows:
        return f"the threat player lost no game in {' '.join(map(str, folders))}"
    lines.append(f"{len(rows)} lost games: a proven VCT after one of our moves in {shown}; "
                 f"of those, every move there allowed one in {before} (lost before it), and "
                 f"the VCT was longer than our threat_vct_depth in {beyond}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
