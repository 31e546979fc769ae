"""The driver: how a configured :class:`~gameai.search.negamax.Searcher` runs the ONE
negamax core (:mod:`gameai.search.core`) to answer a ``search`` call.

A search goes through these steps, in this order:

1. **Limits.** The call's ``limits`` over the searcher's own (depth, nodes, time, a game
   clock's budget); the depth to reach; the root moves a GUI allows.
2. **Prepare.** With ``backend=compiled``, compile or load the core before the clock
   starts (compiling is not thinking time).
3. **Before the first iteration,** the attached part's step (``threats``: a proven win
   at the root, then each root move's reply check); what it visited comes out of the
   node budget.
4. **Iterate** (:func:`drive`): a fixed-depth search, or iterative deepening (``id``,
   MTD(f), and every timed or node-limited search), each iteration one root search
   (:func:`iteration`): plain, an aspiration window around the previous value
   (``aspiration``), or MTD(f)'s null-window passes (Plaat, Schaeffer, Pijls & de Bruin
   1996); the previous best move first; stop at a forced result, a solved tree, a limit.
   A limit that stops an iteration keeps that iteration's best root move when one was
   searched in full and beat every move before it (the previous best among them), as
   Stockfish keeps its sorted root moves; value and depth stay the last finished
   iteration's.
5. **Check the chosen move** with the attached part (``threats``: does it allow the
   opponent a VCT?); a refuted move is scored lost and the search goes on.
6. **Report:** move, value, PV (lengthened from the TT when null windows cut it short),
   and the statistics (:class:`~gameai.search.stats.SearchStats`).

The driver knows no game and no part: a part is reached through the methods the
searcher's ``threats`` attribute offers (:class:`gameai.search.threats.ThreatPart`).
"""
from __future__ import annotations

import time
from typing import Any, Callable

from ..errors import SpecError
from . import memories
from .core import Abort, Search, coarse, coarsened
from .stats import INF, MATE, MATE_BOUND, Limits, SearchResult, SearchStats

MAX_DEPTH = 256      #: deepest nominal search (spec.Depth; Python recursion stays far from its limit)


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


