"""`gameai bench` runs its experiment modules from the installed package, not the checkout."""
import subprocess
import sys


def test_bench_xiangqi_movegen_imports_from_the_installed_package(tmp_path):
    # outside the repository the top-level name `experiments` does not exist, only
    # gameai.experiments; the move-generation rows load the suite from there
    code = ("from gameai.experiments.bench_xiangqi import _movegen_rows\n"
            "rows = _movegen_rows(False)\n"
            "print(sorted(rows), [run() for run, _ in rows.values()])\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "gameai legal_moves" in proc.stdout
