"""Synthetic uniform game trees with controlled move ordering, for search theory.

``synthetic(branching=B, depth=D, seed=S, ordering=O)``: every node above depth D has
B children (moves ``0..B-1``, text ``"0"``..); nodes at depth D are leaves (no moves,
``result()`` None) and are scored by the evaluator ``synthetic.exact``.

How "best ordering" is made exact
---------------------------------
Values are built top-down as *nested intervals*. At each node the B children get
distinct "goodness" ranks ``g`` in ``0..B-1`` for the player to move there (B-1 best).
A leaf's value from the root player's view is ``K * rank + noise - offset`` where
``rank = sum_k d_k * B**(D-1-k)`` over the path, ``d_k = g_k`` when the root player
moves at level k and ``B-1-g_k`` otherwise, and ``noise`` in ``[0, K)`` is a seeded
hash of the leaf's rank. Because a higher level's digit outweighs all lower levels
together, every leaf below a better child is better (for the mover) than every leaf
below a worse child: the child with ``g = B-1`` is the best one by its negamax value,
strictly, whatever lies below. Ordering then only decides which index gets which ``g``:

* ``best``: index 0 is the best child, then decreasing (``g = B-1-j``);
* ``worst``: increasing (``g = j``), so no window can ever close and alpha-beta visits
  all B**D leaves;
* ``random``: a seeded uniformly random permutation per node;
* a number p in [0, 1]: the best child is first with probability p, otherwise at a
  uniformly chosen other index; the rest are shuffled (seeded per node).

With ``best``, alpha-beta visits exactly ``B**ceil(D/2) + B**floor(D/2) - 1`` leaves
(Knuth & Moore's minimal tree). The node value is known in closed form (follow the
``g = B-1`` children), so ``synthetic.exact`` is also a perfect interior evaluator.
``key`` is a 64-bit hash of the path (the tree has no transpositions).

Very large trees
----------------
Distinct values need ``16 * B**D / 2`` (or at least ``B**D / 2``) integers, and values stay
within +-10**8. Beyond that (e.g. B=40, D=8) leaf ranks are mapped onto the range by a
monotone non-decreasing function, so neighbouring leaves may tie. A better child is then
never worse than a worse one, which is all that alpha-beta's ``>= beta`` cut-offs need:
``best`` ordering still gives exactly the minimal tree (tests check B=40, D=6). ``worst``
ordering no longer guarantees ``B**D`` leaves (ties cut), but such trees are far too
large to search exhaustively anyway.
"""
from __future__ import annotations

import random
from typing import Annotated, Literal

from ..errors import IllegalMoveError, SpecError
from ..spec import Range
from .protocol import CheckedPush, play

_M64 = (1 << 64) - 1
_LIMIT = 10 ** 8


