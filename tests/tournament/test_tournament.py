"""Tournament schedule, reproducibility across backends, records, resume and SPRT stop."""
import json
import subprocess
import sys

import pandas as pd
import pytest

import gameai
from gameai.errors import RecordError, SpecError
from gameai.tournament.records import RecordStore
from gameai.tournament.runner import TournamentConfig, make_tasks, run_tournament
from gameai.tournament.schedule import build_schedule, pairings, random_openings, read_openings

TIMING = ["time_s"]


def _strip_time(df):
    return df.drop(columns=[c for c in df.columns if c in TIMING]).reset_index(drop=True)


def test_pairings_round_robin_and_gauntlet():
    assert pairings(3) == [(0, 1), (0, 2), (1, 2)]
    assert pairings(4, "gauntlet") == [(0, 1), (0, 2), (0, 3)]
    with pytest.raises(SpecError):
        pairings(1)
    with pytest.raises(SpecError):
        pairings(3, "swiss")


def test_schedule_swaps_colours_per_opening_and_is_deterministic():
    tasks = build_schedule("tictactoe", ["random", "random", "random(seed=2)"], games=4, seed=9,
                           opening_plies=2)
    assert len(tasks) == 3 * 4 and [t.game_id for t in tasks] == list(range(12))
    by_pair = {}
    for t in tasks:
        by_pair.setdefault(t.pair, []).append(t)
    for pair in by_pair.values():
        a, b = pair
        assert a.opening == b.opening and len(a.opening) == 2
        assert a.names == b.names[::-1] and a.seed != b.seed
    assert tasks[0].names == ("random", "random#2")
    again = build_schedule("tictactoe", ["random", "random", "random(seed=2)"], games=4, seed=9,
                           opening_plies=2)
    assert again == tasks
    other = build_schedule("tictactoe", ["random", "random"], games=4, seed=10, opening_plies=2)
    assert [t.opening for t in other] != [t.opening for t in tasks[:4]]


def test_odd_game_count_and_openings_are_playable():
    tasks = build_schedule("tictactoe", ["random", "random"], games=3, seed=1, opening_plies=3)
    assert len(tasks) == 3
    for op in random_openings("gomoku", 5, 4, seed=2):
        g = gameai.load_game("gomoku")
        for m in op:
            g.push(g.parse_move(m))
        assert g.result() is None


def test_openings_file(tmp_path):
    f = tmp_path / "open.txt"
    f.write_text("# two openings\nb2 a1\n\na1 # corner\n")
    assert read_openings(f, "tictactoe") == [("b2", "a1"), ("a1",)]
    f.write_text("b2 b2\n")
    with pytest.raises(gameai.PositionError, match="line 1"):
        read_openings(f, "tictactoe")


def _cfg(**kw):
    base = dict(game="tictactoe", players=["alphabeta(depth=2)", "random"], games=6,
                seed=4, opening_plies=1)
    base.update(kw)
    return TournamentConfig(**base)


def test_same_seed_same_games_for_1_and_2_joblib_workers(tmp_path):
    a = run_tournament(_cfg(), tmp_path / "a", jobs=1, progress=False, log=None)
    b = run_tournament(_cfg(), tmp_path / "b", jobs=2, progress=False, log=None)
    ga, gb = (pd.read_parquet(p / "games.parquet") for p in (a.out, b.out))
    pd.testing.assert_frame_equal(_strip_time(ga), _strip_time(gb))
    ma, mb = (pd.read_parquet(p / "moves.parquet") for p in (a.out, b.out))
    pd.testing.assert_frame_equal(_strip_time(ma), _strip_time(mb))
    assert len(ga) == 6 and set(ga["result"]) <= {"1-0", "0-1", "1/2-1/2"}
    c = run_tournament(_cfg(seed=5), tmp_path / "c", jobs=1, progress=False, log=None)
    assert list(pd.read_parquet(c.out / "games.parquet")["seed"]) != list(ga["seed"])


def test_dask_local_cluster_gives_the_same_games(tmp_path):
    pytest.importorskip("distributed")
    a = run_tournament(_cfg(games=4), tmp_path / "a", jobs=1, progress=False, log=None)
    d = run_tournament(_cfg(games=4), tmp_path / "d", jobs=2, backend="dask", progress=False, log=None)
    ga, gd = (pd.read_parquet(p / "games.parquet") for p in (a.out, d.out))
    pd.testing.assert_frame_equal(_strip_time(ga), _strip_time(gd))


