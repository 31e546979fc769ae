"""The UCI and UCCI side of the engine player: handshake, options, notation, ``go``.

Options are sent after the handshake and before ``isready`` (as cutechess-cli and
fastchess do), Xiangqi move text is translated to the engine's notation (ICCS ranks 0-9
or UCI ranks 1-10), and limits map to ``go movetime``/``wtime``... (UCI) or ``go time
... increment`` (UCCI). Lines go through :class:`~gameai.players.engine_process.EngineProcess`.
"""
from __future__ import annotations

import time as _time
from typing import Any

from ..errors import GameError
from ..games.notation import (detect_xiangqi_notation, fen_of, root_and_moves, variant_of,
                              xiangqi_convert)
from ..search.stats import MATE
from .engine_process import EngineFault
from .protocol import Decision


class UciProtocol:
    """UCI/UCCI for :class:`~gameai.players.engine.EnginePlayer` (a mixin: it uses the
    player's process methods and its ``protocol``, ``options``, ``notation``, ``clock``,
    ``startup`` and per-process state)."""

    def _uci_handshake(self) -> None:
        """``uci``/``ucci`` and the option list up to ``uciok``/``ucciok``, once a process."""
        if self._ready:
            return
        deadline = _time.monotonic() + self.startup
        self._write(self.protocol)
        while True:  # the option list comes before uciok/ucciok
            words = self._read(deadline).split()
            if words[:1] == [f"{self.protocol}ok"]:
                break
            if words[:1] == ["option"]:
                name, spec = _parse_option(words)
                if name:
                    self._announced[name] = spec
        self._seed_option = self._option_name("Seed") is not None
        self._ready = True

    def _option_name(self, name: str) -> str | None:
        """The announced option ``name`` means (exact, any case, or ``_`` for a space)."""
        if name in self._announced:
            return name
        for cand in (name.lower(), name.replace("_", " ").lower()):
            for k in self._announced:
                if k.lower() == cand:
                    return k
        return None

    def _setoption(self, name: str, value: Any = None) -> None:
        if isinstance(value, bool):
            value = "true" if value else "false"
        if self.protocol == "uci":
            self._write(f"setoption name {name}" + ("" if value is None else f" value {value}"))
        else:  # UCCI: no "name"/"value" words
            self._write(f"setoption {name}" + ("" if value is None else f" {value}"))

    def _configure(self, state) -> None:
        """Options after the handshake and before ``isready``: the user's, then the variant."""
        for key, value in self.options.items():
            name = self._option_name(key)
            if name is None and self._announced:
                raise EngineFault("engine-error", f"the engine has no option {key!r}; it offers: "
                                  f"{', '.join(self._announced)}")
            self._setoption(name or key, value)
        variant_opt = self._option_name("UCI_Variant")
        variant = variant_of(state)
        if (variant_opt and not any(self._option_name(k) == variant_opt for k in self.options)
                and variant in self._announced[variant_opt].get("vars", ())):
            self._setoption(variant_opt, variant)
        if self.protocol == "ucci" and self._option_name("usemillisec"):
            self._setoption(self._option_name("usemillisec"), True)  # times below are in ms
        self._write("isready")
        self._expect("readyok", _time.monotonic() + self.startup)
        self._configured = True

    def _detect_notation(self, state) -> str:
        """Xiangqi move text of this engine: declared, ICCS under UCCI, else its own move."""
        if variant_of(state) != "xiangqi":
            return "iccs"
        if self.notation != "auto":
            return self.notation
        if self.protocol == "ucci":
            return "iccs"
        start = type(state)()
        self._write("position startpos")
        self._write("go depth 1")
        self._dirty = True
        words = self._expect("bestmove", _time.monotonic() + self.startup)
        if len(words) < 2:
            raise EngineFault("malformed-reply", " ".join(words))
        try:
            return detect_xiangqi_notation(start, words[1])
        except GameError as exc:
            raise EngineFault("illegal-move", str(exc)) from None

    def _prepare_uci(self, state) -> None:
        """A fresh UCI/UCCI game: options once a process, notation known, the game's seed,
        ``ucinewgame`` (UCCI ``setoption newgame``), ``isready``/``readyok``."""
        if not self._configured:
            self._configure(state)
        if self._engine_notation is None:
            self._engine_notation = self._detect_notation(state)
        if self._seed_option and self._seed is not None:  # reproducible engines take the game's seed
            self._setoption(self._option_name("Seed"), self._seed % 2**31)
        if self.protocol == "uci":
            self._write("ucinewgame")
        elif self._option_name("newgame"):
            self._setoption(self._option_name("newgame"))
        self._write("isready")
        self._expect("readyok", _time.monotonic() + self.startup)

    def _to_engine(self, text: str) -> str:
        if self._engine_notation in (None, "iccs"):
            return text
        return xiangqi_convert(text, "iccs", self._engine_notation)

    def _from_engine(self, text: str) -> str:
        if self._engine_notation in (None, "iccs"):
            return text
        return xiangqi_convert(text, self._engine_notation, "iccs")

    def go_command(self, lim: dict[str, Any]) -> str:
        """The ``go`` line for these limits in this protocol (see the class docstring)."""
        go = ["go"]
        if "depth" in lim:
            go += ["depth", str(int(lim["depth"]))]
        if "nodes" in lim:
            go += ["nodes", str(int(lim["nodes"]))]
        if "time" in lim:
            ms = str(max(1, int(lim["time"] * 1000)))
            go += ["movetime", ms] if self.protocol == "uci" else ["time", ms, "increment", "0"]
        elif self.clock:
            ms = str(max(1, int(self._clock_left * 1000)))
            inc = str(int(self.clock[1] * 1000))
            if self.protocol == "uci":  # the opponent's clock is not ours to know: mirror ours
                go += ["wtime", ms, "btime", ms, "winc", inc, "binc", inc]
            else:
                go += ["time", ms, "increment", inc]
        return " ".join(go)

    def _choose_uci(self, state, lim: dict[str, Any]) -> Decision:
        root, moves = root_and_moves(state)
        fen = fen_of(root)
        texts = []
        for m in moves:  # move texts need the position they were played in
            texts.append(self._to_engine(root.move_str(m)))
            root.push(m)
        pos = f"position fen {fen}" if fen else "position startpos"
        self._write(pos + (" moves " + " ".join(texts) if texts else ""))
        self._write(self.go_command(lim))
        deadline = _time.monotonic() + self._move_window(lim)
        info: dict[str, Any] = {}
        value = None
        while True:
            line = self._read(deadline)
            words = line.split()
            if not words:
                continue
            if words[0] == "info":
                value = _parse_info(words, info, value)
            elif words[0] == "nobestmove" or words[:2] == ["bestmove", "(none)"]:
                raise EngineFault("illegal-move", "engine reports no move in a position with legal moves")
            elif words[0] == "bestmove":
                if len(words) < 2:
                    raise EngineFault("malformed-reply", f"{line!r}")
                try:
                    move = state.parse_move(self._from_engine(words[1]))
                except GameError as exc:  # parse_move validates the move in full
                    raise EngineFault("illegal-move", f"{words[1]!r}: {exc}") from None
                if "pv" in info:
                    info["pv"] = " ".join(_try_convert(self._from_engine, t) for t in info["pv"].split())
                return Decision(move, value, info)


