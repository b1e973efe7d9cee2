"""Forgetting in ``memory="decay"``: reproducible per-turn draws from a seeded hash.

At set-up a chance node draws ``seed`` (``0 .. DECAY_SEEDS - 1``) with the env's generator.
At the start of turn ``t`` seat ``p`` forgets slot ``s`` when
``u(seed, t, p, s) < forget_prob``, where ``u`` is a SplitMix64 hash of the four numbers
mapped to ``[0, 1)``. The same seed therefore gives the same forgetting, and a
determinisation (``resample``) simply draws a fresh seed.
"""

from __future__ import annotations

import numpy as np

from moon_envs.star_master.config import NUM_SLOTS

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def _mix(x: np.ndarray) -> np.ndarray:
    x = x + _GOLDEN
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


def forget_mask(
    seed: int, turn: int, num_players: int, prob: float, slots: int = NUM_SLOTS
) -> np.ndarray:
    """Bool array ``(num_players, slots)``: the slots each seat forgets at the start of
    ``turn`` (``slots``: the colour count, 9 by default)."""
    if prob <= 0.0:
        return np.zeros((num_players, slots), dtype=bool)
    cells = np.arange(num_players * slots, dtype=np.uint64)
    with np.errstate(over="ignore"):
        key = _mix(np.uint64(seed) * np.uint64(1_000_003) + np.uint64(turn)) ^ cells
        u = (_mix(key) >> np.uint64(11)).astype(np.float64) / float(1 << 53)
    return (u < prob).reshape(num_players, slots)
