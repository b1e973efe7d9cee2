"""The single-agent Gymnasium view under Gymnasium's vector envs: stable infos, the mask
of a finished game, and the call order of ``action_masks()``."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import moon_envs
from moon_envs.core.errors import CallOrderError
from moon_envs.registry import get_entry

ENV_IDS = moon_envs.list_envs()


def _signature(info: dict) -> dict:
    """Each info value's type, and dtype and shape for arrays."""
    return {
        k: (type(v).__name__, getattr(v, "dtype", None), getattr(v, "shape", None))
        for k, v in info.items()
    }


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_single_agent_infos_keep_their_keys_types_and_shapes(env_id):
    """From reset() through the last step of several games, every info has the keys,
    types, dtypes and shapes of the first one."""
    env = moon_envs.make_single_agent(env_id)
    rng = np.random.default_rng(0)
    _obs, info = env.reset(seed=0)
    expected = _signature(info)
    for episode in range(3):
        _obs, info = env.reset(seed=episode)
        assert _signature(info) == expected
        assert not info["won"] and not info["winners"].any() and not info["scores"].any()
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, _reward, term, trunc, info = env.step(action)
            assert _signature(info) == expected
            done = term or trunc
        assert info["winners"].any() or env.aec.game_state.winners() == []
        assert info["won"] == (env.seat in env.aec.game_state.winners())
        np.testing.assert_array_equal(info["scores"], env.aec.game_state.scores())


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("env_id", ENV_IDS)
def test_make_vec_runs_every_game_with_masked_sampling(env_id, mode):
    """``gymnasium.make_vec`` stacks the infos of two envs for 300 steps, through finished
    games and Gymnasium's next-step autoreset; each action is sampled from the env's mask
    in the infos, the mask of a finished game included."""
    envs = gymnasium.make_vec(get_entry(env_id).gym_id, num_envs=2, vectorization_mode=mode)
    try:
        rng = np.random.default_rng(0)
        _obs, infos = envs.reset(seed=0)
        keys = set(infos)
        finished = 0
        for _ in range(300):
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in infos["action_mask"]])
            _obs, _rewards, term, trunc, infos = envs.step(actions)
            assert set(infos) == keys
            for i in np.flatnonzero(term | trunc):
                assert infos["action_mask"][i].all(), "a finished game's mask is all True"
            finished += int((term | trunc).sum())
        assert finished >= 1, "the run covers the end of a game and the autoreset after it"
    finally:  # a failed async run must not leave its workers waiting
        envs.close(**({"terminate": True} if mode == "async" else {}))


def test_finished_game_mask_is_all_true():
    """Once the learner's game is over, ``action_masks()`` and the info's mask are all
    True (the JAX twins' convention), never empty."""
    env = moon_envs.make_single_agent("jupiter_v0")
    rng = np.random.default_rng(1)
    _obs, info = env.reset(seed=1)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _obs, _reward, term, trunc, info = env.step(action)
        done = term or trunc
    assert env.action_masks().dtype == bool and env.action_masks().all()
    assert info["action_mask"].all()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_action_masks_before_reset_is_a_call_order_error(env_id):
    env = moon_envs.make_single_agent(env_id)
    with pytest.raises(CallOrderError, match="reset"):
        env.action_masks()


def test_illegal_action_shows_in_the_numeric_infos():
    """With the default ``illegal_action="penalize"``, an illegal learner action ends the
    game, and the info names the learner's seat and its action; -1 before."""
    env = moon_envs.make_single_agent("jupiter_v0")
    _obs, info = env.reset(seed=0)
    assert info["illegal_action_agent"] == -1 and info["illegal_action_action"] == -1
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    _obs, reward, term, _trunc, info = env.step(illegal)
    assert term and reward == -1.0
    assert info["illegal_action_agent"] == env.seat and info["illegal_action_action"] == illegal
