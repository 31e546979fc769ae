"""Threat-space search for Gomoku and Renju: VCF (continuous fours) and VCT (fours and threes).

Strong Gomoku programs win by sequences of threats the opponent must answer (Allis 1994,
"threat-space search"; the Gomoku thesis's "four-three" attacks). This module proves such
wins with an AND/OR depth-first search over threat moves only:

* **Attacker node** (the side to move at the root attacks). If it can make five it has
  won. If the defender has a four (a five-point), the attacker's only move is to block it
  (two five-points: the attack fails). Otherwise it tries every move that makes a four
  (VCF) or a four or a three (VCT).
* **Defender node.** If the defender can make five, the attack failed. If the attacker
  has a four, the defender's replies are its five-points (a Renju point forbidden to
  Black is no reply: the forbidden-point trap). If it has a three (a point where one more
  stone makes two five-points), the replies are **every** point that stops all of its
  legal straight-four points (the line-local kill sets, intersected) **plus every four
  the defender can make** (counter-fours). Otherwise (VCT) the attacker's last move was
  quiet: if the attacker, given a free move, has a VCF (a search after a pass), that VCF
  is the threat and the replies are the points that can touch it (Allis, van den Herik &
  Huntjens 1993; quintet's threat defences): the line's own points, the five-points it
  ends on (plus, for a five-point forbidden to Black, every point up to five steps away
  on its lines), the points where one more defender stone turns a defender reply of the
  line into a four, and every four of the defender. With no VCF the attack failed.

In VCT mode the attacker's moves are fours, threes, and up to ``QUIET_WIDTH`` quiet moves
that make a new four-point (most first): the "VCF-threats" that fours-and-threes search
misses. A defender move outside the VCF-threat's reply set neither occupies a point of
the VCF nor makes a five-point it would have to answer, so the same fours still win.

What a proven result means: the attacker wins by force, against every defence, in at
most ``len(pv)`` plies (the value ``MATE - plies``). The defender sets are complete for
the threat they answer: a defender move outside them that is not a four leaves the
attacker a straight four (or a five) and the defender no four, which loses. Black's
moves under Renju are judged by the game's own RIF judgement
(:func:`gameai.games.gomoku_rules.forbidden_at`: no overline, double-four or
double-three; five beats a forbidden shape); five means exactly five where the rule says
so (standard: both colours; renju: Black). One Renju corner is assumed rather than
re-checked: a White stone played away from a three's line is taken not to turn that
three's straight-four point forbidden through RIF's recursive three rule (the same
assumption covers a White stone far from a Black VCF-threat line).
"Not proven" (value 0) says only that no win exists *within this threat space and
depth*; it is not a proof that the position is not won.

Iterative deepening over the ply limit (1, 3, 5, ...) makes the first win found a
shortest one in the threat space. A transposition table on the game's Zobrist key holds
proven wins (with their length and move) and failures (with the depth searched), per
mode and node type; the winning line is read back from it. A VCF failure whose subtree
no ply limit cut (no leaf at the limit, no depth-bounded failure read from the table) is
stored as failing at every depth (:data:`EXACT`): the fours run out, so no deeper
iteration can win, and :meth:`ThreatSolver.solve` stops deepening there. A VCF
therefore needs no ply cap: its own tree ends it.

Threats are read from the game's base-3 line codes through the memoised tables of
:mod:`gameai.games.gomoku_lines` (no board walks, no per-node objects).

Statistics (:mod:`gameai.search.stats`): ``nodes`` = root visits + positions reached by
push; ``terminals`` = nodes decided on the spot (a five to play, a four that cannot be
blocked, two opposing fours); ``leaves`` = nodes where the attack stops unproven (no
threat, or the ply limit); ``interior`` = nodes whose threat moves were searched;
``tt_probes``/``tt_hits``/``tt_cutoffs`` as usual; ``cutoffs`` = attacker nodes stopped
by a proven move and defender nodes stopped by a refutation; ``depth`` = the last ply
limit completed.
"""
from __future__ import annotations

from typing import Any, Callable

from ...errors import SpecError
from ...games.gomoku_lines import RULE_EXACT, analyse, kill, memo_for
from ...games.gomoku_rules import BLACK, EMPTY, WALL, forbidden_at, maybe_forbidden
from ...games.protocol import fast_push
from .facts import _UNSET, _pass, _unpass, scan

