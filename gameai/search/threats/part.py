"""The threat part: what the negamax core and its driver call, at named steps, when a
searcher runs with ``threats=true`` (and the move filters of ``threat_order`` and
``threat_forced``). See :class:`ThreatPart`."""
from __future__ import annotations

import time
from typing import Any, Callable

from ...games.gomoku_rules import EMPTY
from ...games.protocol import fast_push
from ..backend import compiled
from .facts import _pass, _unpass, forced_replies, order_by_threat
from .solver import ThreatSolver, complete_line

#: a timed search's check of its chosen move (:meth:`ThreatPart.refutes`) may visit up to
#: this many times ``verify_nodes``; its share of the time (``threat_verify``) bounds it first
TIMED_VERIFY = 20
#: a timed search's check of one move (``threat_verify``) may use this share of the check
#: time still left, so a long check of one iteration's move leaves time for the next ones
VERIFY_SLICE = 0.5
#: the share of ``threat_verify``'s time held back for the check of the move about to be
#: played, after the alpha-beta search (which stops that much earlier)
FINAL_SHARE = 0.5
#: the share of a search's node or time limit the root proof (VCF, then VCT) may use: the
#: proof grows with the budget (a fixed cap starved it: a 13-ply Renju VCT that takes
#: about 72,500 nodes was never tried at 1,000,000 nodes a move)
ROOT_SHARE = 0.25


def open_plies(state) -> int:
    """The longest line a threat search could play from ``state``: one ply per empty
    point (odd: the attacker moves last). No ply cap short of the board."""
    board = state.board
    return sum(1 for i in state.geo.cells if board[i] == EMPTY) | 1


class ThreatMoves:
    """The threat part's move filters at step 6 of the core, on their own (switches
    ``threat_order`` and ``threat_forced`` without ``threats``): stateless."""

    #: ``order(state, moves)``: the strongest threats first (stable)
    order = staticmethod(order_by_threat)
    #: ``forced(state, moves)``: only the replies the threats on the board force
    forced = staticmethod(forced_replies)
    _ORDER_ARENA: list = []                   # one small arena per process for the filters

    def compiled_arena(self, state):
        """The array the compiled core reads the threat facts from (its ``T``), bound to
        ``state``'s board: for the filters alone, a small arena shared by the process."""
        if not self._ORDER_ARENA:
            fast = compiled("threat_order backend=compiled")
            assert fast is not None, "a compiled core runs, so the compiled backend can"
            self._ORDER_ARENA.append(fast.threat_arena(1, 0))
        arena = self._ORDER_ARENA[0]
        arena.bind(state.geo)
        return arena.T


