"""The negamax core: ONE search function whose steps come in a fixed, commented order.

A node does, in this order (as Stockfish lays its search out):

1. limits and ``stop`` (every node), terminal and draw (the game's ``result()``, then a
   repetition inside the search line when ``repetition=true``, judged by the game's
   ``repetition_outcome()``: in Xiangqi a perpetual check loses, anything else draws);
2. check extension (``check_ext``), then the horizon: quiescence (``quiescence``, with
   check evasions when ``evasions``; captures skipped by ``delta`` and ``see``; the TT
   probed, its move first and its table written with ``qs_tt``), the
   threat part's VCF (``threats``) or the evaluator;
3. mate-distance pruning (``mate_distance``);
4. transposition-table probe (``tt``; ``exact_depth``);
5. pruning before the moves: reverse futility (``reverse_futility``), null move
   (``nullmove``, on Stockfish's conditions with ``null_adaptive``); futility
   (``futility``) marks the node for step 7;
6. move generation (only the replies threats force: ``threat_forced``) and ordering (TT
   move, MVV-LVA captures, killers, history, threats; losing captures last with ``see``);
   at the root only the moves a GUI allows (``root_moves``: UCI searchmoves, UCCI banmoves);
7. the move loop: late quiet moves (``move_count``) and futile ones skipped, neither made
   nor counted; leaf children evaluated in place (no recursion), late-move reductions
   (``lmr``, ``lmr_sf``), NegaScout null windows and re-searches (``scout``), beta cut-offs;
8. store: killers, history (``history_inc=gravity``: bonus and malus), TT (never a value
   that depends on the path; see below).

Each enhancement is a switch read once into a local name here (``None``/``False`` = off)
plus a small helper in its own module (:mod:`.ordering`, :mod:`.tt`, :mod:`.pruning`)
or part (:mod:`.threats`, whose methods are called at steps 1, 2 and 6). **Adding a
part** in the Python core: add its row to the switch table
(:mod:`gameai.search.switches`), read it into a local below, and put its few lines at
the step where it acts; give it a counter in :class:`~gameai.search.stats.SearchStats`
if it answers nodes by itself; a memory that outlives the search is declared in
:mod:`gameai.search.memories`. The same lines go into the compiled twin; the guide "Add
an enhancement" lists every place, both backends included.

Graph-history interaction: a repetition's value (a draw, or a perpetual check's loss)
depends on the path, not on the position. Such values are counted (``ghi``) and a node
whose subtree used one stores nothing in the TT, so no path-dependent value is ever stored (exact or bound); the TT
can then persist across moves without breaking repetition handling (Breuker, Uiterwijk &
van den Herik 1996 describe the problem; not storing is the simple safe answer).

Per-search state (counters, PV table, root move order, limits) lives in the
:class:`Search` object made for each ``search`` call, never on the configured searcher.
"""
from __future__ import annotations

from typing import Any, Callable

from ..games.protocol import fast_push
from .ordering import gravity, mvv_lva_key, stat_bonus
from .parts import parts
from .pruning import (DELTA_MARGIN, FUTILITY_DEPTH, FUTILITY_MARGIN, LMR_MIN_DEPTH,
                      LMR_MIN_INDEX, NULL_R, RFP_DEPTH, RFP_MARGIN, SEE_BAD, lmr_reduction,
                      lmr_sf_reduction, move_count_limit, null_reduction,
                      see_prune_threshold)
from .stats import INF, MATE, MATE_BOUND, SearchStats
from .tt import EXACT, LOWER, UPPER, from_tt

_COUNTERS = SearchStats.COUNTERS


class Abort(Exception):
    """Raised inside the core when a limit or ``stop`` is hit; ``pushed`` moves to undo."""

    def __init__(self, pushed: int) -> None:
        self.pushed = pushed


