"""Draw positions with matplotlib: Xiangqi and Gomoku boards with the last move and a
principal variation marked (notebooks and figures use this; matplotlib is imported lazily)."""
from __future__ import annotations

from typing import Any, Sequence

# Chinese glyphs need a CJK font; plain letters read everywhere (upper case = Red).
_XQ_NAMES = {"k": "K", "a": "A", "b": "E", "n": "H", "r": "R", "c": "C", "p": "P"}


def draw(state, ax=None, pv: Sequence[Any] = (), last_move: bool = True, title: str | None = None):
    """Draw ``state`` on ``ax`` (a new figure if None); ``pv`` is a list of moves from it."""
    import matplotlib.pyplot as plt
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 5.5))
    name = getattr(state, "name", "")
    if name == "xiangqi":
        _draw_xiangqi(state, ax, pv, last_move)
    elif name in ("gomoku", "renju"):
        _draw_gomoku(state, ax, pv, last_move)
    else:
        ax.text(0.5, 0.5, str(state), family="monospace", ha="center", va="center")
        ax.set_axis_off()
    if title:
        ax.set_title(title)
    return ax


def _xq_squares(state, move) -> tuple[tuple[int, int], tuple[int, int]]:
    t = state.move_str(move)  # ICCS "h2e2": file letter, rank digit
    return (ord(t[0]) - 97, int(t[1])), (ord(t[2]) - 97, int(t[3]))


def _draw_xiangqi(state, ax, pv, last_move) -> None:
    ax.set_facecolor("#f3d9a4")
    for r in range(10):
        ax.plot([0, 8], [r, r], color="k", lw=0.8)
    for f in range(9):
        if f in (0, 8):
            ax.plot([f, f], [0, 9], color="k", lw=0.8)
        else:
            ax.plot([f, f], [0, 4], color="k", lw=0.8)
            ax.plot([f, f], [5, 9], color="k", lw=0.8)
    for y0 in (0, 7):  # palace diagonals
        ax.plot([3, 5], [y0, y0 + 2], color="k", lw=0.8)
        ax.plot([5, 3], [y0, y0 + 2], color="k", lw=0.8)
    ax.text(4, 4.5, "river", ha="center", va="center", fontsize=9, color="#555")
    for f in range(9):
        for r in range(10):
            letter = state.piece_at(f, r)
            if letter:
                red = letter.isupper()
                ax.add_patch(_circle((f, r), 0.42, "#fff4e0", "#b00" if red else "#111"))
                ax.text(f, r, _XQ_NAMES[letter.lower()], ha="center", va="center", fontsize=11,
                        weight="bold", color="#b00" if red else "#111")
    stack = getattr(state, "move_stack", [])
    if last_move and stack:
        (f0, r0), (f1, r1) = _xq_squares(state, stack[-1])
        ax.add_patch(_square((f0, r0), "#2a7"))
        ax.add_patch(_square((f1, r1), "#2a7"))
    _draw_pv_arrows(ax, state, pv, _xq_squares)
    ax.set_xticks(range(9), list("abcdefghi"))
    ax.set_yticks(range(10), [str(r) for r in range(10)])
    ax.set_xlim(-0.7, 8.7)
    ax.set_ylim(-0.7, 9.7)
    ax.set_aspect("equal")


def _draw_gomoku(state, ax, pv, last_move) -> None:
    n = state.size
    ax.set_facecolor("#e8c27a")
    for i in range(n):
        ax.plot([0, n - 1], [i, i], color="k", lw=0.6)
        ax.plot([i, i], [0, n - 1], color="k", lw=0.6)
    stones = state.stones()
    # stones loaded from stone lists have no order: only played moves get numbers
    setup = len(stones) - len(getattr(state, "move_stack", stones))
    for k, (c, r, p) in enumerate(stones):
        ax.add_patch(_circle((c, r), 0.45, "#111" if p == 0 else "#fafafa", "#111"))
        if k >= setup:
            ax.text(c, r, str(k - setup + 1), ha="center", va="center", fontsize=6,
                    color="#fafafa" if p == 0 else "#111")
    if last_move and len(stones) > setup:
        c, r, _ = stones[-1]
        ax.add_patch(_circle((c, r), 0.5, "none", "#d22", lw=2))
    player = state.to_move
    for k, m in enumerate(pv):
        c, r = state.point(m)
        col = "#111" if (player + k) % 2 == 0 else "#fafafa"
        ax.add_patch(_circle((c, r), 0.45, col, "#27d", lw=1.5, alpha=0.55))
        ax.text(c, r, chr(ord("a") + k), ha="center", va="center", fontsize=7, color="#27d",
                weight="bold")
    letters = "abcdefghijklmnopqrstuvwxyz"[:n]
    ax.set_xticks(range(n), list(letters))
    ax.set_yticks(range(n), [str(i + 1) for i in range(n)])
    ax.set_xlim(-0.8, n - 0.2)
    ax.set_ylim(-0.8, n - 0.2)
    ax.set_aspect("equal")


def _draw_pv_arrows(ax, state, pv, squares) -> None:
    """Arrows for the PV moves, numbered; the state is walked forward and restored."""
    pushed = 0
    try:
        for k, m in enumerate(pv):
            (f0, r0), (f1, r1) = squares(state, m)
            ax.annotate("", xy=(f1, r1), xytext=(f0, r0),
                        arrowprops=dict(arrowstyle="->", color="#27d", lw=2, alpha=0.8))
            ax.text((f0 + f1) / 2, (r0 + r1) / 2, str(k + 1), color="#27d", fontsize=9,
                    weight="bold")
            state.push(m)
            pushed += 1
    finally:
        for _ in range(pushed):
            state.pop()


def _circle(xy, radius, face, edge, lw=1.0, alpha=1.0):
    from matplotlib.patches import Circle
    return Circle(xy, radius, facecolor=face, edgecolor=edge, lw=lw, alpha=alpha, zorder=3)


def _square(xy, colour):
    from matplotlib.patches import Rectangle
    return Rectangle((xy[0] - 0.48, xy[1] - 0.48), 0.96, 0.96, fill=False, edgecolor=colour,
                     lw=2, zorder=4)
