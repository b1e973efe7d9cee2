"""What ``step()`` accepts as an action, and PettingZoo's call order: clear errors before
``reset()`` and once every agent is done, never a KeyError or AttributeError."""

from __future__ import annotations

import json
import logging

import numpy as np
import pytest

import moon_envs
from moon_envs.core.aec import CallOrderError
from moon_envs.core.game import IllegalActionError
from tests.helpers import random_legal

ENV_IDS = moon_envs.list_envs()


def _first_legal(env) -> int:
    return int(np.flatnonzero(env.last()[0]["action_mask"])[0])


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("illegal_action", ["raise", "penalize"])
@pytest.mark.parametrize(
    "bad",
    [
        np.array(0.7),
        0.7,
        np.float32(1.5),
        float("inf"),
        float("-inf"),
        float("nan"),
        np.array(float("nan")),
        True,
        np.True_,
        np.array(True),
        "0",
        b"0",
        [0],
        np.array([0]),
        object(),
        1 + 0j,
    ],
    # a plain object's repr holds its address: name it so parallel workers collect alike
    ids=lambda bad: "object()" if type(bad) is object else repr(bad),
)
def test_non_integer_actions_are_refused_with_the_env_untouched(bad, illegal_action, env_id):
    env = moon_envs.make(env_id, illegal_action=illegal_action)
    env.reset(seed=0)
    before = json.dumps(env.get_state(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="must be an integer"):
        env.step(bad)
    assert json.dumps(env.get_state(), sort_keys=True) == before


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_long_action_repr_is_cut_in_the_message(env_id):
    env = moon_envs.make(env_id)
    env.reset(seed=0)
    with pytest.raises(IllegalActionError) as info:
        env.step("x" * 10_000)
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("kind", [int, np.int64, np.int16, np.uint16, float, np.float32])
def test_integral_numbers_and_0d_integer_arrays_still_play(kind, env_id):
    env = moon_envs.make(env_id)
    twin = moon_envs.make(env_id)
    env.reset(seed=0)
    twin.reset(seed=0)
    a = _first_legal(env)
    env.step(kind(a))
    twin.step(a)
    assert env.get_state() == twin.get_state()
    env.step(np.array(_first_legal(env)))
    twin.step(_first_legal(twin))
    assert env.get_state() == twin.get_state()


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize(
    "huge", [10**30, -(10**30), -1, 10**5000], ids=["big", "minus-big", "minus-1", "huge"]
)
def test_out_of_range_integers_are_illegal_not_overflow(huge, env_id):
    env = moon_envs.make(env_id)
    env.reset(seed=0)
    before = json.dumps(env.get_state(), sort_keys=True)
    with pytest.raises(IllegalActionError, match="illegal") as info:
        env.step(huge)
    assert len(str(info.value)) < 2000
    assert json.dumps(env.get_state(), sort_keys=True) == before


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_penalize_mode_infos_hold_plain_ints_and_stay_json(env_id):
    env = moon_envs.make(env_id, illegal_action="penalize")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0])
    env.step(np.int64(illegal))
    info = env.infos[env.agent_selection]["illegal_action"]
    assert type(info["action"]) is int and info["action"] == illegal
    assert env.terminations[env.agent_selection]
    assert env._cumulative_rewards[info["agent"]] == -1.0
    json.dumps(env.get_state(), allow_nan=False)  # raises if anything is not strict JSON


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize(
    ("call", "what"),
    [
        (lambda e: e.last(), "last"),
        (lambda e: e.observe("player_0"), "observe"),
        (lambda e: e.step(0), "step"),
        (lambda e: e.state(), "state"),
        (lambda e: e.get_state(), "get_state"),
        (lambda e: e.agent_view("player_0"), "agent_view"),
    ],
)
def test_calls_before_reset_are_clear_errors(env_id, call, what):
    env = moon_envs.make(env_id)
    with pytest.raises(CallOrderError, match=rf"reset\(\) needs to be called before {what}"):
        call(env)
    # PettingZoo's order-enforcing wrapper raises AssertionError; ours is one too
    with pytest.raises(AssertionError):
        call(env)


def test_render_before_reset_is_a_clear_error():
    env = moon_envs.make("jupiter_v0", render_mode="ansi")
    with pytest.raises(CallOrderError, match=r"reset\(\) needs to be called before render"):
        env.render()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_after_every_agent_is_done_step_warns_and_last_is_a_clear_error(env_id, caplog):
    env = moon_envs.make(env_id)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    for _ in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else random_legal(obs["action_mask"], rng))
    assert env.agents == []
    before = json.dumps(env.get_state(), sort_keys=True)
    with caplog.at_level(logging.WARNING):
        env.step(None)
        env.step(3)
    assert "step() called after all agents are terminated" in caplog.text
    assert json.dumps(env.get_state(), sort_keys=True) == before
    with pytest.raises(CallOrderError, match="every agent is done"):
        env.last()
    # the final position can still be observed and rendered
    assert env.observe("player_0")["action_mask"].sum() == 0


def test_unknown_agents_are_named():
    env = moon_envs.make("jupiter_v0")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"unknown agent 'player_7'; agents: \['player_0'"):
        env.observe("player_7")
    with pytest.raises(ValueError, match="unknown agent"):
        env.agent_view("nobody")


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize(
    "name", ["agents", "agent_selection", "num_agents", "rewards", "terminations", "infos"]
)
def test_episode_attributes_before_reset_are_clear_errors(env_id, name):
    from moon_envs.core.aec import NotResetError

    env = moon_envs.make(env_id)
    with pytest.raises(NotResetError, match=rf"reset\(\) needs to be called before {name}"):
        getattr(env, name)
    # like PettingZoo's order-enforcing wrapper: an AttributeError, so hasattr says False
    assert not hasattr(env, name)
    with pytest.raises(CallOrderError):
        getattr(env, name)
    env.reset(seed=0)
    assert getattr(env, name) is not None


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_agent_iter_before_reset_is_a_clear_error(env_id):
    env = moon_envs.make(env_id)
    with pytest.raises(CallOrderError, match=r"reset\(\) needs to be called before agent_iter"):
        env.agent_iter()
    with pytest.raises(AssertionError):  # PettingZoo's wrapper raises AssertionError
        env.agent_iter()
    with pytest.raises(AttributeError, match="no attribute 'colour'"):
        env.colour
