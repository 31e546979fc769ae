"""gameai bench tree: the shape of a search tree, measured as an engine author does.

For a fixed set of 16 Xiangqi middle-game positions (:data:`POSITIONS`), each searched
with iterative deepening from an empty table, the bench prints:

* nodes to complete each depth (geometric mean over the positions) for each searcher
  spec and, when installed, Fairy-Stockfish side by side (UCI ``go depth``, the ``nodes``
  of its last ``info depth d`` line; one thread, 64 MB hash, ``ucinewgame`` before each
  position);
* the effective branching factor between the first and the last depth,
  ``(nodes(last) / nodes(first)) ** (1 / (last - first))``;
* at each depth, how many positions the chosen move agrees with the reference move
  (Fairy-Stockfish 11.1 at depth 20, recorded once in :data:`POSITIONS`);
* the statistics an engine author reads (:class:`gameai.search.stats.SearchStats`) summed
  over the positions at the deepest depth: quiescence share, null-move tries and cut-offs,
  reductions and their re-searches, futility skips, TT cut-offs, first-move cut-off rate.

Node counts do not depend on the machine's load, so two specs (a lever on and off) can
be compared on a busy machine. Run::

    gameai bench tree -- --depths 4-10
    gameai bench tree -- --spec strong --spec "strong(null_adaptive=true)" --depths 6-12
    gameai bench tree -- --positions 4 --no-fsf

A spec is any searcher spec or preset; the bench adds ``time=none`` and the depth.
"""
from __future__ import annotations

import argparse
import math
import re
import shutil
import subprocess
import time

import gameai

#: (name, FEN, reference move): every third of the first 48 draws of the Xiangqi
#: experiment suite (Fairy-Stockfish self-play at 20,000 nodes a move, screened to |score|
#: <= 150 cp; x18 has since left the suite, which keeps one position per game), with the
#: move Fairy-Stockfish 11.1 (Debian) plays at depth 20 (Threads 1, Hash 64, from an empty
#: hash) as the reference.
POSITIONS = (
    ("x00", "1nbak3r/4a4/3cb1nc1/4p4/p5p1p/7C1/PN2P1P1P/4B1N2/4A1C2/2BAKR3 w - - 2 15", "g3g4"),
    ("x03", "1rb1kab2/4a4/2c4c1/1CC6/p2r2Pnp/2P1P4/P4R2P/2N1B4/9/1R1AKAB2 b - - 0 22", "d5g5"),
    ("x06", "1rbaka3/7c1/2n1b1n2/p1p1p2r1/5cp1p/1CP6/P3P1P1P/2N1B1N1R/4A4/3RKABC1 w - - 28 15",
     "h0h8"),
    ("x09", "3ak2r1/4a4/b1n1b3c/1c7/4pn2p/1NC5P/P3P4/3CB1N2/4A3R/4KAB2 b - - 22 25", "c7b5"),
    ("x12", "1n1akabr1/r8/b5nC1/1C2p3p/2R2cp2/N8/4P1P1P/4B3c/5N3/3AKA1R1 w - - 0 17", "c5c4"),
    ("x15", "3akn3/4a3R/4b2cb/p3N3p/7n1/2N1p3C/6c1P/Cr2B4/4A4/2BAK4 b - - 0 29", "b2b5"),
    ("x18", "4kabnr/4a2C1/c3b4/p3p4/c7p/2BN1NP2/Pr2P3P/9/7R1/3AKAB1R w - - 5 15", "c4e2"),
    ("x21", "r1bak4/5n3/1c2b3c/p1p1p4/6p2/2P2C3/P3P1P1p/2N1B4/4A4/1R2KABN1 w - - 0 16", "f4f3"),
    ("x24", "2bakn3/4a4/r1n1b4/2R1p3p/1r2c4/p1P3B1P/4P4/2N3C1N/4A4/2BAK2R1 w - - 0 20", "h0h5"),
    ("x27", "rn2kab1r/4a4/1c2bc3/4p4/p7p/2p2nC2/P3P1P1P/2N1BC3/4A4/1R2KABNR w - - 0 13", "g4c4"),
    ("x30", "1rbakr3/4a4/2n1b1nC1/p1p4R1/4p1pc1/2P1P4/Pc4P2/2N1B1N2/8C/1R1AKAB2 b - - 6 19",
     "h5i5"),
    ("x33", "1rbakC3/4c4/2n1b4/9/p1p1pr3/5N2p/P1P1P3n/R1N1B4/4A4/2BAKR3 w - - 1 21", "f9h9"),
    ("x36", "4kab1r/4a4/2n1b1nc1/p3p3p/2pr5/P5p2/2P1P2CP/1RN1B1N2/4A4/2B1KA2R w - - 0 13",
     "e2g4"),
    ("x39", "1r2kab1r/4a2C1/2n1b4/1c2n3p/pc2p4/5NP1P/P3P4/2NCB4/4A4/R2AK1BR1 b - - 11 19",
     "e6c5"),
    ("x42", "r1bak4/4a4/2n1b1n2/p3p3p/1c4Pc1/1Cp4R1/P3P3P/2N1C1N1B/4A4/2BAK4 b - - 0 15",
     "c4b4"),
    ("x45", "2b1ka3/r3a2r1/4bcn2/p3p1N1p/3n4P/2R3P2/P3P4/1cN1BC3/4A4/3CKAB1R b - - 4 17",
     "h8h6"),
)
FSF_PATHS = ("fairy-stockfish", "/usr/games/fairy-stockfish")
#: the counters printed, summed over the positions at the deepest depth
SHOWN = ("nodes", "qnodes", "null_tries", "null_cutoffs", "reductions", "reduction_researches",
         "futility_skips", "tt_probes", "tt_cutoffs", "cutoffs", "first_move_cutoffs")


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(max(v, 1)) for v in values) / len(values))


