"""Star Master's array fields are flat Python arrays read as numpy views: the views write
the position, a clone copies every array, and what the rules build from the flat arrays
(masks, observations) equals the same thing computed with numpy from the views."""

from __future__ import annotations

from array import array

import numpy as np
import pytest

from moon_envs.star_master.phases import NAME
from moon_envs.star_master.position import StarMasterPosition
from moon_envs.star_master.rules import StarMasterGame
from moon_envs.star_master.views import _PHASE_SLOT
from tests.helpers import step_state

FIELDS = ["held", "in_window", "last_flip", "last_race", "layout", "pawns", "race_choice", "views"]
CONFIGS = [
    {"num_players": 2},
    {"num_players": 3, "memory": "perfect"},
    {"num_players": 4, "memory": "decay", "forget_prob": 0.3},
    {"num_players": 6, "num_colours": 6, "competition": True},
    {"num_players": 1, "solitaire": True},
]


def positions(params: dict, games: int = 3, seed: int = 0):
    """Every position of ``games`` random games of ``params``."""
    game = StarMasterGame(**params)
    rng = np.random.default_rng(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            yield state
            step_state(state, rng)
        yield state


def reference_observation(state, player: int) -> np.ndarray:
    """The observation computed with numpy from the fields' views (the layout of env.py)."""
    L = state.game.layout
    k, n = L.k, L.n
    o = np.zeros(L.size, dtype=np.float32)
    views = state.views[player]
    o[L.board + views.ravel()] = 1.0
    for seat in range(n):
        start = L.pawns + (seat - player) % n * k
        o[start : start + k] = state.pawns[seat]
    if state.white >= 0:
        o[L.white + min(state.white, k)] = 1.0
        o[L.black] = state.black_star
    if _PHASE_SLOT[state.phase] >= 0:
        o[L.phase + _PHASE_SLOT[state.phase]] = 1.0
    sought = state.target if state.target >= 0 else state.white
    if state.target >= 0:
        o[L.target + state.target] = 1.0
    if state.found_slot >= 0:
        o[L.found + state.found_slot] = 1.0
    if 0 <= sought < k:
        where = int(np.flatnonzero(state.layout == sought)[0])
        o[L.match + where] = float(views[0, where] >= 0 or views[2, where] >= 0)
    o[L.roller + (state.roller - player) % n] = 1.0
    o[L.turn] = state.turn / state.game.turn_cap
    return o


def test_every_array_field_is_a_python_array_that_its_numpy_view_writes():
    state = next(positions({"num_players": 3}))
    assert set(FIELDS) == set(StarMasterPosition._snapshot_names.values()) - {"_scores_before"}
    for name in FIELDS:
        store = getattr(state, "_" + name)
        assert isinstance(store, array), name
        view = getattr(state, name)
        assert isinstance(view, np.ndarray) and view.size == len(store), name
        view.reshape(-1)[0] = 1
        assert store[0] == 1, name


def test_a_clone_copies_every_array_field():
    game = StarMasterGame(num_players=3, memory="perfect")
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    for _ in range(60):
        step_state(state, rng)
    before = state.to_dict()
    copy = state.clone()
    for name in FIELDS:
        store = getattr(copy, "_" + name)
        assert store is not getattr(state, "_" + name), name
        for i in range(len(store)):
            store[i] = 1 - store[i]
    assert state.to_dict() == before


@pytest.mark.parametrize("params", CONFIGS, ids=lambda p: str(sorted(p.items())))
def test_observations_and_masks_equal_their_numpy_computation(params):
    seen_name = 0
    for state in positions(params):
        for p in range(state.game.num_players):
            obs = state.observation(p)
            assert obs.dtype == np.float32 and obs.flags.writeable
            np.testing.assert_array_equal(obs, reference_observation(state, p))
        if state.phase == NAME:
            seen_name += 1
            ids = state.game.actions
            expected = np.zeros(ids.num, dtype=np.int8)
            expected[ids.name0 : ids.name0 + ids.k] = 1 - state.pawns[state.mover]
            mask = state.legal_actions_mask()
            assert mask.dtype == np.int8 and mask.flags.writeable
            np.testing.assert_array_equal(mask, expected)
            legal = [a for a in range(ids.num) if state._is_legal(a)]
            assert legal == np.flatnonzero(expected).tolist()
    assert seen_name, "no naming phase was played"
