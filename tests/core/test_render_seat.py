"""``render_seat``: ``render()`` as one seat sees the table, in every render mode."""

from __future__ import annotations

import numpy as np
import pytest

import moon_envs
from moon_envs import ConfigError
from tests.helpers import random_legal

ENV_IDS = moon_envs.list_envs()


def _played(env, steps: int, rng: np.random.Generator) -> None:
    for _ in range(steps):
        if all(env.terminations.values()):
            break
        agent = env.agent_selection
        env.step(random_legal(env.observe(agent)["action_mask"], rng))


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_render_seat_draws_that_seats_view_in_every_mode(env_id):
    rng = np.random.default_rng(0)
    for seat in (0, "player_1"):
        index = int(str(seat)[-1])
        text_env = moon_envs.make(env_id, render_mode="ansi", render_seat=seat)
        rgb_env = moon_envs.make(env_id, render_mode="rgb_array", render_seat=seat)
        for env in (text_env, rgb_env):
            env.reset(seed=3)
            _played(env, 12, np.random.default_rng(5))
        assert text_env.render_seat == index
        assert text_env.render() == text_env.game_state.to_string(index)
        picture = rgb_env.render()
        assert picture.dtype == np.uint8 and picture.ndim == 3
        assert np.array_equal(picture, type(rgb_env).rgb_renderer(rgb_env.game_state, index))
    spectator = moon_envs.make(env_id, render_mode="ansi")
    spectator.reset(seed=int(rng.integers(100)))
    assert spectator.render_seat is None
    assert spectator.render() == spectator.game_state.to_string(None)


def test_a_seat_view_hides_what_the_spectator_sees():
    """Star Master: the spectator's text shows the whole layout, a seat's does not."""
    seat_env = moon_envs.make("star_master_v0", render_mode="ansi", render_seat=0)
    spectator = moon_envs.make("star_master_v0", render_mode="ansi")
    for env in (seat_env, spectator):
        env.reset(seed=1)
        _played(env, 30, np.random.default_rng(2))
    assert seat_env.game_state.to_dict() == spectator.game_state.to_dict()
    assert seat_env.render() != spectator.render()
    assert "?" in seat_env.render() and "?" not in spectator.render().split("\n")[1]


@pytest.mark.parametrize("bad", [2, -1, "player_9", "0", 1.0, True])
def test_bad_render_seat_names_the_field_and_the_allowed_values(bad):
    with pytest.raises(ConfigError, match=r"render_seat=.* allowed values: None, a seat 0\.\.1"):
        moon_envs.make("jupiter_v0", render_mode="ansi", render_seat=bad)
