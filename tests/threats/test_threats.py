"""VCF/VCT threat search against published Renju puzzles and against exhaustive search.

Puzzles (tests/data/renju_puzzles.json, facts from quintet's public suite): quintet counts a
VCF of N attacks as the attacker's N fours, the last one unstoppable; the five itself
follows after one more defender move, so the whole forced line is ``2N + 1`` plies, which
is what our ``MATE - value`` reports.

Exhaustive check: within five plies, a forced win must start with a four or a three
(a quiet move leaves the defender a free move and then a win in three needs a four that
makes two five-points, i.e. a three already on the board). So "VCT proves a win within
5 plies" must equal "full-width alpha-beta on the whole board proves a win within 5
plies", in both directions, and VCF must equal it within 3 plies.
"""
import random
import time

import pytest

import gameai
from gameai.search.stats import MATE, MATE_BOUND
from gameai.search.threats import forced_replies
from benchmarks.renju_puzzles import PUZZLES, load

BY_NAME = {p["name"]: p for p in PUZZLES}


def solve(p, plies, mode=None):
    s = load(p)
    r = gameai.make_searcher(f"{mode or p['mode']}(depth={plies})").search(s)
    return s, r


@pytest.mark.parametrize("name", ["renjuportal-2990", "vcf-counter"])
def test_vcf_published_answer_and_exact_length(name):
    p = BY_NAME[name]
    n = 2 * p["attacks"] + 1
    s, r = solve(p, n)
    expect = p["expect"].lower().split(",")
    assert s.move_str(r.move) == expect[0]
    assert r.value == MATE - n                      # the shortest VCF: iterative deepening
    pv = [s.move_str(m) for m in r.pv]
    assert pv[:len(expect)] == expect[:len(pv)]     # quintet's line (its defences are forced)
    assert r.stats.nodes == r.stats.leaves + r.stats.terminals + r.stats.interior + r.stats.tt_cutoffs


def test_vcf_one_attack_short_is_disproven():
    p = BY_NAME["renjuportal-2990"]                 # quintet: "one move short" is disproven
    _, r = solve(p, 2 * (p["attacks"] - 1) + 1)
    assert r.move is None and r.value == 0 and r.pv == []


def test_vcf_follows_the_forbidden_point_rule():
    """White's renjuportal-2990 VCF ends on a four Black may not block (forbidden point)."""
    p = BY_NAME["renjuportal-2990"]
    s, r = solve(p, 11)
    assert len(r.pv) == MATE - r.value              # the line goes on to White's five
    for m in r.pv[:-2]:                             # up to White's last four
        s.push(m)
    fives = [m for m in s.legal_moves() if (s.push(m), s.result(), s.pop())[1] is not None]
    assert s.to_move == 0 and fives == []           # Black cannot reach the five-point
    blocked = [m for m in range(len(s.board)) if s.board[m] == 2 and s.forbidden(m)]
    assert blocked                                  # it is forbidden to Black
    assert r.pv[-1] in blocked                      # and White makes five there
    s.push(r.pv[-2])
    s.push(r.pv[-1])
    assert s.result() is not None and s.result().winner == 1


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_every_proven_line_is_played_to_the_attackers_five(backend):
    """``result.pv`` of a proven win has exactly ``MATE - value`` plies and ends with the
    attacker's five, also where the proof stops at a defender with no defence in the threat
    space (two five-points, a forbidden block, a three nothing stops)."""
    seen = 0
    for p in PUZZLES:
        s = load(p)
        r = gameai.make_searcher(f"{p['mode']}(depth={2 * p['attacks'] + 1},"
                                 f"backend={backend})").search(s)
        if r.move is None:
            continue
        attacker = s.to_move
        assert len(r.pv) == MATE - r.value, p["name"]
        for m in r.pv:
            s.push(m)                       # (push checks each move is legal)
        assert s.result() is not None and s.result().winner == attacker, p["name"]
        seen += 1
    assert seen >= 10


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_root_win_of_the_threat_part_reports_the_whole_line(backend):
    """The alpha-beta searcher's PV of a win its threat part proved at the root reaches the
    five too (renjuportal-2990: the table stops where Black's block is forbidden)."""
    s = load(BY_NAME["renjuportal-2990"])
    r = gameai.make_searcher(f"negascout(depth=2,threats=true,backend={backend})").search(s)
    attacker = s.to_move
    assert r.value == MATE - 11 and len(r.pv) == 11
    for m in r.pv:
        s.push(m)
    assert s.result() is not None and s.result().winner == attacker


