"""gameai play: a person plays any searcher or player in the terminal.

The board is drawn with ``rich`` (colour where the terminal has it; coordinates on every
edge; the last move in brackets; Renju's forbidden points for Black as ``×``). Moves are
typed in the game's notation (ICCS ``h2e2`` for Xiangqi, ``h8`` for Gomoku). While the
computer thinks, one live line shows depth, score, nodes and the principal variation
(the searcher's ``on_iteration``) above a bar over the root moves (``on_root_move``, the
progress bar of the 003 document). Commands: undo, hint, forbidden (Renju), new, save
FILE, load FILE, flip, help, quit.
"""
from __future__ import annotations

import time
from pathlib import Path

from ..errors import GameError, SpecError
from ..games.protocol import line_text
from ..registry import SEARCHERS, load_game, make_player, make_searcher, resolve_preset
from ..search.stats import mate_in

GAMES = ("xiangqi", "gomoku", "renju")
HELP = ("moves in the game's notation (xiangqi: h2e2, gomoku and renju: h8); commands: undo "
        "(take back your last move), hint (search for you, shows its line), forbidden (renju: "
        "list Black's forbidden points, marked × on the board), new, save FILE (.pgn for "
        "xiangqi, .psq for gomoku/renju), load FILE, flip, help, quit")


def add_parser(sub):
    p = sub.add_parser("play", help="play against a searcher or player in the terminal",
                       description=__doc__.splitlines()[0])
    p.add_argument("--game", default="xiangqi",
                   help="xiangqi, gomoku or renju, or a spec such as 'gomoku(rule=standard)' "
                        "(default xiangqi)")
    p.add_argument("--opponent", default="strong",
                   help="preset, searcher or player spec the computer plays, e.g. 'plain', "
                        "'negascout(time=1)', 'pointweight' (default strong: the strongest "
                        "measured player of the game; 'gameai list' shows its spec)")
    p.add_argument("--side", choices=("first", "second"), default="first",
                   help="your side: first (Red / Black stones) or second (default first)")
    p.add_argument("--time", type=float, metavar="S",
                   help="seconds per computer move (a time limit added to the opponent's)")
    p.add_argument("--hint", metavar="SPEC", default="strong",
                   help="preset or searcher spec used by 'hint' (default strong)")
    p.add_argument("--moves", help="moves played before you start, space separated")
    p.add_argument("--no-color", action="store_true", help="plain text, no colours")
    return p


def _is_searcher(spec: str) -> bool:
    return spec.split("(", 1)[0].strip() in SEARCHERS.names()


def _score(value) -> str:
    if value is None:
        return "?"
    plies = mate_in(value)
    if plies is not None:
        return f"{'+' if plies > 0 else '-'}mate{abs(plies)}"
    return f"{value:+.0f}" if isinstance(value, (int, float)) else str(value)