def _mix(x: int) -> int:
    """splitmix64 finaliser: a well-spread 64-bit hash of ``x``."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


class Synthetic(CheckedPush):
    """A uniform tree of branching B and depth D; see the module docstring."""

    name = "synthetic"
    default_eval = "synthetic.exact"

    def __init__(self, branching: Annotated[int, Range(1, 10 ** 6)] = 2,
                 depth: Annotated[int, Range(0, 256)] = 4, seed: int = 0,
                 ordering: Literal["best", "worst", "random"] | Annotated[float, Range(0, 1)] = "best",
                 moves: str = "") -> None:
        for pname, v, lo in (("branching", branching, 1), ("depth", depth, 0)):
            if not isinstance(v, int) or isinstance(v, bool) or v < lo:
                raise SpecError(f"synthetic: {pname} must be an integer >= {lo}, got {v!r}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SpecError(f"synthetic: seed must be an integer, got {seed!r}")
        if isinstance(ordering, str):
            if ordering not in ("best", "worst", "random"):
                raise SpecError(f"synthetic: ordering must be best, worst, random or a probability, got {ordering!r}")
        elif isinstance(ordering, bool) or not isinstance(ordering, (int, float)) or not 0 <= ordering <= 1:
            raise SpecError(f"synthetic: ordering probability must be in [0, 1], got {ordering!r}")
        self.B, self.D, self.seed, self.ordering = branching, depth, seed, ordering
        leaves = self._leaves = branching ** depth
        self.K = 16 if 16 * leaves // 2 + 16 < _LIMIT else 1
        # Too many leaves for distinct values within +-10**8: squeeze ranks monotonically
        # into that range (ties allowed, see "Very large trees" in the module docstring).
        self.coarse = self.K * leaves // 2 + self.K >= _LIMIT
        self.offset = _LIMIT - 1 if self.coarse else self.K * (leaves - 1) // 2
        self._pow = [branching ** (depth - 1 - k) for k in range(depth)]
        # best-continuation rank below level d: root player's levels take digit B-1
        self._tail = [sum((branching - 1) * self._pow[k] for k in range(d, depth) if k % 2 == 0)
                      for d in range(depth + 1)]
        self.path: list[int] = []
        self._keys = [_mix(seed ^ 0x5EED)]
        self._ranks = [0]
        self._perm: list[list[int] | None] = [None]
        play(self, moves.split())

    # --- protocol -------------------------------------------------------------------
    @property
    def to_move(self) -> int:
        return len(self.path) & 1

    @property
    def key(self) -> int:
        return self._keys[-1]

    @property
    def ply(self) -> int:
        return len(self.path)

    def legal_moves(self) -> list[int]:
        return [] if len(self.path) >= self.D else list(range(self.B))

    def result(self):
        return None

    def is_legal(self, move) -> bool:
        """Is ``move`` a child index of this (non-leaf) node?"""
        return type(move) is int and 0 <= move < self.B and len(self.path) < self.D

    def push_unchecked(self, move: int) -> None:
        """Play ``move`` without checking it (it must come from ``legal_moves``)."""
        k = len(self.path)
        g = self._goodness(k)[move]
        digit = g if k % 2 == 0 else self.B - 1 - g
        self._ranks.append(self._ranks[-1] + digit * self._pow[k])
        self._keys.append(_mix(self._keys[-1] ^ (move + 1) * 0x100000001B3))
        self._perm.append(None)
        self.path.append(move)

    def pop(self) -> int:
        if not self.path:
            raise IllegalMoveError("synthetic: no move to take back")
        self._ranks.pop()
        self._keys.pop()
        self._perm.pop()
        return self.path.pop()

    def parse_move(self, text: str) -> int:
        t = text.strip()
        if not (t.isascii() and t.isdigit() and len(t) <= 9) or int(t) >= self.B:
            raise IllegalMoveError(f"synthetic: move {text!r} is not a child index 0..{self.B - 1}")
        if len(self.path) >= self.D:
            raise IllegalMoveError(f"synthetic: {text!r} played at a leaf (depth {self.D})")
        return int(t)

    def move_str(self, move: int) -> str:
        return str(move)

    def copy(self) -> "Synthetic":
        other = Synthetic(self.B, self.D, self.seed, self.ordering)
        for m in self.path:
            other.push(m)
        return other

    def history_key(self, move: int, with_piece: bool = False) -> int:
        return move + self.B * self.to_move if with_piece else move

    # --- values ---------------------------------------------------------------------
    def _goodness(self, level: int) -> list[int]:
        """Goodness rank (B-1 = best for the mover) of each child index at this node."""
        perm = self._perm[-1]
        if perm is not None:
            return perm
        B, o = self.B, self.ordering
        if o == "best":
            perm = list(range(B - 1, -1, -1))
        elif o == "worst":
            perm = list(range(B))
        else:
            rng = random.Random(self._keys[-1] ^ self.seed)
            if o == "random":
                perm = list(range(B))
                rng.shuffle(perm)
            else:
                best_at = 0 if (B == 1 or rng.random() < o) else rng.randrange(1, B)
                rest = list(range(B - 1))
                rng.shuffle(rest)
                perm = rest[:best_at] + [B - 1] + rest[best_at:]
        self._perm[-1] = perm
        return perm

    def _leaf_value(self, rank: int) -> int:
        if self.coarse:
            return rank * (2 * _LIMIT - 2) // (self._leaves - 1) - self.offset
        noise = _mix(rank * 0x9E3779B1 ^ self.seed) % self.K if self.K > 1 else 0
        return self.K * rank + noise - self.offset

    def value(self) -> int:
        """This node's exact negamax value for the side to move (leaf value at a leaf)."""
        d = len(self.path)
        v = self._leaf_value(self._ranks[-1] + self._tail[d])
        return v if d % 2 == 0 else -v

    def best_move(self) -> int | None:
        """Index of the strictly best child (None at a leaf)."""
        if len(self.path) >= self.D:
            return None
        return self._goodness(len(self.path)).index(self.B - 1)

    def __str__(self) -> str:
        return f"synthetic(B={self.B},D={self.D},ordering={self.ordering}) path={' '.join(map(str, self.path)) or '-'}"