@pytest.mark.parametrize("name", ["okabe-02", "okabe-63", "okabe-68"])
def test_vct_okabe_problems(name):
    p = BY_NAME[name]
    n = 2 * p["attacks"] + 1
    s, r = solve(p, n)
    assert s.move_str(r.move) == p["expect"].lower().split(",")[0]
    assert r.value == MATE - n


GAME_CASES = [p for p in PUZZLES if p["name"].startswith("game-")]
# Lines quintet found with a quiet first attack (a move threatening a VCF, neither a four
# nor a three): our VCT reaches them through its VCF-threat moves (see threats.py).
QUIET_ATTACKS = {"game-black-l03-2", "game-black-l03-3", "game-white-l03-2", "game-white-l04-2"}


@pytest.mark.parametrize("p", [p for p in GAME_CASES if p["attacks"] <= 4], ids=lambda p: p["name"])
def test_vct_game_positions_shortest_as_published(p):
    n = 2 * p["attacks"] + 1                         # quintet: the shortest VCT needs N attacks
    s, r = solve(p, n + 2)
    assert r.move is not None
    assert MATE - r.value == n                       # found, and never shorter than published
    if p["name"] in QUIET_ATTACKS:
        assert s.move_str(r.move) == p["expect"].lower().split(",")[0]


@pytest.mark.slow
def test_vcf_long_renjuportal_3040():
    p = BY_NAME["renjuportal-3040"]
    n = 2 * p["attacks"] + 1
    s, r = solve(p, n)
    assert s.move_str(r.move) == "j12" and r.value == MATE - n
    _, short = solve(p, n - 2)                       # quintet: one move short is disproven
    assert short.value == 0


@pytest.mark.slow
@pytest.mark.parametrize("p", [p for p in GAME_CASES if p["attacks"] == 5], ids=lambda p: p["name"])
def test_vct_game_positions_five_attacks(p):
    n = 2 * p["attacks"] + 1
    s, r = solve(p, n + 2)
    assert r.move is not None and MATE - r.value >= n


