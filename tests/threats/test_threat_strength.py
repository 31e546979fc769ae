"""The threat-strength benchmark's pieces: the loss diagnosis on a hand-made game, and a
tiny match whose printed W-D-L must agree with the records it wrote."""
import pytest
import pandas as pd

from gameai.commands.reproduce import experiments_package

bench = __import__(f"{experiments_package().__name__}.bench_threat_strength",
                   fromlist=["final_threat_line"])


def test_final_threat_line_finds_where_the_fours_began():
    # Black: h8 h9 h10 (an open three), h11 (a straight four), h7 (five); White far away.
    opening = "h8 a1"
    played = ["h9", "a2", "h10", "a3", "h11", "h12", "h7"]
    ply, plies, kind = bench.final_threat_line("gomoku", opening, played, 0, 5, 5.0)
    # before h11 (ply 6) Black wins by fours in 3 plies; before h10 only two stones: no
    # win of 5 plies in the threat space
    assert (ply, plies, kind) == (6, 3, "VCF")
    # the last move alone (a five) when the search depth is one ply
    assert bench.final_threat_line("gomoku", opening, played, 0, 1, 5.0)[1:] == (1, "VCF")


def test_final_threat_line_counts_a_win_whose_line_stops_at_a_forbidden_block():
    # Renju: White's g7 makes the four d4-e5-f6-g7 (c3 is Black's), whose only five-point
    # h8 is a double-three point for Black (f8 g8 and h6 h7). Black has no legal block, so
    # the proven line is g7 alone, but the win is 3 plies: g7, any Black move, h8.
    opening = "c3 d4 f8 e5 g8 f6 h6 a15 h7"
    played = ["g7", "a1", "h8"]
    assert bench.final_threat_line("renju", opening, played, 1, 5, 5.0) == (9, 3, "VCF")


def test_tiny_match_reports_its_records(tmp_path, capsys):
    argv = ["--rules", "gomoku", "--games", "2", "--jobs", "1", "--out", str(tmp_path),
            "--threat", "negascout(depth=1,threats=true,threat_order=true)",
            "--plain", "negascout(depth=1)", "--diag-depth", "5", "--diag-time", "0.5"]
    assert bench.main(argv) == 0
    text = capsys.readouterr().out
    games = pd.read_parquet(tmp_path / "gomoku" / "games.parquet")
    threat = "negascout(depth=1,threats=true,threat_order=true)"
    won = sum((g.player0 == threat) == (g.winner == 0) for g in games.itertuples() if g.winner >= 0)
    drawn = int((games.winner < 0).sum())
    lost = len(games) - won - drawn
    assert f"gomoku, seed 11: {won}-{drawn}-{lost} (W-D-L) in 2 games" in text
    assert text.count("lost game") == lost


def test_verdict_needs_the_whole_wilson_interval_at_or_above_90_percent():
    # every game won: the Wilson lower bound is n / (n + z^2), z = 1.96, so 35 straight
    # wins (35 / 38.84 = 0.901) show the goal and 34 (0.898) do not
    assert bench.verdict(35, 35) == "shown"
    assert bench.verdict(34, 34) == "undecided"
    # a point score of 95% over 20 games is not enough; 70% of 100 games is refuted
    assert bench.verdict(19, 20) == "undecided"
    assert bench.verdict(70, 100) == "refuted"


def test_the_26_standard_openings():
    from gameai.games.gomoku_openings import _SYMMETRIES, standard_openings

    def offsets(text):
        return ord(text[0]) - ord("h"), int(text[1:]) - 8

    openings = standard_openings()
    # the Renju opening rule's count: 13 direct and 13 indirect openings
    assert len(openings) == 26
    kinds = [abs(offsets(w)[0]) + abs(offsets(w)[1]) for _, w, _ in openings]
    assert kinds.count(1) == 13 and kinds.count(2) == 13
    classes = set()
    for b1, w, b2 in openings:
        assert b1 == "h8" and max(map(abs, offsets(w))) == 1
        assert max(map(abs, offsets(b2))) <= 2 and b2 not in (b1, w)
        # no two openings are the same position seen through a symmetry of the board
        classes.add(min((g(*offsets(w)), tuple(sorted([(0, 0), g(*offsets(b2))])))
                        for g in _SYMMETRIES))
    assert len(classes) == 26


