"""Positions for the human-play tests, reached by seeded random play."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import moon_envs


def play_until(env_id: str, stop: Callable[[Any], bool], seed: int = 0, **params: Any) -> Any:
    """The first position of a seeded random game where ``stop(state)`` holds."""
    env = moon_envs.make(env_id, **params)
    env.reset(seed=seed)
    state = env.game_state
    rng = np.random.default_rng(seed)
    for _ in range(5000):
        if stop(state):
            return state
        if state.is_terminal():
            break
        if state.current_player() == -1:
            outcomes = state.chance_outcomes()
            action = outcomes[rng.integers(len(outcomes))][0]
        else:
            legal = np.flatnonzero(state.legal_actions_mask())
            action = legal[rng.integers(len(legal))]
        state.apply_action(int(action))
    raise AssertionError(f"{env_id}: no position met the condition")


def legal(state: Any) -> list[int]:
    return [int(a) for a in np.flatnonzero(state.legal_actions_mask())]
