"""Published Renju threat puzzles (facts only: positions, who attacks, answers, lengths).

Source: the benchmark cases of quintet (github.com/renju-note/quintet, benches/cases),
an independent Renju VCF/VCT solver. Their origins, as quintet records them:

* renjuportal.com puzzles 3040 (a 12-move black VCF) and 2990 (a 5-move white VCF), each
  also "one move short" (no VCF within one attacker move less);
* Hiroshi Okabe's "5-moves-to-end" problems No. 02, 63 and 68 (VCT, 4 attacker moves);
* positions 7 to 15 moves before the end of games between Rapfi and quintet-ai, where
  quintet records "the shortest VCT here needs N attacks" (checked by its solver);
* a few further hand-set cases of quintet's suite (a counter-four, dual forbidden points).

Boards are written as quintet writes them: row 15 first, columns a to o, ``o`` Black,
``x`` White. ``attacks`` is quintet's limit: the number of attacker moves (the final five
included), so the line has ``2 * attacks - 1`` plies. ``expect`` is the line quintet
gives; its first move is the puzzle's answer. All are under the Renju rule.
"""
from __future__ import annotations

PUZZLES = [
    dict(name="renjuportal-3040", mode="vcf", attacker="black", attacks=12,
         expect="J12,K13,G9,F8,G6,H7,G8,G7,G12,G11,F12,I12,D12,E12,F10,E11,E10,D10,F11,D9,F14,F13,C11",
         board="""
. . . . . . . . . . . . . . .
. . . . . . . . x . . o . . .
. . . . o . x o . . . . . . .
. . . . . . . o . . x . . . .
. . . . . . . x o . . x . . .
. . . . . . o o x . o . . . .
. . . . . x . x x o . x . . .
. . . . . . . o o x . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . ."""),
    dict(name="renjuportal-2990", mode="vcf", attacker="white", attacks=5,
         expect="L13,L11,K12,J11,I12,H12,I13,I14,H14",
         board="""
. . . . . . . . . . . . . . .
. . . . . . . . . . . x . . .
. . . . . . . . . . o . . . .
. . . . . . . . . x . x o . .
. . . . . . . . x . . . o . .
. . . . . . . x x o . x . . .
. . . . . . o x o o . . o . .
. . . . . x o o . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . ."""),
    dict(name="vcf-counter", mode="vcf", attacker="black", attacks=3,
         expect="I8,G8,I10,I9,J9",
         board="""
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . x . . . . . . .
. . . . . . . o . o o x . . .
. . . . . . . . o x . o . . .
. . . . . . . . o . x . . . .
. . . . . . . . x . . x . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . ."""),
    dict(name="okabe-02", mode="vct", attacker="black", attacks=4,
         expect="F10,G9,I10,G10,H11,H12,G12",
         board="""
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . x . . . . . .
. . . . . . . o . . . . . . .
. . . . . . . o x o . . . . .
. . . . . . x o . x . . . . .
. . . . . . . x o . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . ."""),
    dict(name="okabe-63", mode="vct", attacker="white", attacks=4,
         expect="F7,E8,G8,E6,G5,G7,H6",
         board="""
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . o . . . . .
. . . . . . . o x . . . . . .
. . . x x o . x o . . . . . .
. . . . . o . o o x . . . . .
. . . . . . . o x . . . . . .
. . . . . . x . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . ."""),
    dict(name="okabe-68", mode="vct", attacker="black", attacks=4,
         expect="J8,I7,I8,G8,L8,K8,K7",
         board="""
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . x . . . . . .
. . . . . . . . x . . . . . .
. . . . . . . o . . . . . . .
. . . . . . . x . . . . . . .
. . . . . . . o x o . . . . .
. . . . . . o x o . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . ."""),
    dict(name="vct-dual-forbiddens", mode="vct", attacker="white", attacks=5,
         expect="J4,K3,I4,I3,F8,G7,E6,G9,G6",
         board="""
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . x . . . . . . .
. . . . . . . o o . . . . . .
. . . . . . . o x . . . . . .
. . . . . . . x x o . . . . .
. . . . . . o o x . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . ."""),
    # Games between Rapfi and quintet-ai: the position after these moves.
    dict(name="game-black-l03-1", mode="vct", attacker="black", attacks=3,
         expect="M5,G10,H11,H12,G12",
         moves="H8,I8,H9,I6,J6,G9,I5,H7,G7,K7,H6,J4,F6,E5,G8,G6,F5,F7,J9,I4,F8,E9,J10,I9,E8,D8,I10,J8,H10,H5,J3,L6"),
    dict(name="game-black-l03-2", mode="vct", attacker="black", attacks=3,
         expect="I3,I5,N9,O10,N6",
         moves="H8,I7,K7,J10,K8,J8,K9,K10,J9,L9,K6,K5,I10,H11,H6,I12,L7,M6,M8,J5,N7,M7,J6,L6,N8,J11,H13,J4"),
    dict(name="game-black-l03-3", mode="vct", attacker="black", attacks=3,
         expect="K7,G8,E11,D12,D11",
         moves="H8,F8,D8,D7,H9,E7,F10,G7,F7,E9,H6,H7,G9,I7,E8,D9,G10,C9,F9,B9,A9,H11,F11,E12,E10,D10,C11,J7"),
    dict(name="game-black-l04-1", mode="vct", attacker="black", attacks=4,
         expect="F13,F9,G9,E14,E12,F12,D11",
         moves="H8,F10,G7,G11,H11,G10,G12,I9,H10,H9,F11,J9,K9,E9,H12,D8,C7,E10,I12,D10,C10,J12"),
    dict(name="game-black-l04-2", mode="vct", attacker="black", attacks=4,
         expect="H14,L7,M6,J12,G13,F14,E11",
         moves="H8,G9,F9,G7,H11,H7,G10,E8,F7,F8,E9,H10,I11,G11,J8,K8,I12,J13,I9,I10,J10,J9,H12,K9,F12,E7,D6,E12,K11,L12"),
    dict(name="game-black-l05-1", mode="vct", attacker="black", attacks=5,
         expect="B8,L9,N9,L10,M11,F6,G8,D8,D5",
         moves="H8,I8,J6,L6,L7,I7,I9,G7,I5,H7,J7,J9,G6,H4,F7,I4,H6,I6,K4,J4,K7,K5,M7,N7,K10,K9,H10,M9,E8,H5,J10,I10,D9,C10,K11,L12,H11,H2,I3,J8,L11,H3,H1,J11,F9,D7,E6,D6,F8,F4,G4,E5,G3,C7"),
    dict(name="game-black-l05-2", mode="vct", attacker="black", attacks=5,
         expect="C10,F12,K10,G9,F9,H13,K12,J12,K11",
         moves="H8,F10,G7,G11,H11,G10,G12,I9,H10,H9,F11,J9,K9,E9,H12,D8,C7,E10,I12,D10"),
    dict(name="game-black-l05-3", mode="vct", attacker="black", attacks=5,
         expect="F9,I9,G10,J6,G6,K6,L6,D9,F11",
         moves="H8,F6,J10,I7,E7,F8,F7,I6,E6,I5,I8,H6,G7,D7,E8,I4,I3,E5,H9,G8"),
    dict(name="game-white-l03-1", mode="vct", attacker="white", attacks=3,
         expect="D2,I13,G12,G11,F11",
         moves="H8,G9,H10,H7,G6,I9,H9,H11,I10,G10,G8,F7,J8,I8,G7,I12,F9,K10,J11,K12,J12,J13,K14,L11,J9,J10,M10,G13,I11,L14,G5,G4,H6,I14,H15,K9,K11,H13,F4,I7,E3"),
    dict(name="game-white-l03-2", mode="vct", attacker="white", attacks=3,
         expect="H5,H12,E11,D11,G13",
         moves="H8,G8,H9,G10,J9,G9,G7,H10,J10,I9,J8,J7,H7,F10,E10,G11,G12,F12,E13,F11,F9,H11,I11,H14,J12,J11,H6"),
    dict(name="game-white-l04-1", mode="vct", attacker="white", attacks=4,
         expect="I4,K5,J6,B13,C10,B10,C13",
         moves="H8,H10,F12,G12,I10,F11,G8,E10,H13,D10,I8,F8,F7,H9,I7,I11,G9,F10,G10,G7,I6,I9,E9,D9,C8,D11,D12,C11,J8,K8,E11,C12,I5"),
    dict(name="game-white-l04-2", mode="vct", attacker="white", attacks=4,
         expect="H4,D7,G7,G8,G3,G4,F4",
         moves="H8,I9,J9,J10,H11,I10,I11,H9,J11,G11,K10,L11,H10,G9,G10,I12,E9,K12,J13,J12,L12,E10,H12,D9,K8,F7,E6,F9,H13,H14,I13,K13,K7,K9,H7,G6,E8,F8,F10,D11,C12,C8,E7,E5,F11,F5,F6,G5,H5,D5,C5,E4,F13,G13,C6,D6,F12,F14,H6"),
    dict(name="game-white-l04-3", mode="vct", attacker="white", attacks=4,
         expect="M12,N13,M13,M11,L12,N12,J10",
         moves="H8,F6,F7,G7,E6,G8,G5,H6,G9,J6,G6,H5,I5,J9,J7,K6,L6,F10,G4,H3,H4,I4,L7,K7,K8,L8,F5,E4,J5,K10,M9,L11,I8,M10,D7,C8,G3,G2,F2,E1,L10,K12,J13,K11,K13"),
    dict(name="game-white-l05-1", mode="vct", attacker="white", attacks=5,
         expect="D6,H3,I2,K5,J6,G3,B8,C7,B4",
         moves="H8,F10,G7,G11,H11,I9,H10,H9,G9,F8,F7,E8,E7,D7,D8,F9,G10,H7,F6,G5,I6,G6,F5,E10,D11,F4,I7,C9,F12,E5,C6,E3,D2,E4,E6,D4,G4"),
    dict(name="game-white-l05-2", mode="vct", attacker="white", attacks=5,
         expect="I10,K7,L6,H11,K6,J7,M6,L7,J6",
         moves="H8,J10,H6,F8,L10,H9,J8,K9,L8,K8,K10,G10,F11,G9,L11,J9,I9,L9,H10,G11,G8"),
]


def load(puzzle: dict):
    """The puzzle's position as a renju game (attacker to move)."""
    import gameai
    if "moves" in puzzle:
        return gameai.load_game("renju", moves=" ".join(puzzle["moves"].lower().split(",")))
    rows = [r.split() for r in puzzle["board"].strip().splitlines()]
    assert len(rows) == 15 and all(len(r) == 15 for r in rows), puzzle["name"]
    black, white = [], []
    for i, row in enumerate(rows):
        for c, ch in enumerate(row):
            pt = f"{chr(97 + c)}{15 - i}"
            if ch == "o":
                black.append(pt)
            elif ch == "x":
                white.append(pt)
    return gameai.load_game("renju", black=" ".join(black), white=" ".join(white))