@pytest.mark.parametrize("depths", [(4,), (4, 5)])
def test_balanced_openings_follow_their_rule(depths):
    """Each balanced opening is a standard opening plus White's stone in the central 7x7
    and Black's in the central 9x9; the judge (the plain player at ``depths``, its values
    averaged, rechecked by the Python backend) scores it within the limit for White, and
    the VCT search finds White no win."""
    import gameai
    from gameai.games.gomoku_openings import standard_openings
    limit = 300
    chosen = bench.balanced_openings("renju", 2, 5, "compiled", limit, depths)
    starts = {tuple(o) for o in standard_openings()}
    assert len(set(chosen)) == 2
    for o in chosen:
        assert len(o) == 5 and o[:3] in starts
        for text, half in ((o[3], 3), (o[4], 4)):
            assert abs(ord(text[0]) - ord("h")) <= half and abs(int(text[1:]) - 8) <= half
        g = gameai.load_game("renju", moves=" ".join(o))
        values = [gameai.make_searcher(f"negascout(depth={d},tt=true,history=true,id=true)")
                  .search(g).value for d in depths]
        assert abs(sum(values) / len(values)) <= limit
        assert gameai.make_searcher("vct(depth=15,nodes=20000)").search(g).value <= 0


def _record(folder, threat, plain, rows):
    """A record folder as --out writes it: the manifest's players and games.parquet
    (``rows``: opening, threat player has Black, the threat player's score)."""
    import json
    folder.mkdir(parents=True)
    (folder / "manifest.json").write_text(json.dumps({"config": {"players": [threat, plain]}}))
    pairs = {o: k for k, o in enumerate(dict.fromkeys(o for o, _, _ in rows))}
    pd.DataFrame([{"game_id": i, "pairing": 0, "pair": pairs[o], "opening": o,
                   "player0": threat if black else plain, "player1": plain if black else threat,
                   "score0": score if black else 1 - score,
                   "winner": -1 if score == 0.5 else 0 if (score == 1) == black else 1}
                  for i, (o, black, score) in enumerate(rows)]).to_parquet(folder / "games.parquet")


def test_compare_pairs_games_by_opening_and_colour(tmp_path):
    a_rows = [("h8 h9 g7", True, 1), ("h8 h9 g7", False, 0), ("h8 i9 j8", True, 1),
              ("h8 i9 j8", False, 0.5)]
    # B lists its games in another order; it loses the first opening as Black, wins it
    # as White and the other as White
    b_rows = [("h8 i9 j8", False, 1), ("h8 h9 g7", False, 1), ("h8 i9 j8", True, 1),
              ("h8 h9 g7", True, 0)]
    _record(tmp_path / "a", "negascout(depth=2,threats=true)", "negascout(depth=2)", a_rows)
    _record(tmp_path / "b", "negascout(depth=3,threats=true)", "negascout(depth=2)", b_rows)
    text = bench.compare_runs(tmp_path / "a", tmp_path / "b")
    assert "4 games on the same openings and colours: A 2.5, B 3 points; A scored more in 1, " \
        "B in 2, the same in 1" in text
    assert "difference A - B: -12.5% of a point a game" in text
    assert "threat player as Black: A 2, B 1 of 2" in text
    assert "threat player as White: A 0.5, B 2 of 2" in text


