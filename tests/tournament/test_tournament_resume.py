"""Resuming a tournament folder keeps every game recorded in the journal or the parquet
tables, refuses what does not fit (naming it) without changing a byte, and says why a
tournament whose player never played failed; a Dask scheduler address fails fast."""
import json
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from gameai.cli import main
from gameai.errors import RecordError, SpecError
from gameai.tournament.runner import TournamentConfig, run_tournament
from gameai.tournament.standings import render

FILES = ("journal.jsonl", "games.parquet", "moves.parquet", "manifest.json")


def _cfg(**kw):
    base = dict(game="tictactoe", players=["alphabeta(depth=1)", "random"], games=8, seed=1,
                opening_plies=1)
    base.update(kw)
    return TournamentConfig(**base)


def _run(cfg, out, log=None):
    return run_tournament(cfg, out, jobs=1, progress=False, log=log)


def _files(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}


def _by_id(games):
    return {g["game_id"]: g for g in games}


@pytest.fixture
def played(tmp_path):
    """A finished 8-game tournament: (folder, its games by id)."""
    out = tmp_path / "t"
    return out, _by_id(_run(_cfg(), out).games)


def _keep_in_tables(out: Path, n: int) -> None:
    """Rewrite both parquet tables with only the games below id ``n``."""
    for name in ("games.parquet", "moves.parquet"):
        t = pq.read_table(out / name)
        pq.write_table(t.filter(t.column("game_id").to_numpy() < n), out / name)


def test_empty_journal_resumes_from_the_tables(played):
    out, before = played
    _keep_in_tables(out, 6)
    (out / "journal.jsonl").write_bytes(b"")
    lines = []
    r = _run(_cfg(), out, log=lines.append)
    assert r.skipped == 6 and r.played == 2
    assert "resuming: 6 of 8 games" in lines[0]
    after = _by_id(r.games)
    assert all(after[g] == before[g] for g in range(6))      # time_s too: not replayed
    assert len((out / "journal.jsonl").read_bytes().splitlines()) == 8


def test_games_only_in_the_journal_or_only_in_the_tables_are_both_kept(played):
    out, before = played
    _keep_in_tables(out, 5)
    lines = (out / "journal.jsonl").read_bytes().splitlines(keepends=True)
    del lines[1]                                              # game 1: only in the tables
    (out / "journal.jsonl").write_bytes(b"".join(lines))      # games 5-7: only in the journal
    r = _run(_cfg(), out)
    assert r.played == 0 and _by_id(r.games) == before
    again = _run(_cfg(), out)
    assert again.played == 0 and _by_id(again.games) == before


def test_a_folder_without_its_manifest_must_match_the_schedule(played):
    out, _ = played
    (out / "manifest.json").unlink()
    _keep_in_tables(out, 6)
    j = out / "journal.jsonl"
    j.write_bytes(b"".join(j.read_bytes().splitlines(keepends=True)[:6]))
    files = _files(out)
    with pytest.raises(RecordError, match=r"game 0: .* recorded, .* scheduled\).*another tournament"):
        _run(_cfg(seed=2), out)
    assert _files(out) == files
    lines = []
    r = _run(_cfg(), out, log=lines.append)
    assert r.played == 2 and "manifest was missing" in lines[0]
    assert json.loads((out / "manifest.json").read_text())["seed"] == 1


def _edit_journal(out: Path, line: int, edit) -> None:
    j = out / "journal.jsonl"
    lines = j.read_text().splitlines()
    rec = json.loads(lines[line])
    edit(rec)
    lines[line] = json.dumps(rec)
    j.write_text("\n".join(lines) + "\n")


def _flip_result(rec):
    g = rec["game"]
    g["winner"] = 1 - g["winner"] if g["winner"] >= 0 else 0
    g["score0"] = float(g["winner"] == 0)
    g["result"] = "1-0" if g["winner"] == 0 else "0-1"


def _refused(out, match):
    files = _files(out)
    with pytest.raises(RecordError, match=match):
        _run(_cfg(), out)
    assert _files(out) == files


def test_an_edited_result_is_refused(played):
    out, _ = played
    _edit_journal(out, 3, _flip_result)
    _refused(out, r"game 3 is recorded differently in journal.jsonl line 4 .*result")
    for name in ("games.parquet", "moves.parquet"):          # the journal alone: the moves say
        (out / name).unlink()
    _refused(out, r"game 3 in journal.jsonl line 4 records .* but its moves give")


def test_illegal_moves_in_the_journal_are_refused_by_line(played):
    out, _ = played
    for name in ("games.parquet", "moves.parquet"):
        (out / name).unlink()

    def replay_first(rec):
        rec["moves"][1]["move"] = rec["moves"][0]["move"]    # the same square twice
    _edit_journal(out, 2, replay_first)
    _refused(out, r"game 2 in journal.jsonl line 3 has the illegal move")


def test_moves_that_differ_between_journal_and_tables_are_refused(played):
    out, _ = played

    def other_move(rec):
        rec["moves"][0]["nodes"] = (rec["moves"][0]["nodes"] or 0) + 1
    _edit_journal(out, 5, other_move)
    _refused(out, r"game 5 is recorded differently .*move 1: nodes")


