"""``gomoku.forks``: the kinds of the empty points against a definition written from the
board coordinates (no line code, no memo), its defaults against ``gomoku.patterns``, and
its compiled values against the Python ones."""
import json
import random

import pytest

import gameai
from gameai.compiled import AVAILABLE
from gameai.evaluators.gomoku_forks import FIVE, KINDS, point_kind, point_kinds
from gameai.games.gomoku_rules import BLACK, EMPTY
from tests.evaluators.test_gomoku_eval import random_positions

DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))


def _line(state, x, y, dx, dy) -> list[tuple[int, int]]:
    """The whole board line through (x, y) along (dx, dy), as coordinates in order."""
    n = state.size
    while 0 <= x - dx < n and 0 <= y - dy < n:
        x, y = x - dx, y - dy
    out = []
    while 0 <= x < n and 0 <= y < n:
        out.append((x, y))
        x, y = x + dx, y + dy
    return out


def _fives(cells: list[int], own: int, exact: bool) -> set[int]:
    """Empty indices of ``cells`` where an ``own`` stone makes five along the line."""
    out = set()
    for i, v in enumerate(cells):
        if v != EMPTY:
            continue
        run, j = 1, i + 1
        while j < len(cells) and cells[j] == own:
            run, j = run + 1, j + 1
        j = i - 1
        while j >= 0 and cells[j] == own:
            run, j = run + 1, j - 1
        if run == 5 or (run > 5 and not exact):
            out.add(i)
    return out


def _straight_points(cells, own, exact) -> set[int]:
    """Empty indices where an ``own`` stone leaves two or more five-points on the line."""
    out = set()
    for i, v in enumerate(cells):
        if v == EMPTY:
            cells[i] = own
            if len(_fives(cells, own, exact)) >= 2:
                out.add(i)
            cells[i] = EMPTY
    return out


def reference_kinds(state):
    """Per colour the count of each kind and of distinct five-points, by the module doc:
    on each line through an empty point, a five-point; else (no five-point on the line)
    a stone there leaving two five-points (straight) or one (four) on the line, or a new
    straight-four point (three); combined over the four lines."""
    geo, b = state.geo, state.board
    counts, fives = ([0] * len(KINDS), [0] * len(KINDS)), [0, 0]
    for colour in (0, 1):
        exact = state.rule == "standard" or (state.rule == "renju" and colour == BLACK)
        for x in range(state.size):
            for y in range(state.size):
                p = geo.index(x, y)
                if b[p] != EMPTY:
                    continue
                tally = [0, 0, 0, 0]             # five, straight, four (not straight), three
                for dx, dy in DIRS:
                    line = _line(state, x, y, dx, dy)
                    cells = [b[geo.index(*c)] for c in line]
                    i = line.index((x, y))
                    base = _fives(cells, colour, exact)
                    if base:
                        tally[0] += i in base
                        continue
                    cells[i] = colour
                    after = len(_fives(cells, colour, exact))
                    if after >= 2:
                        tally[1] += 1
                    elif after == 1:
                        tally[2] += 1
                    else:
                        new = _straight_points(cells, colour, exact)
                        cells[i] = EMPTY
                        tally[3] += bool(new - _straight_points(cells, colour, exact))
                kind = point_kind(*tally)
                if kind == FIVE:
                    fives[colour] += 1
                elif kind is not None:
                    if (state.rule == "renju" and colour == BLACK
                            and state.forbidden(p) is not None):
                        continue
                    counts[colour][kind] += 1
    return counts[0], counts[1], fives


def _values(spec: str, state) -> tuple[int, int]:
    """The evaluator's value on the Python backend and compiled."""
    from gameai.compiled import kernel_for
    from gameai.compiled.evaluator import FUNCTIONS, compiled_form
    ev = gameai.make_evaluator(spec)
    kernel = kernel_for(state)
    core, data = compiled_form(ev, state, kernel)
    return ev(state), FUNCTIONS[core](kernel.load(state), data)


def _positions():
    yield from random_positions(11, 60, 6, 40, near=5)
    rng = random.Random(5)
    for i in range(60):           # dense small boards: many forks, Renju's forbidden points
        s = gameai.load_game(f"gomoku(rule={('freestyle', 'standard', 'renju')[i % 3]},size=9)")
        for _ in range(rng.randrange(10, 40)):
            if s.result() is not None:
                break
            s.push(rng.choice(s.legal_moves()))
        if s.result() is None:
            yield s


def test_point_kinds_equal_the_coordinate_definition():
    seen = [0] * len(KINDS)
    for s in _positions():
        kb, kw, fives = point_kinds(s)
        assert (kb, kw, fives) == reference_kinds(s), repr(s)
        for k in range(len(KINDS)):
            seen[k] += kb[k] + kw[k]
    assert all(seen), dict(zip(KINDS, seen))           # every kind was met


def test_defaults_equal_gomoku_patterns():
    forks, patterns = gameai.make_evaluator("gomoku.forks"), gameai.make_evaluator("gomoku.patterns")
    for s in _positions():
        assert forks(s) == patterns(s), repr(s)


@pytest.mark.skipif(not AVAILABLE, reason="compiled backend not available")
def test_compiled_values_equal_python_with_random_weights(tmp_path):
    from gameai.evaluators.gomoku_forks import GomokuForks
    from gameai.evaluators.linear import weights_document
    rng = random.Random(9)
    w = [GomokuForks.DEFAULTS.get(f, 0.0) + rng.uniform(-3000, 3000) for f in GomokuForks.FEATURES]
    path = tmp_path / "forks.json"
    path.write_text(json.dumps(weights_document("gomoku.forks", "gomoku", GomokuForks.FEATURES, w)))
    for spec in ("gomoku.forks", f"gomoku.forks(weights={path})"):
        for s in _positions():
            py, co = _values(spec, s)
            assert py == co, (spec, repr(s))


@pytest.mark.skipif(not AVAILABLE, reason="compiled backend not available")
@pytest.mark.parametrize("game,spec", [
    ("gomoku", "negascout(depth=3,tt=true,id=true,history=true)"),
    ("renju", "alphabeta(depth=2,history=true)")])
def test_search_trees_are_the_same_on_both_backends(tmp_path, game, spec):
    from gameai.evaluators.gomoku_forks import GomokuForks
    from gameai.evaluators.linear import weights_document
    from tests.compiled.test_compiled_search import _summary
    rng = random.Random(4)
    w = [GomokuForks.DEFAULTS.get(f, 0.0) + rng.uniform(-3000, 3000) for f in GomokuForks.FEATURES]
    path = tmp_path / "forks.json"
    path.write_text(json.dumps(weights_document("gomoku.forks", game, GomokuForks.FEATURES, w)))
    for moves in ("h8 h9 i8 g8 j9", "h8 i9 g7 h7 i8 j7 g9"):
        s = gameai.load_game(game, moves=moves)
        py, co = (_summary(s, gameai.make_searcher(spec, backend=b, eval=f"gomoku.forks(weights={path})")
                           .search(s)) for b in ("python", "compiled"))
        assert co == py, (game, spec, moves)
