"""Who plays whom, from which opening, with which seed: the tournament's game list.

The schedule is a pure function of the configuration, so a rerun (resume) rebuilds the
same game ids and every worker can play any game independently. Each opening is played
twice with colours swapped (a *pair*; the pentanomial statistics are taken over pairs).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import GameError, PositionError, SpecError
from ..presets import available, is_preset
from ..registry import load_game, resolve_preset
from ..spec import is_reference, parse_spec, parse_spec_text

FORMATS = ("roundrobin", "gauntlet")


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game (picklable, no live objects)."""

    game_id: int
    game: str
    players: tuple[str, str]  # specs of colour 0 (moves first) and colour 1
    names: tuple[str, str]
    pairing: int              # index into the schedule's pairings
    pair: int                 # colour-swapped pair id (unique over the tournament)
    opening_id: int
    opening: tuple[str, ...]  # move texts played before the players take over
    seed: int
    limits: dict[str, Any] | None = None
    max_plies: int | None = None
    watch_pid: int | None = None  # a pool worker exits when this process (the runner) is gone


def derive_seed(*parts: Any) -> int:
    """A 63-bit seed from any parts (string seeding of ``random`` is stable across runs)."""
    return random.Random("/".join(map(str, parts))).getrandbits(63)


def check_player_spec(spec: str) -> None:
    """Raise SpecError now (not in every game) for an unknown player or parameter, a
    ``module:attr`` this process cannot import, or a searcher's ``eval`` that names no
    evaluator. (The runner then checks in a worker that it can make the player.)"""
    from ..registry import PLAYERS, SEARCHERS, check_evaluator_spec
    name, _ = parse_spec_text(spec)
    if is_reference(name) or name in PLAYERS.names():
        PLAYERS.resolve(spec)
    elif name in SEARCHERS.names():
        ev = SEARCHERS.resolve(spec)[1].get("eval")
        if isinstance(ev, str):
            check_evaluator_spec(ev, f"player {spec}: eval")
    else:
        raise SpecError(f"unknown player {name!r}; players: {', '.join(PLAYERS.names())}; "
                        f"searchers: {', '.join(SEARCHERS.names())}; presets: {available()}")


def resolve_presets(specs: list[str], game: str) -> list[str]:
    """Each preset (``strong``) replaced by its spec for ``game`` (:mod:`gameai.presets`),
    so the records hold the spec that played; other specs unchanged."""
    if not any(is_preset(s) for s in specs):
        return list(specs)
    state = load_game(game)
    return [resolve_preset(s, state) for s in specs]


def display_name(spec: str) -> str:
    """A player's name: its ``name=`` parameter when the spec has one, else the spec."""
    try:
        name = parse_spec(spec)[1].get("name")
    except SpecError:
        return spec
    return str(name) if name else spec


def unique_names(specs: list[str], names: list[str] | None = None) -> list[str]:
    """Player names: ``names[i]`` where given (``--name``), else :func:`display_name`, with
    ``#2``, ``#3`` appended to repeated specs. ``SpecError`` for more names than players,
    an empty name, or one name given twice (two players the standings could not tell
    apart: a name is chosen to tell them apart)."""
    names = list(names or [])
    if len(names) > len(specs):
        raise SpecError(f"{len(names)} names for {len(specs)} players: at most one name a player")
    for n in names:
        if not isinstance(n, str) or not n.strip():
            raise SpecError(f"a player name must be a non-empty text, got {n!r}")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SpecError(f"player name(s) {', '.join(map(repr, twice))} given to more than one "
                        "player: each --name must be different")
    seen: dict[str, int] = {}
    out = []
    for s in names + [display_name(spec) for spec in specs[len(names):]]:
        seen[s] = seen.get(s, 0) + 1
        out.append(s if seen[s] == 1 else f"{s}#{seen[s]}")
    return out


def pairings(n_players: int, fmt: str = "roundrobin") -> list[tuple[int, int]]:
    """Index pairs: all pairs for a round robin, player 0 against each other for a gauntlet."""
    if fmt not in FORMATS:
        raise SpecError(f"tournament format {fmt!r}: expected one of {', '.join(FORMATS)}")
    if n_players < 2:
        raise SpecError(f"a tournament needs at least 2 players, got {n_players}")
    if fmt == "gauntlet":
        return [(0, j) for j in range(1, n_players)]
    return [(i, j) for i in range(n_players) for j in range(i + 1, n_players)]


