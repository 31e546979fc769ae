"""UCI and UCCI servers: ``gameai engine --game xiangqi --protocol ucci`` (or ``uci``).

Commands: ``uci``/``ucci``, ``isready``, ``ucinewgame``, ``setoption`` (``Seed``; UCCI
``usemillisec`` and ``newgame``; any other option is ignored with an ``info string``
naming it), ``position
startpos|fen <fen> [moves ...]``, UCCI ``banmoves <moves>`` (not played from the current
position, until the next ``position``/new game), ``go``, ``stop``, ``ponderhit``,
``quit`` and ``d`` (print the board). The search runs beside the command reader, so ``isready`` and ``stop``
are answered at once during a long ``go``.

``go`` limits: UCI ``wtime btime winc binc movestogo movetime depth nodes mate infinite
ponder`` and ``searchmoves <moves>`` (only these root moves); UCCI ``time increment movestogo opptime oppincrement oppmovestogo depth nodes``,
``depth infinite``, ``ponder``, ``draw`` (ignored). A clock is turned into a soft and a
hard budget by :func:`gameai.search.timeman.allocate`; the search deepens until the soft
one. Values beyond what a searcher takes (depth 64, 10**12 nodes, a day) are clamped,
each with an ``info string``. UCCI times are in milliseconds (``usemillisec`` is on by default, as in
Fairy-Stockfish; ``setoption usemillisec false`` switches to the specification's seconds).

Replies: after every finished iteration UCI prints ``info depth D seldepth S score cp X|mate
N nodes N nps N time MS pv ...``; UCCI prints its own two lines, ``info depth D score X pv
...`` (a mate as +-(10000 - plies), as ElephantEye does) and ``info time MS nodes N``.
Every ``go`` ends with exactly one ``bestmove <move> [ponder <move>]`` (held back until
``stop`` in ``go infinite`` and until ``ponderhit``/``stop`` in ``go ponder``); a bad
request gets a legal fallback move and an ``info string`` saying why. With no legal move
UCI answers ``bestmove (none)`` and UCCI ``nobestmove``. Moves use the game's own text
(``move_str``/``parse_move``): for Xiangqi ICCS (``h2e2``, ranks 0-9) under UCCI, and the
UCI Xiangqi convention of Fairy-Stockfish (``h3e3``, ranks 1-10) under UCI.
"""
from __future__ import annotations

import sys
from typing import IO

from .. import __version__
from ..errors import GameError
from ..players.protocol import Decision
from ..registry import load_game
from ..search.stats import mate_in
from .base import MOVE_OVERHEAD, LineServer, Request, build_player, line_texts, parse_int, parse_ms, reserve
from .notation import variant_of, xiangqi_convert

#: UCCI score of a mate in 0 plies (ElephantEye's MATE_VALUE); mates print as +-(this - plies).
UCCI_MATE = 10000
#: ``go`` keywords followed by an integer (count) or a time (milliseconds), and flags.
_INT_KEYS = ("depth", "nodes", "mate", "movestogo", "oppmovestogo")
_TIME_KEYS = ("wtime", "btime", "winc", "binc", "movetime", "time", "increment", "opptime",
              "oppincrement")
_FLAGS = ("infinite", "ponder", "draw")


