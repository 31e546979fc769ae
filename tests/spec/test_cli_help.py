"""The CLI explains itself: every option has help text, and ``gameai list`` shows each
parameter's default and allowed values in a form the spec parser takes back."""
from __future__ import annotations

import argparse
import re

import pytest

from gameai.cli import build_parser, main
from gameai.errors import SpecError
from gameai.registry import GAMES, SEARCHERS, load_game, make_searcher


def _actions(parser, path):
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            helps = {c.dest: c.help for c in a._choices_actions}
            for name, sub in a.choices.items():
                yield path + [name], "(the command itself)", helps.get(name)
                yield from _actions(sub, path + [name])
        elif not isinstance(a, (argparse._HelpAction, argparse._VersionAction)):
            yield path, a.option_strings or a.dest, a.help


def test_every_command_and_option_has_help_text():
    missing = [(p, o) for p, o, h in _actions(build_parser(), ["gameai"]) if not h]
    assert missing == []


def _listing(capsys) -> dict[str, dict[str, tuple[str, str]]]:
    assert main(["list"]) == 0
    out, entries, cur = capsys.readouterr().out, {}, None
    for line in out.splitlines():
        m = re.match(r"^  (\S+)  ", line)
        if m:
            cur = entries.setdefault(m.group(1), {})
            continue
        m = re.match(r"^      (\S+)\s+default (\S+)\s+(.*)$", line)
        if m and cur is not None:
            cur[m.group(1)] = (m.group(2), m.group(3))
    return entries


def test_list_shows_defaults_and_allowed_values(capsys):
    entries = _listing(capsys)
    assert entries["renju"]["rule"][0] == "renju"            # the alias' preset, not the signature's
    assert entries["gomoku"]["rule"] == ("freestyle", "one of freestyle, standard, renju")
    assert "one of piece, fromto" in entries["alphabeta"]["history_key"][1]


@pytest.mark.parametrize("reg, make", [(SEARCHERS, make_searcher), (GAMES, load_game)])
def test_listed_defaults_are_accepted_back_and_ranges_are_enforced(reg, make, capsys):
    entries = _listing(capsys)
    for name in reg.names():
        for param, (default, allowed) in entries[name].items():
            if param == "**" or "callable" in allowed or default in ("(required)", "''"):
                continue
            make(f"{name}({param}={default})")               # the listed default parses back
            m = re.search(r"an integer >= (-?\d+) and <= (-?\d+)", allowed)
            if m:
                with pytest.raises(SpecError):
                    make(f"{name}({param}={int(m.group(2)) + 1})")
