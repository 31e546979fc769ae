"""The committed position pools: one position per self-play game, no position twice."""
import collections

import pytest

from experiments import suites


@pytest.mark.parametrize("game", suites.GAMES)
def test_a_committed_pool_has_no_repeated_position_and_one_position_per_game(game):
    lines = suites.committed_lines(game)
    keys = collections.Counter(suites.state(game, spec).key for _, spec, _ in lines)
    repeated = [k for k, n in keys.items() if n > 1]
    assert not repeated, f"{game}: {len(repeated)} Zobrist keys occur more than once"
    games = [suites.screen_fields(screen).get("game") for _, _, screen in lines]
    assert None not in games, f"{game}: a line does not name its self-play game"
    shared = [g for g, n in collections.Counter(games).items() if n > 1]
    assert not shared, f"{game}: games {shared} give more than one position"
    assert suites.distinct(game, lines) == lines          # the pool rule keeps every line
    names = list(suites.load(game))
    assert names == [f"{game[0]}{i:02d}" for i, _, _ in lines] and len(set(names)) == len(names)


def test_the_pool_rule_drops_a_repeated_position_and_a_second_position_of_a_game():
    lines = suites.committed_lines("gomoku")[:3]
    (i0, s0, c0), (i1, s1, c1), (i2, s2, c2) = lines
    same_key = (7, s0, c1.replace(suites.screen_fields(c1)["game"], "fresh"))   # s0 again
    same_game = (8, s2, c0)                                                     # game of line 0
    got = suites.distinct("gomoku", [lines[0], same_key, lines[1], same_game, lines[2]])
    assert [i for i, _, _ in got] == [i0, i1, i2]

