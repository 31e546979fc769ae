"""gameai bench engines: our player against a measured ladder of a strong engine.

A ladder is a list of rungs; each rung names its game, our player and the opponent's
protocol and limit, and plays ``--games`` games (each opening twice, colours swapped).
A row prints the W-D-L, the score, the trinomial Elo difference with its 95% interval
(as cutechess-cli reports it; a one-sided bound for a score of 0 or 1), the pentanomial
one over colour-swapped pairs (as fastchess does), the faults, our mean seconds per move
and the goal's verdict (:func:`verdict`, a rule fixed before the games). A benchmark,
not a test: the figures go to the README with the command that made them.

* Xiangqi (default) against Fairy-Stockfish (``--fsf``): UCCI depth 7, 9 and 11
  (``d7 d9 d11``), and ``equal``: UCI ``go movetime`` of our own time per move (UCCI has
  no move time). Hash 16 MB, one thread.
* Gomoku and Renju against Rapfi (``--rapfi``, a Gomocup brain; see docs/engines.md,
  "The ladder", for the build): 1000, 3000, 10000 and 100000 nodes (``1k 3k 10k 100k``)
  and ``equal`` (``INFO timeout_turn`` of our time). Rapfi runs from an empty folder, so
  it plays its built-in classical configuration, on one thread.

Our player is the game's ``strong`` preset at ``--time`` seconds a move, or ``--ours``.
``--rungs`` picks rungs by label; other labels of the same form work too (``d1``,
``500``, ``2k``). One match at a time, one game at a time (``--jobs 1``), so timed players
never share a core::

    gameai bench engines -- --game xiangqi --time 1 --games 40 --out xq-ladder
    gameai bench engines -- --game gomoku --time 1 --games 40 --out gomoku-ladder
    gameai bench engines -- --game renju --time 1 --games 40 --out renju-ladder
    gameai bench engines -- --game xiangqi --rungs d7 --games 40 --seeds 3 4 --out DIR
    gameai bench engines -- --game xiangqi --rungs d3 --ours "negascout(depth=3,tt=true)"

With several ``--seeds`` each rung is played once per seed (other random openings) and
then pooled: one trinomial and one pentanomial estimate over all its games (a pair is
never formed across seeds). ``--out`` keeps each rung's tournament folder
(``GAME_LABEL_seedN``), so every game can be replayed and every row recomputed; running
the same command again resumes each rung where it stopped (the tournament's own resume).
"""
from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The game spec the tournament plays, per ``--game``.
GAMES = {"xiangqi": "xiangqi", "gomoku": "gomoku", "renju": "gomoku(rule=renju)"}
#: Default rungs per game, weakest first.
LADDERS = {"xiangqi": ("d7", "d9", "d11", "equal"),
           "gomoku": ("1k", "3k", "10k", "100k", "equal"),
           "renju": ("1k", "3k", "10k", "100k", "equal")}
#: Random opening plies and the game-length cap (a draw when reached; 225 is a full board).
OPENING_PLIES = {"xiangqi": 2, "gomoku": 4, "renju": 4}
MAX_PLIES = {"xiangqi": 200, "gomoku": 225, "renju": 225}
FSF_DEFAULT = "/usr/games/fairy-stockfish"
#: Fairy-Stockfish's options on every rung: a small hash, one thread (as ours).
FSF_OPTIONS = "option.Hash=16,option.Threads=1"
RAPFI_NAMES = ("pbrain-rapfi", "rapfi")
RAPFI_ENV = "GAMEAI_RAPFI"
#: Where to get each engine, for the message when its binary is missing.
HOW_TO_GET = {
    "Fairy-Stockfish": "install it with `apt-get install fairy-stockfish` (Debian puts it at "
                       f"{FSF_DEFAULT}) or pass --fsf PATH",
    "Rapfi": "build it from its public source with CMake (git clone "
             "https://github.com/dhbloo/rapfi && cd rapfi && cmake -S Rapfi -B build "
             "-DCMAKE_BUILD_TYPE=Release && cmake --build build -j; see docs/engines.md, "
             f"\"The ladder\") and pass --rapfi build/pbrain-rapfi or set ${RAPFI_ENV}",
}
_DEPTH = re.compile(r"^d(\d+)$")
_NODES = re.compile(r"^(\d+)([km]?)$")


@dataclass(frozen=True)
class Rung:
    """One rung: a two-player match of ``ours`` against ``opponent`` in ``game``."""

    game: str       #: the game spec the tournament plays (``gomoku(rule=renju)``)
    label: str      #: what ``--rungs`` selects it by (``d9``, ``10k``, ``equal``)
    ours: str       #: our player spec (a preset such as ``strong(time=1)`` or a searcher)
    opponent: str   #: the ``engine(...)`` spec