def search(o, state, limits: Limits | dict | None = None, *,
           on_iteration: Callable[[dict], None] | None = None,
           on_root_move: Callable[[int, int, Any, int], None] | None = None,
           stop: Any = None, root_moves: Any = None) -> SearchResult:
    """Run searcher ``o`` on ``state`` (see :meth:`gameai.search.negamax.Searcher.search`)."""
    # 1. limits
    lim = Limits.coerce(limits)
    node_limit = lim.nodes if lim.nodes is not None else o.nodes
    time_limit = lim.time if lim.time is not None else o.time
    soft_time = lim.soft_time
    if o.clock is not None and time_limit is None and soft_time is None:
        budget = o.clock.budget()
        time_limit, soft_time = budget.hard, budget.soft
    if lim.depth is not None:
        max_depth = lim.depth
    elif o._depth_given or (time_limit is None and soft_time is None and node_limit is None):
        max_depth = o.depth
    else:
        max_depth = MAX_DEPTH
    if not isinstance(max_depth, int) or not 1 <= max_depth <= MAX_DEPTH:
        raise SpecError(f"search depth must be an integer in [1, {MAX_DEPTH}], got {max_depth!r}")
    allowed = allowed_root_moves(state, root_moves)
    timed = time_limit is not None or soft_time is not None or stop is not None
    # 2. prepare: the clock starts now, so a first search ends within its limit too
    # (loading kernels and faulting in tables are charged; compiling from source is not,
    # and ``Searcher.prepare`` does all of it ahead of the clock)
    t0 = time.perf_counter()
    if o._compiled is not None:
        t0 += o._compiled.warm_up(o, state, o.evaluator(state), timed=timed)
    deadline = t0 + time_limit if time_limit else None
    soft_deadline = t0 + soft_time if soft_time else None
    # the alpha-beta search's own deadline: earlier than ``deadline`` when the part
    # holds time back for the check of the move about to be played (step 5)
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

    # 3. the part's step before the first iteration
    part = o.threats
    root_win = None
    if part is not None:
        root_win = part.before_search(state, stop_by, node_limit, allowed,
                                      timed=deadline is not None)
        if node_limit is not None:          # its nodes come out of the search's budget
            node_limit = max(1, node_limit - part.nodes)

    core: Any = Search if o._compiled is None else o._compiled.search_class()
    ev = o.evaluator(state)                  # the compiled core coarsens to the grain itself
    if core is Search:
        ev = coarsened(ev, o.grain)
    on_iteration = on_iteration or o.on_iteration

    def new_run():
        # a clock or an outside stop is read at every node: overrun at most one node's work
        return core(o, state, ev, stop_check, max_depth=max_depth, node_limit=node_limit,
                    check_every=1 if deadline is not None or stop is not None else 1024,
                    timed=timed, on_root_move=on_root_move or o.on_root_move,
                    root_moves=None if allowed is None else frozenset(allowed))
    verify = None
    if part is not None and deadline is not None and node_limit is None and \
            root_win is not None and not root_win[0]:
        checker = part.verifier(state, o.threat_verify, time_limit, deadline, stop_check)
        if checker is not None:
            verify, reserve = checker
            ab_deadline[0] = deadline - reserve
    run = new_run()
    try:
        # 4. iterate
        move, value, pv, stats = drive(o, run, state, max_depth, soft_deadline, on_iteration,
                                       t0, root_win, allowed, verify)
        # 5. check the chosen move. Timed: with the time held back for it; refuted, it is
        # scored lost and the same core goes on with the rest of the time (its counters
        # add up). Depth-limited: a longer check; refuted, a new core (which reads the
        # root moves' checks when built) searches again and the counters add up.
        while verify is not None and move is not None and -MATE_BOUND < value < MATE_BOUND:
            ab_deadline[0] = deadline
            if stop_check(0) or not verify(run, move, final=True):
                break
            before = stats.iterations
            move, value, pv, stats = drive(o, run, state, max_depth, soft_deadline,
                                           on_iteration, t0, root_win, allowed, verify,
                                           again=True)
            stats.iterations[:0] = before
        done = []
        while part is not None and run.node_limit is None and not run.timed and \
                move is not None and -MATE_BOUND < value < MATE_BOUND and \
                part.refutes(state, move):
            done.append(run.counters())
            run = new_run()
            move, value, pv, stats = drive(o, run, state, max_depth, soft_deadline,
                                           on_iteration, t0, root_win, allowed)
        for c in done:
            for k, v in c.items():
                setattr(stats, k, max(stats.seldepth, v) if k == "seldepth" else getattr(stats, k) + v)
    finally:
        if o.clock is not None:
            o.clock.charge(time.perf_counter() - t0)
    # 6. report
    stats.time_s = time.perf_counter() - t0
    return SearchResult(move, value, list(pv), stats, state=state)


