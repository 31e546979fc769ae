"""Tournament folders and the CLI: clean errors, nothing recorded lost, no orphan workers
(issue 10)."""
import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gameai.cli import main
from gameai.errors import RecordError, SpecError
from gameai.tournament import records
from gameai.tournament.runner import TournamentConfig, run_tournament

ROOT = Path(__file__).resolve().parents[2]


def _cfg(**kw):
    base = dict(game="tictactoe", players=["alphabeta(depth=1)", "random"], games=4, seed=2,
                opening_plies=1)
    base.update(kw)
    return TournamentConfig(**base)


def _run(cfg, out):
    return run_tournament(cfg, out, jobs=1, progress=False, log=None)


def test_perft_depth_zero_counts_the_position(capsys):
    assert main(["perft", "--game", "tictactoe", "--depth", "0"]) == 0
    assert "total: 1 " in capsys.readouterr().out
    assert main(["perft", "--game", "tictactoe", "--depth", "-1"]) == 2
    assert "depth must be >= 0" in capsys.readouterr().err


def test_out_below_a_file_is_a_clean_error(tmp_path, capsys):
    f = tmp_path / "afile"
    f.write_text("x")
    with pytest.raises(RecordError, match="Not a directory|File exists"):
        _run(_cfg(), f / "sub")
    with pytest.raises(RecordError, match="not a folder"):
        _run(_cfg(), f)
    rc = main(["tournament", "--game", "tictactoe", "--player", "random", "--player", "random",
               "--out", str(f / "sub"), "--no-progress"])
    assert rc == 2 and "cannot open the records folder" in capsys.readouterr().err
    assert f.read_text() == "x"


@pytest.mark.parametrize("flag,value", [("--time", "-1"), ("--nodes", "0"), ("--depth", "0"),
                                        ("--games", "0"), ("--time", "nan")])
def test_bad_limits_are_spec_errors(tmp_path, capsys, flag, value):
    rc = main(["tournament", "--game", "tictactoe", "--player", "random", "--player", "random",
               "--out", str(tmp_path / "t"), "--no-progress", flag, value])
    err = capsys.readouterr().err
    assert rc == 2 and f"parameter {flag[2:]}=" in err
    assert not (tmp_path / "t").exists()


def test_library_messages_name_parameters_not_flags(tmp_path):
    with pytest.raises(SpecError) as exc:
        run_tournament(_cfg(), tmp_path / "t", jobs=0, progress=False, log=None)
    assert "--" not in str(exc.value) and "jobs" in str(exc.value)
    with pytest.raises(SpecError) as exc:
        run_tournament(_cfg(players=["random", "random", "random"], sprt="0,10"), tmp_path / "t",
                       jobs=1, progress=False, log=None)
    assert "--" not in str(exc.value) and "sprt" in str(exc.value)


def _fail_writes(monkeypatch, err, after=0):
    """Make the n-th and later journal appends fail with ``err`` (disk full, read-only)."""
    real_open = open
    calls = {"n": 0}

    def fake_open(path, mode="r", *a, **k):
        if "a" in mode and str(path).endswith("journal.jsonl"):
            calls["n"] += 1
            if calls["n"] > after:
                raise OSError(err, os.strerror(err), str(path))
        return real_open(path, mode, *a, **k)

    monkeypatch.setattr(records, "open", fake_open, raising=False)


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_full_or_read_only_folder_keeps_what_was_recorded(tmp_path, monkeypatch, err):
    out = tmp_path / "t"
    _fail_writes(monkeypatch, err, after=2)
    with pytest.raises(RecordError, match=os.strerror(err)):
        _run(_cfg(), out)
    lines = (out / "journal.jsonl").read_bytes().splitlines()
    assert len(lines) == 2
    monkeypatch.undo()
    r = _run(_cfg(), out)          # resume: the two recorded games are kept, two more played
    assert r.skipped == 2 and r.played == 2 and len(r.games) == 4
    assert (out / "journal.jsonl").read_bytes().splitlines()[:2] == lines


