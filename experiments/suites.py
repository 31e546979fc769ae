"""Position suites for the node-count experiments: middle games from real play, screened
as undecided by a deeper search than any experiment uses.

The suites are committed as data (``experiments/suites/<game>.txt``, one
``name<TAB>spec<TAB>screen`` line per position: a Xiangqi FEN, or a Gomoku/Renju move
list, then what the screen measured). Regenerate them with ``python -m
experiments.suites`` (``--check`` regenerates and compares with the committed files;
``--game`` and ``--size`` restrict the run). Each file is a *pool*: an experiment takes its
first ``n`` positions, ``n`` chosen by the power analysis in :mod:`experiments.power`.

How position ``i`` of a game is made (its own ``random.Random(f"{game}-{SEED}-{i}")``, so
one position never depends on another; a rejected candidate draws the next one from the
same generator, at most ``ATTEMPTS`` times):

* **Xiangqi.** A game of Fairy-Stockfish against itself (UCCI, ``FS_NODES`` nodes a move,
  one thread: reproducible) after two seeded random plies. One position is drawn from its
  middle game: plies 24-70, at least 8 of the 12 rooks, horses and cannons on the board,
  side to move not in check, at least 20 legal moves. **Screen:** Fairy-Stockfish to depth
  ``FS_DEPTH`` (12; the experiments search at most 8) scores it within ``XIANGQI_BOUND``
  centipawns (150, one and a half pawns) for the side to move, and finds no mate. Stored as
  a FEN (no history, so no search from it meets a repetition).
* **Gomoku (freestyle) and Renju.** A game of our threat player against itself
  (:data:`GOMOKU_PLAYER`, fixed depth: reproducible) from one of the 26 standard Renju
  openings (:mod:`gameai.games.gomoku_openings`, drawn by the seed), then
  ``GOMOKU_RANDOM_PLIES`` (2) seeded random plies among the candidate points, so that two
  seeds give two games (the player is deterministic: without them an opening is one
  game). One position is drawn from plies 10-30. **Screen:** no VCT (which includes VCF) within ``VCT_PLIES`` plies for
  either side: the side to move, and the other side after a pass; each threat search
  must finish within ``VCT_NODES`` nodes or the position is rejected as unproven; and a
  depth-``SCREEN_DEPTH`` NegaScout (6; the experiments search at most 5) scores it within
  ``GOMOKU_BOUND`` (10,000: a tenth of an open four) with the pattern evaluation.

**One position per game, no duplicates.** Positions of one self-play game share its
prefix, so they are not independent samples; two draws can even be the same position.
Each line therefore records the game it comes from (``game=``: the position after the
random plies, as a short hash, that fixes the whole deterministic game) and the pool is
the sequence of positions 0, 1, 2, ... with every position dropped whose game or Zobrist
key an earlier one already has, until ``SIZE`` remain (:func:`distinct`). Names keep the
index of the draw (``g00``, ``g03``, ...), so a gap in the names is a dropped duplicate.
``tests/experiments/test_suites.py`` fails on a duplicate key or game in any committed
pool.
"""
from __future__ import annotations

import argparse
import random
import re
import subprocess
from pathlib import Path

DATA = Path(__file__).resolve().parent / "suites"
SEED = 2026
SIZE = 48                   # positions per pool
ATTEMPTS = 40               # candidates per position before giving up
MAX_DRAWS = 3               # draws per wanted position before a pool gives up (repeated games)
GAMES = ("xiangqi", "gomoku", "renju")

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
FS_NODES = 20_000
FS_DEPTH = 12
XIANGQI_BOUND = 150
MIDDLE = (24, 70)
MIN_MAJORS = 8

GOMOKU_PLAYER = ("negascout(depth=4,id=true,tt=true,history=true,killers=true,threats=true,"
                 "threat_order=true,threat_forced=true,threat_depth=3,backend=compiled)")
GOMOKU_PLIES = (10, 30)
GOMOKU_RANDOM_PLIES = 2
VCT_PLIES = 13
VCT_NODES = 200_000
SCREEN_DEPTH = 6
GOMOKU_BOUND = 10_000