class Session:
    """One game against the computer: position, players and what the terminal shows."""

    def __init__(self, args, console) -> None:
        self.args, self.console = args, console
        self.game_spec = args.game
        self.human = 0 if args.side == "first" else 1
        self.flipped = self.human == 1
        from ._common import limit_options
        self.limits = limit_options(args) or None  # refused now, not after the first move
        game = self._check_game(load_game(self.game_spec))
        opponent = resolve_preset(args.opponent, game)
        self.searcher = make_searcher(opponent) if _is_searcher(opponent) else None
        self.player = None if self.searcher else make_player(opponent, game=game)
        self.hinter = make_searcher(args.hint or "strong", game=game)
        self._hinter_ready = False      # compiled at the first hint, not before the game
        self.state = self._new_state(args.moves or "")

    def _check_game(self, state):
        """``state`` when it is a game this command plays, else a SpecError."""
        if state.name not in GAMES:
            raise SpecError(f"--game must be one of {', '.join(GAMES)} "
                            f"(or a gomoku spec), got {self.game_spec!r}")
        return state

    def warm_up(self) -> None:
        """Compile (or load) a compiled opponent before the first move, its tables faulted
        in too, off its clock. The ``hint`` searcher waits for the first ``hint``
        (:meth:`prepare_hinter`): a game against a pure-Python opponent compiles nothing
        before the first move. Loading from the disk cache takes about a second and says
        nothing; when a kernel has to be compiled (an empty cache: half a minute to a few
        minutes), a status line says so, then how long it took."""
        if getattr(self.searcher, "backend", None) == "compiled":
            self._compile(self.searcher, "of the computer")

    def prepare_hinter(self) -> None:
        """Compile (or load) the ``hint`` searcher at the first ``hint``, before its clock
        starts, saying so when a kernel has to be compiled."""
        if not self._hinter_ready:
            self._hinter_ready = True
            if getattr(self.hinter, "backend", None) == "compiled":
                self._compile(self.hinter, f"of hint ({self.args.hint or 'strong'})")

    def _compile(self, searcher, what: str) -> None:
        from ..prepare import on_first_compile
        status, t0 = [], time.perf_counter()

        def started() -> None:
            self.console.print(f"preparing: compiling the search {what}, once on this machine "
                               "(up to a few minutes; 'gameai prepare' does it ahead)")
            status.append(self.console.status("compiling"))
            status[0].start()
        try:
            with on_first_compile(started):
                searcher.prepare(self.state)
        finally:
            if status:
                status[0].stop()
                self.console.print(f"prepared in {time.perf_counter() - t0:.1f} s")

    def forbidden_text(self) -> str:
        """The ``forbidden`` command's answer: Black's forbidden points under Renju."""
        s = self.state
        if s.name != "renju":
            raise GameError(f"forbidden points are a renju rule; this game is {s.name} "
                            "(gameai play --game renju)")
        fp = s.forbidden_points()
        side = "" if s.to_move == 0 else " (for Black's next move; White is to move)"
        if not fp:
            return f"no point is forbidden for Black{side}"
        return (f"forbidden for Black{side}: "
                + ", ".join(f"{p} {why}" for p, why in fp.items()))

    def _new_state(self, moves: str = ""):
        state = self._check_game(load_game(self.game_spec, **({"moves": moves} if moves else {})))
        if self.player is not None:
            self.player.new_game(0)
        elif hasattr(self.searcher, "new_game"):
            self.searcher.new_game()
        return state

    # ------------------------------------------------------------------ showing
    def show(self) -> None:
        from ._board import board_text
        s = self.state
        self.console.print(board_text(s, self.flipped))
        who = ("Red", "Black") if s.name == "xiangqi" else ("Black", "White")
        res = s.result()
        if res is not None:
            winner = "draw" if res.winner is None else f"{who[res.winner]} wins"
            you = "" if res.winner is None else (" - you win" if res.winner == self.human else " - you lose")
            self.console.print(f"game over: {winner} ({res.reason}){you}. "
                               "Type new, undo, save FILE or quit.", style="bold")
            return
        if s.name == "renju" and s.to_move == 0:
            fp = s.forbidden_points()
            if fp:
                self.console.print("forbidden for Black (×): " +
                                   ", ".join(f"{p} {why}" for p, why in fp.items()), style="magenta")
        self.console.print(f"{who[s.to_move]} to move ({'you' if s.to_move == self.human else 'computer'})")

    # ------------------------------------------------------------------ thinking
    def think(self, searcher, label: str):
        """Search the current position with a live line and a root-move bar; the result."""
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
        state = self.state
        progress = Progress(TextColumn("{task.description}"), BarColumn(bar_width=24),
                            MofNCompleteColumn(), TextColumn("root moves"),
                            console=self.console, transient=True)
        last = [0.0]
        with progress:
            task = progress.add_task(f"{label}: thinking...", total=None)

            def on_iteration(row) -> None:
                pv = line_text(state, row.get("pv") or [])
                progress.update(task, description=(
                    f"{label}: depth {row.get('depth')} score {_score(row.get('value'))} "
                    f"nodes {row.get('nodes', 0):,} pv {pv}"))
                progress.refresh()

            def on_root_move(i, n, move, value) -> None:
                progress.update(task, completed=i + 1, total=n)
                now = time.monotonic()
                if now - last[0] > 0.05 or i + 1 == n:
                    last[0] = now
                    progress.refresh()

            r = searcher.search(state, self.limits, on_iteration=on_iteration,
                                on_root_move=on_root_move)
        st = r.stats
        self.console.print(f"{label}: {r.move_str}  (depth {st.depth}, score {_score(r.value)}, "
                           f"nodes {st.nodes:,}, {st.time_s:.2f} s)  pv {r.pv_str}")
        return r

    def computer_move(self) -> None:
        s = self.state
        if self.searcher is not None:
            move = self.think(self.searcher, "computer").move
        else:
            d = self.player.choose(s, limits=self.limits) if getattr(self.player, "accepts_limits", False) \
                else self.player.choose(s)
            move = d.move
            self.console.print(f"computer: {s.move_str(move)}")
        s.push(move)

    def reply_if_computer(self) -> None:
        s = self.state
        if s.result() is None and s.to_move != self.human:
            if not s.legal_moves():
                self.console.print("computer has no legal move", style="bold")
                return
            self.computer_move()
        self.show()

    # ------------------------------------------------------------------ commands
    def command(self, line: str) -> bool:
        """Handle one input line; False ends the session."""
        words = line.split(maxsplit=1)
        if not words:
            return True
        cmd, rest = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
        s = self.state
        if cmd in ("quit", "exit", "q"):
            return False
        if cmd in ("help", "?"):
            self.console.print(HELP)
        elif cmd == "new":
            self.state = self._new_state()
            self.reply_if_computer()
        elif cmd == "flip":
            self.flipped = not self.flipped
            self.show()
        elif cmd == "undo":
            if not s.move_stack:
                raise GameError("nothing to undo")
            s.pop()
            while s.move_stack and s.to_move != self.human:
                s.pop()
            self.show()
        elif cmd == "hint":
            if s.result() is not None:
                raise GameError("the game is over")
            self.prepare_hinter()
            self.think(self.hinter, "hint")
        elif cmd == "forbidden":
            self.console.print(self.forbidden_text(), style="magenta")
        elif cmd == "save":
            if not rest:
                raise GameError("save needs a file name, e.g. save game.pgn")
            from ..records import write_record
            names = ("you", self.args.opponent) if self.human == 0 else (self.args.opponent, "you")
            keys = ("Red", "Black") if s.name == "xiangqi" else ("Black", "White")
            path = write_record(s, Path(rest).expanduser(), dict(zip(keys, names)))
            self.console.print(f"saved {path}")
        elif cmd == "load":
            if not rest:
                raise GameError("load needs a file name, e.g. load game.pgn")
            from ..records import read_record
            loaded = read_record(Path(rest).expanduser(), self.game_spec)
            if loaded.name != s.name:
                raise GameError(f"{rest} holds a {loaded.name} game, this session plays {s.name}")
            self.state = loaded
            self.console.print(f"loaded {rest}: {len(loaded.move_stack)} moves")
            self.reply_if_computer()
        else:
            if s.result() is not None:
                raise GameError("the game is over; type new, undo, save FILE or quit")
            if s.to_move != self.human:
                raise GameError("it is the computer's turn")
            move = s.parse_move(line.strip())
            s.push(move)
            self.reply_if_computer()
        return True


def run(args) -> int:
    from rich.console import Console
    console = Console(highlight=False, no_color=args.no_color or None)
    session = Session(args, console)
    console.print(f"gameai play: {session.state.name} against {args.opponent}; type help for commands")
    session.warm_up()
    session.reply_if_computer()
    while True:
        try:
            line = console.input("[bold green]move>[/] ")
        except (EOFError, KeyboardInterrupt):
            console.print()
            break
        try:
            if not session.command(line):
                break
        except GameError as exc:  # illegal input: the reason, then a fresh prompt
            console.print(f"error: {exc}", style="bold red")
    return 0