WIN, FAIL = 1, 0
#: the depth stored with a VCF failure that no ply limit cut: no win at any depth (a VCF
#: tree is finite, so iterative deepening stops there; the compiled TT's 19-bit field)
EXACT = 0x7FFFF

class _Abort(Exception):
    pass


class ThreatSolver:
    """VCF/VCT prover over one Gomoku/Renju position (push/pop on the game itself).

    ``vct=False`` searches fours only. The TT persists across calls on positions of the
    same game (it is keyed by position and node type) until :meth:`clear`.
    """

    _limit: int | None                          # node limit of the running call
    _every: int                                 # nodes between two stop checks
    _next_check: int                            # node count of the next stop check

    def __init__(self, vct: bool = False, tt_size: int = 1 << 20) -> None:
        self.vct = vct
        self.tt_size = tt_size
        self.tt: dict[int, tuple[int, int, Any]] = {}
        self._scans: dict[int, list] = {}
        self._kind: tuple | None = None          # (rule, size) the TT and scans belong to
        #: VCT only: the VCF prover that finds a quiet move's threat (its own TT: a VCF
        #: failure says nothing about a VCT)
        self.threat_vcf: ThreatSolver | None = \
            ThreatSolver(vct=False, tt_size=tt_size) if vct else None
        self.aborted = False                     # did the last win_within give up?
        #: ply-limit cuts so far (leaves at the limit, depth-bounded failures read from
        #: the TT): a failure whose subtree added none is exact (:data:`EXACT`)
        self.cuts = 0
        self.reset_counters()

    def clear(self) -> None:
        self.tt.clear()
        self._scans.clear()
        if self.threat_vcf is not None:
            self.threat_vcf.clear()

    def reset_counters(self) -> None:
        self.nodes = self.leaves = self.terminals = self.interior = 0
        self.cutoffs = self.probes = self.hits = self.ttcuts = 0
        self.seldepth = 0

    # ------------------------------------------------------------------ reading threats
    def _bind(self, state) -> None:
        if not hasattr(state, "line_codes"):
            raise SpecError(f"threat search needs a gomoku/renju game, got {getattr(state, 'name', state)!r}")
        self.state = state
        kind = (state.rule, state.size)
        if kind != self._kind:                   # keys are only unique within one rule and size
            self._kind = kind
            self.tt.clear()
            self._scans.clear()
        self.exact = RULE_EXACT[state.rule]
        self.memo = memo_for(self.exact)
        self.lines = state.geo.lines
        self.renju = state.rule == "renju"

    def _scan(self):
        """The position's threat lines, kept by key (iterative deepening revisits positions)."""
        k = self.state.key
        out = self._scans.get(k)
        if out is None:
            if len(self._scans) >= self.SCAN_CACHE:
                self._scans.clear()
            out = self._scans[k] = scan(self.state, self.memo, self.exact)
        return out

    #: positions whose scan is kept (a few hundred bytes each)
    SCAN_CACHE = 1 << 16

    def _legal(self, colour: int, m: int) -> bool:
        """Renju: may ``colour`` play ``m``? (Only Black is restricted.)"""
        if not self.renju or colour != BLACK:
            return True
        s = self.state
        return s.bnear[m] < 4 or not maybe_forbidden(s.board, m, s.dirs) or \
            forbidden_at(s.board, m, s.dirs) is None

    def _points(self, scan, colour: int, kind: int) -> list[int]:
        """Board points of one fact kind (0 fives, 1 fours, 2 straights, 3 threes), no repeats."""
        lines = self.lines
        out: list[int] = []
        for lid, _code, t in scan:
            ps = t[colour][kind]
            if ps:
                cells = lines[lid]
                for p in ps:
                    q = cells[p]
                    if q not in out:
                        out.append(q)
        return out

    def points(self, state, colour: int, kind: int) -> list[int]:
        """Board points of one threat-fact kind of ``colour`` on ``state`` (0 fives, 1 fours,
        2 straight fours, 3 threes), no repeats."""
        self._bind(state)
        return self._points(self._scan(), colour, kind)

    def _three_defences(self, scan, a: int) -> list[int] | None:
        """Points that stop every legal straight-four point of attacker ``a``; None if it has none."""
        lines = self.lines
        common: set[int] | None = None
        ex = self.exact[a]
        for lid, code, t in scan:
            sts = t[a][2]
            if not sts:
                continue
            cells = lines[lid]
            for s in sts:
                if not self._legal(a, cells[s]):
                    continue
                ks = {cells[q] for q in kill(code, a, s, ex)}
                common = ks if common is None else common & ks
        return None if common is None else sorted(common)

    def _quiet_threats(self, a: int, fours: list[int], threes: list[int]) -> list[int]:
        """Attacker moves that are neither fours nor threes but make a new four-point (a
        "sword"): the quiet moves that may threaten a VCF, most new four-points first.
        Pruning here only loses wins, never proves a false one (the defender node checks
        the threat by a VCF search)."""
        skip = set(fours)
        skip.update(threes)
        scored = []
        for p in self.state.legal_moves():
            if p not in skip:
                gain = self.new_four_points(a, p)
                if gain:
                    scored.append((-gain, p))
        scored.sort()
        return [p for _g, p in scored[:self.QUIET_WIDTH]]

    def new_four_points(self, colour: int, p: int, placed: bool = False) -> int:
        """How many new four-points (places where one more stone makes a four) a stone of
        ``colour`` at the empty point ``p`` creates, on the lines through ``p``
        (``placed``: the stone is already there; count what it created)."""
        s = self.state
        codes, memo, ex = s.line_codes, self.memo, self.exact
        digit = colour + 1
        gain = 0
        for lid, pw in s.geo.cell_lines[p]:
            c = codes[lid] - digit * pw if placed else codes[lid]
            t0 = memo.get(c, _UNSET)
            if t0 is _UNSET:
                t0 = memo[c] = analyse(c, ex)
            c1 = c + digit * pw
            t1 = memo.get(c1, _UNSET)
            if t1 is _UNSET:
                t1 = memo[c1] = analyse(c1, ex)
            n1 = len(t1[colour][1]) if t1 is not None else 0
            n0 = len(t0[colour][1]) if t0 is not None else 0
            if n1 > n0:
                gain += n1 - n0
        return gain

    #: at most this many quiet VCF-threat moves per attacker node (the best by new four-points)
    QUIET_WIDTH = 30

    def _vcf_threat_defences(self, a: int, plies: int, ply: int) -> list[int] | None:
        """The defender's candidate replies when attacker ``a`` (not to move) threatens a
        VCF of at most ``plies`` plies, or None when there is no such VCF.

        The threat is found by a VCF search after a pass. Any defence must then touch that
        VCF (Allis 1994; quintet's threat defences): its points, the five-points it ends
        on (and, when it ends on a point forbidden to Black, that point's neighbours up to
        five steps along each line, whose stones could lift the ban), the empty points
        where one more defender stone makes one of the defender's replies in the line a
        four (a counter-four during the VCF), and every four of the defender now (added
        by the caller). A defender move elsewhere leaves the line valid: it changes no
        point of it, creates no five-point the line would have to answer, and so the
        attacker wins by the same fours. Returns None also when the line read back from
        the prover's TT does not replay to a win (then nothing is claimed).
        """
        s = self.state
        sub = self.threat_vcf
        assert sub is not None, "only a VCT solver looks for a quiet move's threat"
        dfd = 1 - a
        before = (sub.nodes, sub.leaves, sub.terminals, sub.interior, sub.probes, sub.hits, sub.ttcuts)
        budget = self.THREAT_BUDGET           # (within what is left of a node limit: it
        if self._limit is not None:           # is never passed by a check's nodes)
            budget = max(1, min(budget, self._limit - self.nodes))
        _pass(s)
        line: list[int] = []
        try:
            n = sub.win_within(s, plies, ply, budget)
            if n:
                line = sub._line(s, n)
            found = self._replay_threat(line, a, dfd) if line else None
        finally:
            _unpass(s)
        after = (sub.nodes, sub.leaves, sub.terminals, sub.interior, sub.probes, sub.hits, sub.ttcuts)
        dn, dl, dt, di, dp, dh, dc = (x - y for x, y in zip(after, before))
        self.nodes += dn
        self.leaves += dl
        self.terminals += dt
        self.interior += di
        self.probes += dp
        self.hits += dh
        self.ttcuts += dc
        if self.nodes >= self._next_check:
            self._count_check()
        return found

    #: nodes one threat check (the VCF after a pass) may spend before it counts as no threat
    THREAT_BUDGET = 2_000

    def _replay_threat(self, line: list[int], a: int, dfd: int) -> list[int] | None:
        """Play ``line`` (after the pass) and collect its defence points; None if it does
        not end in a win for ``a``."""
        s = self.state
        push, pop = fast_push(s), s.pop
        points: list[int] = list(line)
        pushed = 0
        won = False
        try:
            for i, m in enumerate(line):
                if s.board[m] != EMPTY or s.result() is not None:
                    break
                push(m)
                pushed += 1
                if i % 2:                        # a defender reply: its counter-four eyes
                    points += self._sword_eyes(m, dfd)
            else:
                r = s.result()
                if r is not None:                # it ends on the five: its points are in it
                    won = r.winner == a
                elif s.to_move == dfd:
                    scan = self._scan()
                    fives = self._points(scan, a, 0)
                    if not self._points(scan, dfd, 0) and fives:
                        if len(fives) >= 2:
                            points += fives
                            won = True
                        elif not self._legal(dfd, fives[0]):   # the forbidden-point trap
                            points += fives + self._along(fives[0], 5)
                            won = True
        finally:
            for _ in range(pushed):
                pop()
        if not won:
            return None
        out: list[int] = []
        seen = set()
        board = s.board
        for p in points:
            if p not in seen and board[p] == EMPTY:
                seen.add(p)
                out.append(p)
        return out

    def _sword_eyes(self, p: int, colour: int) -> list[int]:
        """Empty points of every five-window through ``p`` holding three ``colour`` stones
        and no other: one more stone there makes a four."""
        b = self.state.board
        n = len(b)
        out = []
        for d in self.state.dirs:
            for k in range(-4, 1):
                start = p + k * d
                end = start + 4 * d
                if not (0 <= start < n and 0 <= end < n):
                    continue
                own = 0
                empties = []
                for j in range(5):
                    v = b[start + j * d]
                    if v == colour:
                        own += 1
                    elif v == EMPTY:
                        empties.append(start + j * d)
                    else:
                        own = -9
                        break
                if own == 3:
                    out += empties
        return out

    def _along(self, p: int, steps: int) -> list[int]:
        """Board points up to ``steps`` away from ``p`` along the four lines."""
        b = self.state.board
        n = len(b)
        out = []
        for d in self.state.dirs:
            for sign in (1, -1):
                q = p
                for _ in range(steps):
                    q += sign * d
                    if not 0 <= q < n or b[q] == WALL:
                        break
                    out.append(q)
        return out

    # ------------------------------------------------------------------ the search
    def _count_check(self) -> None:
        """Limits and stop, as :meth:`_count` checks them."""
        self._next_check = self.nodes + self._every
        if self._limit is not None and self.nodes < self._limit < self._next_check:
            self._next_check = self._limit
        if self._should_stop(self.nodes):
            raise _Abort()

    def _count(self, ply: int) -> None:
        self.nodes += 1
        if ply > self.seldepth:
            self.seldepth = ply
        if self.nodes >= self._next_check:
            self._count_check()

    def _probe(self, k: int, d: int) -> int | None:
        """A TT answer usable with ``d`` plies left (win length or 0), else None."""
        self.probes += 1
        e = self.tt.get(k)
        if e is None:
            return None
        self.hits += 1
        if (e[0] == WIN and e[1] <= d) or (e[0] == FAIL and e[1] >= d):
            self.ttcuts += 1
            if e[0] == WIN:
                return e[1]
            if e[1] != EXACT:                   # a failure some ply limit bounded
                self.cuts += 1
            return 0
        return None

    def _fail_depth(self, cuts: int, d: int) -> int:
        """The depth to store with a failure at a node entered when :attr:`cuts` was
        ``cuts``: :data:`EXACT` for a VCF subtree no ply limit cut, else ``d``."""
        return EXACT if not self.vct and self.cuts == cuts else d

    def _store(self, k: int, flag: int, n: int, move) -> None:
        tt = self.tt
        if len(tt) >= self.tt_size:
            tt.clear()
        tt[k] = (flag, n, move)

    def _attack(self, d: int, ply: int) -> int:
        """Attacker to move with ``d`` plies left: win length (plies) or 0."""
        s = self.state
        a = s.to_move
        k = s.key << 1 | 1
        v = self._probe(k, d)
        if v is not None:
            return v
        cuts = self.cuts
        scan = self._scan()
        five = self._points(scan, a, 0)
        if five:
            self.terminals += 1
            self._store(k, WIN, 1, five[0])
            return 1
        block = self._points(scan, 1 - a, 0)
        if len(block) > 1 or d < 3:
            if len(block) > 1:
                self.terminals += 1
            else:
                self.leaves += 1
                self.cuts += 1                  # the ply limit
            self._store(k, FAIL, self._fail_depth(cuts, d), None)
            return 0
        if block:
            moves = [m for m in block if self._legal(a, m)]
        else:
            fours = self._points(scan, a, 1)
            straights = self._points(scan, a, 2)
            moves = [m for m in straights if self._legal(a, m)]
            moves += [m for m in fours if m not in straights and self._legal(a, m)]
            if self.vct and d >= 5:
                threes = [m for m in self._points(scan, a, 3) if m not in fours and self._legal(a, m)]
                moves += threes
                moves += [m for m in self._quiet_threats(a, fours, threes) if self._legal(a, m)]
        if not moves:
            self.leaves += 1
            self._store(k, FAIL, self._fail_depth(cuts, d), None)
            return 0
        self.interior += 1
        push, pop = fast_push(s), s.pop
        for m in moves:
            push(m)
            self._count(ply + 1)
            try:
                n = self._defend(d - 1, ply + 1)
            finally:
                pop()
            if n:
                self.cutoffs += 1
                self._store(k, WIN, n + 1, m)
                return n + 1
        self._store(k, FAIL, self._fail_depth(cuts, d), None)
        return 0

    def _defend(self, d: int, ply: int) -> int:
        """Defender to move with ``d`` plies left: plies to the attacker's forced win, or 0."""
        s = self.state
        dfd = s.to_move
        a = 1 - dfd
        k = s.key << 1
        v = self._probe(k, d)
        if v is not None:
            return v
        cuts = self.cuts
        replies = self._replies(d, ply)
        if replies.__class__ is int:            # decided here: 0 failed, else plies to the win
            self._store(k, WIN if replies else FAIL, replies or self._fail_depth(cuts, d), None)
            return replies
        self.interior += 1
        push, pop = fast_push(s), s.pop
        worst, worst_move = 0, None
        for m in replies:                       # type: ignore[union-attr]  # a list here
            push(m)
            self._count(ply + 1)
            try:
                n = self._attack(d - 1, ply + 1)
            finally:
                pop()
            if not n:
                self.cutoffs += 1
                self._store(k, FAIL, self._fail_depth(cuts, d), None)
                return 0
            if n > worst:
                worst, worst_move = n, m
        self._store(k, WIN, worst + 1, worst_move)
        return worst + 1

    def _replies(self, d: int, ply: int) -> list[int] | int:
        """The defender's replies with ``d`` plies left (module docstring), or the node's
        value when it is decided without them: 0 (the attack failed) or plies to the win."""
        s = self.state
        dfd = s.to_move
        a = 1 - dfd
        scan = self._scan()
        if self._points(scan, dfd, 0):          # the defender makes five
            self.terminals += 1
            return 0
        fives = self._points(scan, a, 0)
        if fives:
            replies = [m for m in fives if self._legal(dfd, m)]
            if not replies:                     # unstoppable (two fours, or forbidden block)
                self.terminals += 1
                return 2
            return replies
        defences = self._three_defences(scan, a) if self.vct else None
        if defences is None and self.vct and d >= 4:   # a quiet move: does it threaten a VCF?
            defences = self._vcf_threat_defences(a, d - 1, ply)
        if defences is None or d < 4:
            self.leaves += 1
            return 0
        counters = [m for m in self._points(scan, dfd, 1) if self._legal(dfd, m)]
        replies = counters + [m for m in defences if m not in counters and self._legal(dfd, m)]
        if not replies:                         # nothing stops the straight four (or the VCF)
            self.terminals += 1
            return 4
        return replies

    def _threat_cells(self, m: int, a: int) -> list[int]:
        """Empty points up to five steps from ``m`` on the lines through it where ``a`` now
        has a five-point or a straight-four point: a stone there changes that threat
        (blocks one side of a three, so that its defences change)."""
        s = self.state
        b, n = s.board, len(s.board)
        cells = []
        for lid, _pw in s.geo.cell_lines[m]:
            t = self.memo.get(s.line_codes[lid])
            if t is None or not (t[a][0] or t[a][2]):
                continue
            line = self.lines[lid]
            d = line[1] - line[0]
            for sign in (1, -1):
                q = m
                for _ in range(5):
                    q += sign * d
                    if not 0 <= q < n or b[q] == WALL:
                        break
                    if b[q] == EMPTY:
                        cells.append(q)
        return cells

    def proof_points(self, state, max_nodes: int = 5_000) -> set[int] | None:
        """Every point of the proof tree of the win just proven for the side to move of
        ``state`` (its moves, every defender reply and the points that would make one a
        four, the final five-points), read back from the TT; None when part of it is
        missing or it has more than ``max_nodes`` nodes.

        A defender move on none of these points leaves every line of the proof as it was
        (the dependency argument of Allis, van den Herik & Huntjens 1993), so the same
        proof still wins after it (up to the counter-four and Renju caveats above).
        """
        self._bind(state)
        self._should_stop, self._every, self._limit = (lambda n: False), 1 << 62, None
        self._next_check = 1 << 62
        s = state
        push, pop = fast_push(s), s.pop
        points: set[int] = set()
        walked = [0]

        def attack() -> None:
            e = self.tt.get(s.key << 1 | 1)
            if e is None or e[0] != WIN or e[2] is None or s.board[e[2]] != EMPTY:
                raise _Abort()
            points.add(e[2])
            push(e[2])
            try:
                if s.result() is None:
                    points.update(self._threat_cells(e[2], 1 - s.to_move))
                    defend(e[1] - 1)
            finally:
                pop()

        def defend(d: int) -> None:
            walked[0] += 1
            if walked[0] > max_nodes:
                raise _Abort()
            replies = self._replies(d, 0)
            if replies.__class__ is int:
                if not replies:
                    raise _Abort()
                points.update(self._points(self._scan(), 1 - s.to_move, 0))
                return
            for m in replies:                   # type: ignore[union-attr]  # a list here
                points.add(m)
                push(m)
                try:                             # a stone there would make this reply a four
                    points.update(self._sword_eyes(m, 1 - s.to_move))
                    attack()
                finally:
                    pop()

        try:
            attack()
        except (_Abort, RecursionError):
            return None
        return points

    # ------------------------------------------------------------------ driving it
    def solve(self, state, max_plies: int, should_stop: Callable[[int], bool] | None = None,
              on_iteration: Callable[[int, int], None] | None = None,
              check_every: int = 256, node_limit: int | None = None) -> tuple[int, list[int], int]:
        """Prove a win for the side to move within ``max_plies``: ``(plies, line, last depth)``.

        ``plies`` is 0 when no win was proven (the line is then empty); ``last depth`` is
        the deepest ply limit completed (``max_plies`` when a VCF failed with no ply-limit
        cut: it fails at every depth). ``state`` is left as it was, also on abort.
        """
        self._bind(state)
        self._should_stop = should_stop or (lambda n: False)
        self._every, self._limit = check_every, node_limit
        self._next_check = self.nodes + check_every if node_limit is None else \
            min(self.nodes + check_every, node_limit)
        base = len(state.move_stack)
        done = 0
        try:
            for d in range(1, max_plies + 1, 2):
                self._count(0)                  # the root, visited once per iteration
                cuts = self.cuts
                n = self._attack(d, 0)
                done = d
                if on_iteration is not None:
                    on_iteration(d, n)
                if n:
                    return n, self._line(state, n), done
                if self._fail_depth(cuts, d) == EXACT:
                    return 0, [], max_plies     # no deeper limit can win
        except _Abort:
            while len(state.move_stack) > base:
                state.pop()
        return 0, [], done

    def win_within(self, state, max_plies: int, ply: int = 0, budget: int | None = None,
                   deepen: bool = False, should_stop: Callable[[int], bool] | None = None) -> int:
        """An attack with at most ``max_plies`` plies: win length or 0. For use inside other
        searches; with ``budget`` it gives up (0) after that many nodes, with
        ``should_stop`` (asked every 256 nodes: a search's clock) when it says so, and
        :attr:`aborted` tells whether it gave up; ``deepen`` tries the limits 1, 3, ...
        first (short wins cheaply, before a deep search runs out) and stops at a VCF
        failure no ply limit cut."""
        self._bind(state)
        self.aborted = False
        limits = range(1 if max_plies % 2 else 2, max_plies + 1, 2) if deepen else (max_plies,)
        if budget is None and should_stop is None:
            self._should_stop = lambda n: False
            self._every, self._limit = 1 << 62, None
            self._next_check = 1 << 62
            for d in limits:
                cuts = self.cuts
                n = self._attack(d, ply)
                if n or self._fail_depth(cuts, d) == EXACT:
                    return n
            return 0
        stop_at = None if budget is None else self.nodes + budget
        if should_stop is None:
            assert budget is not None and stop_at is not None      # (the test above)
            self._should_stop = lambda n: n >= stop_at
            self._every, self._next_check = budget, stop_at
        else:
            self._should_stop = should_stop if stop_at is None else \
                (lambda n: n >= stop_at or should_stop(n))
            self._every = 256
            self._next_check = self.nodes + 256 if stop_at is None else min(self.nodes + 256, stop_at)
        self._limit = stop_at
        base = len(state.move_stack)
        try:
            for d in limits:
                cuts = self.cuts
                n = self._attack(d, ply)
                if n or self._fail_depth(cuts, d) == EXACT:
                    return n
            return 0
        except _Abort:
            self.aborted = True
            while len(state.move_stack) > base:
                state.pop()
            return 0

    def _line(self, state, n: int) -> list[int]:
        """The proven line, read from the TT (attacker's moves and the longest defence)."""
        line: list[int] = []
        attacker = state.to_move
        try:
            while len(line) < n:
                is_att = state.to_move == attacker
                e = self.tt.get(state.key << 1 | int(is_att))
                if e is None or e[0] != WIN or e[2] is None:
                    break
                line.append(e[2])
                fast_push(state)(e[2])
        finally:
            for _ in line:
                state.pop()
        return line


