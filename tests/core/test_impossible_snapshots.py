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


@pytest.mark.parametrize("env_id", moon_envs.list_envs())
def test_a_set_whose_members_do_not_sort_is_refused(env_id: str) -> None:
    """A snapshot lists a set's members sorted: a set of a number and a string was
    accepted in infos and broke the next ``get_state()`` (or ``set_state`` raised
    TypeError)."""
    env = mid_game(env_id)
    before = env.get_state()
    bad = copy.deepcopy(before)
    bad["infos"]["player_0"] = {"seen": {"__set__": [1, "a"]}}
    with pytest.raises(ConfigError, match=r"infos\.player_0\.seen\.__set__"):
        env.set_state(bad)
    assert env.get_state() == before


def _moonstar_until(game: int, done, seeds=range(20)):
    """A Moonstar ``game`` env at the first position where ``done(state)`` holds."""
    env = moon_envs.make("moonstar_v1", game=game)
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents:
            if done(env):
                return env
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    pytest.fail("no such position in 20 games")


def test_moonstar_a_barred_high_bidder_is_refused() -> None:
    """Game 11: a high bidder who is the excluded seat made the side bets go round
    forever (found by the mutation test); it is refused naming the field."""
    env = _moonstar_until(
        11,
        lambda e: (
            e.game_state.phase == "auction"
            and e.game_state.excluded >= 0
            and e.game_state.bidder >= 0
        ),
    )
    bad = env.get_state()
    bad["state"]["state"]["bidder"] = env.game_state.excluded
    with pytest.raises(ConfigError, match=r"bidder=\d is barred"):
        env.set_state(bad)


def test_moonstar_a_held_round_report_is_checked() -> None:
    """The env keeps the last round report in infos after the position moves on; a
    snapshot's copy of it is checked like the position's own report."""
    env = _moonstar_until(
        1,
        lambda e: (
            "round_report" in e.infos["player_0"]
            and not e.game_state.info_for(0)
            and not e.infos["player_0"]["round_report"]["no_bid"]
        ),
    )
    snapshot = env.get_state()
    env.set_state(copy.deepcopy(snapshot))  # the real one loads
    for key, value in (("round", 2**63), ("bid", "high"), ("extra", 1)):
        bad = copy.deepcopy(snapshot)
        bad["infos"]["player_0"]["round_report"][key] = value
        with pytest.raises(ConfigError, match=r"infos\['player_0'\]\.round_report"):
            env.set_state(bad)