@pytest.mark.parametrize("where", ["middle", "last"])
def test_a_line_that_does_not_parse_is_reported_by_number(played, where):
    out, _ = played
    j = out / "journal.jsonl"
    lines = j.read_bytes().splitlines()
    at = 2 if where == "middle" else len(lines) - 1
    lines[at] = lines[at][:-7]                                # a complete line, cut short
    j.write_bytes(b"\n".join(lines) + b"\n")
    _refused(out, f"line {at + 1} does not parse")


def test_a_torn_last_line_is_dropped_with_a_note_and_its_game_kept(played):
    out, before = played
    j = out / "journal.jsonl"
    data = j.read_bytes()
    j.write_bytes(data[:-30])                                 # the last append, cut short
    lines = []
    r = _run(_cfg(), out, log=lines.append)
    assert r.played == 0 and _by_id(r.games) == before       # game 7 is in the tables
    assert any("torn last line 8" in x for x in lines)
    assert j.read_bytes() == data


def test_temporary_files_of_a_killed_run_are_removed(played):
    out, _ = played
    tmp = out / ".moves.parquet.k1ll3d_x.tmp"
    tmp.write_bytes(b"PAR1 half")
    other = out / "notes.tmp"                                 # not ours: left alone
    other.write_text("mine")
    _run(_cfg(), out)
    assert not tmp.exists() and other.read_text() == "mine"


# -- players that never play --------------------------------------------------------------
@pytest.mark.parametrize("game, player, why", [
    ("tictactoe", "engine(cmd=/nonexistent)", "nonexistent"),
])
def test_a_player_that_forfeits_every_game_fails_the_cli(tmp_path, capsys, game, player, why):
    rc = main(["tournament", "--game", game, "--player", player, "--player", "random",
               "--games", "2", "--jobs", "1", "--no-progress", "--out", str(tmp_path / "t")])
    out, err = capsys.readouterr()
    assert rc == 1
    assert f"{player} forfeited every game" in err and why in err
    assert "inf" not in out and "n/a: undefined" in out
    assert pq.read_table(tmp_path / "t" / "games.parquet").num_rows == 2   # still recorded


def test_an_evaluator_for_another_game_stops_the_cli_before_the_first_game(tmp_path, capsys):
    rc = main(["tournament", "--game", "xiangqi", "--player", "alphabeta(eval=gomoku.patterns)",
               "--player", "random", "--games", "2", "--jobs", "1", "--no-progress",
               "--out", str(tmp_path / "t")])
    err = capsys.readouterr().err
    assert rc == 2 and "no game was played" in err and "scores gomoku" in err
    assert not (tmp_path / "t" / "manifest.json").exists()
    assert not (tmp_path / "t" / "games.parquet").exists()


def test_forfeit_only_pairings_have_undefined_elo():
    games = [{"game_id": i, "pairing": 0, "pair": i // 2, "player0": "a" if i % 2 == 0 else "b",
              "player1": "b" if i % 2 == 0 else "a", "score0": float(i % 2 == 0),
              "winner": 1 - i % 2, "faulty": i % 2, "reason": "engine-crash", "error": "x"}
             for i in range(4)]
    text = render(games)
    assert "inf" not in text and "n/a: undefined" in text
    played_once = games + [dict(games[0], game_id=4, pair=2, faulty=-1)]
    assert "n/a: undefined" not in render(played_once)


# -- Dask scheduler addresses -----------------------------------------------------------------
@pytest.mark.parametrize("address", ["notaurl", "tcp://host", "tcp://host:99999", "http://h:1"])
def test_a_malformed_scheduler_address_is_refused_before_anything_starts(tmp_path, address):
    with pytest.raises(SpecError, match="not a Dask scheduler address"):
        run_tournament(_cfg(), tmp_path / "t", backend="dask", scheduler=address,
                       progress=False, log=None)
    assert not (tmp_path / "t").exists()


def test_an_unreachable_scheduler_is_a_quick_clear_error(tmp_path, capsys):
    pytest.importorskip("distributed")
    t0 = time.monotonic()
    rc = main(["tournament", "--game", "tictactoe", "--player", "random", "--player", "random",
               "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1", "--no-progress",
               "--out", str(tmp_path / "t")])
    assert rc == 2 and time.monotonic() - t0 < 20
    assert "tcp://127.0.0.1:1: cannot connect" in capsys.readouterr().err
    assert not (tmp_path / "t" / "manifest.json").exists()


def test_undecodable_text_in_a_table_is_an_unreadable_file(played):
    out, _ = played
    path = out / "moves.parquet"
    data = path.read_bytes()
    at = data.index(b"alphabeta(depth=1)")                  # a player name in a text page
    path.write_bytes(data[:at] + b"\x80" + data[at + 1:])
    _refused(out, "moves.parquet: unreadable")


def test_a_manifest_that_is_not_an_object_is_unreadable(played):
    out, _ = played
    (out / "manifest.json").write_text("[1, 2]\n")
    _refused(out, "unreadable manifest: not a JSON object")
