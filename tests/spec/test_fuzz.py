"""Fuzzing the parsers (issue 10): FENs, move text, point text, spec strings and our engine
servers' ``position``/``go`` lines; and tournament folders damaged at random, then resumed.

Every input either works (and then gives a usable position) or raises one of the
documented errors, all :class:`gameai.GameError` (``ValueError``) subclasses; a rejected
input leaves the state exactly as it was. Each property runs twice: a small budget in the
default run and a large one behind ``-m slow``.
"""
import atexit
import functools
import io
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import gameai
from gameai import GameError
from gameai.registry import EVALUATORS, GAMES, PLAYERS, SEARCHERS

FAST, SLOW = 40, 2000
START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
FENS = [START,
        "3k5/9/9/9/P8/9/P8/9/9/4K4 w - - 0 1",
        "2bakab2/9/2n1c1n2/p1p1p1p1p/9/9/P1P1P1P1P/2N1C1N2/9/2BAKAB2 b - - 3 12",
        "4k4/4a4/9/9/9/9/9/9/4A4/3K5 w"]
# ASCII FEN characters plus look-alikes: other digits, the Kelvin sign, full-width letters
TRICKY = "²①٨８\u212aＫk\u0130ı\u00a0\t\n/-"
FEN_CHARS = "rnbakcpRNBAKCPhHeEwb0123456789 /-" + TRICKY