class Search:
    """One ``search`` call: its limits, counters, PV table and root move order.

    ``negamax(depth, alpha, beta, ply)`` is the core; ``counters()`` the statistics so far.
    """

    negamax: Callable[..., int]                 # made by _build, with _bump and counters
    counters: Callable[[], dict[str, int]]
    _bump: Callable[[str], None]

    def __init__(self, o, state, ev, stop_check: Callable[[int], bool], *, max_depth: int,
                 node_limit: int | None, check_every: int, timed: bool = False,
                 on_root_move=None, root_moves: frozenset | None = None) -> None:
        self.ev, self.stop_check, self.node_limit, self.timed = ev, stop_check, node_limit, timed
        self.root_moves = root_moves         # only these root moves (UCI searchmoves); None = all
        self.root_first: Any = None          # the previous iteration's best move
        self.root_best: Any = None           # best root move of the current iteration
        self.root_partial: Any = None        # a root move that beat alpha at full depth in
                                             # the current iteration (kept if it is stopped)
        self.on_root_move = on_root_move
        self.max_ply = max_depth + min(max_depth, 32) + 2   # check extensions stop there
        self.pvt: list = [()] * (self.max_ply + 2)   # triangular PV: pvt[ply] from ply
        _build(self, o, state, ev, stop_check, node_limit, check_every)

    def add_root(self) -> None:
        """Count the root visit of one more pass (iteration, window, re-search)."""
        self._bump("nodes")

    def add_research(self) -> None:
        self._bump("researches")

    def root_lost(self, move, plies: int) -> None:
        """Root ``move`` was proven to allow an opponent VCT of ``plies`` plies. This
        core reads the threat part's table (``reply``) at every visit, so it has nothing
        to copy; the compiled core (which copies the table when built) overrides this."""