def _parse_option(words: list[str]) -> tuple[str, dict[str, Any]]:
    """``option name Skill Level type spin ...`` (UCI) or ``option Hash type spin ...``
    (UCCI) -> (name, {"type": ..., "vars": [...]})."""
    rest = words[1:]
    if rest[:1] == ["name"]:
        rest = rest[1:]
    cut = rest.index("type") if "type" in rest else len(rest)
    name = " ".join(rest[:cut])
    spec: dict[str, Any] = {"type": rest[cut + 1] if cut + 1 < len(rest) else None, "vars": []}
    for i, w in enumerate(rest):
        if w == "var" and i + 1 < len(rest):
            spec["vars"].append(rest[i + 1])
    return name, spec


def _try_convert(f, text: str) -> str:
    try:
        return f(text)
    except GameError:
        return text


def mate_value(moves: int) -> int:
    """UCI ``score mate N`` (moves, negative when mated) in our units: ``MATE - plies``."""
    if moves > 0:
        return MATE - (2 * moves - 1)
    return -(MATE - 2 * -moves)


def _parse_info(words: list[str], info: dict[str, Any], value):
    """Pick depth/seldepth/nodes/time/score/pv out of a UCI or UCCI ``info`` line.

    Scores: UCI ``score cp N`` and ``score mate N``; UCCI's bare ``score N``. Lines of a
    secondary ``multipv`` and ``info string`` lines are ignored. Returns the value.
    """
    if "string" in words[1:2]:
        return value
    if "multipv" in words:
        i = words.index("multipv")
        if i + 1 < len(words) and words[i + 1] != "1":
            return value
    i = 1
    while i < len(words):
        w = words[i]
        if w in ("depth", "seldepth", "nodes") and i + 1 < len(words):
            try:
                info[w] = int(words[i + 1])
            except ValueError:
                pass
            i += 2
        elif w == "time" and i + 1 < len(words):
            try:
                info["time_s"] = int(words[i + 1]) / 1000
            except ValueError:
                pass
            i += 2
        elif w == "score" and i + 1 < len(words):
            j, kind = i + 1, "cp"
            if words[j] in ("cp", "mate"):
                kind, j = words[j], j + 1
            try:
                v = int(words[j])
                value = v if kind == "cp" else mate_value(v)
                j += 1
            except (ValueError, IndexError):
                pass
            i = j
        elif w == "pv":
            info["pv"] = " ".join(words[i + 1:])
            break
        elif w == "string":
            break
        else:
            i += 1
    return value