class UciServer(LineServer):
    """One engine session: reads commands line by line, answers on ``out``."""

    def __init__(self, game: str, player: str | None = None, protocol: str = "uci",
                 out: IO[str] | None = None, seed: int = 0) -> None:
        super().__init__()
        if protocol not in ("uci", "ucci"):
            raise GameError(f"protocol {protocol!r}: expected uci or ucci")
        self.protocol = protocol
        self.game_spec = game
        self.player = build_player(player, game)
        self.out = out or sys.stdout
        self.seed = seed
        self.millisec = True
        self.banned: list[str] = []  # UCCI banmoves, until the next position or new game
        self.state = load_game(game)
        if self.state.name in ("gomoku", "renju"):   # the GUI would send chess-like moves
            raise GameError(f"{self.state.name} has no {protocol.upper()} engine mode: "
                            "Gomoku and Renju GUIs speak the Gomocup protocol "
                            "(--protocol gomocup)")
        #: UCI Xiangqi moves count ranks 1-10 as Fairy-Stockfish does; UCCI's ICCS 0-9
        self.uci_xiangqi = protocol == "uci" and variant_of(self.state) == "xiangqi"
        self.player.new_game(self.seed)

    # -- move text ----------------------------------------------------------------------
    def move_text(self, state, move) -> str:
        text = state.move_str(move)
        return xiangqi_convert(text, "iccs", "uci") if self.uci_xiangqi else text

    def parse_move(self, state, text: str):
        if self.uci_xiangqi:  # bad text raises IllegalMoveError naming the move
            text = xiangqi_convert(text, "uci", "iccs")
        return state.parse_move(text)

    # -- commands -----------------------------------------------------------------------
    def error(self, message: str) -> None:
        self.send(f"info string error: {message}")

    def note(self, message: str) -> None:
        self.send(f"info string {message}")

    def dispatch(self, line: str) -> bool:
        parts = line.split()
        if not parts:
            return True
        cmd, args = parts[0], parts[1:]
        if cmd in ("uci", "ucci"):
            self.send(f"id name gameai {__version__} ({self.player.name})")
            self.send("id author gameai")
            if self.protocol == "uci":
                self.send("option name Seed type spin default 0 min 0 max 2147483647")
                self.send("option name Ponder type check default false")
            else:
                self.send("option usemillisec type check default true")
                self.send("option newgame type button")
                self.send("option seed type spin default 0 min 0 max 2147483647")
            self.send(f"{self.protocol}ok")
        elif cmd == "isready":  # idle: compile and fault in now, not on go's clock
            self.prepare()
            self.send("readyok")
        elif cmd == "ucinewgame":  # same seed each game: results never depend on
            self.finish_thinking()  # how many games this process played
            self.banned = []
            self.player.new_game(self.seed)
        elif cmd == "setoption":
            self._setoption(args)
        elif cmd == "position":
            self._position(args)
        elif cmd == "go":
            self._go(args)
        elif cmd == "stop":
            if self.thinking is not None:
                self.thinking.halt()
        elif cmd == "ponderhit":
            if self.thinking is not None:
                self.thinking.ponderhit()
        elif cmd == "quit":
            self.finish_thinking(timeout=2.0)
            if self.protocol == "ucci":
                self.send("bye")
            return False
        elif cmd == "d":
            for row in str(self.state).splitlines():
                self.send(f"info string {row}")
        elif cmd == "banmoves":  # UCCI: these moves may not be played from this position
            self.banned = list(args)
        elif cmd in ("debug", "register", "probe"):
            pass  # accepted and ignored
        else:
            self.send(f"info string unknown command {cmd!r}")
        return True

    def _setoption(self, args: list[str]) -> None:
        words = [w for w in args if w.lower() not in ("name", "value")]  # UCI / UCCI style
        if not words:
            raise GameError("setoption: expected an option name")
        name, value = words[0].lower(), " ".join(words[1:])
        if name == "seed":
            seed = parse_int("setoption seed", value, lo=0)
            self.finish_thinking()
            self.seed = seed
            self.player.new_game(self.seed)
        elif name == "usemillisec":
            self.millisec = value.lower() != "false"
        elif name == "newgame":  # UCCI's new-game signal
            self.finish_thinking()
            self.banned = []
            self.player.new_game(self.seed)
        elif name == "ponder" and self.protocol == "uci":
            pass   # advertised: the GUI's go ponder decides, the option changes nothing
        else:      # Hash, Threads, a typo: said, so the GUI's log shows it had no effect
            known = "Seed, Ponder" if self.protocol == "uci" else "usemillisec, newgame, seed"
            low = [w.lower() for w in args]   # UCI names may have spaces: "Clear Hash"
            shown = " ".join(args[low.index("name") + 1:low.index("value") if "value" in low
                                  else len(args)]) if "name" in low else words[0]
            self.note(f"unknown option {shown!r} ignored; options: {known}")

    def _position(self, args: list[str]) -> None:
        moves: list[str] = []
        if "moves" in args:
            i = args.index("moves")
            args, moves = args[:i], args[i + 1:]
        if not args:
            raise GameError("position: expected startpos or fen before the moves")
        if args[0] == "startpos":
            state = load_game(self.game_spec)
        elif args[0] == "fen":
            fen = " ".join(args[1:])
            if not fen:
                raise GameError("position fen: missing FEN")
            state = load_game(self.game_spec, fen=fen)
        else:
            raise GameError(f"position: expected startpos or fen, got {args[0]!r}")
        for i, text in enumerate(moves):
            try:
                state.push(self.parse_move(state, text))  # validates; an error keeps the old state
            except GameError as exc:
                raise GameError(f"position: move {i + 1} {text!r}: {exc}; position unchanged") from None
        self.state = state
        self.banned = []

    # -- go -------------------------------------------------------------------------------
    def parse_go(self, args: list[str]) -> Request:
        """The request a ``go`` line makes; ``ValueError`` names the first bad value."""
        opts: dict[str, float] = {}
        flags: set[str] = set()
        notes: list[str] = []
        searchmoves: list[str] = []
        i = 0
        while i < len(args):
            key = args[i]
            if key in _FLAGS:
                flags.add(key)
                i += 1
            elif key == "searchmoves":  # moves until the next keyword
                i += 1
                while i < len(args) and args[i] not in _INT_KEYS + _TIME_KEYS + _FLAGS:
                    searchmoves.append(args[i])
                    i += 1
            elif key in _INT_KEYS or key in _TIME_KEYS:
                if i + 1 >= len(args):
                    raise ValueError(f"go {key}: missing value")
                value = args[i + 1]
                if key == "depth" and value == "infinite":  # UCCI spelling
                    flags.add("infinite")
                elif key in _INT_KEYS:
                    opts[key] = parse_int(f"go {key}", value, lo=0 if key.endswith("movestogo") else 1)
                else:
                    opts[key] = parse_ms(f"go {key}", value)
                i += 2
            else:
                notes.append(f"go: ignored unknown token {key!r}")
                i += 1
        req = Request(infinite="infinite" in flags, ponder="ponder" in flags)
        if "depth" in opts:
            req.depth = int(opts["depth"])
        elif "mate" in opts:
            req.depth = 2 * int(opts["mate"]) - 1
        if "nodes" in opts:
            req.nodes = int(opts["nodes"])
        unit = 1000.0 if self.protocol == "uci" or self.millisec else 1.0
        if "movetime" in opts and opts["movetime"] / 1000 <= MOVE_OVERHEAD:
            notes.append("movetime too short to search: a one-ply answer")
            req.depth = 1
        elif "movetime" in opts:
            req.hard = req.soft = reserve(opts["movetime"] / 1000)
        else:
            own = "time" if "time" in opts else ("wtime", "btime")[self.state.to_move % 2]
            inc = "increment" if "time" in opts else ("winc", "binc")[self.state.to_move % 2]
            if own in opts:
                self._clock(req, opts[own] / unit, opts.get(inc, 0.0) / unit,
                            int(opts.get("movestogo") or 0) or None, notes)
        if "searchmoves" in args:
            req.moves = self._root_moves(searchmoves, True, notes)
        elif self.banned:
            req.moves = self._root_moves(self.banned, False, notes)
        req.notes = tuple(notes)
        req.clamp()                     # what the searcher accepts; each change noted
        return req

    def _root_moves(self, texts: list[str], keep: bool, notes: list[str]) -> tuple | None:
        """The legal root moves ``texts`` allow (``keep``: searchmoves) or leave (banmoves);
        moves that are not legal here are named in ``notes`` and ignored; None = all."""
        legal, named = self.state.legal_moves(), set()
        for text in texts:
            try:
                m = self.parse_move(self.state, text)
            except GameError:
                m = None
            if m is None or m not in legal:
                notes.append(f"{'searchmoves' if keep else 'banmoves'}: {text!r} is not a legal "
                             "move here, ignored")
            else:
                named.add(m)
        moves = tuple(m for m in legal if (m in named) == keep)
        if not moves:
            notes.append("searchmoves: no legal move given, all moves searched" if keep else
                         "banmoves: every legal move is banned, all moves searched")
            return None
        return moves if len(moves) < len(legal) else None

    @staticmethod
    def _clock(req: Request, remaining: float, increment: float, movestogo: int | None,
               notes: list[str]) -> None:
        """Soft and hard budgets from the clock (seconds) via the time manager."""
        if remaining <= MOVE_OVERHEAD:
            notes.append("no time left on the clock: a one-ply answer")
            req.depth = 1
            return
        from ..search.timeman import allocate
        budget = allocate(remaining, increment, movestogo)  # keeps its own reply overhead
        req.hard, req.soft = budget.hard, min(budget.soft, budget.hard)

    def _go(self, args: list[str]) -> None:
        try:
            req = self.parse_go(args)
        except Exception as exc:  # a bad request still gets exactly one bestmove
            req = Request(infinite="infinite" in args, ponder="ponder" in args,
                          error=f"bad go command ({exc}): playing a fallback move")
        self.finish_thinking()  # the previous go's bestmove comes before this one's notes
        for note in req.notes:
            self.send(f"info string {note}")
        self.think(req)

    # -- replies (from the search thread) -----------------------------------------------
    def report(self, row: dict, root) -> None:
        value = row.get("value")
        pv = " ".join(line_texts(root, row.get("pv") or [], self.move_text))
        depth, nodes = int(row.get("depth", 0)), int(row.get("nodes", 0))
        ms = max(0, int(round(float(row.get("time_s", 0.0)) * 1000)))
        if self.protocol == "ucci":
            plies = mate_in(value) if value is not None else None
            score = "" if value is None else \
                f" score {int(value)}" if plies is None else \
                f" score {(UCCI_MATE - abs(plies)) * (1 if plies > 0 else -1)}"
            self.send(f"info depth {depth}{score}" + (f" pv {pv}" if pv else ""))
            self.send(f"info time {ms} nodes {nodes}")
            return
        fields = [f"depth {depth}", f"seldepth {int(row.get('seldepth', depth))}"]
        if value is not None:
            plies = mate_in(value)
            if plies is None:
                fields.append(f"score cp {int(round(value))}")
            else:  # UCI counts mates in moves; negative: we are mated
                fields.append(f"score mate {(plies + 1) // 2 if plies > 0 else -(-plies // 2)}")
        fields += [f"nodes {nodes}", f"nps {nodes * 1000 // ms if ms else nodes * 1000}",
                   f"time {ms}"]
        if pv:
            fields.append(f"pv {pv}")
        self.send("info " + " ".join(fields))

    def answer(self, decision: Decision, why: str | None, root) -> None:
        if why:
            self.send(f"info string {why}")
        if decision.move is None:
            self.send("nobestmove" if self.protocol == "ucci" else "bestmove (none)")
            return
        line = "bestmove " + self.move_text(root, decision.move)
        pv = (decision.info or {}).get("pv") or []
        if len(pv) >= 2 and pv[0] == decision.move:
            ponder = line_texts(root, pv[:2], self.move_text)
            if len(ponder) == 2:
                line += f" ponder {ponder[1]}"
        self.send(line)
