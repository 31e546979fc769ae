"""gameai bench tree: nodes to each depth, the branching factor and the move agreement,
ours and (when installed) Fairy-Stockfish's, from the committed positions."""

import pytest

import gameai
from gameai.benchmarks import bench_tree
from gameai.cli import main


def test_the_positions_are_legal_and_their_reference_moves_too():
    for name, fen, ref in bench_tree.POSITIONS:
        s = gameai.load_game("xiangqi", fen=fen)
        assert s.result() is None, name
        assert s.parse_move(ref) in s.legal_moves(), name


def test_uci_squares_become_iccs():
    assert bench_tree.uci_to_iccs("h3e3") == "h2e2"
    assert bench_tree.uci_to_iccs("a10a9") == "a9a8"
    with pytest.raises(ValueError, match="not a UCI Xiangqi move"):
        bench_tree.uci_to_iccs("h8")


def test_ebf_is_the_geometric_growth_per_depth():
    assert bench_tree.ebf({4: 100.0, 6: 400.0}) == pytest.approx(2.0)


def test_the_bench_prints_each_depth_and_the_counters(capsys):
    spec = "negascout(tt=true,history=true,quiescence=true,mvv_lva=true,see=true,backend=python)"
    assert main(["bench", "tree", "--", "--positions", "2", "--depths", "1-3", "--no-fsf",
                 "--spec", spec]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] in (["1"], ["2"], ["3"])]
    assert [r[0] for r in rows] == ["1", "2", "3"]
    nodes = [float(r[1].replace(",", "")) for r in rows]
    assert nodes[0] < nodes[1] < nodes[2]
    assert "EBF" in out and "quiescence" in out and "null move" in out


@pytest.mark.skipif(bench_tree.find_fsf() is None, reason="Fairy-Stockfish is not installed")
def test_fairy_stockfish_reports_nodes_for_every_depth():
    nodes, moves = bench_tree.fsf(bench_tree.find_fsf(), 4, bench_tree.POSITIONS[:2])
    assert sorted(nodes) == [1, 2, 3, 4] and all(len(v) == 2 for v in nodes.values())
    s = gameai.load_game("xiangqi", fen=bench_tree.POSITIONS[0][1])
    assert s.parse_move(moves[4][0]) in s.legal_moves()


def test_bad_depths_are_refused(capsys):
    with pytest.raises(SystemExit):
        main(["bench", "tree", "--", "--depths", "5-3"])
    assert "depths must be LO-HI" in capsys.readouterr().err
