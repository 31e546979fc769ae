"""Fixtures shared by several test modules."""
import pytest


@pytest.fixture
def no_numba(monkeypatch):
    """The compiled backend as on a machine where numba cannot be imported (the
    fallback to the Python backend warns once per process: the flag is reset)."""
    from gameai.compiled import jit
    monkeypatch.setattr(jit, "AVAILABLE", False)
    monkeypatch.setattr(jit, "REASON", "numba cannot be imported (test)")
    monkeypatch.setattr(jit, "_warned", False)
