"""Game records: Xiangqi PGN (ICCS) and Gomoku/Renju PSQ with the rule, read and written."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import gameai
from gameai.errors import RecordError
from gameai.games.gomoku_records import read_psq, write_psq
from gameai.records import read_pgn, read_pgn_games, read_record, write_pgn, write_record

DATA = Path(__file__).parents[1] / "data"
# published with the game in the xiangqi.js README (see tests/data/README.md)
PUBLISHED_FINAL_FEN = "3akc3/9/4ba3/r7p/P1bC5/9/8P/3AB1N2/4K1nR1/2B6 b - - 16 63"


def test_published_pgn_replays_to_the_published_position():
    game = read_pgn((DATA / "xiangqi_1982_liu_dahua_yang_guanlin.pgn").read_text(encoding="utf-8"))
    assert game.tags["Red"] == "柳大华" and game.tags["Format"] == "ICCS"
    assert game.result == "1/2-1/2"
    assert len(game.moves) == 125
    assert game.state().fen() == PUBLISHED_FINAL_FEN


def test_published_pgn_round_trips():
    text = (DATA / "xiangqi_1982_liu_dahua_yang_guanlin.pgn").read_text(encoding="utf-8")
    game = read_pgn(text)
    again = read_pgn(write_pgn(game.state(), game.tags))
    assert again.moves == game.moves
    assert again.result == "1/2-1/2"
    assert {k: again.tags[k] for k in ("Event", "Date", "Red", "Black")} == \
        {k: game.tags[k] for k in ("Event", "Date", "Red", "Black")}


def _random_game(seed: int, plies: int, fen: str | None = None):
    rng = random.Random(seed)
    s = gameai.load_game("xiangqi", **({"fen": fen} if fen else {}))
    for _ in range(plies):
        if s.result() is not None:
            break
        s.push(rng.choice(s.legal_moves()))
    return s


@pytest.mark.parametrize("seed", range(4))
def test_random_games_round_trip_and_cchess_reads_them(seed, tmp_path):
    fen = None if seed % 2 == 0 else "4k4/9/9/9/9/9/9/9/4p4/3K1R3 b - - 0 1"  # Black moves first
    s = _random_game(seed, 60, fen)
    text = write_pgn(s, {"Red": "a", "Black": "b"})
    game = read_pgn(text)
    assert game.state().fen() == s.fen()
    assert ("FEN" in game.tags) == (fen is not None)
    # an independent reader (cchess) replays the same moves from the same start
    from cchess.read_pgn import read_from_pgn
    path = tmp_path / "g.pgn"
    path.write_text(text, encoding="utf-8")
    theirs = read_from_pgn(str(path))
    assert theirs.dump_iccs_moves() == [game.moves]


def test_pgn_reader_skips_comments_variations_and_takes_both_spellings():
    text = ('[Game "Chinese Chess"]\n[Format "ICCS"]\n\n'
            '1. H2-E2 {central cannon} h9g7 (1... b9c7 2. h0g2) 2. h0-g2 $1 I9-H9 1-0\n\n'
            '[Event "second"]\n\n1. c3c4 *\n')
    games = read_pgn_games(text)
    assert [g.moves for g in games] == [["h2e2", "h9g7", "h0g2", "i9h9"], ["c3c4"]]
    assert [g.result for g in games] == ["1-0", "*"]


@pytest.mark.parametrize("text, words", [
    ('[Format "Chinese"]\n\n1. 炮二平五 马8进7 *', "Format"),
    ("1. H2-E2 H2-E3 *", "move 1... h2e3"),
    ("1. Z9-E2 *", "not an ICCS move"),
    ("", "no game"),
])
def test_bad_pgn_is_refused_with_the_reason(text, words):
    with pytest.raises(RecordError, match=words):
        read_pgn(text).state()


def test_psq_records_the_rule_and_reads_it_back(tmp_path):
    g = gameai.load_game("renju", moves="h8 h9 i8 i9 j8")
    text = write_psq(g, names=("alphabeta", "you"))
    assert "rule=renju" in text and "alphabeta" in text
    again, _ = read_psq(text)
    assert again.rule == "renju" and again.placed == g.placed
    with pytest.raises(RecordError, match="rule=renju"):
        read_psq(text, rule="freestyle")
    path = write_record(g, tmp_path / "game")
    assert path.suffix == ".psq"
    assert read_record(path).rule == "renju"


def test_write_record_picks_pgn_for_xiangqi(tmp_path):
    s = _random_game(7, 10)
    path = write_record(s, tmp_path / "game", {"Red": "me"})
    assert path.suffix == ".pgn"
    assert read_record(path).fen() == s.fen()
    (tmp_path / "x.txt").write_text("h8")
    with pytest.raises(RecordError, match="suffix"):
        read_record(tmp_path / "x.txt")


@pytest.mark.parametrize("game, players, suffix", [
    ("xiangqi", ["alphabeta(depth=1)", "random"], ".pgn"),
    ("renju", ["pointweight", "random"], ".psq"),
])
def test_tournament_writes_every_game_as_a_record(game, players, suffix, tmp_path):
    import pandas as pd

    from gameai.tournament.runner import TournamentConfig, run_tournament
    cfg = TournamentConfig(game=game, players=players, games=2, seed=3, max_plies=30)
    run_tournament(cfg, tmp_path, jobs=1, progress=False, log=None)
    games = pd.read_parquet(tmp_path / "games.parquet")
    moves = pd.read_parquet(tmp_path / "moves.parquet")
    files = sorted((tmp_path / "games").iterdir())
    assert [f.suffix for f in files] == [suffix] * len(games)
    for f, (_, g) in zip(files, games.sort_values("game_id").iterrows()):
        state = read_record(f)
        played = moves[moves.game_id == g.game_id].sort_values("ply").move.tolist()
        want = g.opening.split() + played
        assert [state.move_str(m) for m in (state.move_stack if suffix == ".pgn" else state.placed)] == want
        if suffix == ".psq":
            assert state.rule == "renju"
        else:
            assert read_pgn(f.read_text(encoding="utf-8")).result == g.result


def test_per_move_records_carry_the_pv_as_move_text(tmp_path):
    import pandas as pd

    import gameai
    from gameai.tournament.runner import TournamentConfig, run_tournament
    run_tournament(TournamentConfig(game="xiangqi", players=["alphabeta(depth=2)", "random"], games=2,
                                    seed=5, max_plies=12), tmp_path, jobs=1, progress=False, log=None)
    games = pd.read_parquet(tmp_path / "games.parquet").set_index("game_id")
    moves = pd.read_parquet(tmp_path / "moves.parquet")
    searched = moves[moves.player == "alphabeta(depth=2)"]
    assert len(searched) and searched.pv.notna().all()
    assert moves[moves.player == "random"].pv.isna().all()
    for _, m in searched.iterrows():  # the PV starts with the move and is legal from the position
        s = gameai.load_game("xiangqi", moves=games.loc[m.game_id].opening)
        for _, prev in moves[(moves.game_id == m.game_id) & (moves.ply < m.ply)].sort_values("ply").iterrows():
            s.push(s.parse_move(prev.move))
        words = m.pv.split()
        assert words[0] == m.move
        for w in words:
            s.push(s.parse_move(w))


def test_contract_names():
    import gameai
    s = gameai.load_game("xiangqi", moves="h2e2 h9g7")
    assert gameai.records.read_pgn(gameai.records.write_pgn(s)).moves == ["h2e2", "h9g7"]


def test_write_record_refuses_another_form_and_an_unwritable_path(tmp_path):
    x, g = _random_game(7, 6), gameai.load_game("renju", moves="h8 h9 i8")
    for state, name, why in ((x, "g.psq", "recorded as .pgn, not .psq"),
                             (x, "x.txt", "recorded as .pgn, not .txt"),
                             (g, "g.pgn", "recorded as .psq, not .pgn"),
                             (x, "no/such/folder/g.pgn", "cannot write"),
                             (x, "bad\0name.pgn", "cannot write")):
        with pytest.raises(RecordError, match=why):
            write_record(state, tmp_path / name)
    with pytest.raises(RecordError, match="file name"):
        write_record(x, "/")
    assert list(tmp_path.iterdir()) == []
    assert write_record(g, tmp_path / "G.PSQ").read_text(encoding="utf-8")
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "bad\0name.pgn")
