"""Matches and notation against a real engine: Debian's Fairy-Stockfish, over UCCI and UCI.

Marked ``engine``; they run in the default test run (``.ci/run`` installs the package) and
skip, with the reason, only where the binary is absent.
"""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import gameai
from gameai.games.notation import xiangqi_convert
from gameai.players.engine import EnginePlayer
from gameai.tournament import TournamentConfig, run_tournament
from gameai.tournament import play as tplay

FSF = shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish"
pytestmark = [pytest.mark.engine,
              pytest.mark.skipif(not os.access(FSF, os.X_OK),
                                 reason=f"Fairy-Stockfish not installed ({FSF}); "
                                        "apt-get install fairy-stockfish")]
ROOT = Path(__file__).parents[2]


def _perft1(p: EnginePlayer, state) -> set[str]:
    """The engine's own legal moves (``go perft 1``) in ICCS."""
    p._write(f"position fen {state.fen()}")
    p._write("go perft 1")
    moves = set()
    while True:
        line = p._read(__import__("time").monotonic() + 30)
        if line.startswith("Nodes searched"):
            return moves
        if ":" in line and line.split(":")[1].strip() == "1":
            moves.add(xiangqi_convert(line.split(":")[0].strip(), p._engine_notation, "iccs"))


@pytest.mark.parametrize("protocol", ["uci", "ucci"])
def test_every_legal_move_of_many_positions_matches_the_engine_in_its_notation(protocol):
    p = EnginePlayer(FSF, protocol=protocol, depth=1)
    rng = random.Random(7)
    checked = 0
    try:
        p.new_game(0)
        for game in range(6):
            s = gameai.load_game("xiangqi")
            if game == 0:
                p._prepare(s)  # options, variant and (under UCI) notation detected from a move
                assert p._engine_notation == ("uci" if protocol == "uci" else "iccs")
            for _ in range(50):
                if s.result() is not None:
                    break
                ours = {s.move_str(m) for m in s.legal_moves()}
                assert _perft1(p, s) == ours, s.fen()
                checked += len(ours)
                s.push(rng.choice(s.legal_moves()))
    finally:
        p.close()
    assert checked > 5000


def _check_records(out: Path, engine_name: str):
    games = pd.read_parquet(out / "games.parquet")
    moves = pd.read_parquet(out / "moves.parquet")
    assert (games["faulty"] == -1).all(), list(games["error"])
    eng = moves[moves["player"] == engine_name]
    assert len(eng) >= 10
    assert eng["value"].notna().all() and eng["nodes"].notna().all() and (eng["nodes"] > 0).all()
    assert eng["depth"].notna().all() and eng["pv"].notna().all()
    # the pv is in ICCS whatever the engine speaks, and starts with the move it played
    assert all(pv.split()[0] == move for move, pv in zip(eng["move"], eng["pv"]))
    return games.sort_values("game_id"), moves.sort_values(["game_id", "ply"])


def test_ucci_match_through_the_tournament_same_games_for_one_and_two_workers(tmp_path):
    spec = f'engine(cmd={FSF},protocol=ucci,depth=3,option.Hash=16,name=fsf-ucci)'
    cfg = TournamentConfig(game="xiangqi", players=["negascout(depth=2)", spec], games=2, seed=4,
                           opening_plies=2, max_plies=40)
    try:
        run_tournament(cfg, tmp_path / "a", jobs=1, progress=False, log=None)
        tplay.close_idle_players()
        run_tournament(cfg, tmp_path / "b", jobs=2, progress=False, log=None)
    finally:
        tplay.close_idle_players()
    ga, ma = _check_records(tmp_path / "a", "fsf-ucci")
    gb, mb = _check_records(tmp_path / "b", "fsf-ucci")
    assert list(ga["result"]) == list(gb["result"]) and list(ma["move"]) == list(mb["move"])
    assert list(ma["value"]) == list(mb["value"])


def test_uci_match_from_the_command_line_same_games_for_one_and_two_workers(tmp_path):
    # the command, at low depths (UCI_Variant given as there; notation detected)
    spec = f"engine(cmd={FSF},protocol=uci,depth=3,option.UCI_Variant=xiangqi,name=fsf-uci)"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for jobs, out in ((1, "a"), (2, "b")):
        subprocess.run([sys.executable, "-m", "gameai.cli", "tournament", "--game", "xiangqi",
                        "--player", "negascout(depth=2)", "--player", spec, "--games", "2",
                        "--seed", "5", "--max-plies", "40", "--jobs", str(jobs), "--no-progress",
                        "--out", str(tmp_path / out)], check=True, env=env, capture_output=True)
    ga, ma = _check_records(tmp_path / "a", "fsf-uci")
    gb, mb = _check_records(tmp_path / "b", "fsf-uci")
    assert list(ga["result"]) == list(gb["result"]) and list(ma["move"]) == list(mb["move"])
