"""Speed benchmarks, run by ``gameai bench NAME``: each ``bench_NAME`` module has a
``main(argv)`` that prints rates and ratios (never asserted: the machine is shared).

This folder installs as ``gameai.benchmarks`` (pyproject.toml maps it), so the command
works from an installed copy; in a source checkout the modules also run as
``python -m benchmarks.bench_NAME``. The claim experiments are in ``experiments/``.
"""
