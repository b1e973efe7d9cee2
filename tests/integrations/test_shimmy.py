"""Shimmy's OpenSpielCompatibilityV0 over the OpenSpiel adapter: the game_name / config
form keeps the game's parameters through reset(); the env= form, which would reload the
defaults, is refused with the working form named."""

from __future__ import annotations

import numpy as np
import pytest

import moon_envs

pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
shimmy = pytest.importorskip("shimmy", reason="shimmy is not installed (the dev extra has it)")
from pettingzoo.test import api_test  # noqa: E402

from moon_envs.integrations.open_spiel import (  # noqa: E402
    load_game,
    register_all,
    shimmy_env,
    short_name,
    spiel_params,
)


def _play_one_game(env, seed: int = 0, limit: int = 5000) -> dict[str, float]:
    """Random legal moves (Shimmy's masks are in the infos) until the game ends; returns
    every agent's total reward."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for steps, agent in enumerate(env.agent_iter()):
        assert steps < limit, "the game did not end"
        _, reward, term, trunc, info = env.last()
        totals[agent] += reward
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(info["action_mask"]))))
    return totals


def test_the_game_name_and_config_form_keeps_the_parameters_through_reset():
    register_all()  # Shimmy loads the game by its OpenSpiel name
    params = {"num_players": 3, "max_rounds": 1}
    env = shimmy.OpenSpielCompatibilityV0(
        game_name=short_name("moonstar_v1"), config=spiel_params("moonstar_v1", params)
    )
    env.reset(seed=0)
    assert env.game_state.get_game().num_players() == 3
    assert env.game_state.moon_state.game.config.max_rounds == 1
    totals = _play_one_game(env)
    assert len(totals) == 3 and any(r != 0 for r in totals.values())  # a real end: +1 / -1
    api_test(env, num_cycles=50)


def test_shimmy_env_builds_that_form():
    env = shimmy_env("star_master_v0", num_players=3, memory="perfect")
    env.reset(seed=1)
    state = env.game_state.moon_state
    assert state.game.spec.num_players == 3 and state.game.config.memory == "perfect"
    assert len(_play_one_game(env, seed=1)) == 3


def test_the_env_form_that_would_drop_the_parameters_is_refused():
    game = load_game("moonstar_v1", num_players=3)
    env = shimmy.OpenSpielCompatibilityV0(env=game)
    with pytest.raises(moon_envs.ConfigError) as err:
        env.reset(seed=0)
    message = str(err.value)
    assert "would drop the game's parameters {'num_players': 3}" in message
    assert "OpenSpielCompatibilityV0(game_name='moon_envs_moonstar_v1', config=" in message
    assert "shimmy_env('moonstar_v1', num_players=3)" in message
    # the form the message names works, with the game's own parameters
    env = shimmy.OpenSpielCompatibilityV0(
        game_name="moon_envs_moonstar_v1", config=game.get_parameters()
    )
    env.reset(seed=0)
    assert env.game_state.get_game().num_players() == 3


def test_the_env_form_is_fine_for_a_game_with_the_default_parameters():
    for game in (load_game("jupiter_v0"), load_game("jupiter_v0", num_players=2)):
        env = shimmy.OpenSpielCompatibilityV0(env=game)
        env.reset(seed=0)
        assert env.game_state.get_game().num_players() == 2
        assert len(_play_one_game(env)) == 2