def coarse(value: int, grain: int) -> int:
    """``value`` rounded to the nearest multiple of ``grain`` (halves up): the searchers'
    ``grain``, Plaat, Schaeffer, Pijls & de Bruin's (1996) coarser evaluation, with which
    MTD(f) needs fewer passes. Integer arithmetic, the same in the compiled core."""
    return (value + grain // 2) // grain * grain


def coarsened(ev: Callable[[Any], int], grain: int) -> Callable[[Any], int]:
    """``ev`` with every value :func:`coarse`; ``ev`` itself for grain 1."""
    if grain == 1:
        return ev
    return lambda state: coarse(ev(state), grain)


def _build(run: Search, o, state, ev, stop_check, node_limit, every) -> None:
    """Make ``run.negamax`` and ``run.counters`` as closures (locals are Python's fastest)."""
    push, pop, result, legal = fast_push(state), state.pop, state.result, state.legal_moves
    tt, hist, killers, threat = o.tt, o.history, o.killers, o.threats
    pruning, scout, exact_depth, mate_ply, qdepth = o.pruning, o.scout, o.exact_depth, \
        o.mate_ply, o.qdepth
    # the parts, each read once (gameai.search.parts, which the compiled core reads too):
    # None/False means off (or not offered by this game)
    p = parts(o, state)
    noisy = state.noisy_moves if p.noisy else None
    in_check = state.in_check if p.in_check else None
    evasions, check_ext, lmr, mdp = p.evasions, p.check_ext, p.lmr, p.mate_distance
    lmr_sf, grav = p.lmr_sf, p.gravity
    futility, rfp = p.futility, p.reverse_futility
    qs_tt = p.qs_tt
    static_depth = max(FUTILITY_DEPTH if futility else 0, RFP_DEPTH if rfp else 0)
    push_null = state.push_null if p.nullmove else None   # never where check is unknown
    pop_null = getattr(state, "pop_null", None)
    null_adaptive, move_count = p.null_adaptive, p.move_count
    see_prune = p.see_prune
    has_attackers = state.has_attackers if null_adaptive or move_count or see_prune else None
    is_capture: Any = getattr(state, "is_capture", None)
    gives_check = state.gives_check if futility or p.delta or move_count or see_prune \
        else None
    see = state.see if p.see else None
    see_any = state.see if p.see or see_prune else None
    capture_value = state.capture_value if p.delta else None
    mvv = mvv_lva_key(state) if p.mvv_lva else None
    if mvv is not None and see is not None:      # losing captures after the quiet moves
        mvv_plain = mvv
        mvv = lambda m: mvv_plain(m) - SEE_BAD if is_capture(m) and see(m) < 0 \
            else mvv_plain(m)                    # noqa: E731
    qmvv = mvv_plain if see is not None and mvv is not None else mvv   # quiescence: by MVV-LVA
    repeated = state.repetition_outcome if p.repetition else None
    need_check, inline, ordering = p.need_check, p.inline, p.ordering
    by_threat = o.threat_moves.order if o.threat_order else None    # the threat part's
    forced = o.threat_moves.forced if o.threat_forced else None     # move filters (step 6)
    use_tt = tt is not None
    tslots, tmask = (tt.slots, tt.mask) if use_tt else (None, 0)
    htab = hist.table if hist is not None else None
    if htab is not None:                     # one call per move while sorting
        hkey = hist.key_function(state)
        hget, hk_raw, wp = htab.get, getattr(state, "history_key", None), hist.with_piece
        hscore = (lambda m: hget(hk_raw(m, wp), 0)) if hk_raw is not None else (lambda m: hget(m, 0))
    pvt, max_ply = run.pvt, run.max_ply
    null_at = [False] * (max_ply + 2)        # null_at[p]: the move into ply p was a null move
    nodes = leaves = terminals = interior = cutoffs = fmc = probes = hits = ttcuts = res = 0
    pruned = ghi = seldepth = 0
    null_tries = null_cuts = reductions = red_res = fskips = qnodes = see_skips = dskips = 0
    mc_skips = 0
    next_check = every if node_limit is None else min(every, node_limit)

    def check(ply):
        """Limits and ``stop``: abort (undoing ``ply`` pushes) when one is reached."""
        nonlocal next_check
        next_check = nodes + every
        if node_limit is not None and nodes < node_limit < next_check:
            next_check = node_limit
        if stop_check(nodes):
            raise Abort(ply)

    def term_value(r, ply):
        """A finished game scored for the side to move (ply-adjusted unless mate_ply=false)."""
        w = r.winner
        if w is None:
            return 0
        v = MATE - ply if mate_ply else MATE
        return v if w == state.to_move else -v

    def qsearch(alpha, beta, ply, qd):
        """Captures only (``noisy_moves``), standing pat on the evaluation; in check with
        ``evasions``, every legal move and no stand pat."""
        nonlocal nodes, leaves, terminals, interior, seldepth, qnodes, see_skips, dskips
        nonlocal probes, hits, ttcuts
        qnodes += 1
        if nodes >= next_check:
            check(ply)
        r = result()
        if r is not None:
            terminals += 1
            return term_value(r, ply)
        q_move = None
        if qs_tt:                           # the TT at depth 0: any entry's bound decides
            key = state.key
            probes += 1
            e = tslots[key & tmask]
            if e is not None and e[0] == key:
                hits += 1
                q_move = e[4]
                if e[1] == 0 or not exact_depth:
                    v = from_tt(e[3], ply)
                    f = e[2]
                    if f == EXACT or (f == LOWER and v >= beta) or (f == UPPER and v <= alpha):
                        ttcuts += 1
                        return v
        a0 = alpha
        evading = evasions and qd > 0 and in_check()
        if evading:
            interior += 1
            best = -INF
            moves = legal()
        else:
            leaves += 1
            best = ev(state)
            if best >= beta or qd <= 0:
                return best
            if best > alpha:
                alpha = best
            moves = noisy()
            if qmvv is not None:
                moves.sort(key=qmvv, reverse=True)
        if q_move is not None and q_move in moves:
            moves.remove(q_move)
            moves.insert(0, q_move)
        if ply + 1 > seldepth:
            seldepth = ply + 1
        best_move = None
        base = best + DELTA_MARGIN if capture_value is not None and -MATE_BOUND < alpha \
            and not evading else None
        for m in moves:
            if not evading:
                if base is not None and base + capture_value(m) <= alpha and \
                        not gives_check(m):
                    dskips += 1             # delta pruning: the capture cannot reach alpha
                    if base + capture_value(m) > best:
                        best = base + capture_value(m)
                    continue
                if see is not None and see(m) < 0:
                    see_skips += 1          # a capture that loses material
                    continue
            push(m)
            nodes += 1
            v = -qsearch(-beta, -alpha, ply + 1, qd - 1)
            pop()
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    best_move = m
                    if v >= beta:
                        break
        if qs_tt:
            flag = UPPER if best <= a0 else LOWER if best >= beta else EXACT
            tt.store(key, 0, flag, best, best_move, ply)
        return best

    def negamax(depth, alpha, beta, ply, cut=False):
        nonlocal nodes, leaves, terminals, interior, cutoffs, fmc, probes, hits, ttcuts
        nonlocal res, seldepth, pruned, ghi, null_tries, null_cuts, reductions, red_res, fskips
        nonlocal mc_skips, see_skips
        pvt[ply] = ()
        # 1. limits, terminal and draw
        if nodes >= next_check:
            check(ply)
        r = result()
        if r is not None:
            terminals += 1
            return term_value(r, ply)
        if threat is not None and ply == 1:  # does the root move allow a VCT? (checked
            n = threat.reply(state, ply)     # before the search: check_root_moves)
            if n:
                terminals += 1
                return MATE - (ply + n)
        if repeated is not None and ply:
            r = repeated()                   # a repetition in the line, judged by the game's
            if r is not None:                # rule (perpetual check loses): path-dependent
                terminals += 1
                ghi += 1
                return term_value(r, ply)
        # 2. check extension, horizon
        checked = in_check() if need_check else False
        if check_ext and checked and ply < max_ply:
            depth += 1
        if depth <= 0:
            if noisy:
                return qsearch(alpha, beta, ply, qdepth)
            if threat is not None:          # a proven VCF beyond the horizon
                before = threat.nodes
                n = threat.horizon(state, ply)
                nodes += threat.nodes - before   # its nodes count against the node limit
                if n:                           # won (n > 0) or lost (n < 0) in |n| plies
                    return MATE - (ply + n) if n > 0 else ply - n - MATE
                if threat.block is not None:    # facing a four: the value after the block
                    push(threat.block)
                    try:
                        leaves += 1
                        return -ev(state)
                    finally:
                        pop()
            leaves += 1
            return ev(state)
        # 3. mate-distance pruning: no line from here can beat a mate found nearer the root
        if mdp and ply:
            if alpha < ply - MATE:
                alpha = ply - MATE
            if beta > MATE - ply - 1:
                beta = MATE - ply - 1
            if alpha >= beta:
                pruned += 1
                return alpha
        a0 = alpha
        ghi0 = ghi
        # 4. transposition table
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
        # 5. pruning before the moves. Near the horizon, on a null window away from mates
        # and not in check, the static evaluation decides: far above beta cuts the node
        # (reverse futility), far below alpha makes later quiet moves futile (futility).
        # Step 7 skips the quiet moves after the first when the node is futile.
        futile, fv, se = False, -INF, None
        if depth <= static_depth and ply and not checked and beta - alpha == 1 \
                and -MATE_BOUND < alpha and beta < MATE_BOUND:
            se = ev(state)
            if rfp and depth <= RFP_DEPTH and se - RFP_MARGIN * depth >= beta:
                pruned += 1
                return se
            if futility and depth <= FUTILITY_DEPTH and se + FUTILITY_MARGIN * depth <= alpha:
                futile, fv = True, se + FUTILITY_MARGIN * depth
        # null move: passing still fails high, so a real move would too (adaptive: on a
        # null window with the evaluation at least beta, reduced by depth and excess)
        r_null = NULL_R
        if push_null is not None and ply and not checked and not null_at[ply] \
                and depth > NULL_R and -MATE_BOUND < beta < MATE_BOUND and null_adaptive:
            if beta - alpha != 1 or not has_attackers():
                r_null = -1
            else:
                if se is None:
                    se = ev(state)
                r_null = null_reduction(depth, se - beta) if se >= beta else -1
        if r_null >= 0 and push_null is not None and ply and not checked and not null_at[ply] \
                and depth > NULL_R and -MATE_BOUND < beta < MATE_BOUND:
            push_null()
            nodes += 1
            null_tries += 1
            null_at[ply + 1] = True
            try:
                v = -negamax(depth - 1 - r_null, -beta, 1 - beta, ply + 1, not cut)
            except Abort as abort:           # undo the moves above the null move, then it
                for _ in range(abort.pushed - ply - 1):
                    pop()
                pop_null()
                abort.pushed = ply
                raise
            finally:
                null_at[ply + 1] = False
            pop_null()
            if v >= beta:
                pruned += 1
                null_cuts += 1
                return beta if v >= MATE_BOUND else v   # a mate after passing proves nothing
        # 6. moves and their order
        moves = legal()
        if not moves:                        # not over, but nothing to play: a horizon
            leaves += 1
            return ev(state)
        if forced is not None and (ply or run.root_moves is None):
            moves = forced(state, moves)     # only the replies the threats force (at the
                                             # root, not when a GUI names the moves)
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
            if mvv is not None:             # captures first, by MVV-LVA (stable)
                moves.sort(key=mvv, reverse=True)
            if tt_move is not None and tt_move in moves:
                moves.remove(tt_move)
                moves.insert(0, tt_move)
        if not ply:
            if run.root_moves is not None:   # the root moves a GUI allows (order kept)
                moves = [m for m in moves if m in run.root_moves]
            first = run.root_first
            if first is not None and first in moves:
                moves.remove(first)
                moves.insert(0, first)
            on_root = run.on_root_move
        else:
            on_root = None
        # 7. the move loop
        best = -INF
        best_move = None
        leaf_children = depth == 1 and inline
        if leaf_children:
            pvt[ply + 1] = ()
        n = len(moves)
        # move-count pruning: late quiet moves near the horizon, not at the root or in
        # check, and not where only pawns and guards are left
        mc_from = move_count_limit(depth) if move_count and ply and not checked and \
            has_attackers() else n + 1
        tried = [] if grav else None         # quiet moves searched (gravity history)
        sp = see_prune and ply and has_attackers()     # shallow SEE pruning
        for i, m in enumerate(moves):
            if i + 1 >= mc_from and best > -MATE_BOUND and not is_capture(m) \
                    and not gives_check(m):
                mc_skips += 1               # not made, not counted
                continue
            if futile and i and not is_capture(m) and not gives_check(m):
                fskips += 1                 # a futile quiet move that gives no check: not
                if fv > best:               # made, answered by the margin's bound
                    best = fv               # (fail soft)
                continue
            if sp and best > -MATE_BOUND and see_any(m) < see_prune_threshold(
                    depth, lmr_sf_reduction(depth, i + 1), not is_capture(m)
                    and not gives_check(m)):
                see_skips += 1              # it loses too much: not made, not counted
                continue
            if grav and (is_capture is None or not is_capture(m)):
                tried.append(m)
            if leaf_children:               # the child is a leaf or a terminal: no recursion
                push(m)
                nodes += 1
                if nodes >= next_check:     # checked once counted, as every node: a node
                    check(ply + 1)          # limit is never passed by the next one
                r = result()
                if r is None:
                    leaves += 1
                    v = -ev(state)
                else:
                    terminals += 1
                    v = -term_value(r, ply + 1)
            else:
                d1 = depth - 1
                red = 0
                if lmr_sf:                  # Stockfish 11's reductions
                    if i >= (1 if ply else 3) and depth >= LMR_MIN_DEPTH and not checked \
                            and (is_capture is None or not is_capture(m)):
                        r = lmr_sf_reduction(depth, i + 1)
                        if beta - alpha > 1:
                            r -= 2
                        if cut:
                            r += 2
                        red = min(max(r, 0), d1 - 1)
                elif lmr and i >= LMR_MIN_INDEX and depth >= LMR_MIN_DEPTH and not checked \
                        and (is_capture is None or not is_capture(m)):
                    red = lmr_reduction(depth, i)
                push(m)
                nodes += 1
                if red:                     # a late quiet move: reduced null-window probe
                    reductions += 1
                    v = -negamax(d1 - red, -alpha - 1, -alpha, ply + 1, True)
                    if v > alpha:           # it beat alpha: search it at full depth
                        res += 1
                        red_res += 1
                        nodes += 1
                        v = -negamax(d1, -alpha - 1 if scout else -beta, -alpha, ply + 1,
                                     not cut)
                        if scout and alpha < v < beta:
                            res += 1
                            nodes += 1
                            v = -negamax(d1, -beta, -v, ply + 1)
                elif scout and i:
                    v = -negamax(d1, -alpha - 1, -alpha, ply + 1, not cut)
                    if alpha < v < beta and (d1 > 0 or noisy):
                        res += 1
                        nodes += 1          # the child is visited again
                        v = -negamax(d1, -beta, -v, ply + 1)
                else:                       # an expected cut node's first child is an
                    v = -negamax(d1, -beta, -alpha, ply + 1,    # all node, and back
                                 beta - alpha == 1 and not cut)
            pop()
            if on_root is not None:
                on_root(i, n, m, v)
            if v > best:
                best = v
                best_move = m
                if v > alpha:
                    if not ply:             # proven better than the moves before it
                        run.root_partial = m
                    alpha = v
                    pvt[ply] = (m,) + pvt[ply + 1]
                    if v >= beta and pruning:
                        cutoffs += 1
                        if not i:
                            fmc += 1
                        break
        # 8. store what was learnt (killers: with captures first by MVV-LVA, quiet moves
        # only, as Stockfish; without that order, any move that cut off)
        if best >= beta and pruning and killers is not None and \
                (mvv is None or is_capture is None or not is_capture(best_move)):
            killers.add(ply, best_move)
        if htab is not None and best > a0:
            if not grav:
                k = hkey(best_move)
                htab[k] = htab.get(k, 0) + hist.increment(depth)
            elif is_capture is None or not is_capture(best_move):
                bonus = stat_bonus(depth)   # a quiet best move: bonus; the quiet moves
                k = hkey(best_move)         # searched before it (or beside it): malus
                htab[k] = gravity(htab.get(k, 0), bonus)
                for q in tried:
                    if q != best_move:
                        k = hkey(q)
                        htab[k] = gravity(htab.get(k, 0), -bonus)
        if use_tt and ghi == ghi0 and (ply or run.root_moves is None):
            # never a value that depends on the path (or on a root restriction)
            flag = UPPER if best <= a0 else LOWER if best >= beta else EXACT
            tt.store(key, depth, flag, best, best_move, ply)
        if not ply:
            run.root_best = best_move
        return best

    def counters() -> dict[str, int]:
        c = dict.fromkeys(_COUNTERS, 0)
        c.update(nodes=nodes, leaves=leaves, terminals=terminals, interior=interior,
                 cutoffs=cutoffs, first_move_cutoffs=fmc, tt_probes=probes, tt_hits=hits,
                 tt_cutoffs=ttcuts, researches=res, pruned=pruned, null_tries=null_tries,
                 null_cutoffs=null_cuts, reductions=reductions,
                 reduction_researches=red_res, futility_skips=fskips, qnodes=qnodes,
                 see_skips=see_skips, delta_skips=dskips, move_count_skips=mc_skips)
        c["seldepth"] = seldepth
        return c

    def bump(name: str) -> None:
        nonlocal nodes, res
        if name == "nodes":
            nodes += 1
        else:
            res += 1

    run.negamax, run.counters, run._bump = negamax, counters, bump
