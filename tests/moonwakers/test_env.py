"""The moonwakers_v1 environment for 2..6 players, and its heuristic agent."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import moon_envs
from moon_agents.evaluation.tournament import tournament
from moon_agents.zoo import make_agent
from moon_envs.moonwakers.config import ActionLayout


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_pettingzoo_api_and_seed_tests(n):
    api_test(moon_envs.make("moonwakers_v1", num_players=n), num_cycles=60)
    seed_test(lambda: moon_envs.make("moonwakers_v1", num_players=n), num_cycles=60)


@pytest.mark.parametrize("n", [2, 6])
def test_spaces_and_global_state(n):
    env = moon_envs.make("moonwakers_v1", num_players=n)
    env.reset(seed=1)
    spec = env.game.spec
    assert spec.num_actions == ActionLayout(50).num_actions == 48 + 7 * 50
    assert env.state().shape == spec.global_state_shape
    assert env.state_space.contains(env.state())


def test_human_view_shows_only_the_seats_own_set_up_card():
    from moon_envs.moonwakers.text import explored, face

    env = moon_envs.make("moonwakers_v1", num_players=2)
    env.reset(seed=3)
    s = env.game_state
    mine, theirs = s.hand[0][0], s.hand[1][0]
    text0 = s.to_string(0)
    assert f"{face(s, mine)}/{explored(s, mine, None)}" in text0  # my own face
    assert f"{face(s, theirs)}/??" in text0  # the other hand's card
    assert "??" not in str(s)  # the spectator sees every face
    assert s.known[mine] == 1 and s.known[theirs] == 2


def test_heuristic_beats_random():
    result = tournament("moonwakers_v1", ["heuristic", "random"], games=40, seed=0)
    stats = result.stats
    assert stats["heuristic"].wins > stats["random"].wins + 10


def test_heuristic_is_in_the_zoo_and_plays_every_seat_count():
    agent = make_agent("heuristic", "moonwakers", seed=0)
    for n in (3, 6):
        env = moon_envs.make("moonwakers_v1", num_players=n, max_rounds=3)
        env.reset(seed=n)
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            action = None if term or trunc else agent.act(env.agent_view(name))
            assert action is None or obs["action_mask"][action]
            env.step(action)
        assert np.isclose(sum(env._cumulative_rewards.values()), 0)
