"""Seeded self-play games for the measuring experiments (not for strength: see strength.py).

Each game starts with a few uniformly random plies (seeded) for variety, then the given
players (any player spec: a searcher, ``pointweight``, or an external engine such as
Fairy-Stockfish) play it out; every position's legal-move count is recorded, and the
Xiangqi positions' FEN, so that later measurements (perft) can use them.
"""
from __future__ import annotations

import random

import gameai

FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"


def fairy_stockfish(nodes: int) -> str:
    """Fairy-Stockfish over UCCI at a fixed node count per move (deterministic, one thread)."""
    return f"engine(cmd={FAIRY_STOCKFISH},protocol=ucci,nodes={nodes})"


def play(game_spec: str, player_spec: str, seed: int, random_plies: int = 6,
         max_plies: int = 200, second_player: str | None = None) -> list[dict]:
    """One game; a row per position reached: ply, legal moves, game phase inputs.
    ``player_spec`` moves for both sides, unless ``second_player`` moves for the second."""
    rng = random.Random(seed)
    s = gameai.load_game(game_spec)
    players = [gameai.make_player(player_spec)]
    players.append(gameai.make_player(second_player) if second_player else players[0])
    for p in {id(p): p for p in players}.values():
        if hasattr(p, "new_game"):
            p.new_game(seed)
    rows = []
    try:
        while s.result() is None and s.ply < max_plies:
            moves = s.legal_moves()
            if not moves:
                break
            row = {"seed": seed, "ply": s.ply, "legal_moves": len(moves)}
            if hasattr(s, "piece_at"):  # Xiangqi: the major pieces left (phase by material), FEN
                row["majors"] = sum(1 for f in range(9) for r in range(10)
                                    if (s.piece_at(f, r) or " ").lower() in "rnc")
                row["fen"] = s.fen()
            rows.append(row)
            m = rng.choice(moves) if s.ply < random_plies else players[s.ply % 2].choose(s).move
            s.push(m)
    finally:
        for p in {id(p): p for p in players}.values():
            close = getattr(p, "close", None)
            if close:
                close()
    outcome = s.result()
    for row in rows:
        row["plies"] = s.ply
        row["outcome"] = str(outcome) if outcome else "unfinished"
        row["players"] = player_spec if not second_player else f"{player_spec} vs {second_player}"
    return rows
