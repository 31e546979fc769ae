"""A board to click in JupyterLab: play any searcher or player, or step through a recorded
tournament game. Built on ``anywidget`` (the front end is one small ES module,
``board.js``, drawing an SVG board); Python holds the game and does every rule check.

The front end only sends what was clicked (``{"type": "move", "text": "h2e2"}``,
``{"type": "step", "to": 12}``, ``{"type": "hint"}``, ...); Python answers by changing
the synced traits ``view`` (what to draw: pieces, last move, legal targets, PV, Renju's
forbidden points), ``stats`` (the last search's statistics, updated live on each
iteration) and ``error``. So the same object also works headless: construct it, call
``play("h2e2")``, read ``view``/``stats``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..errors import GameError
from ..games.protocol import line_text
from ..registry import SEARCHERS, load_game, make_player, make_searcher, resolve_preset

_HERE = Path(__file__).parent
STAT_KEYS = ("depth", "nodes", "cutoffs", "tt_hits", "researches", "time_s")


def _xq_squares(text: str) -> list[int]:
    return [ord(text[0]) - 97, int(text[1]), ord(text[2]) - 97, int(text[3])]


class Board(anywidget.AnyWidget):
    """``Board("xiangqi", opponent="negascout(depth=4,tt=true,id=true)")``: click to move.

    ``game`` is a game spec (``"xiangqi"``, ``"gomoku"``, ``"renju"``,
    ``"gomoku(rule=standard)"``) or a position object; ``side`` is the person's side
    (``"first"`` or ``"second"``); ``limits`` go to every computer search
    (``{"time": 1.0}``); ``show_pv`` draws the expected continuation (arrows for Xiangqi,
    numbered stones for Gomoku).
    """

    _esm = _HERE / "board.js"
    _css = _HERE / "board.css"
    view = traitlets.Dict().tag(sync=True)
    stats = traitlets.Dict().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    show_pv = traitlets.Bool(True).tag(sync=True)

    def __init__(self, game: Any = "xiangqi", opponent: str | None = "alphabeta(depth=3)",
                 side: str = "first", limits: dict | None = None, hint: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if side not in ("first", "second"):
            raise GameError(f"Board: side must be 'first' or 'second', got {side!r}")
        self.state = load_game(game) if isinstance(game, str) else game
        if self.state.name not in ("xiangqi", "gomoku", "renju"):
            raise GameError(f"Board draws xiangqi, gomoku and renju, not {self.state.name!r}")
        self.human = 0 if side == "first" else 1
        self.limits = limits
        self.opponent = opponent
        self.searcher = self.player = None
        if opponent is not None:
            opponent = resolve_preset(opponent, self.state)    # "strong": the game's preset
            if opponent.split("(", 1)[0].strip() in SEARCHERS.names():
                self.searcher = make_searcher(opponent)
            else:
                self.player = make_player(opponent, game=self.state)
                self.player.new_game(0)
        self.hinter = make_searcher(hint or (opponent if self.searcher else "alphabeta(depth=3)"),
                                    game=self.state)
        self.pv: list = []          # expected continuation from the current position
        self.records: list[dict] | None = None   # viewer mode: per-move rows
        self.moves: list = []       # viewer mode: every move of the game
        self.ply = 0
        self.on_msg(self._on_msg)
        self._reply_if_computer()
        self._refresh()

    # ------------------------------------------------------------------ viewer
    @classmethod
    def from_tournament(cls, folder: str | Path, game_id: int | None = None) -> "Board":
        """A viewer of one recorded tournament game (``games.parquet``/``moves.parquet`` in
        ``folder``; the first game if ``game_id`` is None): step with the arrows, the
        per-move statistics beside the board."""
        import pandas as pd
        folder = Path(folder)
        games = pd.read_parquet(folder / "games.parquet")
        moves = pd.read_parquet(folder / "moves.parquet")
        manifest = __import__("json").loads((folder / "manifest.json").read_text())
        if game_id is None:
            game_id = int(games.game_id.min())
        row = games[games.game_id == game_id]
        if row.empty:
            raise GameError(f"{folder}: no game {game_id}; games are {sorted(games.game_id.tolist())}")
        g = row.iloc[0]
        rows = moves[moves.game_id == game_id].sort_values("ply").to_dict("records")
        board = cls(manifest["config"]["game"], opponent=None)
        board.title = f"game {game_id}: {g.player0} vs {g.player1}, {g.result} ({g.reason})"
        opening = [{"move": t, "player": "opening"} for t in (g.opening or "").split()]
        board.records = opening + rows
        s = board.state
        for r in board.records:
            m = s.parse_move(r["move"])
            board.moves.append(m)
            s.push(m)
        board.step(0)
        return board

    def step(self, to: int) -> None:
        """Viewer: show the position after ``to`` moves (clamped to the game)."""
        if self.records is None:
            raise GameError("step() is for a recorded game (Board.from_tournament)")
        to = max(0, min(int(to), len(self.moves)))
        s = self.state
        while len(s.move_stack) > to:
            s.pop()
        while len(s.move_stack) < to:
            s.push(self.moves[len(s.move_stack)])
        self.ply = to
        rec = self.records[to - 1] if to else {}
        self.pv = []
        pv = rec.get("pv") if isinstance(rec.get("pv"), str) else ""
        stats = {k: _plain(v) for k, v in rec.items() if k != "game_id"}
        for k, v in stats.items():  # counters read back as floats where a column has gaps
            if isinstance(v, float) and v.is_integer() and k not in ("value", "time_s"):
                stats[k] = int(v)
        self.stats = stats | ({"pv_str": pv} if pv else {})
        self._refresh()

    # ------------------------------------------------------------------ playing
    def play(self, text: str) -> None:
        """The person's move in the game's notation; the opponent then replies."""
        s = self.state
        if self.records is not None:
            raise GameError("this board replays a recorded game; use step()")
        if s.result() is not None:
            raise GameError(f"the game is over ({s.result()})")
        if s.to_move != self.human:
            raise GameError("it is the computer's turn")
        s.push(s.parse_move(text))
        self.pv = []
        self._refresh()
        self._reply_if_computer()
        self._refresh()

    def undo(self) -> None:
        """Take back the person's last move (and the reply to it)."""
        s = self.state
        if not s.move_stack:
            raise GameError("nothing to undo")
        s.pop()
        while s.move_stack and s.to_move != self.human:
            s.pop()
        self.pv = []
        self._refresh()

    def new(self) -> None:
        """Back to the starting position (the opponent moves first if it plays first)."""
        while self.state.move_stack:
            self.state.pop()
        self.pv = []
        self._reply_if_computer()
        self._refresh()

    def hint(self):
        """Search for the person; the line is drawn and the statistics shown."""
        r = self._search(self.hinter)
        self.pv = list(r.pv)
        self._refresh()
        return r

    def _search(self, searcher):
        s = self.state

        def on_iteration(row: dict) -> None:
            self.stats = {**{k: _plain(row.get(k)) for k in STAT_KEYS}, "value": _plain(row.get("value")),
                          "pv_str": line_text(s, row.get("pv") or []), "thinking": True}

        r = searcher.search(s, self.limits, on_iteration=on_iteration)
        self.last_result = r
        self.stats = {**{k: _plain(getattr(r.stats, k)) for k in STAT_KEYS}, "value": _plain(r.value),
                      "move_str": r.move_str, "pv_str": r.pv_str, "thinking": False}
        return r

    def _reply_if_computer(self) -> None:
        s = self.state
        if self.opponent is None or s.result() is not None or s.to_move == self.human \
                or not s.legal_moves():
            return
        if self.searcher is not None:
            r = self._search(self.searcher)
            move, pv = r.move, list(r.pv)
        else:
            d = self.player.choose(s)
            move, pv = d.move, []
        s.push(move)
        self.pv = pv[1:] if pv and pv[0] == move else []

    # ------------------------------------------------------------------ front end
    def _on_msg(self, _widget, content: dict, _buffers) -> None:
        kind = content.get("type")
        try:
            self.error = ""
            if kind == "move":
                self.play(str(content.get("text", "")))
            elif kind == "undo":
                self.undo()
            elif kind == "hint":
                self.hint()
            elif kind == "new":
                self.new()
            elif kind == "step":
                self.step(int(content.get("to", 0)))
        except GameError as exc:
            self.error = str(exc)
            self._refresh()

    def _refresh(self) -> None:
        self.view = view_model(self)

    def __repr__(self) -> str:  # what a notebook saved without widget state shows
        v = self.view
        return f"<gameai Board {v.get('game')}: {v.get('status')}; moves {' '.join(v.get('moves', [])) or '-'}>"


