"""Pinned search counts: a fixed suite of positions x the searcher switch combinations.

The claim pinned here is "the search core refactor changes nothing" (not correctness):
``tests/data/pinned_counts.json`` holds every counter, value, move and PV computed by
the code at commit 3a18d49 (before the core refactor), regenerated from the repository root
with::

    .venv/bin/python -m tests.search.pinned_counts > tests/data/pinned_counts.json

``tests/search/test_pinned_counts.py`` recomputes them and requires equality.
"""
from __future__ import annotations

import json

import gameai

POSITIONS = [
    ("xiangqi", {}, 2),
    ("xiangqi", {"moves": "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7"}, 3),
    ("xiangqi", {"fen": "r1b1kab1r/2c1a4/2n2cn2/3C5/p3p1p1p/2B6/P1P1P1P1P/5R2N/8R/1NBAKAC2 w - - 5 16"}, 2),
    ("gomoku", {"moves": "h8 h9 i9 g7 j10"}, 2),
    ("renju", {"moves": "h8 h9 i9 g7 j10 j8"}, 2),
    ("synthetic(branching=4,depth=7,ordering=random,seed=5)", {}, 5),
    ("connect4", {"moves": "4 4 3"}, 6),
]

SPECS = [
    "minimax",
    "alphabeta",
    "alphabeta(mate_ply=false)",
    "alphabeta(history=true)",
    "alphabeta(history=true,history_key=fromto,history_inc=square)",
    "alphabeta(killers=true)",
    "alphabeta(tt=true)",
    "alphabeta(tt=true,exact_depth=true,id=true)",
    "alphabeta(tt=true,id=true,killers=true,history=true)",
    "alphabeta(tt=true,tt_size=64,id=true,history=true)",
    "negascout",
    "negascout(history=true)",
    "negascout(tt=true,id=true,history=true)",
    "negascout(tt=true,id=true,aspiration=true,history=true)",
    "negascout(id=true,aspiration=true,window=1)",
    "mtdf",
    "mtdf(history=true)",
    "alphabeta(quiescence=true)",
    "alphabeta(quiescence=true,history=true,qdepth=3)",
    "negascout(quiescence=true,tt=true,id=true,killers=true,history=true)",
]


def case_id(game: str, params: dict) -> str:
    return game + ("" if not params else " " + json.dumps(params, sort_keys=True))


def _line(s, moves) -> str:
    out = []
    for m in moves:
        out.append(s.move_str(m))
        s.push(m)
    for _ in moves:
        s.pop()
    return " ".join(out)


def compute(game: str, params: dict, depth: int, spec: str) -> dict:
    s = gameai.load_game(game, **params)
    if spec == "minimax":
        depth = max(1, depth - 1)
    r = gameai.make_searcher(spec, depth=depth).search(s)
    out = {k: v for k, v in r.stats.counters().items() if k != "time_s"}
    out.update(value=r.value, move=None if r.move is None else s.move_str(r.move),
               pv=_line(s, r.pv), depth=depth,
               iterations=[[row["depth"], row["value"], row["nodes"]] for row in r.stats.iterations])
    return out


def main() -> None:
    data = {}
    for game, params, depth in POSITIONS:
        for spec in SPECS:
            data[f"{case_id(game, params)} | {spec}"] = compute(game, params, depth, spec)
    lines = [f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in sorted(data.items())]
    print("{\n" + ",\n".join(lines) + "\n}")


if __name__ == "__main__":
    main()