def test_compare_names_what_is_wrong(tmp_path, capsys):
    _record(tmp_path / "a", "t(threats=true)", "p", [("h8 h9", True, 1), ("h8 h9", False, 1)])
    _record(tmp_path / "b", "t(threats=true)", "p", [("h8 i9", True, 1), ("h8 h9", False, 1)])
    assert bench.main(["--compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 2
    assert "different games: 1 only in A, 1 only in B" in capsys.readouterr().out
    assert bench.main(["--compare", str(tmp_path), str(tmp_path / "b")]) == 2
    assert "holds no manifest.json" in capsys.readouterr().out
    (tmp_path / "b" / "games.parquet").write_bytes(b"not parquet")
    assert bench.main(["--compare", str(tmp_path / "a"), str(tmp_path / "b")]) == 2
    assert "games.parquet cannot be read" in capsys.readouterr().out


def test_pool_counts_each_runs_games_once(tmp_path, capsys):
    """Two runs on other openings pooled: 4 games, the threat player won 3 (both of the
    first opening, the second one's as Black) and lost 1; pairs: one won twice, one split."""
    _record(tmp_path / "a", "t(threats=true)", "p", [("h8 h9", True, 1), ("h8 h9", False, 1)])
    _record(tmp_path / "b", "t(threats=true)", "p", [("h8 i9", True, 1), ("h8 i9", False, 0)])
    assert bench.main(["--pool", str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out
    assert "2 runs pooled: 3-0-1 (W-D-L) in 4 games (won 2 of 2 as black, 1 of 2 as white), " \
        "score 75.0%" in out
    assert "(pairs 0 0 1 0 1)" in out


def test_pool_refuses_games_that_would_count_twice(tmp_path, capsys):
    _record(tmp_path / "a", "t(threats=true)", "p", [("h8 h9", True, 1), ("h8 h9", False, 1)])
    _record(tmp_path / "c", "t(threats=true)", "q", [("h8 j9", True, 1), ("h8 j9", False, 0)])
    assert bench.main(["--pool", str(tmp_path / "a"), str(tmp_path / "a" / ".." / "a")]) == 2
    assert "is given twice" in capsys.readouterr().out
    assert bench.main(["--pool", str(tmp_path / "a"), str(tmp_path / "c")]) == 2
    assert "other players than" in capsys.readouterr().out


def test_pool_keeps_and_counts_an_opening_two_seeds_drew(tmp_path, capsys):
    """Two seeds may draw the same opening; its games were played twice and both count."""
    _record(tmp_path / "a", "t(threats=true)", "p", [("h8 h9", True, 1), ("h8 h9", False, 1)])
    _record(tmp_path / "b", "t(threats=true)", "p", [("h8 i9", True, 1), ("h8 h9", False, 0)])
    assert bench.main(["--pool", str(tmp_path / "a"), str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out
    assert "1 opening(s) played in more than one of the runs" in out
    assert "3-0-1 (W-D-L) in 4 games" in out


def _manifest_game(folder, game="gomoku"):
    import json
    m = json.loads((folder / "manifest.json").read_text())
    m["config"]["game"] = game
    (folder / "manifest.json").write_text(json.dumps(m))


def test_replay_collects_each_lost_opening_and_colour_once(tmp_path):
    _record(tmp_path / "a", "t(threats=true)", "p", [("h8 h9", True, 0), ("h8 h9", False, 1),
                                                     ("h8 i9", True, 1), ("h8 i9", False, 0.5)])
    _record(tmp_path / "b", "u(threats=true)", "p", [("h8 h9", True, 0), ("h8 h9", False, 0),
                                                     ("h8 i9", True, 1), ("h8 i9", False, 1)])
    for f in ("a", "b"):
        _manifest_game(tmp_path / f)
    game, threat, plain, lost = bench.lost_assignments([tmp_path / "a", tmp_path / "b"])
    # a draw is not a loss; the loss both runs share is listed once
    assert (game, threat, plain, lost) == ("gomoku", "t(threats=true)", "p",
                                           [("h8 h9", True), ("h8 h9", False)])
    _record(tmp_path / "c", "t(threats=true)", "q", [("h8 h9", True, 0)])
    _manifest_game(tmp_path / "c")
    with pytest.raises(ValueError, match="another game or plain player"):
        bench.lost_assignments([tmp_path / "a", tmp_path / "c"])


def test_replay_plays_each_lost_game_again_with_each_player(tmp_path, capsys):
    threat, plain = "negascout(depth=1,threats=true)", "negascout(depth=2)"
    _record(tmp_path / "run", threat, plain, [("h8 h9 g7", True, 0), ("h8 h9 g7", False, 1),
                                              ("h8 i9 j8", True, 1), ("h8 i9 j8", False, 0)])
    _manifest_game(tmp_path / "run")
    specs = ["negascout(depth=1)", "negascout(depth=2,history=true)"]  # fast players: the
    # replay's bookkeeping is under test, not the threat search
    argv = ["--replay", str(tmp_path / "run"), "--replay-with", *specs, "--jobs", "1",
            "--out", str(tmp_path / "out")]
    assert bench.main(argv) == 0
    text = capsys.readouterr().out
    games = pd.read_csv(tmp_path / "out" / "replay.csv")
    assert len(games) == 4 and set(games.threat) == set(specs)
    assert sorted(zip(games.opening, games.threat_black)) == \
        sorted([("h8 h9 g7", True), ("h8 i9 j8", False)] * 2)
    for spec in specs:
        d = games[games.threat == spec]
        saved = int((d.score > 0).sum())
        assert f"{spec}: saved {saved} of 2 " in text
    assert "2 lost games (opening, colour)" in text and "paired:" in text
    assert (tmp_path / "out" / "manifest.json").is_file()
    assert bench.main(["--replay", str(tmp_path / "nothing")]) == 2
    assert "holds no manifest.json" in capsys.readouterr().out


def test_replay_refuses_a_repeated_spec_and_resumes_from_its_journal(tmp_path, capsys,
                                                                     monkeypatch):
    import gameai.tournament.play as play
    threat, plain = "negascout(depth=1,threats=true)", "negascout(depth=2)"
    _record(tmp_path / "run", threat, plain, [("h8 h9 g7", True, 0), ("h8 i9 j8", False, 0)])
    _manifest_game(tmp_path / "run")
    run, out = str(tmp_path / "run"), str(tmp_path / "out")
    assert bench.main(["--replay", run, "--replay-with", "negascout(depth=1)",
                       "negascout(depth=1)", "--out", out]) == 2
    assert "more than once" in capsys.readouterr().out and not (tmp_path / "out").exists()
    played = []
    real = play.play_game
    monkeypatch.setattr(play, "play_game", lambda t: played.append(t.game_id) or real(t))
    argv = ["--replay", run, "--replay-with", "negascout(depth=1)", "--jobs", "1", "--out", out]
    assert bench.main(argv) == 0
    first = pd.read_csv(tmp_path / "out" / "replay.csv")
    assert sorted(played) == [0, 1]
    # a replay stopped after its first game: the journal keeps it, the rerun plays the other
    journal = tmp_path / "out" / "journal.jsonl"
    journal.write_text(journal.read_text().splitlines()[0] + "\n")
    (tmp_path / "out" / "games.parquet").unlink()
    played.clear()
    assert bench.main(argv) == 0
    again = pd.read_csv(tmp_path / "out" / "replay.csv")
    assert played == [1] and again.iloc[:1].equals(first.iloc[:1])   # kept, time and all
    assert again.drop(columns="time_s").equals(first.drop(columns="time_s"))  # same game
    capsys.readouterr()
    # another replay into the same folder is refused before anything is played
    played.clear()
    assert bench.main(["--replay", run, "--replay-with", "negascout(depth=2)", "--jobs", "1",
                       "--out", out]) == 2
    assert "holds another replay" in capsys.readouterr().out and played == []


def _ignored_three_game(folder):
    """A one-game record where White, the threat player, ignores Black's open three (a3 at
    ply 5) and loses to its straight four (the test below says why)."""
    threat, plain = "negascout(depth=1,threats=true)", "negascout(depth=1)"
    _record(folder, threat, plain, [("h8 a1", False, 0)])
    _manifest_game(folder)
    pd.DataFrame({"game_id": 0, "ply": range(2, 9),
                  "move": ["h9", "a2", "h10", "a3", "h11", "a4", "h12"]}).to_parquet(
        folder / "moves.parquet")


def test_postmortem_finds_the_move_that_ignored_an_open_three(tmp_path, capsys):
    # The threat player is White. Black h8 h9 h10 is an open three after ply 4, and White's
    # a3 (ply 5) ignores it: Black's h11 makes a straight four, a three-ply win. Before
    # that every Black stone stands on column h, so no second line can carry a three and
    # Black has no threat sequence; at ply 5 only h7 and h11 stop both straight fours.
    _ignored_three_game(tmp_path / "run")
    argv = ["--postmortem", str(tmp_path / "run"), "--pm-nodes", "200000",
            "--pm-alt-nodes", "50000", "--jobs", "1", "--out", str(tmp_path / "pm")]
    assert bench.main(argv) == 0
    text = capsys.readouterr().out
    assert "our move a3 (ply 5) allowed a VCT of 3 plies" in text
    row = pd.read_csv(tmp_path / "pm" / "postmortem.csv").iloc[0]
    assert (row.ply, row.move, row.vct_plies, row.threat_black) == (5, "a3", 3, False)
    assert set(row.not_shown_lost_moves.split()) == {"h7", "h11"}
    assert row.not_shown_lost == 2 and row.threat_vct_depth == 15
    assert "a proven VCT after one of our moves in 1; of those, every move there allowed " \
        "one in 0" in text
    (tmp_path / "run" / "moves.parquet").unlink()
    assert bench.main(["--postmortem", str(tmp_path / "run")]) == 2
    assert "holds no moves.parquet" in capsys.readouterr().out