def _twice(body, *strategies):
    """The property at the default budget, and at the large one marked slow."""
    common = dict(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
    fast = settings(max_examples=FAST, **common)(given(*strategies)(body))
    slow = pytest.mark.slow(settings(max_examples=SLOW, **{**common, "derandomize": False})(
        given(*strategies)(body)))
    return fast, slow


def _edit(text: str, edits) -> str:
    for pos, op, ch in edits:
        i = pos % (len(text) + 1)
        text = {"insert": text[:i] + ch + text[i:], "delete": text[:i] + text[i + 1:],
                "replace": text[:i] + ch + text[i + 1:]}[op]
    return text


def mutated(base, alphabet):
    edit = st.tuples(st.integers(0, 300), st.sampled_from(["insert", "delete", "replace"]),
                     st.sampled_from(alphabet))
    return st.builds(_edit, base, st.lists(edit, max_size=5))


def _snapshot(s):
    return (s.key, s.ply, str(s), s.to_move)


# -- FENs ---------------------------------------------------------------------------------
def _check_fen(fen):
    try:
        s = gameai.load_game("xiangqi", fen=fen)
    except GameError:
        return
    # accepted: a usable position whose FEN reads back to the same position
    s.legal_moves()
    s.result()
    again = gameai.load_game("xiangqi", fen=s.fen())
    assert again.key == s.key and again.fen() == s.fen()


fen_strategy = st.one_of(mutated(st.sampled_from(FENS), FEN_CHARS), st.text(FEN_CHARS, max_size=120),
                         st.text(max_size=60))
test_fuzz_fen, test_fuzz_fen_slow = _twice(_check_fen, fen_strategy)


# -- move text and pushes -------------------------------------------------------------------
GAME_SPECS = ["xiangqi", "gomoku", "renju", "connect4", "tictactoe", "synthetic(branching=12,depth=3)"]
MOVE_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-+ ,." + TRICKY


def _position(spec, plies, seed):
    import random
    s = gameai.load_game(spec)
    rng = random.Random(seed)
    for _ in range(plies):
        if s.result() is not None or not s.legal_moves():
            break
        s.push(rng.choice(s.legal_moves()))
    return s


def _legal_texts(s):
    return [s.move_str(m) for m in s.legal_moves()] or ["a1"]


def _check_move_text(spec, plies, seed, data):
    s = _position(spec, plies, seed)
    text = data.draw(st.one_of(mutated(st.sampled_from(_legal_texts(s)), MOVE_CHARS),
                               st.text(MOVE_CHARS, max_size=8), st.text(max_size=8)))
    before = _snapshot(s)
    try:
        m = s.parse_move(text)
    except GameError:
        assert _snapshot(s) == before
        return
    assert _snapshot(s) == before
    assert s.is_legal(m)
    s.push(m)
    assert s.pop() == m and _snapshot(s) == before


test_fuzz_move_text, test_fuzz_move_text_slow = _twice(
    _check_move_text, st.sampled_from(GAME_SPECS), st.integers(0, 12), st.integers(0, 2 ** 16), st.data())


def _check_push(spec, plies, seed, move):
    s = _position(spec, plies, seed)
    before = _snapshot(s)
    legal = s.legal_moves() if s.result() is None else []
    try:
        s.push(move)
    except GameError:
        assert _snapshot(s) == before
        assert not any(type(x) is type(move) and x == move for x in legal)
        return
    assert s.pop() == move and _snapshot(s) == before


test_fuzz_push, test_fuzz_push_slow = _twice(
    _check_push, st.sampled_from(GAME_SPECS), st.integers(0, 12), st.integers(0, 2 ** 16),
    st.one_of(st.integers(-5, 70000), st.integers(), st.none(), st.booleans(), st.text(max_size=4),
              st.floats()))


# -- Gomoku stone lists (point text) --------------------------------------------------------
POINTS = [f"{c}{r}" for c in "abcdefghijklmno" for r in range(1, 16)]


def _check_points(black, white, rule):
    try:
        s = gameai.load_game(f"gomoku(rule={rule})", black=black, white=white)
    except GameError:
        return
    s.legal_moves()
    r = s.result()
    if r is not None:   # a finished position: the side that moved last won
        assert r.winner == 1 - s.to_move


point_list = st.one_of(
    st.lists(st.sampled_from(POINTS), max_size=14, unique=True).map(" ".join),
    mutated(st.lists(st.sampled_from(POINTS), max_size=6, unique=True).map(" ".join), MOVE_CHARS),
    st.text(MOVE_CHARS, max_size=20))
test_fuzz_points, test_fuzz_points_slow = _twice(
    _check_points, point_list, point_list, st.sampled_from(["freestyle", "standard", "renju"]))


# -- spec strings ---------------------------------------------------------------------------
VALUES = ["true", "false", "True", "maybe", "none", "0", "1", "-1", "2", "3", "15", "0.5", "1e6",
          "1e-9", "nan", "inf", "-0", "abc", "'x y'", '"1234"', "h8", "piece", "fromto", "renju",
          "gomoku.patterns", "xiangqi.pst", "١", "1_0", "9" * 40, "", "(", "a,b"]
REGISTRIES = {"game": GAMES, "searcher": SEARCHERS, "evaluator": EVALUATORS, "player": PLAYERS}
MAKERS = {"game": gameai.load_game, "searcher": gameai.make_searcher,
          "evaluator": gameai.make_evaluator, "player": gameai.make_player}


@st.composite
def specs(draw):
    kind = draw(st.sampled_from(sorted(REGISTRIES)))
    reg = REGISTRIES[kind]
    names = [n for n in reg.names() if n != "engine"]   # never start programs from fuzz
    name = draw(st.sampled_from(names))
    keys = [k for k in reg.annotations(name) if k not in ("**", "tt_size")] + ["nosuch"]
    params = draw(st.dictionaries(st.sampled_from(keys), st.sampled_from(VALUES), max_size=3))
    text = name + ("(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")" if params else "")
    return kind, draw(st.one_of(st.just(text), mutated(st.just(text), "(),=' \"x1" + TRICKY)))


def _check_spec(kind_spec):
    kind, spec = kind_spec
    try:
        MAKERS[kind](spec)
    except GameError:
        pass


test_fuzz_spec, test_fuzz_spec_slow = _twice(_check_spec, specs())


def _check_raw_spec(text):
    for make in MAKERS.values():
        try:
            make(text)
        except GameError:
            pass


test_fuzz_raw_spec, test_fuzz_raw_spec_slow = _twice(
    _check_raw_spec, st.text("abcdefghijklmnopqrstuvwxyz(),='\" 0123456789." + TRICKY, max_size=30))


# -- our engine servers' protocol lines (parsing only; the server's robustness is tested
#    with the servers themselves) -------------------------------------------------------------
GO_WORDS = ["depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate",
            "infinite", "ponder", "time", "increment", "searchmoves", "h2e2", "0", "1", "-5",
            "100", "1e3", "nan", "99999999999999999999", "abc", "٨"]


def _check_go(protocol, words):
    from gameai.engine.uci import UciServer
    server = UciServer("xiangqi", "random", protocol=protocol, out=io.StringIO())
    try:
        req = server.parse_go(words)
    except ValueError:   # GameError and the documented ValueError naming the bad value
        return
    assert req.depth is None or req.depth >= 1
    assert req.nodes is None or req.nodes >= 1


test_fuzz_go, test_fuzz_go_slow = _twice(
    _check_go, st.sampled_from(["uci", "ucci"]), st.lists(st.sampled_from(GO_WORDS), max_size=8))


def _check_position(protocol, words):
    from gameai.engine.uci import UciServer
    server = UciServer("xiangqi", "random", protocol=protocol, out=io.StringIO())
    before = server.state.fen()
    try:
        server.dispatch("position " + " ".join(words))
    except GameError:
        assert server.state.fen() == before
        return
    server.state.legal_moves()


POSITION_WORDS = ["startpos", "fen", "moves", "h2e2", "h7e7", "h2e2", "b0c2", "h3e3", "h9g7", "w",
                  "b", "-", "0", "1", START.split()[0], "9/9", "²", "h٢e٢", "e3e4", "h2h9"]
test_fuzz_position, test_fuzz_position_slow = _twice(
    _check_position, st.sampled_from(["uci", "ucci"]), st.lists(st.sampled_from(POSITION_WORDS), max_size=8))


# -- tournament folders: damage one file, resume, lose nothing --------------------------------
FOLDER_FILES = ["journal.jsonl", "games.parquet", "moves.parquet", "manifest.json",
                "standings.csv"]
TABLES = ("games.parquet", "moves.parquet")


def _folder_cfg():
    from gameai.tournament.runner import TournamentConfig
    return TournamentConfig(game="tictactoe", players=["alphabeta(depth=1)", "random"], games=4,
                            seed=5, opening_plies=1)


def _resume(out):
    from gameai.tournament.runner import run_tournament
    return run_tournament(_folder_cfg(), out, jobs=1, progress=False, log=None)


def _tables(out):
    """Game rows and each game's move rows, from the parquet tables, as comparable text."""
    import json

    import pyarrow.parquet as pq
    games = {g["game_id"]: json.dumps(g, sort_keys=True)
             for g in pq.read_table(out / "games.parquet").to_pylist()}
    moves = {}
    for m in pq.read_table(out / "moves.parquet").to_pylist():
        moves.setdefault(m["game_id"], []).append(json.dumps(m, sort_keys=True))
    return games, moves


@functools.cache
def _played_folders():
    """One small tournament, played once: a finished folder, and a copy whose parquet
    tables lag behind its journal (the state of a run killed between table writes)."""
    import pyarrow.parquet as pq
    root = Path(tempfile.mkdtemp(prefix="gameai-fuzz-"))
    atexit.register(shutil.rmtree, root, True)
    done = root / "done"
    _resume(done)
    lagging = root / "lagging"
    shutil.copytree(done, lagging)
    for name in TABLES:
        t = pq.read_table(lagging / name)
        pq.write_table(t.filter(t.column("game_id").to_numpy() < 2), lagging / name)
    return {"done": done, "lagging": lagging}, _tables(done)


def _snapshot_files(out):
    return {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.name != ".lock"}


def _damage(path, op, pos, byte):
    if op == "delete":
        path.unlink()
        return
    data = path.read_bytes()
    i = pos % (len(data) + 1)
    path.write_bytes({"truncate": data[:i], "insert": data[:i] + bytes([byte]) + data[i:],
                      "edit": data[:i] + bytes([byte]) + data[i + 1:]}[op])


def _check_folder(state, name, op, pos, byte):
    from gameai.errors import RecordError
    folders, (orig_games, orig_moves) = _played_folders()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "t"
        shutil.copytree(folders[state], out)
        journal_before = (out / "journal.jsonl").read_bytes()
        in_tables = set(_tables(out)[0])
        _damage(out / name, op, pos, byte)
        before = _snapshot_files(out)
        try:
            r = _resume(out)
        except RecordError:
            assert _snapshot_files(out) == before      # refused: not a byte changed
            return
        # accepted: every game still recorded intact somewhere must come back unchanged
        # (not replayed: its wall-clock time would differ); the rest may be played again
        journal = b"\n" + before.get(Path("journal.jsonl"), b"")
        lines = {json.loads(x)["game"]["game_id"]: x for x in journal_before.splitlines()}
        intact = {gid for gid, line in lines.items() if b"\n" + line + b"\n" in journal}
        if name not in TABLES:
            intact |= in_tables
        games, moves = _tables(out)
        assert sorted(games) == sorted(orig_games) and r.played + r.skipped == len(orig_games)
        for gid in intact:
            assert games[gid] == orig_games[gid], f"game {gid} changed"
            assert moves.get(gid) == orig_moves.get(gid), f"moves of game {gid} changed"
        again = _resume(out)
        assert again.played == 0 and _tables(out) == (games, moves)


test_fuzz_tournament_folder, test_fuzz_tournament_folder_slow = _twice(
    _check_folder, st.sampled_from(["done", "lagging"]), st.sampled_from(FOLDER_FILES),
    st.sampled_from(["truncate", "edit", "insert", "delete"]), st.integers(0, 10 ** 6),
    st.integers(0, 255))