def fs_score(fen: str, depth: int = FS_DEPTH) -> tuple[str, int]:
    """Fairy-Stockfish's score of a Xiangqi FEN at ``depth``: ``("cp", n)`` or ``("mate", n)``,
    from the side to move's point of view."""
    script = (f"uci\nsetoption name UCI_Variant value xiangqi\nisready\n"
              f"position fen {fen}\ngo depth {depth}\n")
    proc = subprocess.Popen([FAIRY_STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdin and proc.stdout
    proc.stdin.write(script)
    proc.stdin.flush()
    score = None
    for line in proc.stdout:
        m = re.match(rf"info depth {depth} .*?score (cp|mate) (-?\d+)", line)
        if m:
            score = (m.group(1), int(m.group(2)))
        if line.startswith("bestmove"):
            break
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait(timeout=10)
    if score is None:
        raise RuntimeError(f"Fairy-Stockfish gave no depth-{depth} score for {fen}")
    return score


def _xiangqi_candidate(rng: random.Random) -> tuple[str, str] | None:
    from . import selfplay
    rows = selfplay.play("xiangqi", selfplay.fairy_stockfish(FS_NODES), rng.randrange(1 << 30),
                         random_plies=2, max_plies=MIDDLE[1] + 1)
    middle = [r for r in rows if MIDDLE[0] <= r["ply"] <= MIDDLE[1] and r["majors"] >= MIN_MAJORS
              and r["legal_moves"] >= 20]
    if not middle:
        return None
    import gameai
    row = rng.choice(middle)
    if gameai.load_game("xiangqi", fen=row["fen"]).in_check():
        return None
    kind, n = fs_score(row["fen"])
    if kind == "mate" or abs(n) > XIANGQI_BOUND:
        return None
    return row["fen"], f"ply={row['ply']} fs{FS_DEPTH}={n:+d}cp game={game_id(rows[2]['fen'])}"


def _gomoku_candidate(game: str, rng: random.Random) -> tuple[str, str] | None:
    import gameai
    from gameai.games.gomoku_openings import standard_openings
    from gameai.search.threats.facts import _pass, _unpass
    rule = "renju" if game == "renju" else "freestyle"
    s = gameai.load_game("gomoku", rule=rule, moves=" ".join(rng.choice(standard_openings())))
    plies = rng.randint(*GOMOKU_PLIES)
    for _ in range(GOMOKU_RANDOM_PLIES):
        s.push(rng.choice(sorted(s.legal_moves())))
    game = game_id(_moves_text(s))
    player = gameai.make_searcher(GOMOKU_PLAYER)
    while s.ply < plies:
        if s.result() is not None:
            return None
        s.push(player.search(s).move)
    if s.result() is not None:
        return None
    vct = gameai.make_searcher(f"vct(depth={VCT_PLIES},nodes={VCT_NODES},backend=compiled)")
    work = []
    for passed in (False, True):
        if passed:
            _pass(s)
        try:
            r = vct.search(s)
        finally:
            if passed:
                _unpass(s)
        if r.value != 0 or r.stats.nodes >= VCT_NODES:
            return None
        work.append(r.stats.nodes)
    v = gameai.make_searcher(f"negascout(depth={SCREEN_DEPTH},id=true,tt=true,history=true,"
                             "killers=true,backend=compiled)").search(s).value
    if abs(v) > GOMOKU_BOUND:
        return None
    return _moves_text(s), \
        f"ply={s.ply} vct_nodes={work[0]}/{work[1]} d{SCREEN_DEPTH}={v:+d} game={game}"


def _moves_text(s) -> str:
    """The move list of a Gomoku state as text (``h8 h9 ...``)."""
    line = list(s.move_stack)
    for _ in line:
        s.pop()
    text = []
    for m in line:
        text.append(s.move_str(m))
        s.push(m)
    return " ".join(text)


def screen(game: str, spec: str, backend: str = "compiled") -> str | None:
    """Screen a committed position again with today's code and engines: None when it is
    still undecided by the pool's rule, else why not (``--rescreen``; ``backend`` of the
    depth-6 search, whose value is the same on both)."""
    if game == "xiangqi":
        import gameai
        if gameai.load_game("xiangqi", fen=spec).in_check():
            return "in check"
        kind, n = fs_score(spec)
        return None if kind == "cp" and abs(n) <= XIANGQI_BOUND else f"Fairy-Stockfish {kind} {n}"
    import gameai
    from gameai.search.threats.facts import _pass, _unpass
    s = state(game, spec)
    if s.result() is not None:
        return "game over"
    vct = gameai.make_searcher(f"vct(depth={VCT_PLIES},nodes={VCT_NODES},backend=compiled)")
    for passed in (False, True):
        if passed:
            _pass(s)
        try:
            r = vct.search(s)
        finally:
            if passed:
                _unpass(s)
        if r.value != 0 or r.stats.nodes >= VCT_NODES:
            return f"VCT {'after a pass' if passed else 'for the side to move'}: value {r.value}, {r.stats.nodes} nodes"
    v = gameai.make_searcher(f"negascout(depth={SCREEN_DEPTH},id=true,tt=true,history=true,"
                             f"killers=true,backend={backend})").search(s).value
    return None if abs(v) <= GOMOKU_BOUND else f"depth-{SCREEN_DEPTH} value {v}"


def generate_one(game: str, i: int, seed: int = SEED) -> tuple[str, str]:
    """Position ``i`` of ``game``'s pool: ``(spec, screen)``, deterministic in game, seed, i."""
    rng = random.Random(f"{game}-{seed}-{i}")
    for _ in range(ATTEMPTS):
        got = _xiangqi_candidate(rng) if game == "xiangqi" else _gomoku_candidate(game, rng)
        if got is not None:
            return got
    raise RuntimeError(f"{game} position {i}: no candidate passed the screen in {ATTEMPTS} tries")


def game_id(start: str) -> str:
    """A short name of a self-play game: a hash of the position after its random plies
    (a Xiangqi FEN or a Gomoku move list), which fixes the rest of the game."""
    import hashlib
    return hashlib.sha256(start.encode()).hexdigest()[:10]


def screen_fields(screen: str) -> dict[str, str]:
    """The ``key=value`` fields of a line's screen column."""
    return dict(f.split("=", 1) for f in screen.split() if "=" in f)


def distinct(game: str, drawn) -> list[tuple[int, str, str]]:
    """The draws ``(i, spec, screen)`` in order, without any whose self-play game or Zobrist
    key an earlier draw already has (the pool rule in the module docstring)."""
    seen_games, seen_keys, out = set(), set(), []
    for i, spec, screen in drawn:
        g = screen_fields(screen).get("game")
        k = state(game, spec).key
        if k in seen_keys or (g is not None and g in seen_games):
            continue
        seen_keys.add(k)
        if g is not None:
            seen_games.add(g)
        out.append((i, spec, screen))
    return out


def load(game: str, n: int | None = None) -> dict[str, str]:
    """The committed suite of ``game``: name -> spec (FEN or move list), in file order; the
    first ``n`` positions when given."""
    if game not in GAMES:
        from gameai.errors import SpecError
        raise SpecError(f"no position suite for {game!r}; suites: {', '.join(GAMES)}")
    out = {}
    for line in (DATA / f"{game}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, spec = line.split("\t")[:2]
            out[name] = spec
    if n is not None:
        if n > len(out):
            from gameai.errors import SpecError
            raise SpecError(f"the {game} suite has {len(out)} positions, {n} asked for")
        out = dict(list(out.items())[:n])
    return out


def state(game: str, spec: str):
    """A fresh game state for one suite entry."""
    import gameai
    if game == "xiangqi":
        return gameai.load_game("xiangqi", fen=spec)
    return gameai.load_game("gomoku", rule="renju" if game == "renju" else "freestyle", moves=spec)


HEADER = {
    "xiangqi": (f"Fairy-Stockfish self-play ({FS_NODES} nodes a move), plies {MIDDLE[0]}-{MIDDLE[1]}; "
                f"screen: |score| <= {XIANGQI_BOUND} cp and no mate at depth {FS_DEPTH}"),
    "gomoku": (f"threat-player self-play from the 26 standard openings and {GOMOKU_RANDOM_PLIES} "
               f"random plies, plies {GOMOKU_PLIES[0]}-"
               f"{GOMOKU_PLIES[1]}; screen: no VCT within {VCT_PLIES} plies for either side "
               f"({VCT_NODES} nodes), |depth-{SCREEN_DEPTH} value| <= {GOMOKU_BOUND}"),
}
HEADER["renju"] = HEADER["gomoku"]


def write_line(game: str, i: int, spec: str, screen: str) -> str:
    return f"{game[0]}{i:02d}\t{spec}\t{screen}"


_CACHE: Path | None = None


def committed_lines(game: str) -> list[tuple[int, str, str]]:
    """The committed pool's ``(draw index, spec, screen)`` lines, in order."""
    path = DATA / f"{game}.txt"
    if not path.exists():
        return []
    rows = [ln.split("\t") for ln in path.read_text().splitlines() if ln and not ln.startswith("#")]
    return [(int(r[0][1:]), r[1], r[2]) for r in rows if len(r) == 3]


def _cached(game: str, i: int) -> tuple[str, str]:
    """Position ``i``, read from the resume folder when an earlier run finished it."""
    path = _CACHE / f"{game}-{SEED}-{i}.tsv" if _CACHE else None
    if path is not None and path.exists():
        spec, screen = path.read_text().split("\t")
        return spec, screen
    got = generate_one(game, i)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\t".join(got))
    print(f"{game} {i}: {got[1]}", flush=True)
    return got


def main(argv=None) -> int:
    global _CACHE
    p = argparse.ArgumentParser(prog="experiments.suites", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="regenerate and compare with the committed files")
    p.add_argument("--game", choices=GAMES, nargs="+", default=list(GAMES))
    p.add_argument("--size", type=int, default=SIZE, help=f"positions per pool (default {SIZE})")
    p.add_argument("--cache", type=Path, default=None,
                   help="keep each finished position in this folder, so a killed run resumes")
    p.add_argument("--extend", action="store_true",
                   help="keep the committed positions (name, FEN or moves, screen) and generate "
                        "only the missing ones up to --size; --check regenerates them all")
    p.add_argument("--rescreen", action="store_true",
                   help="screen every committed position again with today's code and engines; "
                        "print the ones that fail (exit 1 if any)")
    p.add_argument("--backend", choices=("compiled", "python"), default="compiled",
                   help="with --rescreen: the backend of the depth-6 screening search")
    args = p.parse_args(argv)
    _CACHE = args.cache
    if args.rescreen:
        failed = 0
        for game in args.game:
            for name, spec in load(game).items():
                why = screen(game, spec, args.backend)
                print(f"{game} {name}: {'undecided' if why is None else 'FAILS: ' + why}", flush=True)
                failed += why is not None
        return 1 if failed else 0
    DATA.mkdir(exist_ok=True)
    bad = 0
    for game in args.game:
        kept = committed_lines(game) if args.extend and not args.check else []
        got = distinct(game, kept)[:args.size]
        i = got[-1][0] + 1 if got else 0
        while len(got) < args.size:
            if i >= MAX_DRAWS * args.size:
                raise SystemExit(f"{game}: {len(got)} distinct positions after {i} draws; the "
                                 f"generator repeats its games (see GOMOKU_RANDOM_PLIES)")
            got = distinct(game, got + [(i, *_cached(game, i))])
            i += 1
        text = (f"# {game} suite: seed {SEED}, {args.size} positions, one per self-play game, no "
                f"repeated position; {HEADER[game]}; see experiments/suites.py\n"
                + "\n".join(write_line(game, *g) for g in got) + "\n")
        path = DATA / f"{game}.txt"
        if args.check:
            same = path.read_text() == text
            print(f"{game}: {'identical' if same else 'DIFFERS'}")
            bad += not same
        else:
            path.write_text(text)
            print(f"wrote {path}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
