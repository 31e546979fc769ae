"""Search statistics, limits and results: the one place where every counter is defined.

Every searcher in :mod:`gameai.search` fills the same :class:`SearchStats`, counted the
same way, so numbers from different searchers can be put in one table:

``nodes``
    Positions visited: the root of every search call (each iteration of iterative
    deepening, each aspiration or MTD(f) pass, each NegaScout re-search visits it again)
    plus every position reached by ``push``. A position searched twice counts twice.
``leaves``
    Static evaluations: calls of the evaluator at the horizon (depth 0, a position with
    no moves that is not over, or a quiescence stand-pat). MCTS: simulations that ended
    without a result (rollout depth reached, or no moves) and were scored by the evaluator.
``terminals``
    Visited positions whose ``result()`` is not None (game over), or that repeat a
    position of the search line (``repetition=true``: scored as a draw); scored by the search.
``interior``
    Visited positions whose moves were generated and searched (expanded). MCTS: visited
    positions a simulation moved on from (tree descent, expansion and rollout alike).
    Without limits, for every searcher:
    ``nodes == leaves + terminals + interior + tt_cutoffs + pruned`` (except a root
    threat proof, see ``threat_nodes``).
``pruned``
    Nodes answered by a pruning part without searching their moves: null-move cut-offs,
    reverse futility and mate-distance pruning (:mod:`gameai.search.core`).
``null_tries`` / ``null_cutoffs``
    Null-move searches made (each visits one passed position, counted in ``nodes``), and
    those that failed high and cut their node (also in ``pruned``).
``reductions`` / ``reduction_researches``
    Moves searched first at a reduced depth (late-move reductions), and those whose
    reduced search beat alpha and were searched again at full depth (also in
    ``researches``).
``futility_skips``
    Moves futility pruning skipped: quiet moves that give no check at a node whose
    evaluation plus the margin cannot reach alpha. Such a move is neither made nor
    counted in ``nodes``; the node takes the margin's bound for it.
``move_count_skips``
    Late quiet moves that give no check, skipped by move-count pruning (``move_count``);
    neither made nor counted in ``nodes``.
``see_skips`` / ``delta_skips``
    Captures quiescence did not search: losing by static exchange (``see``), or unable
    to bring the stand-pat score near alpha (``delta``); ``see_skips`` also counts the
    moves shallow SEE pruning skipped in the main search (``see_prune``). None is made
    or counted in ``nodes``.
``qnodes``
    Calls of the quiescence search: the horizon positions it starts from (already in
    ``nodes`` as their parent's child) and every position it reaches. Its share of
    ``nodes`` is about ``qnodes / nodes``.
``cutoffs``
    Beta cutoffs: a node stopped searching its moves because a value reached beta.
``first_move_cutoffs``
    Those cutoffs produced by the first move searched (a move-ordering quality measure;
    :attr:`SearchStats.first_move_rate` is their share).
``tt_probes`` / ``tt_hits`` / ``tt_cutoffs``
    Transposition-table look-ups, look-ups that found the position, and nodes answered
    from the table without searching (value usable at this depth and window).
``researches``
    Searches repeated with a wider window: NegaScout fail-high re-searches, aspiration
    window failures, MTD(f) passes after the first.
``threat_nodes``
    Nodes of the threat searches run inside alpha-beta (``threats=true``: VCF/VCT at the
    root, VCF at the horizon), counted as the ``vcf``/``vct`` searchers count theirs and
    kept apart from the alpha-beta counters above. One rule for the threat part's
    share of ``nodes`` and ``depth``: the horizon's VCF nodes are in ``nodes`` too (they
    count against the node limit); the root search's and the root moves' reply checks'
    are only in ``threat_nodes`` (taken from the node limit before the alpha-beta
    starts); when the root threat search proves the win, no
    alpha-beta runs, and ``nodes`` is the proof's nodes (``== threat_nodes``) and
    ``depth`` the proven line's length in plies (the win's ``MATE - depth``), so a proven
    win never reads ``nodes=0, depth=0``.
``simulations``
    MCTS playouts (root to a leaf or terminal; each ends in exactly one of those, so
    ``leaves + terminals == simulations``); 0 for the other searchers.
``depth`` / ``seldepth``
    Last completed nominal depth (a root threat proof: its line's length); deepest ply (from the root) any visited position had,
    quiescence included.
``time_s``
    Wall-clock seconds of the whole ``search`` call.
``iterations``
    One dict per finished iteration (iterative deepening) or per search: depth, value,
    move, pv, nodes, leaves, cutoffs, researches, time_s, cumulative counters.

Every field but ``iterations`` is a plain int/float that flows into the tournament's
per-move records and their Parquet schema (:meth:`SearchStats.record_fields`), so a
counter added here appears there too.

Values are always from the point of view of the side to move at the root (negamax), in
the evaluator's units (MCTS maps its mean reward back through its own rollout scale); wins are ``MATE - plies`` (losses the negative) unless the
searcher is built with ``mate_ply=false``.
"""
from __future__ import annotations

import math
from dataclasses import InitVar, asdict, dataclass, field, fields
from typing import Any, get_type_hints

MATE = 10 ** 9        #: value of a won terminal position (reduced by its ply from the root)
INF = 2 * 10 ** 9     #: larger than any value a search can return
MATE_BOUND = MATE - 10 ** 6  #: |value| above this is a forced win/loss


