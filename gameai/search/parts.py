"""Which parts a search runs: its switches, each on only where the game offers what the
part needs (quiescence needs ``noisy_moves``, null move a pass and a check test, ...).

Derived once here and read by both backends: the Python core (:mod:`.core`) fetches the
game's methods for the parts that are on, the compiled core gets the same booleans in its
switch array (:mod:`gameai.compiled.search`). Writing the rules twice is how the two
backends could drift apart."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Parts:
    """The parts on in one search (True = on); see :func:`parts`."""

    noisy: bool          # quiescence over the game's noisy moves
    in_check: bool       # the game can say whether the side to move is in check
    evasions: bool       # quiescence answers check with every legal move
    check_ext: bool      # check extension
    nullmove: bool       # null-move pruning (a pass and a check test)
    null_adaptive: bool  # ... on Stockfish's conditions (an attacker test too)
    lmr: bool            # late-move reductions
    lmr_sf: bool         # ... as Stockfish 11 reduces
    futility: bool       # futility pruning of quiet moves (a check test and captures)
    move_count: bool     # move-count pruning (check probes, captures, an attacker test)
    reverse_futility: bool  # reverse futility pruning (a check test)
    is_capture: bool     # the game can say whether a move captures
    mvv_lva: bool        # captures ordered by MVV-LVA
    see: bool            # static exchange: losing captures last, skipped in quiescence
    delta: bool          # delta pruning in quiescence (a check probe and capture values)
    qs_tt: bool          # quiescence probes and stores the transposition table
    see_prune: bool      # moves losing too much by static exchange skipped (probes, see)
    repetition: bool     # repetitions in the line judged by the game's rule
    mate_distance: bool  # mate-distance pruning (needs ply-adjusted mate values)
    need_check: bool     # a node asks in_check (null move, LMR, futility or check extension)
    inline: bool         # depth-1 children are leaves or terminals, evaluated in the loop
    ordering: bool       # moves are ordered at all (TT move, history, killers, threats, MVV-LVA)
    gravity: bool        # history_inc=gravity: bounded bonus and malus for quiet moves


def parts(o: Any, state: Any) -> Parts:
    """The parts a searcher's options ``o`` run on ``state``'s game."""
    def has(attr: str) -> bool:
        return getattr(state, attr, None) is not None

    noisy = bool(o.quiescence) and has("noisy_moves")
    in_check = has("in_check")
    check_ext = bool(o.check_ext) and in_check
    null = bool(o.nullmove) and has("push_null") and has("pop_null") and in_check
    null_adaptive = null and bool(o.null_adaptive) and has("has_attackers")
    mvv = bool(o.mvv_lva) and has("mvv_lva")
    repeat = bool(o.repetition) and has("repetition_outcome")
    probes = in_check and has("is_capture") and has("gives_check")   # quiet, no check
    futility = bool(o.futility) and probes
    move_count = bool(o.move_count) and probes and has("has_attackers")
    rfp = bool(o.reverse_futility) and in_check
    return Parts(
        noisy=noisy, in_check=in_check, evasions=bool(o.evasions) and noisy and in_check,
        check_ext=check_ext, nullmove=null, null_adaptive=null_adaptive, lmr=bool(o.lmr),
        lmr_sf=bool(o.lmr) and bool(o.lmr_sf),
        futility=futility,
        move_count=move_count,
        reverse_futility=rfp, is_capture=has("is_capture"),
        mvv_lva=mvv, see=bool(o.see) and has("see") and has("is_capture"),
        delta=bool(o.delta) and noisy and has("capture_value") and has("gives_check"),
        qs_tt=bool(o.qs_tt) and noisy and o.tt is not None,
        see_prune=bool(o.see_prune) and probes and has("see") and has("has_attackers"),
        repetition=repeat, mate_distance=bool(o.mate_distance and o.mate_ply),
        need_check=in_check and (null or bool(o.lmr) or check_ext or futility or rfp
                                 or move_count),
        inline=not noisy and o.threats is None and not check_ext and not repeat,
        gravity=o.history is not None and getattr(o.history, "gravity", False),
        ordering=(o.tt is not None or o.history is not None or o.killers is not None
                  or bool(o.threat_order) or mvv))