def test_records_manifest_and_standings(tmp_path):
    r = run_tournament(_cfg(), tmp_path, jobs=1, progress=False, log=None)
    games = pd.read_parquet(tmp_path / "games.parquet")
    moves = pd.read_parquet(tmp_path / "moves.parquet")
    for col in ("game_id", "player0", "player1", "opening", "result", "reason", "plies", "time_s"):
        assert col in games.columns
    for col in ("game_id", "ply", "move", "value", "depth", "nodes", "leaves", "cutoffs",
                "tt_hits", "researches", "time_s"):
        assert col in moves.columns
    # every game's moves replay legally from its opening to its recorded result
    for _, g in games.iterrows():
        st = gameai.load_game("tictactoe", moves=g["opening"])
        for mv in moves[moves.game_id == g["game_id"]].sort_values("ply")["move"]:
            st.push(st.parse_move(mv))
        assert st.ply == g["plies"]
        out = st.result()
        assert out is not None and out.reason == g["reason"]
        assert (-1 if out.winner is None else out.winner) == g["winner"]
    man = json.loads((tmp_path / "manifest.json").read_text())
    assert man["config"]["players"] == _cfg().players and man["status"] == "finished"
    assert man["seed"] == 4 and man["games_recorded"] == 6 and "git_commit" in man
    st = pd.read_csv(tmp_path / "standings.csv")
    assert st["games"].sum() == 12 and st["points"].sum() == 6
    pr = pd.read_csv(tmp_path / "pairings.csv")
    assert pr.loc[0, "wins"] + pr.loc[0, "draws"] + pr.loc[0, "losses"] == 6
    assert sum(map(int, pr.loc[0, "penta"].split())) == 3
    assert r.pairings[0]["player"] == _cfg().players[0]


def test_resume_plays_only_missing_games_and_survives_a_torn_journal(tmp_path):
    full = run_tournament(_cfg(), tmp_path / "full", jobs=1, progress=False, log=None)
    part = tmp_path / "part"
    run_tournament(_cfg(), part, jobs=1, progress=False, log=None)
    # simulate a kill: keep 2 finished games, then half a line being written
    lines = (part / "journal.jsonl").read_bytes().splitlines(keepends=True)
    (part / "journal.jsonl").write_bytes(b"".join(lines[:2]) + lines[2][:40])
    (part / "games.parquet").unlink()
    r = run_tournament(_cfg(), part, jobs=2, progress=False, log=None)
    assert r.skipped == 2 and r.played == 4
    ga, gb = (pd.read_parquet(p / "games.parquet") for p in (full.out, part))
    pd.testing.assert_frame_equal(_strip_time(ga), _strip_time(gb))
    again = run_tournament(_cfg(), part, jobs=2, progress=False, log=None)
    assert again.played == 0 and len(again.games) == 6
    assert len(RecordStore(part).done_ids()) == 6


def test_resume_refuses_a_different_tournament(tmp_path):
    run_tournament(_cfg(games=2), tmp_path, jobs=1, progress=False, log=None)
    with pytest.raises(RecordError, match="games"):
        run_tournament(_cfg(games=4), tmp_path, jobs=1, progress=False, log=None)


def test_ply_limit_adjudicates_a_draw(tmp_path):
    r = run_tournament(_cfg(players=["random", "random"], max_plies=3, opening_plies=0),
                       tmp_path, jobs=1, progress=False, log=None)
    assert all(g["reason"] == "ply-limit" and g["result"] == "1/2-1/2" and g["plies"] == 3
               for g in r.games)


def test_sprt_stops_a_lopsided_match_early(tmp_path):
    strong = "alphabeta(depth=9)"
    cfg = _cfg(players=[strong, "random"], games=60, sprt="0,200,0.1,0.1", opening_plies=0)
    r = run_tournament(cfg, tmp_path, jobs=1, progress=False, log=None)
    assert r.stopped_by_sprt == "H1" and len(r.games) < 60
    man = json.loads((tmp_path / "manifest.json").read_text())
    assert man["status"] == "stopped-by-sprt-H1"
    again = run_tournament(cfg, tmp_path, jobs=1, progress=False, log=None)
    assert again.played == 0  # a decided match stays decided on resume


def test_bad_options_raise_spec_errors(tmp_path):
    with pytest.raises(SpecError):
        run_tournament(_cfg(games=0), tmp_path, progress=False, log=None)
    with pytest.raises(SpecError):
        run_tournament(_cfg(), tmp_path, backend="mpi", progress=False, log=None)
    with pytest.raises(SpecError):
        run_tournament(_cfg(players=["random", "random", "random"], sprt="0,5"), tmp_path,
                       progress=False, log=None)
    with pytest.raises(SpecError):
        make_tasks(_cfg(players=["nosuchplayer", "random"]))


