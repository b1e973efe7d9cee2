"""Validation of Jupiter positions rebuilt from untrusted snapshots (``State.validate``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from moon_envs import ConfigError
from moon_envs.jupiter.rules import JupiterGame
from tests.helpers import play_to_end, step_state


def snapshot(**params) -> dict:
    """A JSON snapshot of a 3-player game a few moves in, a die waiting to be placed."""
    game = JupiterGame(num_players=3, random_first_player=False, **params)
    state = game.new_initial_state()
    state.apply_action(game.probe_action(0))
    state.apply_action(game.roll_action)
    state.apply_action(4)  # a 5
    return json.loads(json.dumps(state.to_dict()))


def array(values, dtype: str) -> dict:
    return {"__ndarray__": values, "dtype": dtype, "shape": [len(values)]}


def rebuild(data: dict):
    return JupiterGame(num_players=3, random_first_player=False).state_from_dict(data)


def test_snapshots_of_random_games_validate():
    for players in (2, 3, 4):
        game = JupiterGame(num_players=players, black_moons=players == 3)
        for seed in range(10):
            state = game.new_initial_state()
            rng = np.random.default_rng(seed)
            while not state.is_terminal():
                step_state(state, rng)
                game.state_from_dict(json.loads(json.dumps(state.to_dict()))).validate()
    end = JupiterGame().new_initial_state()
    play_to_end(end, np.random.default_rng(0))
    end.validate()


CORRUPTIONS = [
    ("stage", "x", r"stage='x' is not allowed; allowed values: \['start', 'move'"),
    ("stage", "move", "rolled=5 with stage='move'"),
    ("player", 3, r"player=3 is out of range; allowed: 0..2"),
    ("player", "0", r"state.player must be int, got str"),
    ("rolled", 7, r"rolled=7 is out of range; allowed: 0..6"),
    ("dice_left", 6, "dice_left=6 with 0 die/dice on the board and 1 in hand"),
    ("dice_left", -1, r"dice_left=-1 is out of range; allowed: 0..6"),
    ("empty_cells", 18, "empty_cells=18 disagrees with cell"),
    ("cell", array([0] * 19, "int8"), r"cell must have shape \(20,\)"),
    ("cell", array([0] * 20, "float64"), r"state.cell must be ndarray\[int8"),
    ("cell", array([11] + [0] * 19, "int8"), r"cell\[0\]=11 is out of range; allowed: 0..9"),
    ("cell", array([8] + [0] * 19, "int8"), "probes_left"),
    ("probes_left", array([5, 6, 6, 6], "int16"), r"probes_left must have shape \(3,\)"),
    ("probes_left", array([6, 6, 6], "int16"), "together they must make num_probes=6"),
    ("probes_left", array([5, 6, 7], "int16"), r"probes_left\[2\]=7 is out of range"),
    ("points", array([0, -1, 0], "int64"), r"points\[1\]=-1 is out of range"),
    ("points", [0, 0, 0], r"state.points must be ndarray\[int64"),
    ("last_action", "hello", "last_action must be"),
    ("last_action", {"__tuple__": ["fly", 0, 0, -1]}, r"last_action\[0\]='fly'"),
    ("move_number", -2, "move_number=-2 is out of range"),
]


@pytest.mark.parametrize("field,value,message", CORRUPTIONS)
def test_a_corrupt_field_is_named_with_the_allowed_values(field, value, message):
    data = snapshot()
    rebuild(data).validate()  # the intact snapshot is fine
    data["state"][field] = value
    with pytest.raises(ConfigError, match=message):
        rebuild(data).validate()


def test_the_player_to_move_must_have_a_move():
    game = JupiterGame(num_players=2, random_first_player=False, num_probes=1, num_dice=1)
    state = game.new_initial_state()
    state.place(0, seat=0)
    state.place(1, face=3)
    state.probes_left[:] = [0, 1]
    state.dice_left = 0
    with pytest.raises(ConfigError, match="player=0 is to move with no probe and no die"):
        state.validate()


def test_a_full_board_must_be_over():
    game = JupiterGame(num_players=2, random_first_player=False, num_dice=10, num_probes=3)
    state = game.new_initial_state()
    state.cell[:] = 1  # sixteen dice showing 1
    state.empty_cells = 0
    state.dice_left = 0
    state.probes_left[:] = 3
    with pytest.raises(ConfigError, match="die/dice on the board"):
        state.validate()
    state.cell[:6] = [7, 7, 7, 8, 8, 8]
    state.probes_left[:] = 0
    with pytest.raises(ConfigError, match="the board is full, so stage must be 'over'"):
        state.validate()


def test_clone_equals_the_original_and_shares_no_array():
    game = JupiterGame(num_players=3)
    state = game.new_initial_state()
    play = np.random.default_rng(3)
    for _ in range(9):
        step_state(state, play)
    copy = state.clone()
    assert copy == state and copy.to_dict() == state.to_dict()
    for name, value in vars(state).items():
        if isinstance(value, np.ndarray):
            assert not np.shares_memory(value, getattr(copy, name)), name
    step_state(copy, play)
    assert copy != state


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda st: st.update(colour=1), r"unknown field '?colour'?.*allowed fields"),
        (lambda st: st.pop("points"), r"missing field\(s\) \['points'\]"),
        (lambda st: st.update(game="jupiter"), r"unknown field 'game'|game must be a JupiterGame"),
    ],
)
def test_unknown_missing_and_foreign_fields_are_refused(change, message):
    data = snapshot()
    change(data["state"])
    with pytest.raises(ConfigError, match=message):
        rebuild(data).validate()