# --------------------------------------------------------------------------- exhaustive
def random_position(rng, rule, size=9, stones=None):
    while True:
        g = gameai.load_game("gomoku", rule=rule, size=size, full_board=True)
        k = stones if stones is not None else rng.randrange(10, 26)
        for _ in range(k):
            if g.result() is not None:
                break
            moves = g.legal_moves()
            if not moves:
                break
            # cluster stones near the centre so that threats are common
            moves.sort(key=lambda m: rng.random() + 0.15 * max(abs(c - size // 2) for c in g.point(m)))
            g.push(moves[0])
        if g.result() is None and g.legal_moves():
            return g


def full_width_win(g, plies, order=False):
    """Plies to a win for the side to move by alpha-beta over every move (``order``: threats
    first, which changes no value), else 0."""
    r = gameai.make_searcher(f"alphabeta(depth={plies},eval=zero,threat_order={str(order).lower()})").search(g)
    return MATE - r.value if r.value >= MATE - plies else 0


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_vcf_equals_full_width_search_within_three_plies(rule):
    rng = random.Random(11)
    wins = 0
    for _ in range(12):
        g = random_position(rng, rule)
        v = gameai.make_searcher("vcf(depth=3)").search(g)
        mine = MATE - v.value if v.value else 0
        assert mine == full_width_win(g, 3), str(g)
        wins += bool(mine)
    assert wins >= 2                                  # the sample holds wins and non-wins


@pytest.mark.slow
@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_vct_equals_full_width_search_within_five_plies(rule):
    rng = random.Random(5)
    wins = 0
    for _ in range(8):
        g = random_position(rng, rule, size=7, stones=rng.randrange(12, 22))
        v = gameai.make_searcher("vct(depth=5)").search(g)
        mine = MATE - v.value if v.value else 0
        assert mine == full_width_win(g, 5), str(g)
        wins += bool(mine)
    assert wins >= 1


def test_spec_and_errors():
    g = gameai.load_game("gomoku", black="f8 g8 h8", white="a1 a2 a3")
    r = gameai.make_searcher("vcf(depth=5)").search(g)
    assert r.pv_str in ("e8 d8 i8", "e8 i8 d8", "i8 j8 e8", "i8 e8 j8")
    assert r.value == MATE - 3
    assert r.stats.depth == 3 and r.stats.iterations[-1]["value"] == MATE - 3
    with pytest.raises(ValueError):
        gameai.make_searcher("vcf(depth=0)")
    with pytest.raises(ValueError):
        gameai.make_searcher("vct(depth=5)").search(gameai.load_game("tictactoe"))
    # a node limit stops the search and leaves the position as it was
    p = BY_NAME["renjuportal-3040"]
    s = load(p)
    before = s.key
    r = gameai.make_searcher("vcf(depth=25,nodes=50)").search(s)
    assert s.key == before and r.value == 0 and r.stats.nodes <= 60


# --------------------------------------------------------------------------- inside alpha-beta
def test_alphabeta_threat_part_at_the_root():
    p = BY_NAME["renjuportal-2990"]
    s = load(p)
    r = gameai.make_searcher("negascout(depth=2,tt=true,threats=true)").search(s)
    assert s.move_str(r.move) == "l13" and r.value == MATE - 11
    assert r.stats.threat_nodes > 0


def test_alphabeta_threat_part_at_the_horizon():
    """White must stop Black's open three; a one-ply search with a blind evaluator sees it
    only through the VCF run at its horizon (Black's straight four wins in 3 plies)."""
    g = gameai.load_game("gomoku", black="f8 g8 h8", white="a1 a15")
    r = gameai.make_searcher("alphabeta(depth=1,eval=zero,threats=true)").search(g)
    assert g.move_str(r.move) in ("e8", "i8") and r.value == 0
    blind = gameai.make_searcher("alphabeta(depth=1,eval=zero)").search(g)
    assert blind.value == 0 and r.stats.threat_nodes > 0


def test_threat_order_keeps_values():
    """Threat ordering only reorders moves: same minimax values as without it."""
    rng = random.Random(3)
    for _ in range(6):
        g = random_position(rng, "renju", size=15 if rng.random() < 0.5 else 9)
        g.full_board = False
        a = gameai.make_searcher("alphabeta(depth=2)").search(g)
        b = gameai.make_searcher("alphabeta(depth=2,threat_order=true)").search(g)
        assert a.value == b.value


def test_alphabeta_threat_part_refuses_root_moves_that_allow_a_vct():
    """Black threatens a double three at h8; a one-ply blind search with threats=true
    must pick a move after which Black has no VCT of 7 plies (checked by the vct searcher;
    with the default 15-ply checks the search scores every White move lost here)."""
    g = gameai.load_game("gomoku", black="f8 g8 h10 h11", white="a1 a15 o1")
    vct7 = gameai.make_searcher("vct(depth=7)")
    g.push(g.parse_move("o15"))
    assert vct7.search(g).value > 0                  # a careless move loses to a VCT
    g.pop()
    r = gameai.make_searcher("alphabeta(depth=1,eval=zero,threats=true,threat_vct_depth=7)").search(g)
    assert r.value > -MATE_BOUND
    g.push(r.move)
    assert vct7.search(g).value == 0


def test_threat_vct_depth_reaches_longer_vcts():
    """With White's counter-fours on the a-file Black's double three needs 9 plies: the
    a 7-ply check after each root move misses it, threat_vct_depth=9 does not."""
    g = gameai.load_game("gomoku", black="f8 g8 h10 h11", white="a1 a3 a5")
    vct9 = gameai.make_searcher("vct(depth=9)")
    r = gameai.make_searcher("alphabeta(depth=1,eval=zero,threats=true,threat_vct_depth=9)").search(g)
    g.push(r.move)
    assert vct9.search(g).value == 0
    g.pop()
    g.push(g.parse_move("o15"))
    assert vct9.search(g).value == MATE - 9


def test_threat_part_at_the_root_respects_the_node_limit():
    """With nodes=N the root threat search uses at most N/2 nodes and the alpha-beta search
    the rest; without a limit the same root search visits more than that."""
    p = BY_NAME["renjuportal-3040"]                  # a long VCF the root part cannot finish
    used = {}
    for limit in (None, 400):
        s = load(p)
        sr = gameai.make_searcher("negascout(depth=2,tt=true,threats=true)")
        part, root = sr.threats, sr.threats.root

        def spy(*a, **k):
            out = root(*a, **k)
            used[limit] = part.nodes                 # nodes of the root threat search alone
            return out
        part.root = spy
        before = s.key
        r = sr.search(s, None if limit is None else {"nodes": limit})
        assert s.key == before and r.move in s.legal_moves()
        if limit is not None:
            assert 0 < used[limit] <= limit // 2
            assert r.stats.nodes + used[limit] <= limit
    assert used[None] > 400 // 2


@pytest.mark.parametrize("name", ["renjuportal-2990", "vcf-counter"])
def test_a_defence_off_the_vcf_proof_does_not_stop_the_win(name):
    """proof_points of a VCF: a defender stone on none of its points, not a four and making
    no new four-point of its own, leaves the attacker's win in place (the dependency
    argument; for VCT proofs the alpha-beta reply check uses it only as a heuristic)."""
    from gameai.search.threats import ThreatSolver
    from gameai.search.threats.facts import _pass, _unpass
    p = BY_NAME[name]
    n = 2 * p["attacks"] + 1
    s = load(p)
    sv = ThreatSolver(vct=False)
    assert sv.win_within(s, n, 0, deepen=True) == n
    points = sv.proof_points(s)
    assert points and s.move_str(sv.tt[s.key << 1 | 1][2]) in {s.move_str(q) for q in points}
    defender_fours = set(sv._points(sv._scan(), 1 - s.to_move, 1))
    _pass(s)                                          # the defender to move
    try:
        off = [m for m in s.legal_moves() if m not in points and m not in defender_fours
               and not sv.new_four_points(s.to_move, m)]
        rng = random.Random(1)
        for m in rng.sample(off, min(12, len(off))):
            s.push(m)
            r = gameai.make_searcher(f"vcf(depth={n})").search(s)
            s.pop()
            assert r.value and MATE - r.value <= n, s.move_str(m)
    finally:
        _unpass(s)


def test_the_move_chosen_gets_a_longer_check():
    """A game the threat player lost to the plain one (seed 11): after White's l5 Black has
    an 11-ply VCT that takes about 6,600 nodes to prove, beyond the 6,000 of the check every
    candidate root move gets. The longer check of the chosen move (``refutes``) proves it
    and stores the move as lost; a quiet position, where the opponent has no VCT even
    after a pass, is not checked at all."""
    from gameai.search.threats import ThreatPart
    g = gameai.load_game("gomoku", moves="h8 i6 i7 j9 h7 j7 j6 g9 k5 l4 h9 h10 h5 h6 i5")
    part = ThreatPart()
    part.root(g, lambda n: False)
    assert part.opponent_threat and not part.pass_clear
    l5 = g.parse_move("l5")
    g.push(l5)
    assert part.reply(g, 1) == 0                     # the candidate check misses it
    g.pop()
    assert part.refutes(g, l5) and not part.refutes(g, l5)
    g.push(l5)
    assert part.reply(g, 1) == 11                    # now scored as lost
    assert gameai.make_searcher("vct(depth=11)").search(g).value == MATE - 11
    g.pop()
    r = gameai.make_searcher("negascout(depth=2,tt=true,threats=true,threat_order=true)").search(g)
    assert r.move != l5 and r.value > -MATE_BOUND

    quiet = gameai.load_game("gomoku", moves="h8 i9")
    part.root(quiet, lambda n: False)
    before = part.nodes
    assert part.pass_clear and not part.refutes(quiet, quiet.parse_move("h9"))
    assert part.nodes == before


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_an_unfinished_pass_check_leaves_the_reply_checks_on(backend):
    """The pass check (would the opponent have a VCT if we passed?) proves nothing when
    its budget runs out, so every root move still gets its reply check. Before this was
    read as "no threat" and no root move was checked. Black's open three h8-h10: a White
    move elsewhere lets Black make an open four (a 3-ply VCT), the block at h11 does not."""
    from gameai.search.threats import ThreatPart

    def solvers():
        if backend == "python":
            return None
        from gameai.compiled.threats import part_solvers
        return part_solvers()
    g = gameai.load_game("gomoku", moves="h8 a1 h9 a3 h10")
    part = ThreatPart(pass_nodes=1, solver=solvers())
    assert part.root(g, lambda n: False) == (0, [])
    assert not part.pass_clear                          # unfinished, not cleared
    for move, plies in (("o15", 3), ("h11", 0)):
        g.push(g.parse_move(move))
        assert part.reply(g, 1) == plies, move          # (was 0 for every move)
        g.pop()
    assert part.opponent_threat is True                 # unknown: no proof to narrow by
    full = ThreatPart(solver=solvers())                  # the whole budget: proven, narrowed
    full.root(g, lambda n: False)
    assert full.opponent_threat and full.opponent_threat is not True and full._touch


def test_threat_effort_multiplies_the_check_budgets():
    """threat_effort=N gives every threat check N times the nodes (a faster solver affords
    more); the defaults are effort 1."""
    one = gameai.make_searcher("negascout(depth=1,threats=true)").threats
    ten = gameai.make_searcher("negascout(depth=1,threats=true,threat_effort=10)").threats
    for budget in ("root_nodes", "reply_nodes", "pass_nodes", "verify_nodes"):
        assert getattr(ten, budget) == 10 * getattr(one, budget) > 0


@pytest.mark.parametrize("rule", ["freestyle", "standard", "renju"])
def test_forced_replies_cut_only_lost_moves(rule):
    """threat_forced keeps a subset of the moves (order kept). Either every kept move makes
    five at once, or every move it cuts loses within 3 plies by full-width alpha-beta
    (which never reads the cut): the opponent's five, or its straight four and then five."""
    rng = random.Random(7)
    cut = checked = 0
    for _ in range(60):
        g = random_position(rng, rule, size=7, stones=rng.randrange(8, 20))
        moves = g.legal_moves()
        kept = forced_replies(g, list(moves))
        assert kept == [m for m in moves if m in set(kept)] and kept
        dropped = [m for m in moves if m not in set(kept)]
        cut += bool(dropped)
        me = g.to_move
        g.push(kept[0])
        r = g.result()
        g.pop()
        if r is not None and r.winner == me:          # a five of its own: only fives kept
            for m in kept:
                g.push(m)
                assert g.result().winner == me
                g.pop()
            continue
        for m in rng.sample(dropped, min(2, len(dropped))):
            g.push(m)
            assert full_width_win(g, 3, order=True), (str(g), g.move_str(m))
            g.pop()
            checked += 1
    assert cut >= 10 and checked >= 20                 # the sample holds cuts


def test_forced_replies_keep_the_defences():
    """Facing an open three, the defences (both ends) and the side to move's own fours stay;
    a quiet move elsewhere goes. With nothing to answer, every move stays."""
    g = gameai.load_game("gomoku", black="f8 g8 h8 a1", white="a15 b15 c15")
    kept = {g.move_str(m) for m in forced_replies(g, g.legal_moves())}
    assert {"e8", "i8", "d15"} <= kept and "h10" not in kept
    quiet = gameai.load_game("gomoku", black="h8", white="")
    assert forced_replies(quiet, quiet.legal_moves()) == quiet.legal_moves()


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_forced_replies_leave_the_root_moves_a_gui_names(backend):
    """searchmoves naming only moves the threats would cut: those are searched (and lose)."""
    g = gameai.load_game("gomoku", black="f8 g8 h8 a1", white="a15 b15 c15")
    s = gameai.make_searcher(f"alphabeta(depth=4,threat_forced=true,backend={backend})")
    r = s.search(g, root_moves=[g.parse_move("h10")])
    assert g.move_str(r.move) == "h10" and r.value <= -MATE_BOUND
    assert g.move_str(s.search(g).move) in {"e8", "i8", "d15", "e15", "d8", "j8"}


def _score_lost(part, state, move, plies: int = 5) -> bool:
    """What ``ThreatPart.refutes`` records when it proves the opponent a VCT after ``move``
    (for stubs of it): True."""
    state.push(move)
    part._by_key[state.key] = part._replies[state.key] = plies
    state.pop()
    part.root_replies[move] = plies
    return True


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_timed_search_checks_each_iteration_move(backend):
    """With a time limit, each iteration's move gets the longer check (``refutes``, given
    a stop by time); a refuted move is scored lost in the running core (both backends) and
    the iteration runs again, so another move is played. ``threat_verify=0`` checks none;
    a depth-limited search checks its final move without a time stop. (A 9x9 board and
    one open three, so the slow Python solver's root checks leave the alpha-beta time.)"""
    if backend == "compiled":
        pytest.importorskip("numba")
    g = gameai.load_game("gomoku", size=9, moves="e5 a1 f5 a9 g5")
    gameai.make_searcher("vct(depth=5)").search(g)   # fill the line-code memo off the clock
    t = 0.5 if backend == "compiled" else 2.0

    def run(spec):
        s = gameai.make_searcher(spec + f",backend={backend})")
        part, calls = s.threats, []

        def refutes(state, move, should_stop=None):   # the first move asked about "loses"
            calls.append((move, should_stop is not None))
            return len(calls) == 1 and _score_lost(part, state, move)
        part.refutes = refutes
        return s.search(g), calls

    res, calls = run(f"negascout(time={t},tt=true,id=true,threats=true,threat_order=true")
    assert calls and all(timed for _m, timed in calls)
    assert res.move != calls[0][0] and -MATE_BOUND < res.value < MATE_BOUND
    assert res.stats.iterations and all(r["move"] != calls[0][0] or r["value"] <= -MATE_BOUND
                                        for r in res.stats.iterations)
    res, calls = run(f"negascout(time={t},tt=true,id=true,threats=true,threat_verify=0")
    assert calls == []
    res, calls = run("negascout(depth=2,tt=true,threats=true")
    assert calls and not any(timed for _m, timed in calls) and res.move != calls[0][0]


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_timed_search_checks_the_move_it_plays_after_its_last_iteration(backend):
    """A timed search's alpha-beta stops early (``FINAL_SHARE`` of the ``threat_verify``
    time before the end), and the move about to be played gets one more check against an
    opponent VCT with that time: the last thing the search does. When that check refutes
    the move, the search goes on with the time left and plays another move."""
    if backend == "compiled":
        pytest.importorskip("numba")
    from gameai.search.threats.part import FINAL_SHARE
    g = gameai.load_game("gomoku", size=9, moves="e5 a1 f5 a9 g5")
    gameai.make_searcher("vct(depth=5)").search(g)   # fill the line-code memo off the clock
    t, share = (0.5 if backend == "compiled" else 2.0), 0.6

    def run(refute_final: bool):
        s = gameai.make_searcher(f"negascout(time={t},tt=true,id=true,threats=true,"
                                 f"threat_order=true,threat_verify={share},backend={backend})")
        part, events, refuted = s.threats, [], []
        ab_end = [None]

        def refutes(state, move, should_stop=None):
            events.append(("check", move))
            if not refute_final or refuted or ab_end[0] is None or time.perf_counter() < ab_end[0]:
                return False
            refuted.append(move)                # the first check after the alpha-beta stopped
            return _score_lost(part, state, move)
        part.refutes = refutes

        def on_iteration(row):                  # (the search's clock starts after warm-up)
            if ab_end[0] is None:
                ab_end[0] = time.perf_counter() - row["time_s"] + t * (1 - FINAL_SHARE * share)
            events.append(("iteration", row["move"]))
        res = s.search(g, on_iteration=on_iteration)
        return res, events, refuted

    # On a loaded machine the alpha-beta search can overrun its early stop, and then the
    # final check is rightly skipped: only when the time is up. (It can also end early,
    # before the test's estimate of the early stop, and then this test cannot tell its
    # final check from an iteration's.) So up to five tries, one of which must show it.
    for refute_final in (False, True):
        for _try in range(5):
            res, events, refuted = run(refute_final)
            if refuted if refute_final else events[-1] == ("check", res.move):
                break
            if events[-1][0] != "check":
                assert res.stats.time_s >= t, events[-3:]   # skipped: the time was up
        else:
            raise AssertionError("five searches in a row showed no final check")
        if refute_final:
            assert res.move != refuted[0] and -MATE_BOUND < res.value < MATE_BOUND
        else:
            assert ("iteration", res.move) in events


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_move_refuted_at_the_deadline_is_not_played(backend):
    """When the last check of the move about to be played refutes it just as the time runs
    out, the search that goes on stops before any iteration finishes; it must not fall
    back on that move (the last finished root search chose it), but on one not lost."""
    if backend == "compiled":
        pytest.importorskip("numba")
    from gameai.search.threats.part import FINAL_SHARE
    g = gameai.load_game("gomoku", size=9, moves="e5 a1 f5 a9 g5")
    gameai.make_searcher("vct(depth=5)").search(g)   # fill the line-code memo off the clock
    t = 0.5 if backend == "compiled" else 2.0
    for _try in range(5):                   # (a loaded machine: see the test above)
        res, refuted = _refuted_at_the_deadline(g, t, backend, FINAL_SHARE)
        if refuted:
            break
    assert refuted and res.move != refuted[0]


def _refuted_at_the_deadline(g, t, backend, FINAL_SHARE):
    """One timed search whose check after the alpha-beta runs to the deadline and refutes
    the move: ``(result, [the refuted move])``, or an empty list if no check came then."""
    s = gameai.make_searcher(f"negascout(time={t},tt=true,id=true,threats=true,"
                             f"threat_order=true,threat_verify=0.6,backend={backend})")
    part, start, refuted = s.threats, [None], []

    def refutes(state, move, should_stop=None):
        if refuted or start[0] is None or \
                time.perf_counter() < start[0] + t * (1 - FINAL_SHARE * 0.6):
            return False                        # (not yet the check after the alpha-beta)
        while not should_stop(0):               # the last check: it runs to the deadline
            time.sleep(0.005)
        refuted.append(move)
        return _score_lost(part, state, move)
    part.refutes = refutes

    def on_iteration(row):
        if start[0] is None:
            start[0] = time.perf_counter() - row["time_s"]
    return s.search(g, on_iteration=on_iteration), refuted


@pytest.mark.parametrize("name", ["okabe-02", "okabe-63"])
def test_a_reply_check_deepens_to_the_published_shortest_vct(name):
    """A reply check deepens its ply limit 1, 3, 5, ... within ``reply_nodes``: it gives
    what the solver gives called that way, and finds the puzzle's published shortest VCT."""
    from gameai.search.threats import ThreatPart, ThreatSolver
    s = load(BY_NAME[name])
    part = ThreatPart(vct_depth=15)
    n = part.reply(s, 1)
    ref = ThreatSolver(vct=True)
    assert (n, part.nodes) == (ref.win_within(s, 15, 1, part.reply_nodes, True), ref.nodes)
    assert n == 2 * BY_NAME[name]["attacks"] + 1


def test_complete_line_plays_a_short_proof_to_its_five_and_stops_when_told():
    """A proof whose line stops short (a defender node decided without a move) is played on
    to the five; a search's clock (``should_stop``) ends that early, the win's first move
    kept, as the root win and the vct searcher use it under a time limit."""
    from gameai.search.threats import ThreatSolver, complete_line
    rng = random.Random("complete-line")
    for _ in range(50):
        s = random_position(rng, "freestyle", 15, rng.randrange(14, 40))
        n, line, _ = ThreatSolver(vct=True).solve(s, 9)
        if n and len(line) < n:
            break
    else:
        pytest.fail("no short proof line in 50 seeded positions")
    key = s.key
    full = complete_line(s, ThreatSolver(vct=True), line, n)
    assert s.key == key and len(full) == n and full[:len(line)] == line
    attacker = s.to_move
    for m in full:
        s.push(m)
    assert s.result() is not None and s.result().winner == attacker
    for _ in full:
        s.pop()
    asked = []
    cut = complete_line(s, ThreatSolver(vct=True), line, n,
                        should_stop=lambda nodes: asked.append(nodes) or True)
    assert cut == line and asked and s.key == key


@pytest.mark.parametrize("backend", ["python", "compiled"])
def test_a_root_threat_proof_counts_its_nodes_and_line_length(backend):
    """The rule of SearchStats: a win proven by the root threat search reports the proof's
    nodes in ``nodes`` (== threat_nodes) and its line's length as ``depth``."""
    s = load(BY_NAME["renjuportal-2990"])
    r = gameai.make_searcher(f"negascout(depth=2,tt=true,threats=true,backend={backend})").search(s)
    assert r.value == MATE - 11
    st = r.stats
    assert st.nodes == st.threat_nodes > 0 and st.depth == 11 == MATE - r.value
