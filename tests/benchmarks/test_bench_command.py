"""`gameai bench` runs the speed benchmarks of gameai.benchmarks (the repository's
benchmarks/ folder), from the installed package, not the checkout."""
import subprocess
import sys

import pytest

from gameai.cli import main
from gameai.commands.bench import _names, benchmarks_package

BENCHES = ["api", "compiled", "engines", "gomoku", "limits", "search", "threats", "tournament", "tree",
           "xiangqi"]


def test_bench_lists_the_speed_benchmarks_of_the_benchmarks_package():
    assert benchmarks_package().__name__ == "gameai.benchmarks"
    assert _names() == BENCHES


def test_bench_refuses_a_name_it_does_not_have(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["bench", "threat_strength"])
    assert exc.value.code == 2
    assert "invalid choice: 'threat_strength'" in capsys.readouterr().err


def test_bench_xiangqi_movegen_imports_from_the_installed_package(tmp_path):
    # outside the repository the top-level names `experiments` and `benchmarks` do not
    # exist, only gameai.experiments and gameai.benchmarks; the move-generation rows load
    # the experiments' suite from there
    code = ("from gameai.benchmarks.bench_xiangqi import _movegen_rows\n"
            "rows = _movegen_rows(False)\n"
            "print(sorted(rows), [run() for run, _ in rows.values()])\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "gameai legal_moves" in proc.stdout


def test_bench_threats_says_when_no_puzzle_is_short_enough(capsys):
    assert main(["bench", "threats", "--", "--only", "puzzles", "--max-plies", "5"]) == 2
    assert "--max-plies 5: no puzzle is that short (the shortest has 7 plies)" in capsys.readouterr().err



def test_bench_xiangqi_times_fairy_stockfishs_own_perft_and_checks_its_count():
    """The C++ peer of the perft rows is Fairy-Stockfish's ``go perft``: from the start and
    from a FEN its counts are ours (one engine process answers every run)."""
    import gameai
    from gameai.benchmarks.bench_xiangqi import _fsf_runner
    from gameai.games.xiangqi import START_FEN
    run = _fsf_runner(START_FEN, 3)
    if isinstance(run, str):
        pytest.skip(f"Fairy-Stockfish: {run}")
    assert run() == run() == 79666
    endgame = "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1"
    s = gameai.load_game("xiangqi", fen=endgame)
    counted = _fsf_runner(endgame, 3)
    assert not isinstance(counted, str) and counted() == gameai.perft(s, 3, bulk=True)
