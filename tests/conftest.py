"""Fixtures shared by several test modules."""
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest


@pytest.fixture
def no_numba(monkeypatch):
    """The compiled backend as on a machine where numba cannot be imported (the
    fallback to the Python backend warns once per process: the flag is reset)."""
    from gameai.compiled import jit
    monkeypatch.setattr(jit, "AVAILABLE", False)
    monkeypatch.setattr(jit, "REASON", "numba cannot be imported (test)")
    monkeypatch.setattr(jit, "_warned", False)


ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The wheel `pip install .` would install, built from a clean copy of the sources
    pyproject.toml names (an in-tree build/ folder from an earlier layout would leak into
    it): the gameai package and every folder its package-dir table maps."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    mapped = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    for name in ("gameai", *mapped.values()):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp / "dist"),
                           str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, f"pip wheel failed:\n{proc.stdout}\n{proc.stderr}"
    return next((tmp / "dist").glob("gameai-*.whl"))


@pytest.fixture(scope="session")
def installed(wheel, tmp_path_factory) -> Path:
    """The wheel installed into a folder of its own (``--target``): its ``bin/gameai`` is the
    installed command; run it with ``PYTHONPATH`` set to the folder."""
    site = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True)
    return site


# -- a cold kernel cache is said, not a silent first few minutes ------------------------------
def pytest_configure(config):
    """Say on the terminal when the first numba kernel of the run starts compiling (an
    empty or outdated disk cache: minutes in which the dots stop), and at the end how
    many were compiled; from a warm cache nothing is said."""
    from gameai.compiled import AVAILABLE
    if not AVAILABLE:
        return
    from gameai.compiled.jit import cache_dir
    from gameai.prepare import counting_compiles

    def first() -> None:
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        capture = config.pluginmanager.get_plugin("capturemanager")
        if reporter is None:
            return
        import contextlib
        with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
            reporter.write_line(f"gameai: compiling numba kernels into {cache_dir().rstrip('/')} "
                                "(a cold cache: the next tests wait minutes for it, once; "
                                "'gameai prepare' fills it ahead)", yellow=True)
    config._gameai_compiles = counting_compiles(on_first=first)
    config._gameai_compiled = config._gameai_compiles.__enter__()


def pytest_terminal_summary(terminalreporter, config):
    box = getattr(config, "_gameai_compiled", None)
    if box and box[0]:
        terminalreporter.write_line(f"gameai: {box[0]} numba kernels compiled in this process "
                                    "(the disk cache keeps them for the next run)")


def pytest_unconfigure(config):
    cm = getattr(config, "_gameai_compiles", None)
    if cm is not None:
        cm.__exit__(None, None, None)
