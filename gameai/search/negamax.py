"""The negamax family: minimax, alpha-beta, NegaScout, MTD(f) from ONE search core.

``_build_core`` returns one recursive negamax function (the 000 document's AlphaBeta,
fail-soft) whose enhancements are switched by options, not copied:

* ``pruning=false`` gives plain minimax (every child searched, same counting);
* ``scout=true`` searches the first child with the full window and the rest with a null
  window, re-searching a fail-high inside the window (003 document's NegaScout);
* ``tt=true`` probes/stores a :class:`~gameai.search.tt.TranspositionTable` and tries
  its move first; ``exact_depth=true`` only uses entries of the same depth (then every
  exact searcher returns the minimax value, which tests check);
* ``killers``/``history`` order the remaining moves (:mod:`gameai.search.ordering`);
* ``quiescence=true`` replaces the horizon evaluation by a capture-only search over the
  game's ``noisy_moves()`` (stand pat; games without it are evaluated statically).

:class:`Searcher` drives the core: a fixed-depth search, iterative deepening (``id``)
with the previous PV move first, aspiration windows, or MTD(f) null-window passes;
node and time limits abort the search and return the last finished iteration.
Counters are defined once in :mod:`gameai.search.stats`.
"""
from __future__ import annotations

import time
from typing import Annotated, Any, Callable, Literal

from ..errors import SpecError
from ..games.protocol import fast_push
from ..spec import Depth, Nodes, Range, Seconds, TTSize
from .ordering import History, Killers
from .threats import ThreatPart, order_by_threat
from .stats import INF, MATE, Limits, SearchResult, SearchStats
from .timeman import GameClock, parse_clock
from .tt import EXACT, LOWER, UPPER, TranspositionTable, from_tt

DEFAULT_DEPTH = 4    #: nominal depth when neither the spec nor the limits give one
MAX_DEPTH = 256      #: deepest nominal search (spec.Depth; Python recursion stays far from its limit)
MAX_QDEPTH = 64      #: deepest quiescence extension

_COUNTERS = SearchStats.COUNTERS


class _Abort(Exception):
    """Raised inside the core when a node/time limit is hit; ``pushed`` moves to undo."""

    def __init__(self, pushed: int) -> None:
        self.pushed = pushed


