"""Star Master positions rebuilt from untrusted snapshots: bad fields are named."""

from __future__ import annotations

import copy

import pytest

from moon_envs import ConfigError
from moon_envs.star_master.rules import StarMasterGame
from tests.star_master.positions import roll, start


def _snapshot():
    state = start(num_players=3, memory="perfect")
    roll(state, 0, black_star=True)
    state.apply_action(4)  # player_0 grabs slot 4, sealed
    return state.game, state.to_dict()


def _array(data, name):
    return data["state"][name]["__ndarray__"]


EDITS = [
    (lambda d: _array(d, "layout").__setitem__(0, _array(d, "layout")[1]), "layout"),
    (lambda d: _array(d, "pawns")[0].__setitem__(0, 2), "pawns"),
    (lambda d: _array(d, "views")[1][2].__setitem__(0, 8), "memory"),
    (lambda d: _array(d, "views")[1][1].__setitem__(0, 1), "win_perm"),
    (lambda d: _array(d, "held").__setitem__(0, 3), "held"),
    (lambda d: d["state"].__setitem__("phase", 12), "phase"),
    (lambda d: d["state"].__setitem__("roller", 3), "roller"),
    (lambda d: d["state"].__setitem__("race_next", 0), "race"),
    (lambda d: d["state"].__setitem__("seed", 5), "seed"),
    (lambda d: d["state"].__setitem__("winners_list", [0]), "winners_list"),
]


@pytest.mark.parametrize("edit, field", EDITS, ids=[f for _, f in EDITS])
def test_bad_fields_are_refused_naming_them(edit, field):
    game, data = _snapshot()
    bad = copy.deepcopy(data)
    edit(bad)
    with pytest.raises(ConfigError, match=field):
        game.state_from_dict(bad)


def test_a_good_snapshot_round_trips_with_the_sealed_choice():
    game, data = _snapshot()
    state = game.state_from_dict(data)
    assert state.to_dict() == data and state.race_choice[0] == 4
    assert isinstance(game, StarMasterGame)
