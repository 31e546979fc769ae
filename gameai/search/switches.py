"""The negamax searcher's switches and settings: ONE table that both backends read.

Each row (:class:`Switch`) is one parameter of :class:`~gameai.search.negamax.Searcher`:
its type (what :mod:`gameai.spec` checks in a spec string and in Python), its default
(off, so adding a switch changes no existing search), one line of documentation (the
class docstring, ``gameai list`` and the API reference are generated from it), how it
shows in the searcher's name (tournament records and standings), and, for a switch the
compiled core reads, its slot in the core's switch array and how its value is packed.

From this table:

* the ``Searcher`` signature and docstring (:func:`signature`, :func:`doc`);
* the searcher's name (:func:`describe`);
* the compiled core's switch array (:func:`pack`, called by
  :func:`gameai.compiled.search._config`); the slots themselves are the names the kernel
  code reads (``gameai.compiled.core``), and a test checks that every slot of the array
  is packed exactly once, from this table or from :data:`DERIVED`.

The switches a game must offer something for (quiescence needs ``noisy_moves``, ...) are
derived once in :mod:`gameai.search.parts`; their rows pack the derived value.
Adding an enhancement: a row here, its lines at the core's step (and the part's helper),
the same in the compiled core (see the guide "Add an enhancement").
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Annotated, Any, Callable, Literal

from ..spec import Depth, Nodes, Range, Seconds, TTSize
from .stats import MATE

#: how a switch packs into the compiled switch array: (searcher, parts, kernel) -> int
Packer = Callable[[Any, Any, Any], int]


@dataclass(frozen=True)
class Switch:
    """One searcher parameter (see the module docstring)."""

    name: str
    kind: Any                        #: its annotation, as gameai.spec reads it
    default: Any
    doc: str                         #: one line for the docstring and ``gameai list``
    show: str = ""                   #: in the name: "flag" (``,x=true`` when on), "value" (when not the default)
    slot: str = ""                   #: the compiled switch-array slot it packs into
    packed: Packer | None = None     #: the packed value (default: the attribute itself)


def _has_threats(kernel) -> bool:
    return bool(getattr(kernel, "HAS_THREATS", False))


# fmt: off
#: The table, in the order of the signature and of the searcher's name.
SWITCHES: tuple[Switch, ...] = (
    Switch("depth", Depth | None, None, "nominal depth (default 4; with a time or node "
           "limit and no depth, iterative deepening until the limit)"),
    Switch("nodes", Nodes | None, None, "node limit of every search"),
    Switch("time", Seconds | None, None, "time limit of every search, in seconds"),
    Switch("clock", str | float | None, None, "a game clock (gameai.search.timeman): "
           "each move gets a share of it"),
    Switch("eval", str | Callable[[Any], float] | None, None, "evaluator spec or module:attr (default: the game's default_eval); a callable from Python"),
    Switch("pruning", bool, True, "alpha-beta cut-offs (false: minimax)", slot="PRUNING"),
    Switch("scout", bool, False, "NegaScout null windows after the first move (003 document)",
           slot="SCOUT"),
    Switch("mtdf", bool, False, "MTD(f) null-window passes (Plaat et al. 1996)"),
    Switch("tt", bool, False, "transposition table (002 document)", show="flag", slot="USE_TT",
           packed=lambda o, p, k: o.tt is not None),
    Switch("tt_size", TTSize, 1 << 20, "TT slots (a power of two)"),
    Switch("history", bool, False, "history heuristic (Schaeffer 1989; 000 document)",
           show="flag", slot="USE_HIST", packed=lambda o, p, k: o.history is not None),
    Switch("history_key", Literal["piece", "fromto"], "piece", "history table key",
           slot="WITH_PIECE", packed=lambda o, p, k: o.history is not None and o.history.with_piece),
    Switch("history_inc", Literal["pow2", "square", "gravity"], "pow2", "history increment "
           "per cut-off (2**depth or depth**2), or gravity: Stockfish 11's bounded bonus "
           "and malus (gameai.search.ordering)", slot="SQUARE",
           packed=lambda o, p, k: o.history is not None and o.history.square),
    Switch("history_keep", bool, False, "keep the history table from move to move"),
    Switch("killers", bool, False, "two killer moves per ply", show="flag", slot="KILLERS",
           packed=lambda o, p, k: o.killers is not None),
    Switch("id", bool, False, "iterative deepening, the previous PV move first", show="flag"),
    Switch("aspiration", bool, False, "aspiration windows around the previous value",
           show="flag"),
    Switch("window", Annotated[int, Range(1, MATE)], 50, "aspiration half-width"),
    Switch("aspiration_grow", bool, False, "with aspiration: a failed window widens on "
           "the side that failed by a growing step (Stockfish 11), not to infinity",
           show="flag"),
    Switch("quiescence", bool, False, "quiescence search over the game's noisy moves",
           show="flag", slot="NOISY", packed=lambda o, p, k: p.noisy),
    Switch("qdepth", Annotated[int, Range(0, 64)], 16, "deepest quiescence extension",
           slot="QDEPTH"),
    Switch("mate_ply", bool, True, "mates scored by distance (false: every win is MATE, as "
           "OpenSpiel's +-1)", slot="MATE_PLY"),
    Switch("threats", bool, False, "Gomoku/Renju threat part (gameai.search.threats): root "
           "proof, reply checks, VCF at the horizon", show="flag", slot="THREATS",
           packed=lambda o, p, k: o.threats is not None),
    Switch("threat_depth", Annotated[int, Range(1, 31)], 7, "plies of the horizon VCF "
           "(the root VCF gets three times as many)"),
    Switch("threat_vct_depth", Annotated[int, Range(1, 31)], 15, "plies of the VCTs "
           "(root, reply checks)"),
    Switch("threat_order", bool, False, "moves that make or stop threats first", show="flag",
           slot="THREAT_ORDER", packed=lambda o, p, k: o.threat_order and _has_threats(k)),
    Switch("threat_forced", bool, False, "only the replies the threats force", show="flag",
           slot="THREAT_FORCED", packed=lambda o, p, k: o.threat_forced and _has_threats(k)),
    Switch("threat_effort", Annotated[int, Range(1, 1000)], 1, "multiplies the threat "
           "checks' node budgets"),
    Switch("threat_horizon_vct", Annotated[int, Range(0, 31)], 0, "plies of a VCT at the "
           "horizon after the VCF (0: none)"),
    Switch("threat_horizon_nodes", Annotated[int, Range(0, 10 ** 9)], 0, "that VCT's node "
           "budget per horizon node (0: none)"),
    Switch("threat_verify", Annotated[float, Range(0, 1)], 0.3, "timed searches: the share "
           "of the time for checks of each iteration's move against an opponent VCT"),
    Switch("nullmove", bool, False, "null-move pruning (R=2; Beal 1989, Donninger 1993)",
           show="flag", slot="NULLMOVE", packed=lambda o, p, k: p.nullmove),
    Switch("null_adaptive", bool, False, "null move on Stockfish 11's conditions: null "
           "windows, evaluation >= beta, pieces besides pawns; R from depth and excess "
           "(gameai.search.pruning)", show="flag", slot="NULL_ADAPTIVE",
           packed=lambda o, p, k: p.null_adaptive),
    Switch("lmr", bool, False, "late-move reductions", show="flag", slot="LMR",
           packed=lambda o, p, k: p.lmr),
    Switch("lmr_sf", bool, False, "with lmr: reductions as Stockfish 11 (a logarithmic "
           "table from the second move, 2 less on PV nodes, 2 more at cut nodes)",
           show="flag", slot="LMR_SF", packed=lambda o, p, k: p.lmr_sf),
    Switch("futility", bool, False, "futility pruning of quiet moves near the horizon "
           "(Heinz 1998; gameai.search.pruning)", show="flag", slot="FUTILITY",
           packed=lambda o, p, k: p.futility),
    Switch("move_count", bool, False, "move-count pruning: late quiet moves that give no "
           "check skipped near the horizon (Stockfish 11)", show="flag", slot="MOVE_COUNT",
           packed=lambda o, p, k: p.move_count),
    Switch("reverse_futility", bool, False, "reverse futility pruning (static null move) "
           "near the horizon", show="flag", slot="RFP", packed=lambda o, p, k: p.reverse_futility),
    Switch("check_ext", bool, False, "check extension", show="flag", slot="CHECK_EXT",
           packed=lambda o, p, k: p.check_ext),
    Switch("evasions", bool, False, "quiescence answers check with every evasion",
           show="flag", slot="EVASIONS", packed=lambda o, p, k: p.evasions),
    Switch("mvv_lva", bool, False, "captures first, most valuable victim, least valuable "
           "attacker", show="flag", slot="MVV", packed=lambda o, p, k: p.mvv_lva),
    Switch("see", bool, False, "static exchange evaluation: losing captures after the "
           "quiet moves, and not searched by quiescence (Stockfish 11)", show="flag",
           slot="SEE", packed=lambda o, p, k: p.see),
    Switch("delta", bool, False, "delta pruning: quiescence skips captures that cannot "
           "bring the stand-pat score near alpha (Stockfish 11's qsearch futility)",
           show="flag", slot="DELTA", packed=lambda o, p, k: p.delta),
    Switch("see_prune", bool, False, "shallow-depth SEE pruning: a move whose static "
           "exchange loses more than a depth-dependent margin is skipped (Stockfish 11's step "
           "13)", show="flag", slot="SEE_PRUNE", packed=lambda o, p, k: p.see_prune),
    Switch("qs_tt", bool, False, "with tt and quiescence: quiescence probes the transposition "
           "table, cuts on a bound, tries its move first and stores what it found (Stockfish "
           "11's qsearch)", show="flag", slot="QS_TT", packed=lambda o, p, k: p.qs_tt),
    Switch("mate_distance", bool, False, "mate-distance pruning", show="flag", slot="MDP",
           packed=lambda o, p, k: p.mate_distance),
    Switch("repetition", bool, False, "repetitions in the line judged by the game's rule "
           "(Xiangqi: a perpetual check loses)", show="flag", slot="REPEAT",
           packed=lambda o, p, k: p.repetition),
    Switch("grain", Annotated[int, Range(1, MATE)], 1, "evaluation rounded to a multiple "
           "(Plaat et al. 1996: fewer MTD(f) passes)", show="value", slot="GRAIN"),
    Switch("tt_replace", Literal["depth", "always"], "depth", "TT replacement: depth-"
           "preferred with ageing, or always", show="value", slot="TT_ALWAYS",
           packed=lambda o, p, k: o.tt_replace == "always"),
    Switch("exact_depth", bool, False, "TT hits only at exactly the depth searched",
           slot="EXACT_DEPTH"),
    Switch("backend", Literal["python", "compiled"], "python", "python, or compiled (the "
           "numba core: the same numbers)"),
    Switch("on_iteration", Callable[[dict], None] | None, None, "called with each "
           "finished iteration's row"),
    Switch("on_root_move", Callable[[int, int, Any, int], None] | None, None, "called as "
           "on_root_move(index, count, move, value) after each root move"),
)
# fmt: on

#: compiled switch-array slots packed from the derived parts, not from one parameter:
#: slot -> the :class:`~gameai.search.parts.Parts` field
DERIVED = {"IS_CAP": "is_capture", "NEED_CHECK": "need_check", "INLINE": "inline",
           "ORDERING": "ordering", "GRAVITY": "gravity"}

BY_NAME = {s.name: s for s in SWITCHES}


def signature() -> inspect.Signature:
    """``Searcher.__init__``'s signature: ``self`` and one keyword per row."""
    return inspect.Signature(
        [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] +
        [inspect.Parameter(s.name, inspect.Parameter.KEYWORD_ONLY, default=s.default,
                           annotation=s.kind) for s in SWITCHES],
        return_annotation=None)