def test_read_only_folder_from_the_start(tmp_path, monkeypatch):
    _fail_writes(monkeypatch, errno.EROFS)
    real = records.atomic_write_bytes

    def ro(path, data):
        raise PermissionError(errno.EACCES, "Permission denied", str(path))

    monkeypatch.setattr(records, "atomic_write_bytes", ro)
    with pytest.raises(RecordError, match="Permission denied|Read-only"):
        _run(_cfg(), tmp_path / "t")
    assert real is not ro


def test_journal_line_without_moves_is_a_record_error(tmp_path):
    out = tmp_path / "t"
    _run(_cfg(), out)
    j = out / "journal.jsonl"
    lines = j.read_text().splitlines()
    rec = json.loads(lines[0])
    del rec["moves"]
    for where in (0, len(lines) - 1):      # in the middle and as the last line
        bad = list(lines)
        bad[where] = json.dumps(rec)
        j.write_text("\n".join(bad) + "\n")
        before = j.read_bytes()
        with pytest.raises(RecordError, match=f"line {where + 1} is corrupt"):
            _run(_cfg(), out)
        assert j.read_bytes() == before    # nothing rewritten, nothing lost


def test_foreign_game_ids_are_refused(tmp_path):
    out = tmp_path / "t"
    r = _run(_cfg(), out)
    j = out / "journal.jsonl"
    rec = json.loads(j.read_text().splitlines()[0])
    rec["game"]["game_id"] = 19
    with open(j, "a") as fh:
        fh.write(json.dumps(rec) + "\n")
    before = j.read_bytes()
    with pytest.raises(RecordError, match="not in this tournament's schedule of 4 games"):
        _run(_cfg(), out)
    assert j.read_bytes() == before
    # a record under a scheduled id but with other players is foreign too (here the journal
    # is the only record: with the tables present it would also be a conflict with them)
    lines = before.decode().splitlines()[:-1]
    rec = json.loads(lines[0])
    rec["game"]["spec0"] = "random"
    lines[0] = json.dumps(rec)
    j.write_text("\n".join(lines) + "\n")
    (out / "games.parquet").unlink()
    (out / "moves.parquet").unlink()
    with pytest.raises(RecordError, match="another tournament"):
        _run(_cfg(), out)
    assert len(r.games) == 4


def _children(pid):
    kids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                kids.append(int(d.name))
    return kids


def _running(pid):
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc (Linux)")
def test_pool_workers_stop_when_the_tournament_is_killed(tmp_path):
    code = ("import sys; from gameai.tournament.runner import TournamentConfig, run_tournament;"
            "cfg = TournamentConfig(game='gomoku', players=['alphabeta(depth=2)', "
            "'alphabeta(depth=2,tt=true)'], games=40, seed=1);"
            "run_tournament(cfg, sys.argv[1], jobs=2, progress=False, log=None)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "t")], env=env)
    try:
        workers = []
        for _ in range(600):                     # wait (up to a minute) for the pool
            workers = [k for k in _children(proc.pid)
                       if b"loky" in Path(f"/proc/{k}/cmdline").read_bytes()
                       and b"resource_tracker" not in Path(f"/proc/{k}/cmdline").read_bytes()]
            if len(workers) >= 2:
                break
            time.sleep(0.1)
        assert len(workers) >= 2, "the pool never started"
        time.sleep(1.0)                          # let them get into a game
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        for _ in range(300):                     # generous: 30 s for the workers to notice
            if not any(_running(w) for w in workers):
                break
            time.sleep(0.1)
        alive = [w for w in workers if _running(w)]
        for w in alive:                          # never leave them behind, even on failure
            os.kill(w, signal.SIGKILL)
        assert not alive, f"workers {alive} kept running after the tournament was killed"
    finally:
        if proc.poll() is None:
            proc.kill()