def engine_name(game: str) -> str:
    """The opponent engine of ``game`` (``xiangqi``, ``gomoku`` or ``renju``)."""
    return "Fairy-Stockfish" if game == "xiangqi" else "Rapfi"


def default_engine(game: str) -> str | None:
    """The engine binary used when none is given: Debian's Fairy-Stockfish, or Rapfi from
    ``$GAMEAI_RAPFI`` or the PATH (None when there is none)."""
    if game == "xiangqi":
        return shutil.which("fairy-stockfish") or FSF_DEFAULT
    return os.environ.get(RAPFI_ENV) or next(filter(None, map(shutil.which, RAPFI_NAMES)), None)


def missing_engine(game: str, path: str | None) -> str | None:
    """Why the engine binary cannot be run (naming it and how to get it), else None."""
    if path and os.path.isfile(path) and os.access(path, os.X_OK):
        return None
    name = engine_name(game)
    where = f"at {path}" if path else \
        f"on the PATH ({' or '.join(RAPFI_NAMES)}) nor in ${RAPFI_ENV}"
    return f"{name} not found {where}: {HOW_TO_GET[name]}"


def _quoted(text: str) -> str:
    """A spec value: bare when the spec parser reads it so, else in double quotes."""
    return text if re.fullmatch(r"[\w./+-]+", text) else f'"{text}"'


def opponent_spec(game: str, label: str, seconds: float, engine: str,
                  home: str | None = None) -> str:
    """The ``engine(...)`` spec of rung ``label``; ``home`` is Rapfi's (empty) folder.

    Raises ValueError for a label that names no rung of ``game``."""
    cmd = _quoted(shlex.quote(engine))
    if game == "xiangqi":
        if label == "equal":   # UCCI has no move time: UCI movetime is the equal one
            limit = f"protocol=uci,time={seconds:g},option.UCI_Variant=xiangqi"
        elif m := _DEPTH.match(label):
            limit = f"protocol=ucci,depth={int(m.group(1))}"
        else:
            raise ValueError(f"rung {label!r}: a Xiangqi rung is dN (UCCI depth N) or equal")
        return f"engine(cmd={cmd},{limit},{FSF_OPTIONS},name=fairy-stockfish)"
    if label == "equal":
        limit = f"time={seconds:g}"
    elif m := _NODES.match(label):
        limit = f"nodes={int(m.group(1)) * {'': 1, 'k': 10 ** 3, 'm': 10 ** 6}[m.group(2)]}"
    else:
        raise ValueError(f"rung {label!r}: a {game} rung is N, Nk or Nm (nodes) or equal")
    where = f",cwd={_quoted(home)}" if home else ""
    return f"engine(cmd={cmd},protocol=gomocup,{limit}{where},name=rapfi)"


def ladder(game: str, engine: str, seconds: float = 1.0, ours: str | None = None,
           labels: list[str] | None = None, home: str | None = None) -> list[Rung]:
    """The rungs of ``game`` (``labels``, default :data:`LADDERS`) against ``engine``;
    ours is ``strong(time=seconds)`` unless given."""
    ours = ours or f"strong(time={seconds:g})"
    return [Rung(GAMES[game], label, ours, opponent_spec(game, label, seconds, engine, home))
            for label in (labels or LADDERS[game])]


