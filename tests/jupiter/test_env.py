"""Jupiter as an environment: PettingZoo tests for every player count and variant,
the single-agent view under Gymnasium's and SB3's checkers."""

from __future__ import annotations

import gymnasium
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import moon_envs

VARIANTS = [
    {},
    {"black_moons": True},
    {"expanding_universe": True},
    {"black_moons": True, "expanding_universe": True},
    {"line_features": True},
    {"line_features": True, "black_moons": True, "expanding_universe": True},
]
CASES = [
    (n, v) for n in (2, 3, 4) for v in VARIANTS if not (n == 4 and v.get("expanding_universe"))
]


@pytest.mark.parametrize("players,variant", CASES)
def test_pettingzoo_api_and_seed(players, variant):
    api_test(moon_envs.make("jupiter_v0", num_players=players, **variant), num_cycles=300)
    seed_test(lambda: moon_envs.make("jupiter_v0", num_players=players, **variant), num_cycles=300)


def test_four_player_expanding_universe_is_the_plain_board():
    env = moon_envs.make("jupiter_v0", num_players=4, expanding_universe=True)
    assert env.game.cols == 6


def test_spaces_match_the_documented_sizes():
    env = moon_envs.make("jupiter_v0")
    space = env.observation_space("player_0")
    assert space["observation"].shape == (158,)
    assert space["action_mask"].shape == (33,)
    assert env.action_space("player_0").n == 33


def test_registries_take_parameters():
    env = pettingzoo.make("aec", "moon_envs/jupiter_v0", num_players=3, black_moons=True)
    assert env.game.config.num_players == 3 and env.game.config.black_moons
    gym_env = gymnasium.make("moon_envs/Jupiter-v0", num_players=4)
    assert gym_env.unwrapped.aec.game.config.num_players == 4


def test_single_agent_view_passes_gymnasium_and_sb3_checkers():
    check_env(gymnasium.make("moon_envs/Jupiter-v0").unwrapped, skip_render_check=True)
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(moon_envs.make_single_agent("jupiter_v0"))


def test_single_agent_view_with_a_fixed_seat_and_opponent_pool():
    from moon_agents.heuristics.jupiter import GreedyAgent

    env = moon_envs.make_single_agent("jupiter_v0", opponents=[GreedyAgent(seed=0)], learner_seat=1)
    _obs, info = env.reset(seed=0)
    assert info["seat"] == 1
    done = False
    while not done:
        mask = env.action_masks()
        _obs, _reward, term, trunc, info = env.step(int(mask.nonzero()[0][0]))
        done = term or trunc
    assert "winners" in info and info["seat"] == 1
