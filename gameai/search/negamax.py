"""The negamax family: minimax, alpha-beta, NegaScout, MTD(f), configured and driven.

:class:`Searcher` holds the configuration (the switches) and the memories that outlive a
search (TT, history, killers, clock). Each ``search`` call makes a
:class:`~gameai.search.core.Search` (per-search state and the ONE negamax core; its
docstring lists the node's steps and how to add a part) and drives it: a fixed-depth
search, iterative deepening (``id``) with the previous PV move first, aspiration
windows, or MTD(f) null-window passes (the 000 document's AlphaBeta, fail-soft; the 003
document's NegaScout; Plaat et al. 1996's MTD(f)). Node and time limits and ``stop``
abort the search and return the last finished iteration. Counters are defined once in
:mod:`gameai.search.stats`.
"""
from __future__ import annotations

import time
from typing import Annotated, Any, Callable, Literal

from ..errors import SpecError
from ..spec import Depth, Nodes, Range, Seconds, TTSize
from .core import Abort, Search, coarse, coarsened
from .ordering import History, Killers
from .threats import ThreatPart
from .stats import INF, MATE, MATE_BOUND, Limits, SearchResult, SearchStats
from .timeman import GameClock, parse_clock
from .tt import TranspositionTable

SWITCHES = ("nullmove", "lmr", "check_ext", "evasions", "mvv_lva", "mate_distance", "repetition")
DEFAULT_DEPTH = 4    #: nominal depth when neither the spec nor the limits give one
MAX_DEPTH = 256      #: deepest nominal search (spec.Depth; Python recursion stays far from its limit)
MAX_QDEPTH = 64      #: deepest quiescence extension
#: a timed search's check of one move (``threat_verify``) may use this share of the check
#: time still left, so a long check of one iteration's move leaves time for the next ones
VERIFY_SLICE = 0.5
#: the share of ``threat_verify``'s time held back for the check of the move about to be
#: played, after the alpha-beta search (which stops that much earlier)
FINAL_SHARE = 0.5


def allowed_root_moves(state, root_moves) -> list | None:
    """The legal moves of ``state`` that ``root_moves`` allows (legal order), or None for
    all; ``SpecError`` when it allows none of them (the search would have no move)."""
    if root_moves is None:
        return None
    wanted = set(root_moves)
    legal = state.legal_moves() if state.result() is None else []
    allowed = [m for m in legal if m in wanted]
    if legal and not allowed:
        raise SpecError(f"root_moves: none of the {len(wanted)} given moves is legal here")
    return allowed or None


