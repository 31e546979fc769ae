"""The negamax family: minimax, alpha-beta, NegaScout, MTD(f), configured.

:class:`Searcher` holds the configuration (the switches) and the memories that outlive a
search (TT, history, killers, clock, an attached part such as the threat part). Each
``search`` call is run by :mod:`gameai.search.driver` in numbered steps: it makes a
:class:`~gameai.search.core.Search` (per-search state and the ONE negamax core; its
docstring lists the node's steps and how to add a part) and drives it: a fixed-depth
search, iterative deepening (``id``) with the previous PV move first, aspiration
windows, or MTD(f) null-window passes (the 000 document's AlphaBeta, fail-soft; the 003
document's NegaScout; Plaat et al. 1996's MTD(f)). Node and time limits and ``stop``
abort the search and return the last finished iteration. Counters are defined once in
:mod:`gameai.search.stats`.
"""
from __future__ import annotations

from typing import Any, Callable, Unpack

from ..errors import SpecError
from . import driver, memories
from .backend import Backend, compiled
from .driver import MAX_DEPTH
from .options import Keywords, Options
from .stats import MATE, Limits, SearchResult
from .switches import BY_NAME, SWITCHES, describe, doc, signature
from .timeman import GameClock, parse_clock

DEFAULT_DEPTH = 4    #: nominal depth when neither the spec nor the limits give one
MAX_QDEPTH = 64      #: deepest quiescence extension


