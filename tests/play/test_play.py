"""gameai play driven as a person would: the real command in a pseudo-terminal (pexpect)."""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Terminal:
    """``gameai play ...`` in a pty; ``send`` types a line and returns what was printed
    up to the next prompt, colour codes removed."""

    def __init__(self, *args: str, cwd: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT), TERM="xterm-256color", COLUMNS="120")
        env.pop("NO_COLOR", None)
        self.p = pexpect.spawn(sys.executable, ["-m", "gameai.cli", "play", *args], env=env,
                               cwd=str(cwd), encoding="utf-8", dimensions=(60, 120), timeout=60)
        self.intro = self._until_prompt()

    def _until_prompt(self) -> str:
        self.p.expect(r"move>")
        return ANSI.sub("", self.p.before)

    def send(self, line: str) -> str:
        self.p.sendline(line)
        return self._until_prompt()

    def quit(self) -> int:
        self.p.sendline("quit")
        self.p.expect(pexpect.EOF)
        self.p.close()
        return self.p.exitstatus


def _board_rows(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if re.match(r"^\s*\d+ .* \d+$", ln)]


def test_xiangqi_session_moves_errors_hint_undo_save(tmp_path):
    t = Terminal("--game", "xiangqi", "--opponent", "alphabeta(depth=2)", "--side", "first",
                 cwd=tmp_path)
    assert "Red to move (you)" in t.intro
    rows = _board_rows(t.intro)
    assert len(rows) == 10 and rows[0].split()[0] == "9" and rows[-1].split()[-1] == "0"
    assert t.intro.count("a  b  c  d  e  f  g  h  i") == 2          # files on both edges
    out = t.send("a0a5")                                              # illegal: reason, new prompt
    assert "error:" in out and "not legal" in out
    out = t.send("h2e2")
    assert "root moves" in out and re.search(r"depth \d+ score [-+]\d+ nodes [\d,]+ pv", out)
    reply = re.search(r"computer: ([a-i]\d[a-i]\d)\s+\(depth", out).group(1)
    assert "[" in out and "]" in out                                  # last move bracketed
    out = t.send("hint")
    assert re.search(r"hint: [a-i]\d[a-i]\d .* pv [a-i]\d[a-i]\d", out)
    out = t.send("save game.pgn")
    assert "saved" in out
    from gameai.records import read_pgn
    game = read_pgn((tmp_path / "game.pgn").read_text(encoding="utf-8"))
    assert game.moves == ["h2e2", reply] and game.tags["Red"] == "you"
    out = t.send("undo")
    assert "Red to move (you)" in out
    assert _board_rows(out) == rows                                   # back to the start
    out = t.send("load game.pgn")
    assert "loaded" in out and "Red to move (you)" in out
    out = t.send("flip")
    assert _board_rows(out)[0].split()[0] == "0"                      # Red now on top
    assert t.quit() == 0


def test_renju_shows_forbidden_points_and_refuses_them(tmp_path):
    # black f8 g8 h6 h7: h8 is a double-three, forbidden for Black
    t = Terminal("--game", "renju", "--opponent", "alphabeta(depth=1)", "--side", "first",
                 "--moves", "f8 a1 g8 a3 h6 o15 h7 o1", cwd=tmp_path)
    assert "forbidden for Black (×): h8 double-three" in t.intro
    row8 = [r for r in _board_rows(t.intro) if r.split()[0] == "8"][0]
    assert row8.split()[1 + 7] == "×"                                 # column h of row 8
    out = t.send("h8")
    assert "error:" in out and "forbidden" in out and "double-three" in out
    out = t.send("forbidden")                                         # the list on request
    assert "forbidden for Black: h8 double-three" in out and "error" not in out
    out = t.send("zz")                                                # names the game played
    assert "error: renju: move 'zz' is not a point like h8" in out and "gomoku" not in out
    out = t.send("j12")
    assert re.search(r"computer: [a-o]\d+", out)
    out = t.send("save game")
    from gameai.records import read_record
    saved = read_record(tmp_path / "game.psq")
    assert saved.rule == "renju" and len(saved.placed) == 10
    assert t.quit() == 0


def test_forbidden_in_gomoku_says_it_is_a_renju_rule(tmp_path):
    t = Terminal("--game", "gomoku", "--opponent", "alphabeta(depth=1)", cwd=tmp_path)
    out = t.send("forbidden")
    assert "error: forbidden points are a renju rule; this game is gomoku" in out
    out = t.send("forbiden")                                          # a typo is a bad move
    assert "error: gomoku: move 'forbiden' is not a point like h8" in out
    assert t.quit() == 0


def test_computer_moves_first_under_a_time_limit(tmp_path):
    t = Terminal("--game", "gomoku", "--opponent", "negascout(tt=true,id=true)", "--side", "second",
                 "--time", "0.3", cwd=tmp_path)
    assert "computer: h8" in t.intro and "White to move (you)" in t.intro
    assert t.quit() == 0


def test_a_save_that_cannot_be_written_or_read_back_keeps_the_game(tmp_path):
    t = Terminal("--game", "xiangqi", "--opponent", "alphabeta(depth=1)", cwd=tmp_path)
    t.send("h2e2")
    (tmp_path / "d.pgn").mkdir()
    for line, reason in (("save /nonexistent/dir/x.pgn", "cannot write"),
                         ("save d.pgn", "cannot write"),               # a folder
                         ("save .", "cannot write"),
                         ("save x.txt", "recorded as .pgn, not .txt"),
                         ("save g.psq", "recorded as .pgn, not .psq")):
        out = t.send(line)
        assert "error:" in out and reason in out and "saved" not in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.pgn"]
    out = t.send("a3a4")                                      # the game goes on
    assert re.search(r"computer: [a-i]\d[a-i]\d", out)
    assert "saved" in t.send("save g.PGN")
    from gameai.records import read_record
    assert len(read_record(tmp_path / "g.PGN").move_stack) == 4
    assert t.quit() == 0


@pytest.mark.parametrize("time", ["-1", "0", "nan", "1e308"])
def test_a_refused_time_limit_is_refused_before_the_game_starts(tmp_path, time):
    import subprocess
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "gameai.cli", "play", "--game", "gomoku",
                        "--opponent", "alphabeta(depth=2)", "--time", time], cwd=tmp_path,
                       env=env, input="h8\nquit\n", capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "move>" not in p.stdout
    assert "--time" in p.stderr and "seconds > 0" in p.stderr