def complete_line(state, solver, line: list[int], plies: int, budget: int = 100_000,
                  should_stop: Callable[[int], bool] | None = None) -> list[int]:
    """``line`` (a proven win of ``plies`` plies for the side to move of ``state``) played on
    to its five, where the table stops short: at a defender node decided without a move
    (two five-points, a five-point the defender may not take, a three that no defence
    stops) every legal move loses within the plies left, so the line goes on with a block
    of one of the attacker's five-points, else of one of its straight-four points, else
    the first legal move, and then the attacker's win from there, proven again (within
    ``budget`` nodes of ``solver`` in all; short of it, the line as far as it got).
    ``should_stop(nodes)`` (a search's clock and ``stop``) ends it early the same way: the
    win is proven already, so only the line is shorter. ``state`` is left unchanged."""
    push = fast_push(state)
    attacker = state.to_move
    line = list(line)
    base = len(state.move_stack)
    stop_at = solver.nodes + budget
    try:
        for m in line:
            push(m)
        while len(line) < plies and state.result() is None:
            if should_stop is not None and should_stop(0):
                break
            if state.to_move != attacker:
                legal = state.legal_moves()
                if not legal:
                    break
                pick = [m for kind in (0, 2) for m in solver.points(state, attacker, kind)
                        if m in legal]
                line.append((pick or legal)[0])
                push(line[-1])
                continue
            n, sub, _ = solver.solve(state, plies - len(line), should_stop, None, 256, stop_at)
            if not n or not sub:
                break
            for m in sub:
                line.append(m)
                push(m)
    finally:
        while len(state.move_stack) > base:
            state.pop()
    return line


