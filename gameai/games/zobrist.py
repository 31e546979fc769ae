"""Reproducible 64-bit Zobrist keys (same seed, same keys on every machine and run)."""
from __future__ import annotations

import random


def zobrist_keys(count: int, seed: int) -> list[int]:
    """``count`` random 64-bit ints from a private, seeded generator."""
    rng = random.Random(seed)
    return [rng.getrandbits(64) for _ in range(count)]