def test_contract_cli_gomoku(tmp_path):
    second = "pointweight" if "pointweight" in gameai.PLAYERS.names() else "random"
    first = "alphabeta(depth=2)"
    out = tmp_path / "DIR"
    cmd = [sys.executable, "-m", "gameai.cli", "tournament", "--game", "gomoku", "--player", first,
           "--player", second, "--games", "4", "--jobs", "2", "--seed", "1", "--out", str(out),
           "--no-progress"]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "elo" in res.stdout
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == 4 and set(games["player0"]) == {first, second}
    assert (out / "moves.parquet").exists() and (out / "manifest.json").exists()


@pytest.mark.slow
def test_sigkilled_tournament_resumes_without_losing_games(tmp_path):
    import os
    import signal
    import time
    first = "alphabeta(depth=2)"
    args = ["--game", "gomoku", "--player", first, "--player", "random", "--games", "12",
            "--seed", "3", "--jobs", "1", "--no-progress"]
    cmd = [sys.executable, "-m", "gameai.cli", "tournament", *args]
    out = tmp_path / "killed"
    proc = subprocess.Popen(cmd + ["--out", str(out)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    journal = out / "journal.jsonl"
    t0 = time.time()
    while time.time() - t0 < 120:
        if journal.exists() and journal.read_bytes().count(b"\n") >= 3:
            break
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    kept = journal.read_bytes().count(b"\n")
    assert 3 <= kept < 12
    res = subprocess.run(cmd + ["--out", str(out)], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert f"resuming: {kept} of 12" in res.stdout
    ref = tmp_path / "ref"
    subprocess.run(cmd + ["--out", str(ref)], check=True, capture_output=True, timeout=300)
    ga, gb = (pd.read_parquet(p / "games.parquet") for p in (out, ref))
    pd.testing.assert_frame_equal(_strip_time(ga), _strip_time(gb))


def test_dask_backend_joins_an_existing_scheduler(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        d = run_tournament(_cfg(games=2), tmp_path / "d", backend="dask",
                           scheduler=cluster.scheduler_address, progress=False, log=None)
    a = run_tournament(_cfg(games=2), tmp_path / "a", jobs=1, progress=False, log=None)
    assert [g["result"] for g in d.games] == [g["result"] for g in a.games]
    assert [g["plies"] for g in d.games] == [g["plies"] for g in a.games]


def test_sprt_stop_is_the_same_on_one_and_two_workers(tmp_path):
    strong = "alphabeta(depth=9)"
    cfg = _cfg(players=[strong, "random"], games=200, sprt="0,200,0.1,0.1", opening_plies=1)
    a = run_tournament(cfg, tmp_path / "a", jobs=1, progress=False, log=None)
    b = run_tournament(cfg, tmp_path / "b", jobs=2, progress=False, log=None)
    assert a.stopped_by_sprt == b.stopped_by_sprt == "H1"
    assert [g["game_id"] for g in a.games] == [g["game_id"] for g in b.games] == list(range(len(a.games)))
    ga, gb = (pd.read_parquet(p / "games.parquet") for p in (a.out, b.out))
    pd.testing.assert_frame_equal(_strip_time(ga), _strip_time(gb))


def test_a_folder_in_use_is_refused(tmp_path):
    store = RecordStore(tmp_path)
    try:
        with pytest.raises(RecordError, match="in use"):
            run_tournament(_cfg(games=2), tmp_path, jobs=1, progress=False, log=None)
    finally:
        store.close()
    assert len(run_tournament(_cfg(games=2), tmp_path, jobs=1, progress=False, log=None).games) == 2


class _FarPlayer:
    """Plays the empty point farthest from the centre: legal, but outside Gomoku's
    candidate list (points near stones), as an external engine might."""

    name = "far"

    def new_game(self, seed):
        pass

    def choose(self, state):
        from gameai.players.protocol import Decision
        for text in ("a1", "o15", "a15", "o1", "b1", "n15"):
            try:
                return Decision(state.parse_move(text))
            except gameai.GameError:
                continue
        return Decision(state.legal_moves()[0])

    def close(self):
        pass


def test_legal_moves_outside_the_candidate_list_are_accepted(monkeypatch):
    from gameai.tournament import play
    from gameai.tournament.schedule import GameTask
    real = play.make_player
    monkeypatch.setattr(play, "make_player", lambda spec: _FarPlayer() if spec == "far" else real(spec))
    monkeypatch.setattr("gameai.tournament.schedule.check_player_spec", lambda spec: None)
    task = GameTask(game_id=0, game="gomoku", players=("far", "random"), names=("far", "random"),
                    pairing=0, pair=0, opening_id=0, opening=("h8", "h9"), seed=1, max_plies=12)
    rec = play.play_game(task)
    assert rec["game"]["faulty"] == -1 and rec["game"]["reason"] == "ply-limit", rec["game"]["error"]
    assert rec["moves"][0]["move"] == "a1"
    assert not play.is_legal(gameai.load_game("gomoku", moves="h8"), gameai.load_game("gomoku").parse_move("h8"), [])


def test_balanced_random_openings_respect_the_eval_bound():
    game = "gomoku"
    ev = gameai.make_evaluator(gameai.load_game(game).default_eval)
    free = random_openings(game, 12, 5, seed=3)
    vals = []
    for op in free:
        g = gameai.load_game(game, moves=" ".join(op))
        vals.append(abs(ev(g)))
    bound = sorted(vals)[len(vals) // 2]  # the median: about half the free openings fail it
    balanced = random_openings(game, 6, 5, seed=3, balance=bound)
    for op in balanced:
        assert abs(ev(gameai.load_game(game, moves=" ".join(op)))) <= bound


class _SlowToPrepare(_FarPlayer):
    """Records its calls; its preparation takes longer than any move may."""

    def __init__(self):
        self.calls = []

    def new_game(self, seed):
        self.calls.append("new_game")

    def prepare(self, state):
        import time
        self.calls.append(("prepare", state.key))
        time.sleep(0.5)

    def choose(self, state):
        self.calls.append("choose")
        return super().choose(state)


def test_players_are_prepared_once_a_game_off_the_move_clock(monkeypatch):
    from gameai.tournament import play
    from gameai.tournament.schedule import GameTask
    real, made = play.make_player, []
    monkeypatch.setattr(play, "make_player",
                        lambda spec: made.append(_SlowToPrepare()) or made[-1] if spec == "slow" else real(spec))
    task = GameTask(game_id=0, game="gomoku", players=("slow", "random"), names=("slow", "random"),
                    pairing=0, pair=0, opening_id=0, opening=("h8", "h9"), seed=1, max_plies=8)
    rec = play.play_game(task)
    assert rec["game"]["faulty"] == -1, rec["game"]["error"]
    calls = made[0].calls
    # prepared once, on the position after the opening, before its first move
    after_opening = gameai.load_game("gomoku", moves="h8 h9").key
    assert calls[:2] == ["new_game", ("prepare", after_opening)] and sum(c[0] == "prepare" for c in calls if isinstance(c, tuple)) == 1
    assert calls[2:] == ["choose"] * 3
    ours = [m for m in rec["moves"] if m["player"] == "slow"]
    assert len(ours) == 3 and ours[0]["time_s"] < 0.5   # the half second of preparing is not on it


def test_a_compiled_search_player_prepares_its_searcher(monkeypatch):
    from gameai.players.search import SearchPlayer
    p = SearchPlayer("alphabeta(depth=2)")
    seen = []
    monkeypatch.setattr(p.searcher, "prepare", lambda state: seen.append(state.name))
    p.prepare(gameai.load_game("xiangqi"))
    assert seen == ["xiangqi"]


def test_short_names_name_the_players_in_records_and_standings(tmp_path, capsys):
    from gameai.cli import main
    long = "alphabeta(depth=2,history=true,tt=true,killers=true)"
    out = tmp_path / "t"
    rc = main(["tournament", "--game", "tictactoe", "--player", long, "--name", "ab2",
               "--player", "random", "--games", "2", "--jobs", "1", "--no-progress", "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0 and long not in text and "ab2" in text
    import pyarrow.parquet as pq
    games = pq.read_table(out / "games.parquet").to_pylist()
    assert {g["player0"] for g in games} | {g["player1"] for g in games} == {"ab2", "random"}
    with pytest.raises(gameai.SpecError, match="3 names for 2 players"):
        from gameai.tournament.schedule import unique_names
        unique_names(["a", "b"], ["x", "y", "z"])
    assert unique_names(["random", "random"], ["r"]) == ["r", "random"]
    assert unique_names(["random", "random"], ["random"]) == ["random", "random#2"]


def test_one_name_given_to_two_players_is_refused_before_any_game(tmp_path, capsys):
    from gameai.cli import main
    out = tmp_path / "t"
    rc = main(["tournament", "--game", "tictactoe", "--player", "random", "--name", "a",
               "--player", "alphabeta(depth=1)", "--name", "a", "--games", "2", "--jobs", "1",
               "--no-progress", "--out", str(out)])
    assert rc == 2 and "'a' given to more than one player" in capsys.readouterr().err
    assert not (out / "games.parquet").exists()
    from gameai.tournament.schedule import unique_names
    assert unique_names(["random", "random"], ["a", "b"]) == ["a", "b"]   # distinct names pass
