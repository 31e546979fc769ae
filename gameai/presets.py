"""Named presets: the strongest measured player per game by a short name.

The strongest players are 200-character spec strings; a preset gives each one a name
(``strong``) that is resolved once the game is known, so ``gameai play``, ``gameai
engine``, ``gameai tournament --player strong`` and ``make_searcher("strong",
game="xiangqi")`` all mean the player that was measured. The spec string itself stays
valid everywhere, for ablations that switch one part off. The presets' table in
"Getting started" is generated from :data:`PRESETS` (``python -m gameai.presetdoc``).

A preset may be given parameters, which replace the preset's own:
``strong(time=5)`` is the strong player at 5 s a move. This module knows no registry
(it only parses spec text), so :mod:`gameai.registry` can import it without a cycle.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import SpecError
from .spec import format_spec, parse_spec, parse_spec_text


@dataclass(frozen=True)
class Preset:
    """One named configuration for one game: its spec string and where it was measured."""

    name: str
    game: str        #: the game's name (``state.name``): xiangqi, gomoku or renju
    spec: str        #: the full searcher spec, as measured (time limit included)
    doc: str         #: what it is and where its strength was measured

    def untimed(self) -> str:
        """The spec without its own time limit, for callers whose clock sets the time
        (an engine GUI): a time in the spec would cap ``go depth`` and ``go infinite``."""
        name, params = parse_spec(self.spec)
        params.pop("time", None)
        return format_spec(name, params)


#: XQ: every switch of the negamax core on, compiled, 1 s a move (futility and reverse
#: futility since 2026-12-06; SEE, delta pruning and the adaptive null move since
#: 2026-12-07: docs/notes/xiangqi-strength.md).
_XQ = ("negascout(time=1,id=true,tt=true,tt_size=4194304,history=true,killers=true,"
       "aspiration=true,quiescence=true,evasions=true,mvv_lva=true,see=true,delta=true,"
       "nullmove=true,null_adaptive=true,lmr=true,futility=true,reverse_futility=true,"
       "check_ext=true,mate_distance=true,repetition=true,backend=compiled)")
#: T: NegaScout with VCF/VCT threat search, compiled, 2 s a move; since 2026-12-08 it
#: evaluates with gomoku.forks and the weights tuned for its rule (shipped with the
#: package: docs/notes/tuning.md) and checks no root move's replies (the root proof and
#: the chosen moves' checks stay: docs/notes/champion-design.md), each after equal-node
#: SPRTs [0, 15] accepted it.
_T = ("negascout(time=2.0,tt=true,history=true,id=true,threats=true,threat_order=true,"
      "threat_forced=true,threat_depth=3,threat_reply_share=0,backend=compiled,"
      "eval=\"gomoku.forks(weights={})\")")
#: The plain comparison player: alpha-beta without enhancements, Python backend.
_PLAIN = "alphabeta(depth=3,backend=python)"

_PLAIN_DOC = ("plain alpha-beta at depth 3 on the Python backend: no enhancement, for "
              "comparison and for reading the reference search")

PRESETS: tuple[Preset, ...] = (
    Preset("strong", "xiangqi", _XQ,
           "XQ, full-switch NegaScout on the compiled backend at 1 s a move: scored 0.675 "
           "(+127 +- 78 Elo, 80 games) against Fairy-Stockfish at depth 7 (2026-12-01); "
           "futility and reverse futility added after an SPRT [0, 15] accepted their gain "
           "(+228 +- 108 Elo at 0.1 s a move, 40 games; 2026-12-06); SEE, delta pruning and "
           "the adaptive null move after an equal-node SPRT [0, 15] at 8,000 nodes a move "
           "accepted theirs (+56 +- 32 Elo, 286 games; 2026-12-07); "
           "docs/notes/xiangqi-strength.md"),
    Preset("strong", "gomoku", _T.format("gomoku-forks"),
           "T, NegaScout with VCF/VCT threat search on the compiled backend at 2 s a move: "
           "88.7% (645.5 of 728 points) against the same search without threats "
           "(docs/notes/threat-player.md, 2026-12-03); gomoku.forks with tuned weights "
           "after equal-node SPRTs [0, 15] at 5,000 nodes accepted them (+70 +- 36 Elo, "
           "210 games; a second self-play round +13 +- 11, 1,316 games; "
           "docs/notes/tuning.md, 2026-12-08); no reply checks of the root moves after "
           "SPRTs [0, 15] accepted it at 5,000 and 50,000 nodes (+22 +- 17 and +22 +- 17 "
           "Elo, 504 and 254 games; docs/notes/champion-design.md, 2026-12-08)"),
    Preset("strong", "renju", _T.format("renju-forks"),
           "T, NegaScout with VCF/VCT threat search on the compiled backend at 2 s a move: "
           "84.1% (525 of 624 games) against the same search without threats "
           "(docs/notes/threat-player.md, 2026-12-03); gomoku.forks with tuned weights "
           "after equal-node SPRTs [0, 15] at 5,000 nodes accepted them (+49 +- 29 Elo, "
           "416 games; a second self-play round +22 +- 17, 820 games; "
           "docs/notes/tuning.md, 2026-12-08); no reply checks of the root moves after "
           "SPRTs [0, 15] accepted it at 5,000 and 50,000 nodes (+28 +- 20 and +25 +- 18 "
           "Elo, 672 and 510 games; docs/notes/champion-design.md, 2026-12-08)"),
    *(Preset("plain", game, _PLAIN, _PLAIN_DOC) for game in ("xiangqi", "gomoku", "renju")),
)


def preset_names() -> list[str]:
    """Every preset name, for any game."""
    return sorted({p.name for p in PRESETS})


def presets_for(game: str) -> dict[str, Preset]:
    """The presets of ``game`` (a game name such as ``"renju"``), by name."""
    return {p.name: p for p in PRESETS if p.game == game}


def available() -> str:
    """Every preset and the games it exists for, for error messages."""
    return "; ".join(f"{n} ({', '.join(p.game for p in PRESETS if p.name == n)})"
                     for n in preset_names())


def find_preset(name: str, game: str | None) -> Preset:
    """The preset ``name`` of ``game``; a :class:`SpecError` saying what is missing (the
    game, or a preset for this game) and what exists."""
    if name not in preset_names():
        raise SpecError(f"unknown preset {name!r}; presets: {available()}")
    if game is None:
        raise SpecError(f"preset {name!r} needs the game it plays (e.g. game='xiangqi'); "
                        f"presets: {available()}")
    own = presets_for(game)
    if name not in own:
        raise SpecError(f"preset {name!r} has no configuration for {game}; presets: "
                        f"{available()}")
    return own[name]


def is_preset(spec: str) -> bool:
    """Whether ``spec`` names a preset (``strong`` or ``strong(time=5)``)."""
    try:
        return parse_spec_text(spec)[0] in preset_names()
    except SpecError:
        return False


def expand(spec: str, game: str | None, timed: bool = True) -> str:
    """The searcher spec a preset spec stands for (parameters given replace the preset's);
    any other spec is returned unchanged. ``timed=False`` drops the preset's own time
    limit (not one given in ``spec``): see :meth:`Preset.untimed`."""
    if not is_preset(spec):
        return spec
    name, given = parse_spec(spec)
    preset = find_preset(name, game)
    base, params = parse_spec(preset.spec if timed else preset.untimed())
    return format_spec(base, {**params, **given})