class Searcher:
    """A configurable negamax searcher; registered as minimax, alphabeta, negascout, mtdf.

    Parameters (spec string or keywords): ``depth`` nominal depth; ``nodes``/``time``
    limits; ``eval`` evaluator spec (default: the game's ``default_eval``); ``grain``
    (the evaluation rounded to the nearest multiple, :func:`~gameai.search.core.coarse`:
    Plaat et al. 1996's grain, fewer MTD(f) passes); ``pruning`` (false = minimax);
    ``scout`` (NegaScout); ``mtdf``; ``tt``, ``tt_size``, ``tt_replace`` (``depth``:
    depth-preferred with ageing; ``always``: every store overwrites,
    :mod:`gameai.search.tt`), ``exact_depth``; ``history``, ``history_key`` (piece|fromto), ``history_inc``
    (pow2|square), ``history_keep``; ``killers``; ``id``; ``aspiration``, ``window``;
    ``quiescence``, ``qdepth``; ``mate_ply`` (false scores every win as MATE, as
    OpenSpiel's +-1 returns do); ``threats``, ``threat_depth``, ``threat_vct_depth``,
    ``threat_effort`` (multiplies the threat checks' node budgets), ``threat_horizon_vct``
    (plies of a VCT at the horizon after the VCF; 0: none), ``threat_horizon_nodes`` (that
    VCT's node budget per horizon node, deepening 1, 3, 5, ... plies; 0: no budget),
    ``threat_verify`` (in a timed search, the share of the time that checks of each
    iteration's move against an opponent VCT may use, see :meth:`search`; 0: none),
    ``threat_order`` (Gomoku/Renju threat search, :class:`~gameai.search.threats.ThreatPart`),
    ``threat_forced`` (only the replies a four or three forces,
    :func:`~gameai.search.threats.forced_replies`);
    ``nullmove``, ``lmr``, ``check_ext``, ``evasions``
    (quiescence answers check with every evasion), ``mvv_lva``, ``mate_distance``,
    ``repetition`` (see :mod:`gameai.search.core`); ``clock`` (a game clock, see
    :mod:`gameai.search.timeman`); ``backend`` (``python`` or ``compiled``: the numba core
    of :mod:`gameai.compiled.core`, the same numbers); callbacks ``on_iteration(row)`` and
    ``on_root_move(index, count, move, value)``.
    """

    def __init__(self, depth: Depth | None = None, nodes: Nodes | None = None,
                 time: Seconds | None = None, clock: str | float | None = None,
                 eval: str | None = None, pruning: bool = True, scout: bool = False,
                 mtdf: bool = False, tt: bool = False, tt_size: TTSize = 1 << 20,
                 tt_replace: Literal["depth", "always"] = "depth",
                 grain: Annotated[int, Range(1, MATE)] = 1, exact_depth: bool = False, history: bool = False,
                 history_key: Literal["piece", "fromto"] = "piece",
                 history_inc: Literal["pow2", "square"] = "pow2", history_keep: bool = False,
                 killers: bool = False, id: bool = False, aspiration: bool = False,
                 window: Annotated[int, Range(1, MATE)] = 50, quiescence: bool = False,
                 qdepth: Annotated[int, Range(0, 64)] = 16, mate_ply: bool = True,
                 threats: bool = False, threat_depth: Annotated[int, Range(1, 31)] = 7,
                 threat_vct_depth: Annotated[int, Range(1, 31)] = 15, threat_order: bool = False,
                 threat_forced: bool = False,
                 threat_effort: Annotated[int, Range(1, 1000)] = 1,
                 threat_horizon_vct: Annotated[int, Range(0, 31)] = 0,
                 threat_horizon_nodes: Annotated[int, Range(0, 10 ** 9)] = 0,
                 threat_verify: Annotated[float, Range(0, 1)] = 0.3,
                 nullmove: bool = False, lmr: bool = False,
                 check_ext: bool = False, evasions: bool = False, mvv_lva: bool = False,
                 mate_distance: bool = False, repetition: bool = False,
                 backend: Literal["python", "compiled"] = "python",
                 on_iteration: Callable[[dict], None] | None = None,
                 on_root_move: Callable[[int, int, Any, int], None] | None = None) -> None:
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
        self.clock = GameClock(parse_clock(clock)) if clock is not None else None
        if mtdf and not pruning:
            raise SpecError("mtdf needs pruning=true (it is a null-window alpha-beta driver)")
        self.depth, self.nodes, self.time, self.eval_spec = depth, nodes, time, eval
        self.pruning, self.scout, self.mtdf = pruning, scout, mtdf
        if tt_replace not in ("depth", "always"):
            raise SpecError(f"tt_replace must be depth or always, got {tt_replace!r}")
        self.grain, self.tt_replace = grain, tt_replace
        self.exact_depth, self.id, self.aspiration, self.window = exact_depth, id, aspiration, window
        self.quiescence, self.qdepth, self.mate_ply = quiescence, qdepth, mate_ply
        self.threats = None
        self.threat_order, self.threat_forced = threat_order, threat_forced
        self.threat_verify = threat_verify
        self.backend = _backend(backend, self)
        if threats:                              # the compiled core runs the compiled solvers
            solver = None
            if self.backend == "compiled":
                from ..compiled.threats import part_solvers
                solver = part_solvers()
            self.threats = ThreatPart(threat_depth, threat_vct_depth, solver=solver,
                                      effort=threat_effort, horizon_vct=threat_horizon_vct,
                                      horizon_nodes=threat_horizon_nodes)
        if self.backend == "compiled":
            from ..compiled.search import memories
            self.tt, self.history, self.killers = memories(
                tt, tt_size, (history_key, history_inc, history_keep) if history else None, killers)
        else:
            self.tt = TranspositionTable(tt_size, always=tt_replace == "always") if tt else None
            self.history = History(history_key, history_inc, history_keep) if history else None
            self.killers = Killers() if killers else None
        if self.backend == "compiled" and self._depth_given:
            from ..compiled.search import check_depth
            check_depth(self, depth)
        self.nullmove, self.lmr, self.check_ext, self.evasions = nullmove, lmr, check_ext, evasions
        self.mvv_lva, self.mate_distance, self.repetition = mvv_lva, mate_distance, repetition
        self.on_iteration, self.on_root_move = on_iteration, on_root_move
        self._evals: dict[str, Any] = {}
        self.name = self._describe()

    def _describe(self) -> str:
        kind = "mtdf" if self.mtdf else "negascout" if self.scout else \
            "alphabeta" if self.pruning else "minimax"
        flags = [f for f, on in (("tt", self.tt), ("history", self.history),
                                 ("killers", self.killers), ("id", self.id),
                                 ("aspiration", self.aspiration),
                                 ("quiescence", self.quiescence), ("threats", self.threats),
                                 ("threat_order", self.threat_order),
                                 ("threat_forced", self.threat_forced),
                                 *((f, getattr(self, f)) for f in SWITCHES)) if on]
        backend = ",backend=compiled" if self.backend == "compiled" else ""
        extra = (f",grain={self.grain}" if self.grain > 1 else "") + \
            (",tt_replace=always" if self.tt is not None and self.tt_replace == "always" else "")
        return f"{kind}(depth={self.depth}{''.join(',' + f + '=true' for f in flags)}{extra}{backend})"

    def new_game(self) -> None:
        """Forget everything learnt in the previous game (TT, history, killers, clock)."""
        if self.clock is not None:
            self.clock.reset()
        if self.tt is not None:
            self.tt.clear()
        if self.history is not None:
            self.history.new_game()
        if self.killers is not None:
            self.killers.clear()
        if self.threats is not None:
            self.threats.new_game()

    def prepare(self, state) -> None:
        """Do now what a first timed search of ``state``'s game would otherwise do on its
        clock: with ``backend=compiled``, compile (or load) the core and fault in the
        searcher's tables (:func:`~gameai.compiled.search.warm_up`). An engine calls it
        when idle at ``isready`` and at Gomocup ``START``, whose answers GUIs wait for."""
        if self.backend == "compiled":
            from ..compiled.search import warm_up
            warm_up(self, state, self.evaluator(state), timed=True)

    def evaluator(self, state):
        """The evaluator used on ``state``: ``eval`` if given, else the game's default."""
        spec = self.eval_spec or state.default_eval
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
        threat search uses at most half of the limit, the root moves' reply checks at most
        half of the rest, and the alpha-beta search (its horizon VCFs included) what is left.
        With ``threats`` and a time limit, each iteration's move gets a longer check against
        an opponent VCT (:meth:`~gameai.search.threats.ThreatPart.refutes`); a refuted move
        is scored lost and the iteration runs again. The checks together take at most the
        share ``threat_verify`` of the time; half of it (``FINAL_SHARE``) is held back: the
        alpha-beta search stops that much earlier and the move about to be played gets one
        more check (refuted: the search goes on). A depth-limited search checks its final move.
        """
        lim = Limits.coerce(limits)
        node_limit = lim.nodes if lim.nodes is not None else self.nodes
        time_limit = lim.time if lim.time is not None else self.time
        soft_time = lim.soft_time
        if self.clock is not None and time_limit is None and soft_time is None:
            budget = self.clock.budget()
            time_limit, soft_time = budget.hard, budget.soft
        if lim.depth is not None:
            max_depth = lim.depth
        elif self._depth_given or (time_limit is None and soft_time is None and node_limit is None):
            max_depth = self.depth
        else:
            max_depth = MAX_DEPTH
        if not isinstance(max_depth, int) or not 1 <= max_depth <= MAX_DEPTH:
            raise SpecError(f"search depth must be an integer in [1, {MAX_DEPTH}], got {max_depth!r}")
        allowed = allowed_root_moves(state, root_moves)
        if self.backend == "compiled":         # compiling is not the move's thinking time
            from ..compiled.search import warm_up
            warm_up(self, state, self.evaluator(state), timed=time_limit is not None or
                    soft_time is not None or stop is not None)
        t0 = time.perf_counter()
        deadline = t0 + time_limit if time_limit else None
        soft_deadline = t0 + soft_time if soft_time else None

        # the alpha-beta search's own deadline: earlier than ``deadline`` when the threat
        # part holds time back for the check of the move about to be played (below)
        ab_deadline = [deadline]

        def stop_check(nodes: int) -> bool:
            return (node_limit is not None and nodes >= node_limit) or \
                (ab_deadline[0] is not None and time.perf_counter() >= ab_deadline[0]) or \
                (stop is not None and stop.is_set())

        def stop_by(share: float) -> Callable[[int], bool]:
            """stop_check, and with a time limit also once ``share`` of it is used."""
            if deadline is None:
                return stop_check
            until = t0 + share * (deadline - t0)
            return lambda nodes: stop_check(nodes) or time.perf_counter() >= until

        root_win = None
        if self.threats is not None:            # threat part: a proven win at the root
            self.threats.nodes = 0              # (at most half the limit, then half the rest)
            if state.result() is None and state.legal_moves():
                root_win = self.threats.root(state, stop_by(0.5), None if node_limit is None
                                             else node_limit // 2, allowed)
                if not root_win[0]:             # each root move's reply check, before the search
                    self.threats.check_root_moves(
                        state, allowed or state.legal_moves(), stop_by(0.75),
                        None if node_limit is None else (node_limit - self.threats.nodes) // 2)
                if node_limit is not None:      # its nodes come out of the search's budget
                    node_limit = max(1, node_limit - self.threats.nodes)

        core = Search
        if self.backend == "compiled":
            from ..compiled.search import CompiledSearch
            core = CompiledSearch
        # a clock or an outside stop is read at every node: overrun at most one node's work
        ev = self.evaluator(state)          # the compiled core coarsens to the grain itself
        if core is Search:
            ev = coarsened(ev, self.grain)
        def new_run():
            return core(self, state, ev, stop_check, max_depth=max_depth,
                        node_limit=node_limit,
                        check_every=1 if deadline is not None or stop is not None else 1024,
                        timed=time_limit is not None or soft_time is not None or stop is not None,
                        on_root_move=on_root_move or self.on_root_move,
                        root_moves=None if allowed is None else frozenset(allowed))
        verify = None
        if self.threats is not None and deadline is not None and node_limit is None and \
                self.threat_verify and root_win is not None and not root_win[0] and \
                not self.threats.pass_clear:    # (else no move of ours allows a VCT)
            # seconds the checks may still use: the iterations' moves get part of the
            # share, the move about to be played the rest (the alpha-beta stops early)
            reserve = FINAL_SHARE * self.threat_verify * time_limit
            left = [self.threat_verify * time_limit - reserve]
            ab_deadline[0] = deadline - reserve

            def verify(run, move, final: bool = False) -> bool:
                start = time.perf_counter()
                until = deadline if final else min(deadline, start + VERIFY_SLICE * left[0])
                refuted = self.threats.refutes(
                    state, move, lambda n: time.perf_counter() >= until or stop_check(n))
                left[0] -= time.perf_counter() - start
                if refuted:                     # the running core scores it lost from now on
                    run.root_lost(move, self.threats.root_replies[move])
                return refuted
        run = new_run()
        try:
            move, value, pv, stats = self._drive(run, state, max_depth, soft_deadline,
                                                 on_iteration or self.on_iteration, t0,
                                                 root_win, allowed, verify)
            # threat part, depth-limited searches: a longer check of the move chosen; if
            # the opponent has a VCT after it, it is scored lost and a new core (which reads
            # the root moves' checks when built) searches again; the counters add up
            done = []
            # threat part, timed searches: the move about to be played is checked with the
            # time held back for it; if the opponent has a VCT after it, it is scored lost
            # and the search goes on with the rest of the time (the checks go on too)
            while verify is not None and move is not None and -MATE_BOUND < value < MATE_BOUND:
                ab_deadline[0] = deadline
                if stop_check(0) or not verify(run, move, final=True):
                    break
                before = stats.iterations       # (the same core: its counters add up)
                move, value, pv, stats = self._drive(run, state, max_depth, soft_deadline,
                                                     on_iteration or self.on_iteration, t0,
                                                     root_win, allowed, verify, again=True)
                stats.iterations[:0] = before
            while self.threats is not None and run.node_limit is None and not run.timed and \
                    move is not None and -MATE_BOUND < value < MATE_BOUND and \
                    self.threats.refutes(state, move):
                done.append(run.counters())
                run = new_run()
                move, value, pv, stats = self._drive(run, state, max_depth, soft_deadline,
                                                     on_iteration or self.on_iteration, t0,
                                                     root_win, allowed)
            for c in done:
                for k, v in c.items():
                    setattr(stats, k, max(stats.seldepth, v) if k == "seldepth" else getattr(stats, k) + v)
        finally:
            if self.clock is not None:
                self.clock.charge(time.perf_counter() - t0)
        stats.time_s = time.perf_counter() - t0
        return SearchResult(move, value, list(pv), stats, state=state)

    def _drive(self, run: Search, state, max_depth, soft_deadline, on_iteration, t0,
               root_win=None, allowed=None, verify=None, again=False):
        """Iterate ``run`` to ``max_depth``: ``(move, value, pv, stats)``. ``verify(run,
        move)``, when given, checks each iteration's move; True: it was scored lost, and
        the iteration runs again. ``again``: the same search goes on (its tables are kept)."""
        stats = SearchStats()
        if self.tt is not None and not again:
            self.tt.new_search()
        if self.history is not None and not again:
            self.history.new_decision()
        if state.result() is not None or not state.legal_moves():
            run.add_root()
            v = run.negamax(max_depth, -INF, INF, 0)
            stats.__dict__.update(run.counters())
            return None, v, [], stats
        if root_win is not None and root_win[0]:   # the threat part proved a win
            n, line = root_win
            stats.__dict__.update(run.counters())   # (the proof's rule: SearchStats)
            stats.threat_nodes = self.threats.nodes
            stats.nodes += self.threats.nodes
            stats.depth = n
            return line[0], MATE - n, line, stats
        iterative = self.id or self.mtdf or run.node_limit is not None or run.timed
        depths = range(1, max_depth + 1) if iterative else (max_depth,)
        best_move, value, pv = None, 0, []
        guess = None
        prev_leaves = prev_ttcuts = -1
        i = 0
        while i < len(depths):
            d = depths[i]
            try:
                v, move, line = self._iteration(run, d, guess, state)
            except Abort as abort:
                for _ in range(abort.pushed):
                    state.pop()
                if best_move is None:           # no iteration finished: best root move so far
                    best_move = self._fallback(run, state, allowed)
                    pv = [best_move]
                break
            if verify is not None and -MATE_BOUND < v < MATE_BOUND and verify(run, move):
                if best_move == move:           # lost now: no fallback to it
                    best_move, pv = None, []
                run.root_first = best_move
                continue                        # the same depth again
            i += 1
            best_move, value, pv, guess = move, v, line, v
            run.root_first = move
            cnt = run.counters()
            stats.depth = d
            row = {"depth": d, "value": v, "move": move, "pv": list(line),
                   "time_s": time.perf_counter() - t0, **cnt}
            stats.iterations.append(row)
            if on_iteration is not None:
                on_iteration(row)
            if abs(v) >= MATE - d and self.mate_ply:
                break                          # a forced result within the horizon
            if cnt["leaves"] == prev_leaves and cnt["tt_cutoffs"] == prev_ttcuts:
                break                          # no horizon reached: the tree is solved
            prev_leaves, prev_ttcuts = cnt["leaves"], cnt["tt_cutoffs"]
            if run.stop_check(cnt["nodes"]) or \
                    (soft_deadline is not None and time.perf_counter() >= soft_deadline):
                break
        stats.__dict__.update(run.counters())
        if self.threats is not None:
            stats.threat_nodes = self.threats.nodes
        return best_move, value, pv, stats

    def _fallback(self, run: Search, state, allowed):
        """The move of a search stopped before its first iteration finished: the best root
        move of the last finished root search, else the first legal one, but not a move the
        threat part proved lost while another is left (after a refutation the last root
        search may have been the one that chose it)."""
        lost = (self.threats.root_replies or {}) if self.threats is not None else {}
        moves = ([run.root_best] if run.root_best is not None else []) + \
            list(allowed or state.legal_moves())
        return next((m for m in moves if not lost.get(m)), moves[0])

    def _iteration(self, run: Search, d: int, guess, state):
        """One root search to depth ``d``: plain, aspiration window, or MTD(f) passes."""
        negamax = run.negamax
        if self.mtdf:
            g = guess if guess is not None else coarse(run.ev(state), self.grain)
            lower, upper, move, passes = -INF, INF, None, 0
            while lower < upper:
                beta = g + 1 if g == lower else g
                if passes:
                    run.add_research()
                passes += 1
                run.add_root()
                g = negamax(d, beta - 1, beta, 0)
                if g < beta:
                    upper = g
                else:
                    lower = g
                    move = run.root_best     # a move proven to reach >= beta
            if move is None:
                move = run.root_best
            return g, move, self._pv_from_tt(state, move, d)
        if self.aspiration and guess is not None:
            w = self.window
            alpha, beta = guess - w, guess + w
            run.add_root()
            v = negamax(d, alpha, beta, 0)
            if alpha < v < beta:
                return v, run.root_best, self._full_pv(state, run.pvt[0], run.root_best, d)
            run.add_research()
        run.add_root()
        v = negamax(d, -INF, INF, 0)
        return v, run.root_best, self._full_pv(state, run.pvt[0], run.root_best, d)

    def _full_pv(self, state, line, move, depth: int) -> list:
        """The search's PV, lengthened from the TT when null windows cut it short."""
        line = list(line) if line else [move]
        if self.tt is None or len(line) >= depth:
            return line
        longer = self._pv_from_tt(state, move, depth)
        return longer if len(longer) > len(line) and longer[:len(line)] == line else line

    def _pv_from_tt(self, state, move, depth: int) -> list:
        """Follow stored best moves from the root (MTD(f) leaves no PV in its windows)."""
        line = [move]
        state.push(move)
        try:
            while len(line) < depth and state.result() is None:
                e = self.tt.probe(state.key) if self.tt is not None else None
                if e is None or e[4] is None or e[4] not in state.legal_moves():
                    break
                line.append(e[4])
                state.push(e[4])
        finally:
            for _ in line:
                state.pop()
        return line


def _backend(backend: str, o: Searcher) -> str:
    """The backend that will run: ``compiled`` needs numba (else one warning and ``python``)."""
    if backend not in ("python", "compiled"):
        raise SpecError(f"searcher parameter backend must be 'python' or 'compiled', got {backend!r}")
    if backend == "python":
        return backend
    from ..compiled.jit import AVAILABLE, fallback_warning
    if not AVAILABLE:
        fallback_warning("backend=compiled")
        return "python"
    return backend
