"""Text boards for the terminal (``gameai play``): rich ``Text`` with coordinates on every
edge, the last move bracketed (``[R]``, readable without colour too) and, under renju with
Black to move, Black's forbidden points as ``×``."""
from __future__ import annotations

from rich.text import Text

# colours: Red pieces red, Black pieces blue; Gomoku black stones bold, white stones cyan
_STYLE = {"red": "bold red", "black": "bold blue", "x": "bold", "o": "bold cyan",
          "forbidden": "bold magenta", "empty": "dim", "last": "reverse"}


def _cell(glyph: str, style: str, last: bool) -> Text:
    return Text.assemble(("[" if last else " ", "yellow"), (glyph, style), ("]" if last else " ", "yellow"))


def _row(label: str, cells: list[Text], width: int) -> Text:
    t = Text(f"{label:>{width}} ")
    for c in cells:
        t.append_text(c)
    t.append(f" {label}")
    return t


def _files_line(files: list[str], width: int) -> Text:
    return Text(" " * (width + 1) + "".join(f" {f} " for f in files), style="bold")


def xiangqi_board(state, flipped: bool = False) -> Text:
    """Files a-i, ranks 0-9 (Red at the bottom unless ``flipped``), river marked."""
    last = set()
    if state.move_stack:
        t = state.move_str(state.move_stack[-1])
        last = {(ord(t[0]) - 97, int(t[1])), (ord(t[2]) - 97, int(t[3]))}
    files = list(range(9))[::-1] if flipped else list(range(9))
    ranks = list(range(10)) if flipped else list(range(9, -1, -1))
    names = [chr(97 + f) for f in files]
    out = [_files_line(names, 2)]
    for r in ranks:
        cells = []
        for f in files:
            p = state.piece_at(f, r)
            if p:
                cells.append(_cell(p, _STYLE["red" if p.isupper() else "black"], (f, r) in last))
            else:
                cells.append(_cell("·", _STYLE["empty"], (f, r) in last))
        out.append(_row(str(r), cells, 2))
        if (r == 5 and not flipped) or (r == 4 and flipped):
            out.append(Text(" " * 3 + "~" * 9 + " river " + "~" * 11, style="cyan"))
    out.append(_files_line(names, 2))
    return Text("\n").join(out)


def gomoku_board(state, flipped: bool = False, forbidden: dict[str, str] | None = None) -> Text:
    """Columns a.., rows 1.. from the bottom (top unless ``flipped``); ``forbidden`` points ×."""
    n = state.size
    last = state.point(state.move_stack[-1]) if state.move_stack else None
    cols = list(range(n))[::-1] if flipped else list(range(n))
    rows = list(range(n)) if flipped else list(range(n - 1, -1, -1))
    names = [chr(97 + c) for c in cols]
    forbidden = forbidden or {}
    out = [_files_line(names, 2)]
    for r in rows:
        cells = []
        for c in cols:
            stone = state.stone(c, r)
            here = (c, r) == last
            if stone == 0:
                cells.append(_cell("X", _STYLE["x"], here))
            elif stone == 1:
                cells.append(_cell("O", _STYLE["o"], here))
            elif f"{chr(97 + c)}{r + 1}" in forbidden:
                cells.append(_cell("×", _STYLE["forbidden"], False))
            else:
                cells.append(_cell("·", _STYLE["empty"], False))
        out.append(_row(str(r + 1), cells, 2))
    out.append(_files_line(names, 2))
    return Text("\n").join(out)


def board_text(state, flipped: bool = False) -> Text:
    """The board of any supported game (Renju shows Black's forbidden points when Black
    is to move)."""
    if state.name == "xiangqi":
        return xiangqi_board(state, flipped)
    forbidden = state.forbidden_points() if state.name == "renju" and state.to_move == 0 else {}
    return gomoku_board(state, flipped, forbidden)