@dataclass
class SearchStats:
    """Counters of one ``search`` call; see the module docstring for exact definitions."""

    nodes: int = 0
    leaves: int = 0
    terminals: int = 0
    interior: int = 0
    cutoffs: int = 0
    first_move_cutoffs: int = 0
    tt_probes: int = 0
    tt_hits: int = 0
    tt_cutoffs: int = 0
    researches: int = 0
    threat_nodes: int = 0
    simulations: int = 0
    pruned: int = 0
    null_tries: int = 0
    null_cutoffs: int = 0
    reductions: int = 0
    reduction_researches: int = 0
    futility_skips: int = 0
    qnodes: int = 0
    see_skips: int = 0
    delta_skips: int = 0
    move_count_skips: int = 0
    depth: int = 0
    seldepth: int = 0
    time_s: float = 0.0
    iterations: list[dict[str, Any]] = field(default_factory=list)

    COUNTERS = ("nodes", "leaves", "terminals", "interior", "cutoffs", "first_move_cutoffs",
                "tt_probes", "tt_hits", "tt_cutoffs", "researches", "pruned", "null_tries",
                "null_cutoffs", "reductions", "reduction_researches", "futility_skips",
                "qnodes", "see_skips", "delta_skips", "move_count_skips")

    @classmethod
    def record_fields(cls) -> tuple[tuple[str, type], ...]:
        """``(name, int | float)`` of every scalar field in declaration order: the columns
        per-move records and Parquet schemas take from a search."""
        hints = get_type_hints(cls)
        return tuple((f.name, hints[f.name]) for f in fields(cls) if hints[f.name] in (int, float))

    def as_dict(self) -> dict[str, Any]:
        """Plain dict (JSON-ready) of every field."""
        return asdict(self)

    def counters(self) -> dict[str, int]:
        """Only the integer counters (no per-iteration rows)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "iterations"}

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.time_s if self.time_s > 0 else 0.0

    @property
    def first_move_rate(self) -> float:
        """Share of the beta cut-offs made by the first move searched (0 without any)."""
        return self.first_move_cutoffs / self.cutoffs if self.cutoffs else 0.0


@dataclass(frozen=True)
class Limits:
    """What may stop a search (None = no limit).

    ``depth`` nominal depth; ``nodes`` visited nodes; ``time`` hard seconds (abort the
    search, return the last finished iteration); ``soft_time`` seconds after which no
    new iteration is started (see :mod:`gameai.search.timeman`). With a time limit and
    no depth anywhere, iterative deepening goes on until the time is used.
    """

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    soft_time: float | None = None

    def __post_init__(self) -> None:
        from ..errors import SpecError
        for name in ("depth", "nodes"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise SpecError(f"search limit {name} must be a positive integer, got {v!r}")
        for name in ("time", "soft_time"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))
                                  or not math.isfinite(v) or v <= 0):
                raise SpecError(f"search limit {name} must be a finite number of seconds > 0, "
                                f"got {v!r}")

    @classmethod
    def coerce(cls, limits: "Limits | dict | None") -> "Limits":
        """Accept None, a Limits or a dict with keys depth/nodes/time/soft_time."""
        if limits is None:
            return cls()
        if isinstance(limits, Limits):
            return limits
        if isinstance(limits, dict):
            from ..errors import SpecError
            bad = sorted(set(limits) - {"depth", "nodes", "time", "soft_time"})
            if bad:
                raise SpecError(f"search limits: unknown key(s) {bad}; "
                                "accepted: depth, nodes, time, soft_time")
            return cls(**limits)
        from ..errors import SpecError
        raise SpecError(f"search limits must be None, Limits or dict, got {type(limits).__name__}")


class MoveText(str):
    """Move text such as ``"h2e2 h9g7"``. Calling it with the root position returns the
    same text (computed then if the searcher did not fill it), so code written for the
    former ``pv_str(state)`` method keeps working."""

    moves: list                                 # the moves the text was made from

    def __new__(cls, text: str = "", moves: Any = ()) -> "MoveText":
        obj = super().__new__(cls, text)
        obj.moves = list(moves)
        return obj

    def __call__(self, state: Any = None) -> str:
        if not self and self.moves and state is not None:
            from ..games.protocol import line_text
            return line_text(state, self.moves)
        return str(self)


@dataclass
class SearchResult:
    """The outcome of one search: best move (None if the game is over), value, PV, stats.

    ``move_str`` and ``pv_str`` are the same in the game's notation for the searched
    position (``"h2e2"``, ``"h2e2 h9g7"``); the searcher fills them by passing
    ``state=`` (the root, unchanged) when it builds the result.
    """

    move: Any
    value: float
    pv: list[Any]
    stats: SearchStats
    move_str: str | None = None
    pv_str: str = MoveText("")
    state: InitVar[Any] = None

    def __post_init__(self, state) -> None:
        if state is not None:
            from ..games.protocol import line_text
            if self.move is not None and self.move_str is None:
                self.move_str = state.move_str(self.move)
            if self.pv and not self.pv_str:
                self.pv_str = line_text(state, self.pv)
        self.pv_str = MoveText(self.pv_str, self.pv)


def mate_in(value: float) -> int | None:
    """Plies to the forced end for a mate-range value (positive: we win), else None."""
    if abs(value) >= MATE_BOUND:
        plies = MATE - abs(int(value))
        return plies if value > 0 else -plies
    return None
