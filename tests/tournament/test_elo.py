"""Elo, LOS and SPRT against figures published by other tools (not by this code).

Sources (W-L-D as printed by the tool, then its Elo line):
* cutechess-cli, JoAnnP38/Pedantic PR #8: 332-316-352 -> "Elo difference: 5.6 +/- 17.3,
  LOS: 73.5 %".
* cutechess-cli, kelseyde/calvin-chess-engine PR #97: 143-129-368 -> 7.6 +/- 17.5, LOS 80.2 %;
  540-531-1590 -> 1.2 +/- 8.4, LOS 60.8 %; 1216-1199-3939 -> 0.9 +/- 5.3, LOS 63.5 %.
* cutechess-cli, princesslana/princhess PRs #265/#210: 65-66-69 -> -1.7 +/- 39.1, LOS 46.5 %;
  745-678-501 -> 12.1 +/- 13.3, LOS 96.2 %, SPRT bounds -2.94/2.94 (alpha = beta = 0.05)
  and -2.25/2.89 (alpha 0.05, beta 0.1).
* fastchess, Disservin/fastchess issue #807: 30 W, 84 L, 6 D, Ptnml(0-2) [30, 6, 18, 0, 6]
  -> "Elo: -168.40 +/- 73.37" (pentanomial).
* fishtest, official-stockfish/Stockfish PR #3209: STC {-0.25, 1.25}, Ptnml(0-2)
  253, 4282, 17604, 4431, 286 -> LLR 2.94; LTC {0.25, 1.25}, Ptnml 58, 3302, 33130, 3518,
  84 -> LLR 2.97.
cutechess-cli approximates the normal quantile; we use the exact one, so its printed
errors are matched to its printed precision (+-0.1).
"""
import math

import pytest

from gameai.tournament.stats import (SPRT, elo_pentanomial, elo_to_score, elo_trinomial, los,
                                     paired_difference, score_to_elo, sign_test)

CUTECHESS = [  # wins, losses, draws, elo, error, los %
    (332, 316, 352, 5.6, 17.3, 73.5),
    (143, 129, 368, 7.6, 17.5, 80.2),
    (540, 531, 1590, 1.2, 8.4, 60.8),
    (1216, 1199, 3939, 0.9, 5.3, 63.5),
    (65, 66, 69, -1.7, 39.1, 46.5),
    (745, 678, 501, 12.1, 13.3, 96.2),
]


@pytest.mark.parametrize("w,l,d,elo,err,los_pct", CUTECHESS)
def test_trinomial_matches_cutechess(w, l, d, elo, err, los_pct):
    est = elo_trinomial(w, d, l)
    assert est.elo == pytest.approx(elo, abs=0.051)
    assert est.error == pytest.approx(err, abs=0.1)
    assert 100 * los(w, l) == pytest.approx(los_pct, abs=0.051)


def test_pentanomial_matches_fastchess():
    est = elo_pentanomial([30, 6, 18, 0, 6])
    assert est.elo == pytest.approx(-168.40, abs=0.005)
    assert est.error == pytest.approx(73.37, abs=0.005)
    assert est.n == 60 and est.score == pytest.approx(33 / 120)


@pytest.mark.parametrize("penta,elo0,elo1,llr", [
    ([253, 4282, 17604, 4431, 286], -0.25, 1.25, 2.94),
    ([58, 3302, 33130, 3518, 84], 0.25, 1.25, 2.97),
])
def test_sprt_llr_matches_fishtest(penta, elo0, elo1, llr):
    s = SPRT(elo0, elo1, 0.05, 0.05)
    assert s.llr_pentanomial(penta) == pytest.approx(llr, abs=0.005)
    # fishtest stopped both tests at the upper bound; our approximation (fishtest's own
    # normalised GSPRT formula, not its exact MLE) lands within 0.01 of it
    assert s.upper - 0.01 < s.llr_pentanomial(penta)


def test_sprt_bounds_match_cutechess():
    assert SPRT(0, 10, 0.05, 0.05).lower == pytest.approx(-2.94, abs=0.005)
    assert SPRT(0, 10, 0.05, 0.05).upper == pytest.approx(2.94, abs=0.005)
    assert SPRT(0, 10, 0.05, 0.10).lower == pytest.approx(-2.25, abs=0.005)
    assert SPRT(0, 10, 0.05, 0.10).upper == pytest.approx(2.89, abs=0.005)


