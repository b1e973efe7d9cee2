"""The full-information vector behind PettingZoo's ``env.state()`` (for centralised
critics): every seat's observation, where every card is, and who is to move."""

from __future__ import annotations

import numpy as np

from moon_envs.moonwakers.config import MAX_PLAYERS, TABLE_SLOTS

LOCATIONS = ("pile", "discard", "table", "hand", "mapped", "limbo", "pile_under")


def global_state(s) -> np.ndarray:
    """Every seat's observation, then each card's location, owner or slot, and every
    explored face, then a one-hot of the seat to move (plus 'game over')."""
    n = s.n
    nt = s.cards.num_terrain
    parts = [s._observation(p) for p in range(n)]
    where = np.zeros((nt, len(LOCATIONS) + TABLE_SLOTS), dtype=np.float32)
    owner = np.zeros((nt, MAX_PLAYERS), dtype=np.float32)
    for c in s.pile:
        where[c, 0] = 1
    for c in s.discard:
        where[c, 1] = 1
    for k, c in enumerate(s.table):
        if c >= 0:
            where[c, 2] = 1
            where[c, len(LOCATIONS) + k] = 1
    for x in range(n):
        for c in s.hand[x]:
            where[c, 3] = 1
            owner[c, x] = 1
        for c in s.mapped[x]:
            where[c, 4] = 1
            owner[c, x] = 1
    for c in s.limbo:
        where[c, 5] = 1
    for c in s.pile_under:
        where[c, 6] = 1
    mover = np.zeros(n + 1, dtype=np.float32)
    p = s.current_player()
    if p >= 0:
        mover[p] = 1
    elif p == -2:
        mover[n] = 1
    return np.concatenate([*parts, where.ravel(), owner.ravel(), mover])


def global_state_size(n: int, obs_size: int, num_terrain: int) -> int:
    return n * obs_size + num_terrain * (len(LOCATIONS) + TABLE_SLOTS + MAX_PLAYERS) + n + 1