class Searcher(Options):
    """A configurable negamax searcher; registered as minimax, alphabeta, negascout, mtdf.

    Parameters (spec string or keywords): one per row of the switch table,
    :data:`gameai.search.switches.SWITCHES` (type, default, what it does), listed below
    when read with ``help()``; ``gameai list`` prints them too. A name the table does not
    have is a :class:`~gameai.errors.SpecError` naming it. The threat switches attach
    the Gomoku/Renju threat part (:class:`~gameai.search.threats.ThreatPart`).
    """

    def __init__(self, **options: Unpack[Keywords]) -> None:
        unknown = sorted(set(options) - set(BY_NAME))
        if unknown:
            raise SpecError(f"searcher: unknown parameter(s) {', '.join(unknown)}; known: "
                            f"{', '.join(BY_NAME)}")
        for s in SWITCHES:                  # every row of the table, given or its default
            setattr(self, s.name, options.get(s.name, s.default))
        depth, qdepth, window, grain = self.depth, self.qdepth, self.window, self.grain
        nodes, time, clock, eval = self.nodes, self.time, self.clock, self.eval
        tt_replace = self.tt_replace
        threats, threat_order, threat_forced = self.threats, self.threat_order, self.threat_forced
        self._depth_given = depth is not None
        depth = DEFAULT_DEPTH if depth is None else depth
        for name, v, hi in (("depth", depth, MAX_DEPTH), ("qdepth", qdepth, MAX_QDEPTH),
                            ("window", window, MATE), ("grain", grain, MATE)):
            lo = 0 if name == "qdepth" else 1
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise SpecError(f"searcher parameter {name} must be an integer in [{lo}, {hi}], "
                                f"got {v!r}")
        Limits(nodes=nodes, time=time)     # the same checks as a search's limits
        if eval is not None:                # an unknown evaluator fails here, not mid-game
            from ..registry import check_evaluator_spec
            check_evaluator_spec(eval)
        given_clock = options.get("clock")   # self.clock becomes the clock made from it
        self.clock = GameClock(parse_clock(given_clock)) if given_clock is not None else None
        if self.mtdf and not self.pruning:
            raise SpecError("mtdf needs pruning=true (it is a null-window alpha-beta driver)")
        if self.aspiration_grow and not self.aspiration:
            raise SpecError("aspiration_grow needs aspiration=true (it sets how a failed "
                            "aspiration window widens)")
        if self.lmr_sf and not self.lmr:
            raise SpecError("lmr_sf needs lmr=true (it sets which moves late-move "
                            "reductions reduce, and by how much)")
        if self.qs_tt and not (self.tt and self.quiescence):
            raise SpecError("qs_tt needs tt=true and quiescence=true (it lets quiescence "
                            "probe and store the transposition table)")
        if self.null_adaptive and not self.nullmove:
            raise SpecError("null_adaptive needs nullmove=true (it sets when and how far the "
                            "null move reduces)")
        self.depth, self.eval_spec = depth, eval
        if tt_replace not in ("depth", "always"):
            raise SpecError(f"tt_replace must be depth or always, got {tt_replace!r}")
        self._compiled = _backend(self.backend)
        self.backend = "compiled" if self._compiled is not None else "python"
        # the threat part, attached by name (the registry's parts): the core and driver
        # call its methods at their named steps and import none of it
        self.threats = self.threat_moves = None
        if threats or threat_order or threat_forced:
            from ..registry import PARTS
            if threats:
                self.threats = self.threat_moves = PARTS.factory("threats")(
                    self.threat_depth, self.threat_vct_depth, effort=self.threat_effort,
                    horizon_vct=self.threat_horizon_vct,
                    horizon_nodes=self.threat_horizon_nodes, backend=self.backend,
                    defend=self.threat_defend, reply_share=self.threat_reply_share)
            else:
                self.threat_moves = PARTS.factory("threat_moves")()
        # the memories (gameai.search.memories), each made from its declaration: on this
        # backend's class when its switch is on, else None
        for m in memories.MEMORIES:
            made = None if not m.on(self) else m.python(*m.args(self)) \
                if self._compiled is None else self._compiled.memory(m, self)
            setattr(self, m.name, made)
        if self._compiled is not None and self._depth_given:
            self._compiled.check_depth(self, depth)
        self._evals: dict[str, Any] = {}
        self.name = self._describe()

    def _describe(self) -> str:
        kind = "mtdf" if self.mtdf else "negascout" if self.scout else \
            "alphabeta" if self.pruning else "minimax"
        return describe(self, kind)

    def new_game(self) -> None:
        """Forget everything learnt in the previous game (TT, history, killers, clock)."""
        if self.clock is not None:
            self.clock.reset()
        for _decl, memory in memories.kept(self):
            memory.new_game()
        if self.threats is not None:
            self.threats.new_game()

    def prepare(self, state) -> None:
        """Do now what a first timed search of ``state``'s game would otherwise do on its
        clock: with ``backend=compiled``, compile (or load) the core and fault in the
        searcher's tables (:func:`~gameai.compiled.search.warm_up`). An engine calls it
        when idle at ``isready`` and at Gomocup ``START``, whose answers GUIs wait for."""
        if self._compiled is not None:
            self._compiled.warm_up(self, state, self.evaluator(state), timed=True)

    def evaluator(self, state):
        """The evaluator used on ``state``: ``eval`` if given, else the game's default."""
        spec = self.eval_spec or state.default_eval
        if not isinstance(spec, str):       # a callable given as eval=: used as it is
            from ..registry import make_evaluator
            return make_evaluator(spec, state)
        ev = self._evals.get((spec, state.name))
        if ev is None:
            from ..registry import make_evaluator
            ev = self._evals[spec, state.name] = make_evaluator(spec, state)
        return ev

    def search(self, state, limits: Limits | dict | None = None, *,
               on_iteration: Callable[[dict], None] | None = None,
               on_root_move: Callable[[int, int, Any, int], None] | None = None,
               stop: Any = None, root_moves: Any = None) -> SearchResult:
        """Search ``state`` (left unchanged) and return the best move, value, PV and stats.

        ``stop`` is anything with ``is_set()`` (a ``threading.Event``), checked with the
        node and time limits; when set, the last finished iteration is returned. With a
        time or node limit (``time``, ``soft_time``, ``clock`` or ``nodes``) and no depth
        given anywhere, iterative deepening goes on until the limit is reached (as an
        engine's ``go nodes``). ``root_moves``: only these
        moves are searched at the root (UCI ``searchmoves``; illegal ones are ignored,
        none legal is a ``SpecError``). With ``threats`` and a node or time limit, the root
        proof uses at most a quarter of the limit and the root threat searches together at
        most half, the root moves' reply checks at most half of the rest, and the alpha-beta
        search (its horizon VCFs included) what is left. A timed search's clock starts
        before its warm-up (:meth:`prepare` does that ahead), so a first search ends within
        its limit too.
        With ``threats`` and a time limit, each iteration's move gets a longer check against
        an opponent VCT (:meth:`~gameai.search.threats.ThreatPart.refutes`); a refuted move
        is scored lost and the iteration runs again. The checks together take at most the
        share ``threat_verify`` of the time; half of it (:data:`~gameai.search.threats.part.FINAL_SHARE`) is held back: the
        alpha-beta search stops that much earlier and the move about to be played gets one
        more check (refuted: the search goes on). A depth-limited search checks its final move.
        """
        return driver.search(self, state, limits, on_iteration=on_iteration,
                             on_root_move=on_root_move, stop=stop, root_moves=root_moves)


def _backend(backend: str) -> Backend | None:
    """The compiled backend when ``backend=compiled`` and it can run (else one warning),
    None for the Python reference."""
    if backend not in ("python", "compiled"):
        raise SpecError(f"searcher parameter backend must be 'python' or 'compiled', got {backend!r}")
    return compiled("backend=compiled") if backend == "compiled" else None


setattr(Searcher.__init__, "__signature__", signature())    # the table's rows, as keywords
Searcher.__doc__ = (Searcher.__doc__ or "") + "\n    Parameters (one row each of :data:`gameai.search.switches.SWITCHES`):\n\n" + doc() + "\n"
