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


SMALL = {  # every env of the collection, with parameters that keep its games short
    "jupiter_v0": {},
    "moonstar_v1": {"num_players": 3, "max_rounds": 1},
    "moon_harvesters_v0": {"rows": 6, "cols": 6, "pieces_per_kind": 2, "num_deposits": 10},
    "star_master_v0": {"max_turns": 20},
    "moonwakers_v1": {"max_rounds": 2},
}


def drawn(frame: np.ndarray, text: str, color: tuple[int, int, int], scale: int = 2) -> bool:
    """Whether ``text`` is drawn somewhere in ``frame`` with ``draw.label`` in ``color``:
    every pixel of its glyphs exactly that colour, and no other pixel of its box (so a
    patch of that colour is not mistaken for text)."""
    from moon_envs.core import draw

    probe = draw.canvas(5 * scale, draw.label_width(text, scale), (0, 0, 0))
    draw.label(probe, 0, 0, text, (255, 255, 255), scale)
    ink = probe[:, :, 0] > 0
    same = (frame == np.array(color, dtype=np.uint8)).all(axis=2)
    h, w = same.shape
    ph, pw = probe.shape[:2]
    if h < ph or w < pw:
        return False
    hit = np.ones((h - ph + 1, w - pw + 1), dtype=bool)
    for y, x in np.argwhere(np.ones_like(ink)).tolist():
        window = same[y : y + h - ph + 1, x : x + w - pw + 1]
        hit &= window if ink[y, x] else ~window
        if not hit.any():
            return False
    return True