def ebf(nodes: dict[int, float]) -> float:
    """Effective branching factor from the first to the last depth of ``nodes``."""
    lo, hi = min(nodes), max(nodes)
    return (nodes[hi] / nodes[lo]) ** (1 / (hi - lo)) if hi > lo else float("nan")


def ours(spec: str, depth: int, positions) -> tuple[dict[int, list[int]], dict[int, list[str]],
                                                    dict[str, int], float]:
    """Nodes to complete each depth, the move chosen at each depth (per position), the
    counters of the deepest search summed, and the seconds it took."""
    nodes: dict[int, list[int]] = {}
    moves: dict[int, list[str]] = {}
    total: dict[str, int] = dict.fromkeys(SHOWN, 0)
    t0 = time.perf_counter()
    for _name, fen, _ref in positions:
        state = gameai.load_game("xiangqi", fen=fen)
        s = gameai.make_searcher(_with(spec, depth), game="xiangqi")
        r = s.search(state)
        for row in r.stats.iterations:
            nodes.setdefault(row["depth"], []).append(row["nodes"])
            moves.setdefault(row["depth"], []).append(state.move_str(row["move"]))
        for k in SHOWN:
            total[k] += getattr(r.stats, k)
    return nodes, moves, total, time.perf_counter() - t0


def _with(spec: str, depth: int) -> str:
    """``spec`` with ``time=none,id=true,depth=D`` added (a preset or a searcher spec)."""
    extra = f"time=none,id=true,depth={depth}"
    return spec[:-1] + "," + extra + ")" if spec.endswith(")") else f"{spec}({extra})"


def find_fsf() -> str | None:
    for p in FSF_PATHS:
        found = shutil.which(p)
        if found:
            return found
    return None


def fsf(path: str, depth: int, positions) -> tuple[dict[int, list[int]], dict[int, list[str]]]:
    """Fairy-Stockfish's nodes to complete each depth and its move at each depth."""
    proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            bufsize=1)

    def send(line: str) -> None:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(prefix: str) -> str:
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"{path} ended before answering {prefix!r}")
            if line.startswith(prefix):
                return line
    nodes: dict[int, list[int]] = {}
    moves: dict[int, list[str]] = {}
    try:
        send("uci")
        until("uciok")
        for opt in ("UCI_Variant value xiangqi", "Threads value 1", "Hash value 64"):
            send("setoption name " + opt)
        for _name, fen, _ref in positions:
            send("ucinewgame")
            send("isready")
            until("readyok")
            send("position fen " + fen)
            send(f"go depth {depth}")
            last: dict[int, tuple[int, str]] = {}
            while True:
                line = proc.stdout.readline()
                if not line:
                    raise RuntimeError(f"{path} ended during a search")
                m = re.match(r"info depth (\d+) .*?nodes (\d+).* pv (\S+)", line)
                if m and "upperbound" not in line and "lowerbound" not in line:
                    last[int(m[1])] = (int(m[2]), uci_to_iccs(m[3]))
                if line.startswith("bestmove"):
                    break
            for d, (n, mv) in last.items():
                nodes.setdefault(d, []).append(n)
                moves.setdefault(d, []).append(mv)
        send("quit")
    finally:
        proc.kill()
    return nodes, moves


