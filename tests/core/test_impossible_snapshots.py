"""Snapshots with values no game can produce are refused: counters out of range, rewards
outside the game's range, and derived values (infos, the game-ending reward) that
contradict the position."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import moon_envs
from moon_agents.benchmarks.hostile_snapshots import mid_game
from moon_envs import ConfigError


@pytest.mark.parametrize("env_id", moon_envs.list_envs())
def test_move_number_beyond_any_game_is_refused(env_id: str) -> None:
    env = mid_game(env_id)
    snapshot = env.get_state()
    for value in (2**63, env.game.spec.max_game_length + 1, -1):
        bad = copy.deepcopy(snapshot)
        bad["state"]["state"]["move_number"] = value
        with pytest.raises(ConfigError, match="move_number"):
            env.set_state(bad)
    env.set_state(snapshot)  # the real one still loads


@pytest.mark.parametrize(
    ("field", "value"), [("rewards", 1e300), ("cumulative_rewards", 5.0), ("rewards", -2.0)]
)
def test_win_rewards_outside_the_games_range_are_refused(field: str, value: float) -> None:
    env = mid_game("jupiter_v0")
    bad = env.get_state()
    bad[field]["player_0"] = value
    with pytest.raises(ConfigError, match=f"{field}.*out of range"):
        env.set_state(bad)


def test_a_game_ending_reward_on_a_game_in_progress_is_refused() -> None:
    env = mid_game("jupiter_v0")
    bad = env.get_state()
    bad["state"]["state"]["_last_win_delta"] = {
        "__ndarray__": [1.0, -1.0],
        "dtype": "float64",
        "shape": [2],
    }
    with pytest.raises(ConfigError, match="_last_win_delta"):
        env.set_state(bad)


@pytest.mark.parametrize("env_id", ["moonstar_v1", "star_master_v0"])
def test_infos_that_contradict_the_position_are_refused(env_id: str) -> None:
    env = moon_envs.make(env_id)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(5000):  # play until the position has infos of its own
        agent = env.agent_selection
        if env.infos[agent]:
            break
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    else:
        pytest.fail("no infos in 5000 steps")
    snapshot = env.get_state()
    env.set_state(copy.deepcopy(snapshot))  # consistent: accepted
    bad = copy.deepcopy(snapshot)
    bad["infos"][agent] = {**bad["infos"][agent], "invented": 1}
    with pytest.raises(ConfigError, match="does not match the position"):
        env.set_state(bad)