def drive(o, run: Search, state, max_depth, soft_deadline, on_iteration, t0,
          root_win=None, allowed=None, verify=None, again=False):
    """Iterate ``run`` to ``max_depth``: ``(move, value, pv, stats)``. ``verify(run,
    move)``, when given, checks each iteration's move; True: it was scored lost, and
    the iteration runs again. ``again``: the same search goes on (its tables are kept)."""
    stats = SearchStats()
    if not again:                          # the memories: a new search starts
        for _decl, memory in memories.kept(o):
            memory.new_search()
    if state.result() is not None or not state.legal_moves():
        run.add_root()
        v = run.negamax(max_depth, -INF, INF, 0)
        stats.__dict__.update(run.counters())
        return None, v, [], stats
    if root_win is not None and root_win[0]:   # the part proved a win
        n, line = root_win
        stats.__dict__.update(run.counters())   # (the proof's rule: SearchStats)
        stats.threat_nodes = o.threats.nodes
        stats.nodes += o.threats.nodes
        stats.depth = n
        return line[0], MATE - n, line, stats
    iterative = o.id or o.mtdf or run.node_limit is not None or run.timed
    depths = range(1, max_depth + 1) if iterative else (max_depth,)
    best_move, value, pv = None, 0, []
    guess = None
    prev_leaves = prev_ttcuts = -1
    i = 0
    while i < len(depths):
        d = depths[i]
        run.root_partial = None
        try:
            v, move, line = iteration(o, run, d, guess, state)
        except Abort as abort:
            for _ in range(abort.pushed):
                state.pop()
            partial = run.root_partial
            if partial is not None and partial != best_move and \
                    not (o.threats is not None and o.threats.lost_moves().get(partial)):
                # the stopped iteration searched a move in full and it beat every move
                # before it, the previous best first: play it (as engines do)
                best_move = partial
                line = list(run.pvt[0])
                pv = line if line[:1] == [partial] else [partial]
            elif best_move is None:         # no iteration finished: best root move so far
                best_move = fallback(o, run, state, allowed)
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
        if abs(v) >= MATE - d and o.mate_ply:
            break                          # a forced result within the horizon
        if cnt["leaves"] == prev_leaves and cnt["tt_cutoffs"] == prev_ttcuts:
            break                          # no horizon reached: the tree is solved
        prev_leaves, prev_ttcuts = cnt["leaves"], cnt["tt_cutoffs"]
        if run.stop_check(cnt["nodes"]) or \
                (soft_deadline is not None and time.perf_counter() >= soft_deadline):
            break
    stats.__dict__.update(run.counters())
    if o.threats is not None:
        stats.threat_nodes = o.threats.nodes
    return best_move, value, pv, stats


def fallback(o, run: Search, state, allowed):
    """The move of a search stopped before its first iteration finished: the best root
    move of the last finished root search, else the first legal one, but not a move the
    part proved lost while another is left (after a refutation the last root search may
    have been the one that chose it)."""
    lost = o.threats.lost_moves() if o.threats is not None else {}
    moves = ([run.root_best] if run.root_best is not None else []) + \
        list(allowed or state.legal_moves())
    return next((m for m in moves if not lost.get(m)), moves[0])


def iteration(o, run: Search, d: int, guess, state):
    """One root search to depth ``d``: plain, aspiration window, or MTD(f) passes."""
    negamax = run.negamax
    if o.mtdf:
        g = guess if guess is not None else coarse(run.ev(state), o.grain)
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
        return g, move, pv_from_tt(o, state, move, d)
    if o.aspiration and guess is not None:
        w = o.window
        alpha, beta = guess - w, guess + w
        run.add_root()
        v = negamax(d, alpha, beta, 0)
        while o.aspiration_grow and not alpha < v < beta and -MATE_BOUND < v < MATE_BOUND:
            # Stockfish 11: widen the side that failed by a growing step, not to infinity
            # (a fail low also lowers beta to the window's middle)
            run.add_research()
            w += w // 4 + 5
            if v <= alpha:
                beta = (alpha + beta) // 2
                alpha = max(v - w, -INF)
            else:
                beta = min(v + w, INF)
            run.add_root()
            v = negamax(d, alpha, beta, 0)
        if alpha < v < beta:
            return v, run.root_best, full_pv(o, state, run.pvt[0], run.root_best, d)
        run.add_research()
    run.add_root()
    v = negamax(d, -INF, INF, 0)
    return v, run.root_best, full_pv(o, state, run.pvt[0], run.root_best, d)


def full_pv(o, state, line, move, depth: int) -> list:
    """The search's PV, lengthened from the TT when null windows cut it short."""
    line = list(line) if line else [move]
    if o.tt is None or len(line) >= depth:
        return line
    longer = pv_from_tt(o, state, move, depth)
    return longer if len(longer) > len(line) and longer[:len(line)] == line else line


def pv_from_tt(o, state, move, depth: int) -> list:
    """Follow stored best moves from the root (MTD(f) leaves no PV in its windows)."""
    line = [move]
    state.push(move)
    try:
        while len(line) < depth and state.result() is None:
            e = o.tt.probe(state.key) if o.tt is not None else None
            if e is None or e[4] is None or e[4] not in state.legal_moves():
                break
            line.append(e[4])
            state.push(e[4])
    finally:
        for _ in line:
            state.pop()
    return line
