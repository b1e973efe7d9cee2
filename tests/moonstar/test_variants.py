"""Moonstar's validated config: presets of Games 1-12, combinations, and clear errors."""

from __future__ import annotations

import pytest

import moon_envs
from moon_envs.core.game import ConfigError
from moon_envs.moonstar import MoonstarConfig, MoonstarGame, preset


@pytest.mark.parametrize("game", range(1, 13))
def test_presets_build_and_resolve(game):
    cfg = MoonstarConfig(game=game)
    assert cfg.game == game
    expected = {
        1: {"num_moons": 7, "num_dice": 7, "scoring": "planets", "target": 200},
        2: {"num_moons": 9, "num_dice": 9},
        3: {"num_moons": 10, "num_dice": 8},
        4: {"num_moons": 8, "num_dice": 10},
        5: {"planets": (3, 5, 8, 10, 15, 20)},
        6: {"favourite_star": True},
        7: {"scoring": "squares", "planets": (), "target": 100},
        8: {"scoring": "chains", "planets": (), "target": 50},
        9: {"movement": "double_half"},
        10: {"challenges": True},
        11: {"side_bets": True},
        12: {"dealer_menu": tuple(range(1, 12))},
    }[game]
    for k, v in expected.items():
        assert getattr(cfg, k) == v, k
    assert preset(game) or game == 1


def test_registry_and_pettingzoo_reach_the_presets():
    import pettingzoo

    assert moon_envs.make("moonstar_v1", game=8).game.config.scoring == "chains"
    env = pettingzoo.make("aec", "moon_envs/moonstar_v1", game=7, num_players=5)
    assert env.game.config.scoring == "squares" and env.game.config.num_players == 5


def test_keywords_override_the_preset():
    cfg = MoonstarConfig(game=7, target=60, movement="double_half")
    assert cfg.scoring == "squares" and cfg.target == 60 and cfg.movement == "double_half"


@pytest.mark.parametrize(
    "params",
    [
        {"scoring": "squares", "movement": "double_half", "challenges": True},
        {"scoring": "chains", "side_bets": True, "num_moons": 9, "num_dice": 9},
        {"favourite_star": True, "planets": [4, 12, 30], "movement": "double_half"},
        {
            "num_moons": 12,
            "num_dice": 8,
            "scoring": "squares",
            "challenges": True,
            "side_bets": True,
        },
        {"num_moons": 7, "num_dice": 11, "favourite_star": True, "move_budget": 5},
        {"dealer_menu": [1, 7, {"scoring": "chains", "movement": "double_half"}]},
    ],
)
def test_combinations_of_games_are_allowed(params):
    g = MoonstarGame(**params)
    assert g.spec.num_actions > 83


@pytest.mark.parametrize(
    "params,match",
    [
        (
            {"num_moons": 7, "num_dice": 8, "count_rule": "more_moons"},
            "Game 3.*more moons than dice",
        ),
        ({"num_moons": 8, "num_dice": 8, "count_rule": "more_moons"}, "Game 3"),
        ({"num_moons": 9, "num_dice": 8, "count_rule": "more_dice"}, "Game 4.*more dice"),
        ({"num_moons": 8, "num_dice": 9, "count_rule": "equal"}, "as many moons as dice"),
        ({"num_moons": 12, "num_dice": 12}, "num_dice=12 is out of range; allowed: 7..11"),
        ({"num_moons": 15, "num_dice": 11}, "Game 3.*7..10 dice"),
        ({"num_moons": 11, "num_dice": 11, "count_rule": "more_dice"}, "Game 4"),
        ({"scoring": "squares", "planets": [5]}, "Game 7 uses no planets"),
        ({"scoring": "chains", "planets": [5]}, "Game 8 uses no planets"),
        ({"planets": [5] * 7}, "1..6 planets"),
        ({"planets": []}, "1..6 planets"),
        ({"planets": [0, 5]}, "planets"),
        ({"favourite_star": True, "scoring": "squares"}, "red planet"),
        ({"scoring": "chains", "move_budget": 2}, "no timer"),
        ({"move_budget": 8}, "move_budget"),
        ({"num_players": 1}, "num_players"),
        ({"num_players": 9}, "num_players"),
        ({"scoring": "hexagons"}, "scoring"),
        ({"movement": "teleport"}, "movement"),
        ({"setup": "auto"}, "setup"),
        ({"game": 13}, "game"),
        ({"bet_fractions": [0.5, 1.0]}, "bet_fractions"),
        ({"bet_fractions": [0.0, 1.5]}, "bet_fractions"),
        ({"dealer_menu": [12]}, "dealer_menu"),
        ({"dealer_menu": [{"scoring": "squares", "favourite_star": True}]}, r"dealer_menu\[0\]"),
        ({"dealer_menu": [{"colour": "red"}]}, "unknown round rule"),
        ({"first_organizer": 3, "num_players": 3}, "first_organizer"),
        ({"target": 0}, "target"),
        ({"game": 5, "scoring": "squares"}, "Game 7 uses no planets"),
    ],
)
def test_bad_values_and_combinations_say_why(params, match):
    with pytest.raises(ConfigError, match=match):
        MoonstarConfig(**params)


def test_unknown_parameter_lists_the_valid_ones():
    with pytest.raises(ConfigError, match="valid parameters"):
        moon_envs.make("moonstar_v1", moons=7)


def test_config_survives_the_json_round_trip():
    import json

    g = MoonstarGame(dealer_menu=[1, {"scoring": "squares"}], planets=[5, 10])
    st = g.new_initial_state()
    data = json.loads(json.dumps(st.to_dict()))
    again = type(st).from_dict(data)
    assert again.game == g and again == st


@pytest.mark.parametrize("n", range(2, 9))
def test_player_counts(n):
    g = MoonstarGame(num_players=n)
    assert g.spec.num_players == n
    assert g.spec.observation_shape == (60 + 14 * 7 + 2 * 7 + 6 + 2 + 9 * n + 1 + 10 + 10 + 7,)