def main(argv: list[str] | None = None) -> int:
    from gameai.registry import resolve_preset
    from gameai.tournament.runner import TournamentConfig, run_tournament
    from gameai.tournament.schedule import unique_names

    ap = argparse.ArgumentParser(prog="gameai bench engines", description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="xiangqi")
    ap.add_argument("--fsf", default=None, help=f"Fairy-Stockfish (default {FSF_DEFAULT})")
    ap.add_argument("--rapfi", default=None,
                    help=f"Rapfi's Gomocup brain (default ${RAPFI_ENV}, else "
                         f"{' or '.join(RAPFI_NAMES)} on the PATH)")
    ap.add_argument("--rungs", nargs="+", default=None, metavar="LABEL",
                    help="rungs by label (default: xiangqi d7 d9 d11 equal; gomoku and renju "
                         "1k 3k 10k 100k equal)")
    ap.add_argument("--time", type=float, default=1.0,
                    help="our seconds per move (and the engine's on the equal rung)")
    ap.add_argument("--ours", default=None, help="our player spec (default strong(time=T))")
    ap.add_argument("--games", type=int, default=40, help="games per rung and seed")
    ap.add_argument("--max-plies", type=int, default=None,
                    help="game-length cap, a draw (default xiangqi 200, gomoku/renju 225)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="parallel games; keep 1 for timed players (no shared cores)")
    ap.add_argument("--seed", "--seeds", dest="seeds", type=int, nargs="+", default=[1],
                    help="opening seeds; with several, a row per seed and then the rows pooled")
    ap.add_argument("--out", type=Path, default=None,
                    help="keep every rung's tournament folder here; rerunning resumes")
    args = ap.parse_args(argv)
    engine = (args.fsf if args.game == "xiangqi" else args.rapfi) or default_engine(args.game)
    engine = (shutil.which(engine) or engine) if engine else None  # a bare name: on the PATH
    why = missing_engine(args.game, engine)
    if why:
        print(why, file=sys.stderr)
        return 1
    engine = os.path.abspath(engine)
    max_plies = args.max_plies or MAX_PLIES[args.game]
    with tempfile.TemporaryDirectory() as tmp:
        root = (args.out or Path(tmp)).resolve()
        # Rapfi's empty folder, at a fixed place: the spec (so a resume) stays the same
        home = None if args.game == "xiangqi" else root / "rapfi-home"
        try:
            todo = ladder(args.game, engine, args.time, args.ours, args.rungs,
                          None if home is None else str(home))
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
        if home is not None:
            home.mkdir(parents=True, exist_ok=True)
        print(f"{args.game}: {len(todo)} rungs against {engine_name(args.game)} ({engine}); "
              f"{args.games} games per rung and seed, max {max_plies} plies, seeds "
              f"{' '.join(map(str, args.seeds))}, {args.jobs} worker(s)")
        spec = resolve_preset(todo[0].ours, todo[0].game)
        print(f"  ours: {todo[0].ours}" + (f" = {spec}" if spec != todo[0].ours else ""))
        print("  goal (at least 50%):", " ".join(verdict.__doc__.split(":", 1)[1].split()))
        print(f"{'rung':>6} {'seed':>6} {'W-D-L':>9} {'score':>6} {'Elo (trinomial 95%)':>20} "
              f"{'Elo (pentanomial)':>18} {'faults':>6} {'s/move':>7} {'s/game':>7}  goal")
        for rung in todo:
            names = unique_names([rung.ours, rung.opponent])
            pooled, moves_s = [], []
            for k, seed in enumerate(args.seeds):
                cfg = TournamentConfig(game=rung.game, players=[rung.ours, rung.opponent],
                                       games=args.games, seed=seed,
                                       opening_plies=OPENING_PLIES[args.game],
                                       max_plies=max_plies)
                folder = root / f"{args.game}_{rung.label}_seed{seed}"
                r = run_tournament(cfg, folder, jobs=args.jobs, progress=True, log=None)
                if r.skipped:
                    print(f"  ({rung.label} seed {seed}: resumed, {r.skipped} games were "
                          f"already in {folder})", file=sys.stderr)
                moves_s.append(_move_seconds(r, names[0]))
                _print_row(rung.label, str(seed), r.games, names, moves_s[-1])
                # pairs of different seeds are different openings: keep their ids apart
                pooled += [dict(g, pair=int(g["pair"]) + k * 1_000_000) for g in r.games]
            if len(args.seeds) > 1:
                import pandas as pd
                _print_row(rung.label, "pooled", pooled, names, pd.concat(moves_s))
    return 0


def verdict(row: dict) -> str:
    """The goal's rule, fixed before any game is played: "shown" when the trinomial 95%
    Elo interval lies wholly above 0 (score above 50%), "refuted" when wholly below,
    otherwise "undecided" (more games needed). A score of 0 or 1 is judged by its one-sided
    95% bound (:func:`gameai.tournament.stats.one_sided_bound`)."""
    lo, hi = row["elo_low"], row["elo_high"]
    return "shown" if lo > 0 else "refuted" if hi < 0 else "undecided"


def _print_row(label: str, seed: str, games: list, names: list[str], move_s) -> None:
    """One row; s/game is the games' own recorded time, so a resumed rung counts them all."""
    from gameai.tournament.standings import pairing_rows
    row = pairing_rows(games, order=names)[0]
    game_s = sum(float(g["time_s"]) for g in games) / len(games)
    print(f"{label:>6} {seed:>6} {row['wins']:>3}-{row['draws']}-{row['losses']:<3} "
          f"{row['score']:>6.3f} {row['elo'] + 0.0:>+9.0f} {_error(row, 'elo'):<10} "
          f"{row['penta_elo'] + 0.0:>+8.0f} {_error(row, 'penta'):<9} {row['faults']:>6} "
          f"{move_s.mean():>7.2f} {game_s:>7.1f}  {verdict(row)}", flush=True)


def _error(row: dict, model: str) -> str:
    """``± 163`` or, for a score of 0 or 1, the one-sided bound (``< -317``)."""
    return row[f"{model}_bound"] or f"± {row[f'{model}_error']:.0f}"


def _move_seconds(result, name: str):
    """Our wall-clock seconds of every move of the rung (from moves.parquet)."""
    import pandas as pd
    df = pd.read_parquet(Path(result.out) / "moves.parquet", columns=["player", "time_s"])
    return df.loc[df.player == name, "time_s"]


if __name__ == "__main__":
    raise SystemExit(main())