def test_sprt_rejects_bad_parameters_and_decides_h0_on_losses():
    with pytest.raises(ValueError):
        SPRT(5, 0)
    with pytest.raises(ValueError):
        SPRT.parse("0,5,2,0.05")
    s = SPRT.parse("0,5")
    assert s.decide(s.llr_trinomial(100, 200, 300)) == "H0"
    assert s.decide(s.llr_trinomial(10, 20, 10)) is None


def test_score_elo_round_trip_and_edges():
    for e in (-600, -100, 0, 35.5, 400):
        assert score_to_elo(elo_to_score(e)) == pytest.approx(e)
    assert score_to_elo(0.75) == pytest.approx(190.85, abs=0.01)  # textbook: 75% ~ +191
    assert score_to_elo(1.0) == math.inf and score_to_elo(0.0) == -math.inf
    assert elo_trinomial(0, 0, 0).n == 0 and str(elo_trinomial(0, 0, 0)) == "n/a"


def test_symmetry_swapping_sides_negates_elo():
    a, b = elo_trinomial(30, 50, 20), elo_trinomial(20, 50, 30)
    assert a.elo == pytest.approx(-b.elo) and a.error == pytest.approx(b.error)
    p, q = elo_pentanomial([1, 5, 10, 8, 2]), elo_pentanomial([2, 8, 10, 5, 1])
    assert p.elo == pytest.approx(-q.elo)


def test_rating_fit_two_players_is_the_score_elo_split_around_zero():
    from gameai.tournament.stats import fit_ratings
    r = fit_ratings({("a", "b"): (65.0, 100)})
    assert r["a"][0] == pytest.approx(score_to_elo(0.65) / 2, abs=1e-6)
    assert r["b"][0] == pytest.approx(-score_to_elo(0.65) / 2, abs=1e-6)
    # SE of the difference from the Fisher information: 1/sqrt(n p (1-p)) nats
    se_diff = 400 / math.log(10) / math.sqrt(100 * 0.65 * 0.35)
    assert r["a"][1] == pytest.approx(se_diff / 2, rel=1e-6)


def test_rating_fit_recovers_consistent_differences_and_flags_extremes():
    from gameai.tournament.stats import fit_ratings
    s = elo_to_score(100)  # a +100 over b, b +100 over c, so a +200 over c
    r = fit_ratings({("a", "b"): (1000 * s, 1000), ("b", "c"): (1000 * s, 1000),
                     ("a", "c"): (1000 * elo_to_score(200), 1000)})
    assert r["a"][0] - r["b"][0] == pytest.approx(100, abs=1e-4)
    assert r["b"][0] - r["c"][0] == pytest.approx(100, abs=1e-4)
    assert r["a"][0] + r["b"][0] + r["c"][0] == pytest.approx(0, abs=1e-6)
    r = fit_ratings({("a", "b"): (10, 10), ("b", "c"): (6, 10), ("c", "d"): (10, 10)})
    assert r["a"][0] == math.inf and r["d"][0] == -math.inf
    assert r["b"][0] == pytest.approx(score_to_elo(0.6) / 2, abs=1e-6)


def test_paired_difference_agresti_presidential_approval():
    """Agresti (2002), Categorical Data Analysis, section 10.1: 1,600 people rated the
    president twice; 794 approved both times, 150 approved then not, 86 not then approved,
    570 neither. The difference of the paired proportions is 0.59 - 0.55 = 0.04, with
    standard error 0.0095 (95% interval 0.02 to 0.06)."""
    pairs = [(1, 1)] * 794 + [(1, 0)] * 150 + [(0, 1)] * 86 + [(0, 0)] * 570
    d = paired_difference([x for x, _ in pairs], [y for _, y in pairs])
    assert (d.games, d.better_a, d.better_b) == (1600, 150, 86)
    assert d.mean == pytest.approx(0.04)
    assert (d.hi - d.lo) / (2 * 1.95996) == pytest.approx(0.0095, abs=0.00005)
    assert round(d.lo, 2) == 0.02 and round(d.hi, 2) == 0.06


def test_sign_test_exact_binomial():
    # 2 heads in 12 fair tosses, two-sided: 2 * (1 + 12 + 66) / 4096 = 0.0386 (R's
    # binom.test(2, 12) prints p-value = 0.03857)
    assert sign_test(2, 12) == pytest.approx(0.03857, abs=5e-6)
    assert sign_test(10, 12) == sign_test(2, 12)
    assert sign_test(9, 18) == 1.0 and sign_test(0, 0) == 1.0
    assert sign_test(0, 10) == pytest.approx(2 / 1024)
    d = paired_difference([1, 1, 0.5, 0], [1, 0, 0, 0])
    assert (d.better_a, d.better_b, d.p_sign) == (2, 0, 0.5)
    with pytest.raises(ValueError, match="equally long"):
        paired_difference([1, 0], [1])


