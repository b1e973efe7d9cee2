"""Validation of Moon Harvesters positions rebuilt from untrusted snapshots
(``State.validate``)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from moon_envs import ConfigError
from moon_envs.moon_harvesters.rules import HarvestersGame
from tests.moon_harvesters.test_rules import find_action
from tests.moon_harvesters.test_rules import setup as run_auction

GAME = HarvestersGame(num_players=2)


def snapshot() -> dict:
    """2 players: player_0 took a crater (on B2) and L, player_1 took X; player_1 has
    placed an X on two deposits and is placing its deposits."""
    s = run_auction(GAME, kinds=[0, 1], crater_takers=[0], crater_cells=[13])
    s.apply_action(GAME.deposit_action(61))
    s.apply_action(GAME.deposit_action(73))
    s.apply_action(find_action(s, 1, {61, 72, 73, 74, 85}))
    assert s.phase == "deposits" and int(s.collected[1]) == 2
    return json.loads(json.dumps(s.to_dict()))


def array(values, dtype: str) -> dict:
    return {"__ndarray__": values, "dtype": dtype, "shape": [len(values)]}


def test_snapshots_of_random_games_validate():
    for params in ({"num_players": 2}, {"num_players": 4, "craters_block": False}):
        game = HarvestersGame(**params)
        for seed in range(3):
            s = game.new_initial_state()
            rng = np.random.default_rng(seed)
            while not s.is_terminal():
                legal = np.flatnonzero(s.legal_actions_mask())
                s.apply_action(int(legal[rng.integers(legal.size)]))
                game.state_from_dict(json.loads(json.dumps(s.to_dict()))).validate()


def with_cell(values: dict, dtype: str, fill) -> dict:
    data = [fill] * GAME.num_cells
    for cell, value in values.items():
        data[cell] = value
    return array(data, dtype)


CORRUPTIONS = [
    ("phase", "bidding", r"phase='bidding' is not allowed; allowed values: \['auction'"),
    ("phase", "place", "deposits_due=2 with phase='place'"),
    ("player", 2, r"player=2 is out of range; allowed: 0..1"),
    ("supply", 81, r"supply=81 is out of range; allowed: 0..80"),
    ("supply", 70, "they must make num_deposits=80"),
    ("deposits_due", 3, r"deposits_due=3 is out of range; allowed: 0..2"),
    ("crater_pool", 3, "they must make num_craters=3"),
    ("kind_of", array([1, 1], "int8"), "each kind is taken by one seat at most"),
    ("kind_of", array([0, 2], "int8"), r"kind_of\[1\]=2 is out of range; allowed: -1..1"),
    ("on_offer", array([True, False], "bool"), "on_offer=.* disagrees with kind_of"),
    ("owner", array([0] * 143, "int8"), r"owner must have shape \(144,\)"),
    ("owner", with_cell({0: 1}, "int8", -1), "piece and owner disagree"),
    ("crater", with_cell({}, "bool", False), "they must make num_craters=3"),
    ("deposit", with_cell({}, "bool", True), "must make num_deposits"),
    ("placed", array([0, 2], "int16"), "harvesters of 5 cells make 10"),
    ("placed", array([0, 11], "int16"), r"placed\[1\]=11 is out of range; allowed: 0..10"),
    ("collected", array([0, 2], "int32"), r"state.collected must be ndarray\[int64"),
    ("fits", array([True], "bool"), "fits must have shape"),
    ("feat", array([0.0] * 595, "float32"), "feat .* disagrees with the position"),
    ("last_action", 5, r"state.last_action must be str"),
    ("passes", -1, r"passes=-1 is out of range"),
]


@pytest.mark.parametrize("field,value,message", CORRUPTIONS)
def test_a_corrupt_field_is_named_with_the_allowed_values(field, value, message):
    data = snapshot()
    GAME.state_from_dict(data).validate()  # the intact snapshot is fine
    data["state"][field] = value
    with pytest.raises(ConfigError, match=message):
        GAME.state_from_dict(data).validate()


def test_flags_that_disagree_with_the_board_are_refused():
    data = snapshot()
    fits = data["state"]["fits"]["__ndarray__"]
    fits[int(GAME.fp.cover[13][0])] = True  # a placement over the crater on B2
    with pytest.raises(ConfigError, match="fits disagrees"):
        GAME.state_from_dict(data).validate()


def test_a_player_who_cannot_place_may_not_be_to_move():
    s = run_auction(HarvestersGame(num_players=2, pieces_per_kind=1), kinds=[0, 1])
    s.apply_action(GAME.deposit_action(0))
    s.apply_action(GAME.deposit_action(1))
    s.placed[1] = 1  # player_1, to move, has used its only harvester (cells not covered)
    with pytest.raises(ConfigError, match="harvesters of 5 cells make 5"):
        s.validate()
    s.placed[1] = 0
    s.kind_of[1] = -1
    s.on_offer[1] = True
    with pytest.raises(ConfigError, match="phase='place' with player=1"):
        s.validate()


def test_clone_equals_the_original_and_shares_no_position_array():
    state = GAME.state_from_dict(snapshot())
    state.legal_actions_mask()  # fills the mask cache, which clones may share
    copy = state.clone()
    assert copy == state and copy.to_dict() == state.to_dict()
    for name, value in vars(state).items():
        if isinstance(value, np.ndarray) and name != "_c_mask":
            assert not np.shares_memory(value, getattr(copy, name)), name
    copy.apply_action(int(np.flatnonzero(copy.legal_actions_mask())[0]))
    assert copy != state
    fresh = GAME.state_from_dict(snapshot())
    assert np.array_equal(state.legal_actions_mask(), fresh._build_mask())


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda st: st.update(colour=1), r"unknown field '?colour'?.*allowed fields"),
        (lambda st: st.pop("fits"), r"missing field\(s\) \['fits'\]"),
        (lambda st: st.update(game=0), r"unknown field 'game'|game must be a HarvestersGame"),
    ],
)
def test_unknown_missing_and_foreign_fields_are_refused(change, message):
    data = snapshot()
    change(data["state"])
    with pytest.raises(ConfigError, match=message):
        GAME.state_from_dict(data).validate()
