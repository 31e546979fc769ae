"""``threat_defend``: at the horizon, a side to move that faces a four blocks it, and the
opponent's VCF after the block decides (Rapfi's ``vcfdefend``).

Checked against full-width alpha-beta (every move, a zero evaluation): whenever the
defence scores a loss in ``m`` plies, alpha-beta to depth ``m`` finds a loss at least as
short. A double four whose two fours share their five-point is one block, not a lost
position (the evaluation alone scores it lost). Both backends: the parity tests in
``test_compiled_threats.py``.
"""
import random

import pytest

import gameai
from gameai.search.stats import MATE
from gameai.search.threats import ThreatPart
from gameai.search.threats.facts import _pass, _unpass
from tests.threats.test_threats import random_position


def facing_one_four(rng, rule, k):
    """``k`` random 7x7 positions where the side to move cannot make five and the
    opponent has exactly one five-point."""
    out = []
    while len(out) < k:
        g = random_position(rng, rule, size=7, stones=rng.randrange(12, 24))
        sv = ThreatPart(depth=3).vcf
        if sv.points(g, g.to_move, 0):
            continue
        if len(sv.points(g, 1 - g.to_move, 0)) == 1:
            out.append(g)
    return out


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_a_loss_the_defence_proves_is_a_loss_by_full_width_search(rule):
    rng = random.Random({"freestyle": 31, "standard": 32, "renju": 33}[rule])
    losses = blocks = 0
    for g in facing_one_four(rng, rule, 14):
        part = ThreatPart(depth=3, defend=True)
        n = part.horizon(g, 0)
        assert n <= 0                             # the side to move makes no five
        if n < 0:
            m = -n
            losses += 1
            r = gameai.make_searcher(f"alphabeta(depth={m},eval=zero)").search(g)
            assert r.value <= m - MATE, (str(g), m, r.value)
        else:
            blocks += part.block is not None
            assert part.block in g.legal_moves()
    assert losses and blocks                     # both kinds in the sample


def test_a_double_four_on_one_point_is_one_block_not_a_lost_position():
    """Black's fours on (4..7, 7) and (3, 8..11) (0-based x, y), blocked at (8, 7) and
    (3, 12), are both completed only by (3, 7); White to move. The evaluation alone
    scores it lost for White; the defence blocks at (3, 7) and evaluates after it. (The
    position is lost for White all the same, by a 7-ply Black VCT after the block that
    a search with threats finds at the root; the horizon's VCF of 3 plies does not.)"""
    g = gameai.load_game("gomoku")
    at = g.geo.index
    black = [at(x, 7) for x in range(4, 8)] + [at(3, y) for y in range(8, 12)]
    white = [at(8, 7), at(3, 12), at(12, 1), at(13, 3), at(11, 13), at(1, 13), at(13, 13)]
    for b, w in zip(black, white + [None]):
        g.push(b)
        if w is not None:
            g.push(w)
    assert g.to_move == 1 and g.result() is None
    ev = gameai.make_evaluator("gomoku.patterns", g)
    assert ev(g) <= -ev.weights.win // 2          # the evaluation's own verdict: lost
    part = ThreatPart(depth=3, defend=True)
    assert part.horizon(g, 0) == 0 and part.block == at(3, 7)
    g.push(part.block)                            # what the core scores at that horizon
    after = -ev(g)
    g.pop()
    assert abs(after) < ev.weights.win // 2