def uci_to_iccs(move: str) -> str:
    """UCI Xiangqi (ranks 1-10) to ICCS (ranks 0-9): ``h3e3`` -> ``h2e2``."""
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    if m is None:
        raise ValueError(f"not a UCI Xiangqi move: {move!r}")
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def _depths(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    lo_i, hi_i = int(lo), int(hi or lo)
    if not 1 <= lo_i <= hi_i <= 64:
        raise argparse.ArgumentTypeError(f"depths must be LO-HI with 1 <= LO <= HI <= 64, "
                                         f"got {text!r}")
    return lo_i, hi_i


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="gameai bench tree", description=__doc__.splitlines()[0])
    ap.add_argument("--spec", action="append", help="searcher spec or preset (repeatable; "
                    "default: strong)")
    ap.add_argument("--depths", type=_depths, default=(4, 10), help="LO-HI (default 4-10)")
    ap.add_argument("--positions", type=int, default=len(POSITIONS),
                    help=f"use the first N of the {len(POSITIONS)} positions")
    ap.add_argument("--no-fsf", action="store_true", help="skip Fairy-Stockfish")
    ap.add_argument("--fsf", default=None, help="Fairy-Stockfish's path (default: on PATH "
                    "or /usr/games)")
    args = ap.parse_args(argv)
    if not 1 <= args.positions <= len(POSITIONS):
        ap.error(f"--positions must be in [1, {len(POSITIONS)}], got {args.positions}")
    lo, hi = args.depths
    positions = POSITIONS[:args.positions]
    refs = [ref for _n, _f, ref in positions]
    specs = args.spec or ["strong"]
    columns: list[tuple[str, dict[int, float], dict[int, int]]] = []
    totals = []
    for spec in specs:
        print(f"searching {len(positions)} positions to depth {hi}: {spec}", flush=True)
        nodes, moves, total, secs = ours(spec, hi, positions)
        columns.append(_column(spec, nodes, moves, refs, len(positions)))
        totals.append((spec, total, secs))
    path = None if args.no_fsf else (args.fsf or find_fsf())
    if path is not None:
        print(f"searching {len(positions)} positions to depth {hi}: {path}", flush=True)
        nodes, moves = fsf(path, hi, positions)
        columns.append(_column("Fairy-Stockfish", nodes, moves, refs, len(positions)))
    elif not args.no_fsf:
        print("Fairy-Stockfish not found (apt-get install fairy-stockfish): ours only")
    _print_table(columns, lo, hi, len(positions))
    for spec, total, secs in totals:
        _print_counters(spec, total, secs, hi)
    return 0


def _column(label, nodes, moves, refs, n):
    """(label, depth -> geometric-mean nodes, depth -> moves agreeing with the reference),
    over the depths every position completed."""
    full = {d: v for d, v in nodes.items() if len(v) == n}
    agree = {d: sum(a == b for a, b in zip(moves[d], refs)) for d in full}
    return label, {d: geomean(v) for d, v in full.items()}, agree


def _print_table(columns, lo, hi, n) -> None:
    print()
    print(f"nodes to complete depth d (geometric mean over {n} positions); [moves agreeing "
          f"with Fairy-Stockfish depth 20]")
    print("depth " + "".join(f"{label[:26]:>30}" for label, _, _ in columns))
    for d in range(lo, hi + 1):
        cells = []
        for _label, gm, agree in columns:
            cells.append(f"{gm[d]:>22,.0f} [{agree[d]:>2}/{n}]" if d in gm else f"{'-':>30}")
        print(f"{d:>5} " + "".join(cells))
    row = []
    for _label, gm, _ in columns:
        sub = {d: v for d, v in gm.items() if lo <= d <= hi}
        row.append(f"{ebf(sub):>30.3f}" if len(sub) > 1 else f"{'-':>30}")
    print(f"{'EBF':>5} " + "".join(row) + f"   (depths {lo}-{hi})")
    base = columns[-1]
    if base[0] == "Fairy-Stockfish" and hi in base[1]:
        ratios = "".join(f"{gm[hi] / base[1][hi]:>30.1f}" if hi in gm else f"{'-':>30}"
                         for _l, gm, _a in columns)
        print(f"{'x FSF':>5} " + ratios + f"   (nodes at depth {hi})")


def _print_counters(spec: str, t: dict[str, int], secs: float, depth: int) -> None:
    n = max(t["nodes"], 1)
    print()
    print(f"{spec} at depth {depth}, summed over the positions ({secs:.0f} s):")
    print(f"  nodes {t['nodes']:,}; quiescence {t['qnodes'] / n:.1%} of nodes; "
          f"TT cut-offs {t['tt_cutoffs'] / max(t['tt_probes'], 1):.1%} of probes; "
          f"first-move cut-offs {t['first_move_cutoffs'] / max(t['cutoffs'], 1):.1%}")
    print(f"  null move: {t['null_tries']:,} tries, {t['null_cutoffs']:,} cut-offs "
          f"({t['null_cutoffs'] / max(t['null_tries'], 1):.1%}); reductions {t['reductions']:,}, "
          f"re-searched {t['reduction_researches'] / max(t['reductions'], 1):.2%}; "
          f"futility skips {t['futility_skips']:,}")


if __name__ == "__main__":
    raise SystemExit(main())
