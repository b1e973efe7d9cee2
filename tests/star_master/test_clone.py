"""Star Master's field-by-field clone: the same position, no array shared."""

from __future__ import annotations

import numpy as np

from moon_envs.star_master.rules import StarMasterGame
from tests.helpers import step_state


def test_clone_equals_the_original_and_shares_no_array():
    state = StarMasterGame(num_players=3, memory="perfect").new_initial_state()
    play = np.random.default_rng(3)
    for _ in range(40):
        step_state(state, play)
    copy = state.clone()
    assert copy == state and copy.to_dict() == state.to_dict()
    for name, value in vars(state).items():
        if isinstance(value, np.ndarray):
            assert not np.shares_memory(value, getattr(copy, name)), name
    before = state.to_dict()
    while not copy.is_terminal():
        step_state(copy, play)
    assert state.to_dict() == before
