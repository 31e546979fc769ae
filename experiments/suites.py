"""Fixed middle-game position suites (Xiangqi, Gomoku, Renju), generated reproducibly.

The suites are committed as data (``experiments/suites/<game>.txt``, one ``name<TAB>spec``
line per position: a Xiangqi FEN, or a Gomoku/Renju move list). Regenerate them with
``python -m experiments.suites`` (``--check`` compares against the committed files).

How a position is made (seed ``SEED``; position ``i`` of game ``g`` uses its own
``random.Random(f"{g}-{SEED}-{i}")``, so one position never depends on another):

* Xiangqi: from the initial position, play ``N`` plies (``N`` uniform in 20..40); each ply
  is drawn uniformly from the 4 best moves by the material+PST evaluation one ply ahead
  (plausible, varied, not strong). Accepted when the game is not over, the side to move
  is not in check, it has at least 20 legal moves, and the static evaluation is within
  +-300 (about three pawns): a balanced middle game. Stored as a FEN (no history, so a
  search from it can never meet a repetition within the experiments' depths).
* Gomoku (freestyle) and Renju: from the centre stone, place ``N`` stones (``N`` uniform in
  8..16) each drawn from the 5 best points by the line-pattern evaluation one ply ahead.
  Accepted when no one has won and a depth-2 alpha-beta search finds no forced win
  (|value| below the mate bound): a middle game, not a finished tactic.

A rejected attempt draws a new ``N`` and a new line from the same generator.
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

DATA = Path(__file__).resolve().parent / "suites"
SEED = 2026
SIZE = 32
GAMES = ("xiangqi", "gomoku", "renju")


def _top_k_line(state, ev, rng: random.Random, plies: int, k: int) -> list:
    """Play ``plies`` moves, each uniform among the k best one-ply-ahead moves."""
    line = []
    for _ in range(plies):
        if state.result() is not None:
            break
        scored = []
        for m in state.legal_moves():
            state.push(m)
            scored.append((-ev(state), m))
            state.pop()
        scored.sort(key=lambda t: -t[0])
        m = rng.choice(scored[:k])[1]
        state.push(m)
        line.append(m)
    return line


def generate_one(game: str, i: int, seed: int = SEED) -> str:
    """The spec of position ``i`` of ``game``'s suite (deterministic in game, seed, i)."""
    import gameai
    from gameai.search import MATE
    rng = random.Random(f"{game}-{seed}-{i}")
    while True:
        if game == "xiangqi":
            s = gameai.load_game("xiangqi")
            _top_k_line(s, gameai.make_evaluator("xiangqi.pst"), rng, rng.randint(20, 40), 4)
            if (s.result() is None and not s.in_check() and len(s.legal_moves()) >= 20
                    and abs(s.pst_score) <= 300):
                return s.fen()
        else:
            s = gameai.load_game("gomoku", rule="renju" if game == "renju" else "freestyle")
            line = _top_k_line(s, gameai.make_evaluator("gomoku.patterns"), rng, rng.randint(8, 16), 5)
            if s.result() is None:
                v = gameai.make_searcher("alphabeta(depth=2)").search(s).value
                if abs(v) < MATE // 2:
                    for _ in line:
                        s.pop()
                    text = []
                    for m in line:
                        text.append(s.move_str(m))
                        s.push(m)
                    return " ".join(text)


def load(game: str) -> dict[str, str]:
    """The committed suite of ``game``: name -> spec (FEN or move list), in file order."""
    if game not in GAMES:
        from gameai.errors import SpecError
        raise SpecError(f"no position suite for {game!r}; suites: {', '.join(GAMES)}")
    out = {}
    for line in (DATA / f"{game}.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, spec = line.split("\t")
            out[name] = spec
    return out


def state(game: str, spec: str):
    """A fresh game state for one suite entry."""
    import gameai
    if game == "xiangqi":
        return gameai.load_game("xiangqi", fen=spec)
    return gameai.load_game("gomoku", rule="renju" if game == "renju" else "freestyle", moves=spec)


def lines(game: str, n: int = SIZE, seed: int = SEED) -> list[str]:
    return [f"{game[0]}{i:02d}\t{generate_one(game, i, seed)}" for i in range(n)]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="experiments.suites", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="compare with the committed files")
    args = p.parse_args(argv)
    DATA.mkdir(exist_ok=True)
    bad = 0
    for game in GAMES:
        new = lines(game)
        path = DATA / f"{game}.txt"
        header = f"# {game} suite: seed {SEED}, {SIZE} positions; see experiments/suites.py\n"
        if args.check:
            same = path.read_text() == header + "\n".join(new) + "\n"
            print(f"{game}: {'identical' if same else 'DIFFERS'}")
            bad += not same
        else:
            path.write_text(header + "\n".join(new) + "\n")
            print(f"wrote {path}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