def doc() -> str:
    """The parameter list of the searcher's docstring (one line per row)."""
    return "\n".join(f"    ``{s.name}`` (default ``{s.default!r}``): {s.doc}" for s in SWITCHES)


def describe(o, kind: str) -> str:
    """The searcher's name: its kind, depth, the switches that are on, its backend."""
    flags = "".join(f",{s.name}=true" for s in SWITCHES if s.show == "flag" and getattr(o, s.name))
    values = "".join(f",{s.name}={getattr(o, s.name)}" for s in SWITCHES
                     if s.show == "value" and getattr(o, s.name) != s.default and
                     (s.name != "tt_replace" or o.tt is not None))
    backend = ",backend=compiled" if o.backend == "compiled" else ""
    return f"{kind}(depth={o.depth}{flags}{values}{backend})"


def pack(o, p, kernel, slot_of: Callable[[str], int]) -> list[tuple[int, int]]:
    """``(index, value)`` of every switch-array slot the table fills for searcher ``o``
    with parts ``p`` on ``kernel``; ``slot_of(name)`` is the index of a slot name."""
    out = [(slot_of(s.slot), int(s.packed(o, p, kernel) if s.packed else getattr(o, s.name)))
           for s in SWITCHES if s.slot]
    out += [(slot_of(slot), int(getattr(p, field))) for slot, field in DERIVED.items()]
    return out
