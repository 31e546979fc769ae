"""Seeded self-play games for the measuring experiments (not for strength: see strength.py).

Each game starts with a few uniformly random plies (seeded) for variety, then a fixed
searcher plays both sides; every position's legal-move count is recorded.
"""
from __future__ import annotations

import random

import gameai


def play(game_spec: str, searcher_spec: str, seed: int, random_plies: int = 6,
         max_plies: int = 200) -> list[dict]:
    """One game; a row per position reached: ply, legal moves, game phase inputs."""
    rng = random.Random(seed)
    s = gameai.load_game(game_spec)
    searcher = gameai.make_searcher(searcher_spec)
    rows = []
    while s.result() is None and s.ply < max_plies:
        moves = s.legal_moves()
        if not moves:
            break
        row = {"seed": seed, "ply": s.ply, "legal_moves": len(moves)}
        if hasattr(s, "piece_at"):  # Xiangqi: count the major pieces left (phase by material)
            row["majors"] = sum(1 for f in range(9) for r in range(10)
                                if (s.piece_at(f, r) or " ").lower() in "rnc")
        rows.append(row)
        m = rng.choice(moves) if s.ply < random_plies else searcher.search(s).move
        s.push(m)
    outcome = s.result()
    for row in rows:
        row["plies"] = s.ply
        row["outcome"] = str(outcome) if outcome else "unfinished"
    return rows