class ThreatPart(ThreatMoves):
    """The negamax core's threat part (switch ``threats=true``; Gomoku/Renju only).

    * at the root, before any alpha-beta iteration: a VCF (deepened until it wins or its
      fours run out: no ply cap), then a VCT, within :data:`ROOT_SHARE` of the search's
      node or time limit (a search with neither: ``root_nodes``, and the VCT up to
      ``vct_depth`` plies; with a limit the VCT deepens until the share is used); a
      proven win is played at once with its line as the PV;
    * after each root move (ply 1): a VCT of up to ``vct_depth`` plies for the opponent,
      within ``reply_nodes`` (once per root move and search); a root move that allows one
      is scored as lost. These checks are skipped when the opponent has no VCT even after a
      pass of ours (one search at the root, within ``pass_nodes``; one that runs out of
      nodes or time proves nothing, so the checks run), and a root move on no point
      of that proof that is not a four and makes no new four-point of ours (which could
      give us a counter-four the proof did not meet) is scored lost without a search. For
      a VCF proof that is the dependency argument; for a VCT proof it is a heuristic (a
      stone that makes a new four-point only together with a later reply, or that changes
      which points stop a three, can still refute it);
      a stone of ours only blocks the opponent's lines and adds our counter-fours, so
      without that threat no root move allows one (heuristic in Renju, where a Black
      move may make a Black defence point forbidden);
    * after a depth-limited search (no node or time limit) has chosen its move, unless the
      pass check finished without a VCT: a longer check of that move (:meth:`refutes`,
      ``verify_nodes``); if it proves the opponent a VCT, the move is scored lost and the
      search runs again (at most ``verify_rounds`` moves per search);
    * at the horizon, before the static evaluation: a VCF of up to ``depth`` plies for
      the side to move; a proven win is scored ``MATE - (ply + its plies)``, so the
      alpha-beta tree sees wins (and, one ply up, losses) beyond its nominal depth. With
      ``defend`` (switch ``threat_defend``), when that fails and the side to move faces a
      four: the forced block, then the opponent's VCF of up to ``depth`` plies; a proven
      one is scored lost at the horizon itself (Rapfi's ``vcfdefend`` after
      ``vcfsearch``: the quiescence of both sides' fours; two five-points to stop, or a
      block forbidden to Black, lose at once); an unproven one leaves the position after
      the block to the static evaluation (so a double four on one five-point is one
      block, not a lost position).

    Both keep their transposition tables for the whole game (positions, not paths, decide
    a threat proof). ``nodes`` counts the threat searches' own nodes (the search reports
    them as ``threat_nodes``); all of them count against a search's node limit (the root
    and reply checks are taken from it first, the horizon's are alpha-beta nodes too).
    The reply checks run for every root move before the alpha-beta search
    (:meth:`check_root_moves`), so both backends' cores read the same answers.

    The defaults come from games against the plain searcher (the research note
    docs/notes/threat-player.md, "The first threat player"): the opponent VCTs that won
    them were 7-15 plies long (so
    ``vct_depth`` is 15) and took 5,600-125,000 nodes to prove after the move that
    allowed them (so the move about to be played gets ``verify_nodes``, every other
    candidate ``reply_nodes``).
    """

    def __init__(self, depth: int = 7, vct_depth: int = 15, root_nodes: int = 5_000,
                 horizon_vct: int = 0, reply_nodes: int = 6_000, pass_nodes: int = 4_000,
                 verify_nodes: int = 50_000, verify_rounds: int = 4,
                 solver: Callable[..., Any] | None = None, effort: int = 1,
                 horizon_nodes: int = 0, backend: str = "python", defend: bool = False,
                 reply_share: float = 0.5) -> None:
        self.depth, self.vct_depth = depth, vct_depth
        self.defend = defend
        #: the share of what the root proof left (nodes, and time up to 3/4 of the limit)
        #: that the reply checks may use; 0: none (every root move counts as unchecked)
        self.reply_share = reply_share
        #: ``effort`` multiplies every node budget (a faster solver affords more)
        self.root_nodes, self.reply_nodes, self.pass_nodes = \
            effort * root_nodes, effort * reply_nodes, effort * pass_nodes
        self.verify_nodes, self.verify_rounds = effort * verify_nodes, verify_rounds
        fast = compiled("threats backend=compiled") if solver is None and backend == "compiled" \
            else None
        if fast is not None:                   # one arena the compiled core reads
            solver = fast.threat_part_solvers()
        solver = solver or ThreatSolver
        self.vcf = solver(vct=False)
        self.vct = solver(vct=True)
        #: (solver, plies, node budget) run at the horizon in turn; a budget (``horizon_nodes``,
        #: 0: none) also deepens 1, 3, 5, ... plies, so short wins are found before it runs out
        self.at_horizon = [(self.vcf, depth, 0)] + \
            ([(self.vct, horizon_vct, horizon_nodes)] if horizon_vct else [])
        self.nodes = 0
        #: set by :meth:`root`: False when the opponent has no VCT even after a pass of
        #: ours (so no root move can allow one and :meth:`reply` has nothing to check),
        #: its plies when it has one, True when unknown (not searched, or unfinished)
        self.opponent_threat: int = True
        #: set by :meth:`root`: the pass check finished without finding a VCT (not merely
        #: ran out of nodes), so :meth:`refutes` has nothing to verify
        self.pass_clear = False
        self._replies: dict[int, int] = {}      # this search's reply checks, by position
        self._verified: set[int] = set()        # root moves' positions verified this search
        self._touch: set[int] | None = None     # points of the opponent's proof after a pass
        #: by check_root_moves: root move -> plies of the VCT it allows (0: none or unchecked)
        self.root_replies: dict[Any, int] | None = None
        self._by_key: dict[int, int] = {}

    def new_game(self) -> None:
        self.vcf.clear()
        self.vct.clear()

    # ------------------------------------------------------------ the compiled core's view
    def compiled_arena(self, state):
        """The compiled core's ``T``: this part's arena (its horizon solvers written in),
        bound to ``state``'s board."""
        arena = self.vcf.arena
        for sv, _plies, _budget in self.at_horizon:      # the TTs belong to this rule and size
            sv._bind(state)
        arena.horizon(self.at_horizon, self.defend)
        arena.bind(state.geo)
        return arena.T

    def warm_up(self) -> None:
        """Compile (or load) the compiled solvers before a search's clock starts."""
        if getattr(self.vcf, "backend", "python") == "compiled":
            fast = compiled("threats backend=compiled")
            if fast is not None:
                fast.threat_warm_up()

    def prefault(self) -> None:
        """Fault in the pages of the compiled solvers' arena, once."""
        for solver in (self.vcf, self.vct):
            arena = getattr(solver, "arena", None)
            if arena is not None:
                arena.prefault()

    # ------------------------------------------------------------ the driver's steps
    def before_search(self, state, stop_by: Callable[[float], Callable[[int], bool]],
                      node_limit: int | None, allowed: list | None,
                      timed: bool = False) -> tuple[int, list] | None:
        """The driver's step before the first iteration: a proven win at the root
        (:meth:`root`: its proof within :data:`ROOT_SHARE` of ``node_limit`` and of the
        time, ``stop_by(ROOT_SHARE)``, the pass check within half of both), else each
        root move's reply check (:meth:`check_root_moves`, within ``reply_share`` of what is
        left: of the nodes, and of the time up to ``0.5 + reply_share / 2`` of the limit).
        ``timed``: the search has a time limit. Returns :meth:`root`'s ``(plies,
        line)``, None for a finished game; :attr:`nodes` says what it visited, which the
        driver takes from the alpha-beta search's node budget."""
        self.nodes = 0
        if state.result() is not None or not state.legal_moves():
            return None
        proof: tuple[int | None, Callable[[int], bool], int]
        if node_limit is None and not timed:    # depth only: the fixed budget bounds it
            proof = (self.root_nodes, stop_by(0.5), self.vct_depth)
        else:                                   # the budget decides, not a ply cap
            proof = (None if node_limit is None else max(1, int(ROOT_SHARE * node_limit)),
                     stop_by(ROOT_SHARE), open_plies(state))
        win = self.root(state, stop_by(0.5), None if node_limit is None else node_limit // 2,
                        allowed, proof)
        if not win[0]:
            share = self.reply_share
            if share <= 0:
                self.root_replies, self._by_key = {}, {}
            else:
                self.check_root_moves(state, allowed or state.legal_moves(),
                                      stop_by(0.5 + share / 2),
                                      None if node_limit is None
                                      else int((node_limit - self.nodes) * share))
        return win

    def verifier(self, state, share: float, time_limit: float, deadline: float,
                 stop_check: Callable[[int], bool]) -> tuple[Callable[..., bool], float] | None:
        """For a timed search: ``(verify, reserve)``, where ``verify(run, move, final=False)``
        checks a move chosen by an iteration against an opponent VCT (:meth:`refutes`) and,
        when refuted, tells the running core (``run.root_lost``); the checks together use
        at most ``share`` of ``time_limit``, and ``reserve`` seconds of it are held back
        for the check of the move about to be played (``final``), so the alpha-beta
        search must stop that much before ``deadline``. None: nothing to verify (the pass
        check proved that no move of ours allows a VCT)."""
        if self.pass_clear or not share:
            return None
        reserve = FINAL_SHARE * share * time_limit
        left = [share * time_limit - reserve]

        def verify(run, move, final: bool = False) -> bool:
            start = time.perf_counter()
            until = deadline if final else min(deadline, start + VERIFY_SLICE * left[0])
            refuted = self.refutes(state, move,
                                   lambda n: time.perf_counter() >= until or stop_check(n))
            left[0] -= time.perf_counter() - start
            if refuted:                         # the running core scores it lost from now on
                assert self.root_replies is not None, "a refutation fills root_replies"
                run.root_lost(move, self.root_replies[move])
            return refuted
        return verify, reserve

    def lost_moves(self) -> dict:
        """Root move -> plies of the opponent VCT it allows (nonzero: proven lost)."""
        return self.root_replies or {}

    def root(self, state, should_stop: Callable[[int], bool], node_limit: int | None = None,
             allowed: list | None = None,
             proof: tuple[int | None, Callable[[int], bool], int] | None = None
             ) -> tuple[int, list[int]]:
        """A proven win for the side to move at the root: ``(plies, line)`` or ``(0, [])``.

        The proof: a VCF with no ply cap (it ends when its fours run out), then a VCT of up
        to ``plies``, within ``(nodes, stop, plies) = proof`` together (nodes None: no node
        cap; default: ``root_nodes`` and ``node_limit``, ``should_stop``, ``vct_depth``).
        Then the opponent's VCT after a pass (see the class docstring), within
        ``pass_nodes`` and what is left of ``node_limit``. ``should_stop(nodes)`` (the
        search's time and ``stop`` check) is asked every 256 nodes. A win whose first
        move is not in ``allowed`` (when given) is not played.
        """
        self.opponent_threat = True
        self.pass_clear = False
        self._replies.clear()
        self._verified.clear()
        self._touch = None
        self.root_replies = None
        if not hasattr(state, "line_codes"):
            return 0, []
        if proof is None:
            proof = (self.root_nodes if node_limit is None else min(self.root_nodes, node_limit),
                     should_stop, self.vct_depth)
        budget, stop, vct_plies = proof
        for solver, plies in ((self.vcf, open_plies(state)), (self.vct, vct_plies)):
            left = None if budget is None else budget - self.nodes
            if left is not None and left <= 0 or stop(0):
                break
            solver.reset_counters()
            cap = left                          # not reassigned: the lambda sees it narrowed
            n, line, _ = solver.solve(state, plies, stop if cap is None else
                                      (lambda k: k >= cap or stop(k)), None, 256, cap)
            self.nodes += solver.nodes
            if n and line and (allowed is None or line[0] in allowed):
                # the PV to the five (as the vcf/vct searchers'; the nodes stay the proof's)
                # (the clock ends it: should_stop(0) is the clock and stop, no node limit)
                return n, line if len(line) == n else \
                    complete_line(state, solver, line, n, should_stop=lambda k: should_stop(0))
        left = self.pass_nodes if node_limit is None else \
            min(node_limit - self.nodes, self.pass_nodes)
        if left > 0 and not should_stop(0):     # would the opponent win if we passed?
            sv = self.vct
            before = sv.nodes
            _pass(state)
            try:
                n = sv.win_within(state, self.vct_depth, 1, left, True, should_stop)
                self.pass_clear = not n and not sv.aborted
                # unfinished (the budget or the clock ran out): not known to be safe, so
                # every root move keeps its reply check (True), with no proof to narrow them
                self.opponent_threat = n or not self.pass_clear
                if n:                            # the root moves that can touch its proof
                    self._touch = sv.proof_points(state)
                    if self._touch is not None:
                        self._touch.update(sv.points(state, state.to_move ^ 1, 1))
            finally:
                _unpass(state)
            self.nodes += sv.nodes - before
        return 0, []

    def check_root_moves(self, state, moves: list, should_stop: Callable[[int], bool],
                         budget: int | None = None) -> dict:
        """Run :meth:`reply` for every root move (in ``moves``' order) before the alpha-beta
        search, which then reads the answers (:attr:`root_replies`; both backends read the
        same table, so the order the core visits root moves in changes nothing). With a
        ``budget`` the checks together visit at most that many nodes; when it or the time
        (``should_stop(0)``) runs out, the remaining moves count as unchecked (0)."""
        out: dict = {}
        self._by_key = {}
        self.root_replies = None                # reply() searches until the table is done
        push, pop = fast_push(state), state.pop
        used = 0
        for m in moves:
            left = None if budget is None else budget - used
            if (left is not None and left <= 0) or should_stop(0):
                break
            before = self.nodes
            push(m)
            try:
                out[m] = self._by_key[state.key] = self.reply(
                    state, 1, None if left is None else min(left, self.reply_nodes), should_stop)
            finally:
                pop()
            used += self.nodes - before
        self.root_replies = out
        return out

    def reply(self, state, ply: int, budget: int | None = None,
              should_stop: Callable[[int], bool] | None = None) -> int:
        """Plies to a proven VCT win for the side to move just after a root move, or 0:
        the root move that allows it loses (the defensive half of threat search). After
        :meth:`check_root_moves`, the answer it found. ``should_stop``: the search's clock."""
        if self.root_replies is not None:
            return self._by_key.get(state.key, 0)
        n = self._replies.get(state.key)
        if n is not None:
            return n
        if not self.opponent_threat:            # no VCT even with a free move: none after ours
            return 0
        if self._touch is not None and state.move_stack and state.move_stack[-1] not in self._touch \
                and not self.vct.new_four_points(1 - state.to_move, state.move_stack[-1], True):
            return self.opponent_threat          # the opponent's proof after a pass still holds
        sv = self.vct
        before = sv.nodes
        n = self._replies[state.key] = sv.win_within(state, self.vct_depth, ply,
                                                     budget or self.reply_nodes, True,
                                                     should_stop)
        self.nodes += sv.nodes - before
        return n

    def refutes(self, state, move, should_stop: Callable[[int], bool] | None = None) -> bool:
        """After the alpha-beta chose ``move`` at the root: does a longer check (up to
        ``verify_nodes``; in a timed search, given ``should_stop``, up to
        ``TIMED_VERIFY * verify_nodes`` or until ``should_stop(nodes)``, which the search
        asks every 256 nodes) prove the opponent a VCT after it? Then the move is stored as
        lost (in :attr:`root_replies`, which the core reads) and the caller
        searches again; at most ``verify_rounds`` moves per search (timed: as many as the
        time allows), each once (a timed check the clock stopped goes on at the next
        call). Nothing is verified when the pass check proved that the opponent has no VCT at all.

        Why: in the games lost to the plain player the opponent's winning VCT after our
        move took 5,600-125,000 nodes to prove, mostly beyond ``reply_nodes``, which every
        candidate root move gets; the larger budget goes to the one move about to be played.
        """
        if self.pass_clear or not self.verify_nodes or \
                (len(self._verified) >= self.verify_rounds and should_stop is None) or \
                not hasattr(state, "line_codes"):
            return False
        fast_push(state)(move)
        try:
            k = state.key
            if self._by_key.get(k) or self._replies.get(k) or k in self._verified:
                return False                     # lost already (the least bad), or verified
            self._verified.add(k)
            sv = self.vct
            if should_stop is None:              # untimed: within verify_nodes
                before = sv.nodes
                n = sv.win_within(state, self.vct_depth, 1, self.verify_nodes, True)
                self.nodes += sv.nodes - before
            else:                                # timed: the time left decides, within a cap
                sv.reset_counters()
                n, _line, done = sv.solve(state, self.vct_depth, should_stop, None, 256,
                                          TIMED_VERIFY * self.verify_nodes)
                self.nodes += sv.nodes
                if not n and done < self.vct_depth - 1:
                    self._verified.discard(k)    # unfinished: a later check goes on (its
                                                 # table keeps what this one proved)
        finally:
            state.pop()
        if n:
            self._replies[k] = self._by_key[k] = n
            if self.root_replies is not None:
                self.root_replies[move] = n
        return bool(n)

    def horizon(self, state, ply: int) -> int:
        """Plies to a proven VCF (or, with ``horizon_vct``, VCT) win for the side to move
        at a horizon node; with ``defend``, minus the plies to the opponent's proven VCF
        after the block of its four; else 0. With ``defend``, :attr:`block` is then the
        forced block when there is one (the core evaluates the position after it)."""
        n = 0
        self.block = None
        for sv, plies, budget in self.at_horizon:
            before = sv.nodes
            n = sv.win_within(state, plies, ply, budget or None, bool(budget))
            self.nodes += sv.nodes - before
            if n:
                return n
        return -self._defended(state, ply) if self.defend else 0

    #: the forced block found by the last :meth:`horizon` (None: the side to move faces no four)
    block: int | None = None

    def _defended(self, state, ply: int) -> int:
        """The side to move faces a four: plies to the opponent's forced win after the
        block (the block, then its VCF of up to ``depth`` plies; 2: no block stops it),
        else 0, with :attr:`block` set to the block. Its position counts as one threat
        node."""
        sv = self.vcf
        me = state.to_move
        fives = sv.points(state, 1 - me, 0)
        if not fives:
            return 0
        if len(fives) > 1 or not sv._legal(me, fives[0]):
            return 2
        before = sv.nodes
        fast_push(state)(fives[0])
        try:
            n = sv.win_within(state, self.depth, ply + 1)
        finally:
            state.pop()
        self.nodes += 1 + sv.nodes - before
        if n:
            return n + 1
        self.block = fives[0]
        return 0
