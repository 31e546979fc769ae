"""UCI and UCCI servers: ``gameai engine --game xiangqi --protocol ucci`` (or ``uci``).

Supported commands: ``uci``/``ucci``, ``isready``, ``ucinewgame``, ``setoption`` (``Seed``
only; others are acknowledged and ignored), ``position startpos|fen <fen> [moves ...]``,
``go [depth d] [nodes n] [movetime ms] [time ms [movestogo k]] [wtime/btime ms]
[infinite]``, ``stop``, ``quit`` and ``d`` (print the board). The search runs
synchronously, so ``stop`` cannot interrupt it: give ``go`` a limit. Replies: ``info depth
.. score cp .. nodes .. time .. pv ..`` then ``bestmove <move>``; with no legal move UCI
answers ``bestmove (none)`` and UCCI ``nobestmove``. Moves use the game's own text form
(``move_str``/``parse_move``; for Xiangqi the ICCS-style ``h2e2``).
"""
from __future__ import annotations

import sys
from typing import IO, Any

from .. import __version__
from ..errors import GameError
from ..registry import load_game
from .base import LineServer, build_player, choose

#: Fraction of a remaining clock spent on one move when only a clock is given.
CLOCK_SHARE = 1 / 30


class UciServer(LineServer):
    """One engine session: reads commands line by line, answers on ``out``."""

    def __init__(self, game: str, player: str | None = None, protocol: str = "uci",
                 out: IO[str] | None = None, seed: int = 0) -> None:
        if protocol not in ("uci", "ucci"):
            raise GameError(f"protocol {protocol!r}: expected uci or ucci")
        self.protocol = protocol
        self.game_spec = game
        self.player = build_player(player)
        self.out = out or sys.stdout
        self.seed = seed
        self.state = load_game(game)
        self.player.new_game(self.seed)

    def handle(self, line: str) -> bool:
        """Process one command; False means quit."""
        parts = line.split()
        if not parts:
            return True
        cmd, args = parts[0], parts[1:]
        try:
            if cmd in ("uci", "ucci"):
                self.send(f"id name gameai {__version__} ({self.player.name})")
                self.send("id author gameai")
                self.send(("option name Seed" if self.protocol == "uci" else "option seed")
                          + " type spin default 0 min 0 max 2147483647")
                self.send(f"{self.protocol}ok")
            elif cmd == "isready":
                self.send("readyok")
            elif cmd == "ucinewgame":  # same seed each game: results never depend on
                self.player.new_game(self.seed)  # how many games this process played
            elif cmd == "setoption":
                self._setoption(args)
            elif cmd == "position":
                self._position(args)
            elif cmd == "go":
                self._go(args)
            elif cmd in ("stop", "ponderhit", "probe", "banmoves"):
                pass
            elif cmd == "quit":
                return False
            elif cmd == "d":
                for row in str(self.state).splitlines():
                    self.send(f"info string {row}")
            else:
                self.send(f"info string unknown command {cmd}")
        except GameError as exc:
            self.send(f"info string error: {exc}")
        return True

    def _setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        low = text.lower()
        if low.startswith("name seed value ") or low.startswith("seed "):  # UCI / UCCI style
            try:
                self.seed = int(text.split()[-1])
            except ValueError:
                raise GameError(f"setoption: seed must be an integer, got {text.split()[-1]!r}") from None
            self.player.new_game(self.seed)

    def _position(self, args: list[str]) -> None:
        if not args:
            raise GameError("position: expected startpos or fen")
        moves: list[str] = []
        if "moves" in args:
            i = args.index("moves")
            args, moves = args[:i], args[i + 1:]
        if args[0] == "startpos":
            state = load_game(self.game_spec)
        elif args[0] == "fen":
            fen = " ".join(args[1:])
            if not fen:
                raise GameError("position fen: missing FEN")
            state = load_game(self.game_spec, fen=fen)
        else:
            raise GameError(f"position: expected startpos or fen, got {args[0]!r}")
        for text in moves:
            state.push(state.parse_move(text))  # parse_move validates; error keeps old state
        self.state = state

    def _limits(self, args: list[str]) -> dict[str, Any]:
        opts: dict[str, float] = {}
        i = 0
        while i < len(args):
            key = args[i]
            if key in ("infinite", "ponder", "draw"):
                i += 1
                continue
            if i + 1 < len(args):
                try:
                    opts[key] = float(args[i + 1])
                except ValueError:
                    raise GameError(f"go: {key} needs a number, got {args[i + 1]!r}") from None
            i += 2
        limits: dict[str, Any] = {}
        if "depth" in opts:
            limits["depth"] = int(opts["depth"])
        if "nodes" in opts:
            limits["nodes"] = int(opts["nodes"])
        if "movetime" in opts:
            limits["time"] = opts["movetime"] / 1000
        elif "time" in opts:  # UCCI: remaining time; movestogo 1 means "all of it now"
            limits["time"] = opts["time"] / 1000 / max(1.0, opts.get("movestogo", 1 / CLOCK_SHARE))
        else:
            clock = opts.get("wtime" if self.state.to_move == 0 else "btime")
            if clock is not None:
                limits["time"] = clock / 1000 * CLOCK_SHARE
        return limits

    def _go(self, args: list[str]) -> None:
        limits = self._limits(args)
        if self.state.result() is not None or not self.state.legal_moves():
            self.send("nobestmove" if self.protocol == "ucci" else "bestmove (none)")
            return
        work = self.state.copy()
        d = choose(self.player, work, limits or None)
        info = d.info or {}
        fields = []
        if "depth" in info:
            fields.append(f"depth {int(info['depth'])}")
        if d.value is not None:
            fields.append(f"score cp {int(d.value)}")
        if "nodes" in info:
            fields.append(f"nodes {int(info['nodes'])}")
        if "time_s" in info:
            fields.append(f"time {int(info['time_s'] * 1000)}")
        if info.get("pv"):
            fields.append(f"pv {info['pv']}")
        if fields:
            self.send("info " + " ".join(fields))
        self.send(f"bestmove {self.state.move_str(d.move)}")
