"""Fixed position suites for the experiments (Xiangqi FENs, Gomoku move lists).

Xiangqi: middle-game positions from the Chessprogramming wiki's Xiangqi perft list and
Fairy-Stockfish's perft suite (the same FENs the rule tests use), plus two common openings
played out from the start. Gomoku: middle games reached by short, ordinary openings
(direct and indirect starts) — chosen for variety, not strength.
"""
from __future__ import annotations

XIANGQI = {
    "cpw1": "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
    "fsf-mid": "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "cpw9": "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w",
    "cpw2": "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
    "central-cannon": "moves:h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 c6c5 h0h6 b7b4",
    "elephant-opening": "moves:c0e2 h7e7 h0g2 h9g7 g3g4 i9h9 b0c2 b9c7",
}

GOMOKU = {
    "direct-1": "h8 h9 i9 g7 i7 i8 j7 h7 g9",
    "indirect-1": "h8 i9 j8 i8 i7 h9 g8 j10 k8",
    "direct-2": "h8 h9 j8 i7 i9 g9 g8 j10 f8",
    "indirect-2": "h8 i7 i9 g9 j9 k9 h10 h9 g11",
    "open-3": "h8 g9 i8 j8 g7 f6 h9 h7 i10",
    "centre-6": "h8 i8 h9 h10 g9 i7 f10 e11 g10",
}


def xiangqi_state(name: str):
    import gameai
    spec = XIANGQI[name]
    if spec.startswith("moves:"):
        return gameai.load_game("xiangqi", moves=spec[len("moves:"):])
    return gameai.load_game("xiangqi", fen=spec)


def gomoku_state(name: str, rule: str = "freestyle"):
    import gameai
    return gameai.load_game("gomoku", rule=rule, moves=GOMOKU[name])


def state(game: str, name: str):
    return xiangqi_state(name) if game == "xiangqi" else gomoku_state(name)