def random_openings(game: str, count: int, plies: int, seed: int, balance: float | None = None,
                    max_tries: int = 1000) -> list[tuple[str, ...]]:
    """``count`` distinct openings of ``plies`` uniformly random moves, none game-ending.

    Each opening is played from both sides (the schedule swaps colours), which cancels
    its bias in the pair; with ``balance`` an opening whose static evaluation (the game's
    default evaluator, side to move's view) exceeds ``balance`` in absolute value is also
    redrawn, so no pair starts from a lopsided position.
    """
    evaluate = None
    if balance is not None:
        from ..registry import make_evaluator
        evaluate = make_evaluator(load_game(game).default_eval)
    out: list[tuple[str, ...]] = []
    seen: set[int] = set()
    tries = 0
    while len(out) < count:
        rng = random.Random(f"{seed}/opening/{len(out)}/{tries}")
        tries += 1
        state = load_game(game)
        texts = []
        ok = True
        for _ in range(plies):
            moves = state.legal_moves() if state.result() is None else []
            if not moves:
                ok = False
                break
            m = rng.choice(moves)
            texts.append(state.move_str(m))
            state.push(m)
        if ok and evaluate is not None and state.result() is None and abs(evaluate(state)) > balance:
            ok = False
        if ok and state.result() is None and state.legal_moves() and (state.key not in seen or tries > max_tries):
            seen.add(state.key)
            out.append(tuple(texts))
        elif tries > max_tries * (count + 1):
            raise GameError(f"cannot find {count} random openings of {plies} plies for {game}")
    return out


def read_openings(path: str | Path, game: str) -> list[tuple[str, ...]]:
    """Openings from a text file: one line of space-separated moves each; ``#`` comments."""
    out = []
    try:
        lines = Path(path).read_text().splitlines()
    except OSError as exc:
        raise GameError(f"openings file {path}: {exc}") from None
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        moves = tuple(text.replace(",", " ").split())
        state = load_game(game)
        try:
            for mv in moves:
                state.push(state.parse_move(mv))
        except GameError as exc:
            raise PositionError(f"openings file {path} line {n}: {exc}") from None
        if state.result() is not None:
            raise PositionError(f"openings file {path} line {n}: the game is already over")
        out.append(moves)
    if not out:
        raise GameError(f"openings file {path} has no openings")
    return out


def build_schedule(game: str, players: list[str], games: int, seed: int,
                   fmt: str = "roundrobin", opening_plies: int = 0,
                   openings: list[tuple[str, ...]] | None = None,
                   limits: dict[str, Any] | None = None,
                   max_plies: int | None = None,
                   opening_balance: float | None = None,
                   names: list[str] | None = None) -> list[GameTask]:
    """The full game list: per pairing ``games`` games, openings in colour-swapped pairs.

    Game ids run pairing by pairing, opening by opening, so the order of play (and the
    order of results) is the same on every backend.
    """
    if games < 1:
        raise SpecError(f"games (per pairing) must be at least 1, got {games}")
    names = unique_names(players, names)     # a preset keeps its short name ("strong")
    players = resolve_presets(players, game)
    for spec in players:
        check_player_spec(spec)
    pairs = pairings(len(players), fmt)
    n_open = (games + 1) // 2
    if openings is None:
        openings = random_openings(game, n_open, opening_plies, seed, opening_balance) \
            if opening_plies > 0 else [()]
    tasks = []
    gid = 0
    for pi, (a, b) in enumerate(pairs):
        for k in range(n_open):
            oid = k % len(openings)
            pair_id = pi * n_open + k
            for swap in (0, 1):
                if 2 * k + swap >= games:
                    break
                first, second = (a, b) if swap == 0 else (b, a)
                tasks.append(GameTask(
                    game_id=gid, game=game, players=(players[first], players[second]),
                    names=(names[first], names[second]), pairing=pi, pair=pair_id,
                    opening_id=oid, opening=tuple(openings[oid]),
                    seed=derive_seed(seed, "game", pi, k, swap), limits=limits,
                    max_plies=max_plies))
                gid += 1
    return tasks