def _plain(v):
    """JSON-friendly scalars (numpy ints/floats from pandas rows become Python ones)."""
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and v != v:
        return None
    return v


def view_model(board: Board) -> dict[str, Any]:
    """Everything the front end draws, as plain JSON."""
    s = board.state
    res = s.result()
    xq = s.name == "xiangqi"
    who = ("Red", "Black") if xq else ("Black", "White")
    viewer = board.records is not None
    your_turn = not viewer and res is None and s.to_move == board.human and board.opponent is not None \
        or (not viewer and board.opponent is None and res is None)
    if res is not None:
        status = ("draw" if res.winner is None else f"{who[res.winner]} wins") + f" ({res.reason})"
    else:
        status = f"{who[s.to_move]} to move" + ("" if viewer else
                                                (" (you)" if s.to_move == board.human else " (computer)"))
    v: dict[str, Any] = {"game": "xiangqi" if xq else "gomoku", "status": status, "your_turn": your_turn,
                         "to_move": s.to_move, "mode": "viewer" if viewer else "play",
                         "moves": [s.move_str(m) for m in s.move_stack]}
    if viewer:
        v.update(ply=board.ply, plies=len(board.moves), title=getattr(board, "title", ""))
    last = s.move_stack[-1] if s.move_stack else None
    if xq:
        v.update(files=9, ranks=10,
                 pieces=[[f, r, p] for r in range(10) for f in range(9) if (p := s.piece_at(f, r))],
                 last=_xq_squares(s.move_str(last)) if last is not None else None)
        legal: dict[str, list] = {}
        if your_turn:
            for m in s.legal_moves():
                a = _xq_squares(s.move_str(m))
                legal.setdefault(f"{a[0]},{a[1]}", []).append([a[2], a[3]])
        v["legal"] = legal
        v["pv"] = [_xq_squares(t) for t in line_text(s, board.pv).split()] if board.show_pv else []
    else:
        n = s.size
        v.update(files=n, ranks=n, pieces=[[c, r, "X" if p == 0 else "O"] for c, r, p in s.stones()],
                 last=list(s.point(last)) if last is not None else None)
        setup = len(s.placed) - len(s.move_stack)
        v["numbers"] = [[*s.point(m), k + 1] for k, m in enumerate(s.move_stack)]
        v["setup"] = setup
        fp = s.forbidden_points() if s.name == "renju" and s.to_move == 0 and res is None else {}
        v["forbidden"] = [[*_gomoku_point(s, p), why] for p, why in fp.items()]
        v["pv"] = [list(_gomoku_point(s, t)) for t in line_text(s, board.pv).split()] \
            if board.show_pv and board.pv else []
    return v


def _gomoku_point(s, text: str) -> tuple[int, int]:
    return ord(text[0]) - 97, int(text[1:]) - 1