def _build_core(o: "Searcher", state, ev, tt, hist, killers, stop_check):
    """Return ``(negamax, counters)`` closed over ``state`` and the options of ``o``."""
    push, pop, result, legal = fast_push(state), state.pop, state.result, state.legal_moves
    noisy = getattr(state, "noisy_moves", None) if o.quiescence else None
    pruning, scout, use_tt, exact_depth = o.pruning, o.scout, tt is not None, o.exact_depth
    mate_ply, qdepth = o.mate_ply, o.qdepth
    threat = o.threats                       # threat part: VCF at the horizon (Gomoku)
    inline = not noisy and threat is None    # depth-1 children evaluated in the loop
    by_threat = order_by_threat if o.threat_order else None
    hkey = hist.key_function(state) if hist is not None else None
    htab = hist.table if hist is not None else None
    if htab is not None:                     # one call per move while sorting
        hget, hk_raw, wp = htab.get, getattr(state, "history_key", None), hist.with_piece
        hscore = (lambda m: hget(hk_raw(m, wp), 0)) if hk_raw is not None else (lambda m: hget(m, 0))
    ordering = use_tt or hist is not None or killers is not None or o.threat_order
    tslots, tmask = (tt.slots, tt.mask) if tt is not None else (None, 0)
    pvt: list = [()] * (o._max_ply + 2)     # triangular PV: pvt[ply] = best line from ply
    c = dict.fromkeys(_COUNTERS, 0)
    nodes = leaves = terminals = interior = cutoffs = fmc = probes = hits = ttcuts = res = 0
    seldepth = 0
    every, node_limit = o._check_every, o._node_limit
    next_check = every if node_limit is None else min(every, node_limit)
    root_best: list = [None]

    def term_value(r, ply):
        """A finished game scored for the side to move (ply-adjusted unless mate_ply=false)."""
        w = r.winner
        if w is None:
            return 0
        v = MATE - ply if mate_ply else MATE
        return v if w == state.to_move else -v

    def check(ply):
        """Limits and ``stop``: abort (undoing ``ply`` pushes) when one is reached."""
        nonlocal next_check
        next_check = nodes + every
        if node_limit is not None and nodes < node_limit < next_check:
            next_check = node_limit
        if stop_check(nodes):
            raise _Abort(ply)

    def qsearch(alpha, beta, ply, qd):
        nonlocal nodes, leaves, terminals, seldepth
        if nodes >= next_check:
            check(ply)
        r = result()
        if r is not None:
            terminals += 1
            return term_value(r, ply)
        leaves += 1
        best = ev(state)
        if best >= beta or qd <= 0:
            return best
        if best > alpha:
            alpha = best
        if ply + 1 > seldepth:
            seldepth = ply + 1
        for m in noisy():
            push(m)
            nodes += 1
            v = -qsearch(-beta, -alpha, ply + 1, qd - 1)
            pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        return best

    def negamax(depth, alpha, beta, ply):
        nonlocal nodes, leaves, terminals, interior, cutoffs, fmc, probes, hits, ttcuts
        nonlocal res, seldepth
        pvt[ply] = ()
        if nodes >= next_check:
            check(ply)
        r = result()
        if r is not None:
            terminals += 1
            return term_value(r, ply)
        if threat is not None and ply == 1:  # does the root move allow a VCT?
            n = threat.reply(state, ply)
            if n:
                terminals += 1
                return MATE - (ply + n)
        if depth <= 0:
            if noisy:
                return qsearch(alpha, beta, ply, qdepth)
            leaves += 1
            if threat is not None:          # a proven VCF beyond the horizon
                n = threat.horizon(state, ply)
                if n:
                    return MATE - (ply + n)
            return ev(state)
        a0 = alpha
        tt_move = None
        if use_tt:
            key = state.key
            probes += 1
            e = tslots[key & tmask]
            if e is not None and e[0] == key:
                hits += 1
                tt_move = e[4]
                if ply and (e[1] == depth if exact_depth else e[1] >= depth):
                    v = from_tt(e[3], ply)
                    f = e[2]
                    if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                        ttcuts += 1
                        if tt_move is not None:
                            pvt[ply] = (tt_move,)
                        return v
        moves = legal()
        if not moves:                        # not over, but nothing to play: a horizon
            leaves += 1
            return ev(state)
        interior += 1
        if ply >= seldepth:
            seldepth = ply + 1
        if ordering:
            if htab is not None:
                moves.sort(key=hscore, reverse=True)
            if by_threat is not None:       # threats first, history breaks ties (stable)
                by_threat(state, moves)
            if killers is not None:
                for k in reversed(killers.at(ply)):
                    if k in moves:
                        moves.remove(k)
                        moves.insert(0, k)
            if tt_move is not None and tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)
        if not ply and o._root_first is not None and o._root_first in moves:
            moves.remove(o._root_first)
            moves.insert(0, o._root_first)
        best = -INF
        best_move = None
        if depth == 1 and inline and ply:   # children are leaves or terminals
            for i, m in enumerate(moves):
                if nodes >= next_check:
                    check(ply)
                push(m)
                nodes += 1
                r = result()
                if r is None:
                    leaves += 1
                    v = -ev(state)
                else:
                    terminals += 1
                    v = -term_value(r, ply + 1)
                pop()
                if v > best:
                    best = v
                    best_move = m
                    if v > alpha:
                        alpha = v
                        pvt[ply] = (m,)
                        if v >= beta and pruning:
                            cutoffs += 1
                            if not i:
                                fmc += 1
                            break
        else:
            on_root = o._on_root_move if not ply else None
            n = len(moves)
            for i, m in enumerate(moves):
                push(m)
                nodes += 1
                if scout and i:
                    v = -negamax(depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < v < beta and (depth > 1 or noisy):
                        res += 1
                        nodes += 1          # the child is visited again
                        v = -negamax(depth - 1, -beta, -v, ply + 1)
                else:
                    v = -negamax(depth - 1, -beta, -alpha, ply + 1)
                pop()
                if on_root is not None:
                    on_root(i, n, m, v)
                if v > best:
                    best = v
                    best_move = m
                    if v > alpha:
                        alpha = v
                        pvt[ply] = (m,) + pvt[ply + 1]
                        if v >= beta and pruning:
                            cutoffs += 1
                            if not i:
                                fmc += 1
                            break
        if best >= beta and pruning and killers is not None:
            killers.add(ply, best_move)
        if htab is not None and best > a0:
            k = hkey(best_move)
            htab[k] = htab.get(k, 0) + hist.increment(depth)
        if use_tt:
            flag = UPPER if best <= a0 else LOWER if best >= beta else EXACT
            tt.store(key, depth, flag, best, best_move, ply)
        if not ply:
            root_best[0] = best_move
        return best

    def counters() -> dict[str, int]:
        c.update(nodes=nodes, leaves=leaves, terminals=terminals, interior=interior,
                 cutoffs=cutoffs, first_move_cutoffs=fmc, tt_probes=probes, tt_hits=hits,
                 tt_cutoffs=ttcuts, researches=res)
        c["seldepth"] = seldepth
        return dict(c)

    def add_root_node() -> None:
        nonlocal nodes
        nodes += 1

    def add_research() -> None:
        nonlocal res
        res += 1

    return negamax, counters, add_root_node, add_research, pvt, root_best


class Searcher:
    """A configurable negamax searcher; registered as minimax, alphabeta, negascout, mtdf.

    Parameters (spec string or keywords): ``depth`` nominal depth; ``nodes``/``time``
    limits; ``eval`` evaluator spec (default: the game's ``default_eval``);
    ``pruning`` (false = minimax); ``scout`` (NegaScout); ``mtdf``; ``tt``, ``tt_size``,
    ``exact_depth``; ``history``, ``history_key`` (piece|fromto), ``history_inc``
    (pow2|square), ``history_keep``; ``killers``; ``id``; ``aspiration``, ``window``;
    ``quiescence``, ``qdepth``; ``threats``, ``threat_depth``, ``threat_vct_depth`` and
    ``threat_order`` (Gomoku/Renju threat search, :class:`~gameai.search.threats.ThreatPart`);
    ``mate_ply`` (false scores every win as MATE, as OpenSpiel's +-1 returns do); callbacks ``on_iteration(row)`` and
    ``on_root_move(index, count, move, value)``.
    """

    def __init__(self, depth: Depth | None = None, nodes: Nodes | None = None,
                 time: Seconds | None = None, clock: str | float | None = None,
                 eval: str | None = None, pruning: bool = True, scout: bool = False,
                 mtdf: bool = False, tt: bool = False, tt_size: TTSize = 1 << 20,
                 exact_depth: bool = False, history: bool = False,
                 history_key: Literal["piece", "fromto"] = "piece",
                 history_inc: Literal["pow2", "square"] = "pow2", history_keep: bool = False,
                 killers: bool = False, id: bool = False, aspiration: bool = False,
                 window: Annotated[int, Range(1, MATE)] = 50, quiescence: bool = False,
                 qdepth: Annotated[int, Range(0, 64)] = 16, mate_ply: bool = True,
                 threats: bool = False, threat_depth: Annotated[int, Range(1, 31)] = 7,
                 threat_vct_depth: Annotated[int, Range(1, 31)] = 7, threat_order: bool = False,
                 on_iteration: Callable[[dict], None] | None = None,
                 on_root_move: Callable[[int, int, Any, int], None] | None = None) -> None:
        self._depth_given = depth is not None
        depth = DEFAULT_DEPTH if depth is None else depth
        for name, v, hi in (("depth", depth, MAX_DEPTH), ("qdepth", qdepth, MAX_QDEPTH),
                            ("window", window, MATE)):
            lo = 0 if name == "qdepth" else 1
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise SpecError(f"searcher parameter {name} must be an integer in [{lo}, {hi}], "
                                f"got {v!r}")
        Limits(nodes=nodes, time=time)     # the same checks as a search's limits
        self.clock = GameClock(parse_clock(clock)) if clock is not None else None
        if mtdf and not pruning:
            raise SpecError("mtdf needs pruning=true (it is a null-window alpha-beta driver)")
        self.depth, self.nodes, self.time, self.eval_spec = depth, nodes, time, eval
        self.pruning, self.scout, self.mtdf = pruning, scout, mtdf
        self.exact_depth, self.id, self.aspiration, self.window = exact_depth, id, aspiration, window
        self.quiescence, self.qdepth, self.mate_ply = quiescence, qdepth, mate_ply
        self.tt = TranspositionTable(tt_size) if tt else None
        self.history = History(history_key, history_inc, history_keep) if history else None
        self.killers = Killers() if killers else None
        self.threats = ThreatPart(threat_depth, threat_vct_depth) if threats else None
        self.threat_order = threat_order
        self.on_iteration, self._on_root_move = on_iteration, on_root_move
        self._evals: dict[str, Any] = {}
        self._root_first = None
        self._check_every = 1024
        self._node_limit: int | None = None
        self._max_ply = depth
        self.name = self._describe()

    def _describe(self) -> str:
        kind = "mtdf" if self.mtdf else "negascout" if self.scout else \
            "alphabeta" if self.pruning else "minimax"
        flags = [f for f, on in (("tt", self.tt), ("history", self.history),
                                 ("killers", self.killers), ("id", self.id),
                                 ("aspiration", self.aspiration),
                                 ("quiescence", self.quiescence), ("threats", self.threats),
                                 ("threat_order", self.threat_order)) if on]
        return f"{kind}(depth={self.depth}{''.join(',' + f + '=true' for f in flags)})"

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
               stop: Any = None) -> SearchResult:
        """Search ``state`` (left unchanged) and return the best move, value, PV and stats.

        ``stop`` is anything with ``is_set()`` (a ``threading.Event``), checked with the
        node and time limits; when set, the last finished iteration is returned. With a
        time limit (``time``, ``soft_time`` or ``clock``) and no depth given anywhere,
        iterative deepening goes on until the time is used.
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
        elif self._depth_given or (time_limit is None and soft_time is None):
            max_depth = self.depth
        else:
            max_depth = MAX_DEPTH
        if not isinstance(max_depth, int) or not 1 <= max_depth <= MAX_DEPTH:
            raise SpecError(f"search depth must be an integer in [1, {MAX_DEPTH}], got {max_depth!r}")
        on_iteration = on_iteration or self.on_iteration
        saved_cb = self._on_root_move
        self._on_root_move = on_root_move or saved_cb
        t0 = time.perf_counter()
        stats = SearchStats()
        try:
            return self._run(state, max_depth, node_limit, time_limit, soft_time, stop,
                             on_iteration, stats, t0)
        finally:
            self._on_root_move = saved_cb
            self._root_first = None
            if self.clock is not None:
                self.clock.charge(time.perf_counter() - t0)

    def _run(self, state, max_depth, node_limit, time_limit, soft_time, stop, on_iteration,
             stats, t0):
        ev = self.evaluator(state)
        if self.tt is not None:
            self.tt.new_search()
        if self.history is not None:
            self.history.new_decision()
        deadline = t0 + time_limit if time_limit else None
        soft_deadline = t0 + soft_time if soft_time else None

        def stop_check(nodes: int) -> bool:
            return (node_limit is not None and nodes >= node_limit) or \
                (deadline is not None and time.perf_counter() >= deadline) or \
                (stop is not None and stop.is_set())

        # a clock or an outside stop is read at every node: overrun at most one node's work
        self._check_every = 1 if deadline is not None or stop is not None else 1024
        self._node_limit = node_limit
        self._max_ply = max_depth
        negamax, counters, add_root, add_research, pvt, root_best = _build_core(
            self, state, ev, self.tt, self.history, self.killers, stop_check)
        if state.result() is not None or not state.legal_moves():
            add_root()
            v = negamax(max_depth, -INF, INF, 0)
            stats.__dict__.update(counters())
            stats.time_s = time.perf_counter() - t0
            return SearchResult(None, v, [], stats)
        if self.threats is not None:            # threat part: a proven win at the root
            self.threats.nodes = 0
            n, line = self.threats.root(state, lambda _k: stop_check(0))
            if n:
                stats.__dict__.update(counters())
                stats.threat_nodes, stats.depth = self.threats.nodes, 0
                stats.time_s = time.perf_counter() - t0
                return SearchResult(line[0], MATE - n, line, stats, state=state)
        iterative = self.id or self.mtdf or node_limit is not None or time_limit is not None \
            or soft_time is not None or stop is not None
        depths = range(1, max_depth + 1) if iterative else (max_depth,)
        best_move, value, pv = None, 0, []
        guess = None
        prev_leaves = prev_ttcuts = -1
        for d in depths:
            try:
                v, move, line = self._iteration(d, guess, negamax, add_root, add_research,
                                                pvt, root_best, ev, state)
            except _Abort as abort:
                for _ in range(abort.pushed):
                    state.pop()
                if best_move is None:           # no iteration finished: best root move so far
                    best_move = root_best[0] if root_best[0] is not None else state.legal_moves()[0]
                    pv = [best_move]
                break
            best_move, value, pv, guess = move, v, line, v
            self._root_first = move
            cnt = counters()
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
            if stop_check(cnt["nodes"]) or \
                    (soft_deadline is not None and time.perf_counter() >= soft_deadline):
                break
        stats.__dict__.update(counters())
        if self.threats is not None:
            stats.threat_nodes = self.threats.nodes
        stats.time_s = time.perf_counter() - t0
        return SearchResult(best_move, value, list(pv), stats, state=state)

    def _iteration(self, d, guess, negamax, add_root, add_research, pvt, root_best, ev, state):
        """One root search to depth ``d``: plain, aspiration window, or MTD(f) passes."""
        if self.mtdf:
            g = guess if guess is not None else ev(state)
            lower, upper, move, passes = -INF, INF, None, 0
            while lower < upper:
                beta = g + 1 if g == lower else g
                if passes:
                    add_research()
                passes += 1
                add_root()
                g = negamax(d, beta - 1, beta, 0)
                if g < beta:
                    upper = g
                else:
                    lower = g
                    move = root_best[0]      # a move proven to reach >= beta
            if move is None:
                move = root_best[0]
            return g, move, self._pv_from_tt(state, move, d)
        if self.aspiration and guess is not None:
            w = self.window
            alpha, beta = guess - w, guess + w
            add_root()
            v = negamax(d, alpha, beta, 0)
            if alpha < v < beta:
                return v, root_best[0], self._full_pv(state, pvt[0], root_best[0], d)
            add_research()
        add_root()
        v = negamax(d, -INF, INF, 0)
        return v, root_best[0], self._full_pv(state, pvt[0], root_best[0], d)

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
