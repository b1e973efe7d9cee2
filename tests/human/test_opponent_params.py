"""``make_single_agent`` sets up the env its opponents were trained for (their
``env_params()``), and refuses parameters that conflict with them."""

from __future__ import annotations

from typing import Any

import pytest

import moon_envs
from moon_agents.base import EnvParams
from moon_envs.core.game import ConfigError


class NeedsParams:
    """An opponent that needs certain game parameters, as a trained policy does."""

    def __init__(self, name: str, env_id: str | None, **params: Any) -> None:
        self.name, self._needs = name, EnvParams(env_id, params)

    def env_params(self) -> EnvParams:
        return self._needs

    def act(self, view: Any) -> int:
        return int(view.action_mask.nonzero()[0][0])


def test_a_trained_opponent_by_name_gets_its_parameters() -> None:
    env = moon_envs.make_single_agent("jupiter_v0", opponents=["trained"])
    assert env.aec.game.config.line_features is True
    obs, info = env.reset(seed=0)
    assert obs.shape == (206,)  # the observation the network was trained on
    _, _, done, _, _ = env.step(int(info["action_mask"].nonzero()[0][0]))
    assert done in (True, False)


def test_a_parameter_given_otherwise_is_refused_naming_it() -> None:
    with pytest.raises(ConfigError, match=r"'trained' was trained with line_features=True.*"):
        moon_envs.make_single_agent("jupiter_v0", opponents=["trained"], line_features=False)


def test_agent_objects_count_and_the_user_value_stands_when_equal() -> None:
    a = NeedsParams("a", "jupiter_v0", line_features=True, num_players=2)
    env = moon_envs.make_single_agent("jupiter_v0", opponents=[a, "random"], num_players=2)
    assert env.aec.game.config.line_features is True and env.aec.game.config.num_players == 2


def test_opponents_needing_different_values_are_refused() -> None:
    a = NeedsParams("a", None, line_features=True)
    b = NeedsParams("b", None, line_features=False)
    with pytest.raises(ConfigError, match=r"opponents 'a' and 'b' need different values"):
        moon_envs.make_single_agent("jupiter_v0", opponents=[a, b])


def test_an_opponent_trained_on_another_game_is_refused() -> None:
    a = NeedsParams("a", "star_master_v0", memory="none")
    with pytest.raises(ConfigError, match="trained on star_master_v0; it cannot play jupiter_v0"):
        moon_envs.make_single_agent("jupiter_v0", opponents=[a])