def test_a_one_sided_score_gives_a_one_sided_bound_not_an_infinite_error():
    # Clopper & Pearson (1934) one-sided 95% bounds: 0 of 20 -> below 1 - 0.05**(1/20) =
    # 0.1391; 1 of 20 -> below 0.2161 (the exact binomial tables' figure)
    nil, one = elo_trinomial(0, 0, 20), elo_trinomial(1, 0, 19)
    assert nil.one_sided and one.one_sided
    assert nil.high == pytest.approx(score_to_elo(1 - 0.05 ** (1 / 20)))
    assert one.high == pytest.approx(score_to_elo(0.2161), abs=0.1)
    assert nil.low == -math.inf and str(nil) == f"< {nil.high:+.0f}" == "< -317"
    assert str(one) == "< -224"
    # the mirror image: all the points
    full = elo_trinomial(20, 0, 0)
    assert full.one_sided and full.low == pytest.approx(-nil.high) and str(full) == "> +317"
    # an interval with two finite ends stays two-sided
    even = elo_trinomial(10, 0, 10)
    assert not even.one_sided and even.bound_text() == "" and "+/-" in str(even)


def test_standings_print_the_bound_of_a_lost_match():
    from gameai.tournament.standings import render
    games = [{"game_id": i, "pairing": 0, "pair": i // 2, "player0": "a" if i % 2 == 0 else "b",
              "player1": "b" if i % 2 == 0 else "a", "score0": float(i % 2 == 1),
              "winner": i % 2, "faulty": -1, "reason": "five", "error": ""}
             for i in range(20)]
    text = render(games, order=["a", "b"])
    pairing = text.split("\n\n")[1]
    row = pairing.splitlines()[2].split()
    # the error columns: the trinomial and the pentanomial (10 lost pairs) one-sided bounds
    assert row[row.index("-inf") + 1:row.index("-inf") + 3] == ["<", "-317"]
    assert "< -183" in pairing and "one-sided 95% bound" in text


def test_no_decisive_game_gives_an_undetermined_elo_never_plus_minus_zero():
    draws = elo_trinomial(0, 2, 0)
    assert draws.undetermined and str(draws) == "undetermined"
    assert math.isnan(draws.elo) and math.isnan(draws.error) and draws.error != 0
    alike = elo_pentanomial([0, 0, 3, 0, 0])      # every pair 1-1: no spread between pairs
    assert alike.undetermined and str(alike) == "undetermined"
    assert not elo_trinomial(1, 2, 1).undetermined  # one decisive game each way: an interval
    assert not elo_trinomial(0, 0, 2).undetermined  # all lost: a one-sided bound instead
    from gameai.tournament.standings import render
    games = [{"game_id": i, "pairing": 0, "pair": 0, "player0": "ab"[i], "player1": "ba"[i],
              "score0": 0.5, "winner": -1, "faulty": -1, "reason": "ply-limit", "error": ""}
             for i in range(2)]
    text = render(games, order=["a", "b"])
    pairing = text.split("\n\n")[1].splitlines()[2].split()
    assert pairing[pairing.index("0.500") + 1:pairing.index("0.500") + 3] == ["undetermined"] * 2
    assert "0.000  0.000" not in text and "undetermined: the games fix no Elo" in text


@pytest.mark.parametrize("results, undetermined", [
    # b scored only against a (who lost everything), and nothing against c (who won all)
    ({("a", "b"): (0.0, 2), ("a", "c"): (0.0, 1), ("b", "c"): (0.0, 1)}, {"b"}),
    # b took its only points from a; what is left of b's games is one loss to c
    ({("a", "b"): (0.0, 2), ("b", "c"): (0.0, 1), ("c", "d"): (1.0, 2)}, {"b"}),
    # two groups that drew inside but where a and b beat c and d every time: the fit
    # would push them apart without end (once printed as Elo 1194 +- 19658)
    ({("a", "b"): (1.0, 2), ("c", "d"): (1.0, 2), ("a", "c"): (2.0, 2), ("b", "d"): (2.0, 2)},
     {"c", "d"}),
])
def test_a_rating_the_games_do_not_fix_is_undetermined_not_a_number_with_an_error(
        results, undetermined):
    from gameai.tournament.stats import fit_ratings
    r = fit_ratings(results)
    assert {p for p, (elo, se) in r.items() if math.isnan(elo)} == undetermined
    for p, (elo, se) in r.items():   # the rest: infinite, or a finite rating with a sane error
        assert p in undetermined or math.isinf(elo) or 0 < se < 1000, (p, elo, se)
