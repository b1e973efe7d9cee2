"""``set_state`` refuses values of the wrong type with a ConfigError, in every game.

An array where a name belongs (``env``, ``env_params.*``, ``state.game``,
``agent_selection``, ``rng.bit_generator``, any other string of the snapshot), an int of
a hundred thousand bits where a number belongs, or an info of 200,000 keys: each is a
:class:`ConfigError` naming the field, never numpy's "truth value ... is ambiguous", an
``OverflowError`` or Python's digit limit, and the env is left as it was.
"""

from __future__ import annotations

import copy
import time

import numpy as np
import pytest

import moon_envs
from moon_envs import ConfigError

ENV_IDS = moon_envs.list_envs()
HUGE = 2**100_000


def _mid_game(env_id: str, moves: int = 8):
    env = moon_envs.make(env_id)
    env.reset(seed=5)
    rng = np.random.default_rng(1)
    for _ in range(moves):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return env


def _leaves(tree, path=()):
    """Paths to every scalar of a snapshot outside encoded arrays' data."""
    if isinstance(tree, dict):
        for key, value in tree.items():
            if key != "__ndarray__":
                yield from _leaves(value, (*path, key))
    elif isinstance(tree, list):
        for i, value in enumerate(tree[:3]):
            yield from _leaves(value, (*path, i))
    else:
        yield path, tree


def _planted(snapshot, path, value):
    out = copy.deepcopy(snapshot)
    node = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return out


def _refused(env, snapshot, *names) -> str:
    before = env.get_state()
    with pytest.raises(ConfigError) as info:
        env.set_state(snapshot)
    assert env.get_state() == before
    message = str(info.value)
    assert any(name in message for name in names), message
    return message


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_an_array_in_a_name_field_is_a_config_error_naming_it(env_id):
    env = _mid_game(env_id)
    snapshot = env.get_state()
    names = np.array(["player_0", "player_1"])
    _refused(env, _planted(snapshot, ("env",), names), "env")
    for name in snapshot["env_params"]:
        _refused(env, _planted(snapshot, ("env_params", name), names), name)
    _refused(env, _planted(snapshot, ("state", "game"), names), "game")
    _refused(env, _planted(snapshot, ("agent_selection",), names), "agent_selection")
    _refused(env, _planted(snapshot, ("skip_agent_selection",), names), "skip_agent_selection")
    _refused(env, _planted(snapshot, ("rng", "bit_generator"), names), "rng.bit_generator")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_string_of_a_snapshot_refuses_an_array(env_id):
    env = _mid_game(env_id)
    snapshot = env.get_state()
    sites = [path for path, leaf in _leaves(snapshot) if isinstance(leaf, str)]
    assert sites
    encoded = {"__ndarray__": [1, 2], "dtype": "int64", "shape": [2]}
    for path in sites:
        before = env.get_state()
        with pytest.raises(ConfigError):
            env.set_state(_planted(snapshot, path, np.array(["a", "b"])))
        assert env.get_state() == before, path
        try:  # an encoded array is snapshot data: where a game keeps any info, it may stand
            env.set_state(_planted(snapshot, path, encoded))
        except ConfigError:
            assert env.get_state() == before, path
        env.set_state(before)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_huge_int_is_refused_naming_its_field(env_id):
    env = _mid_game(env_id)
    snapshot = env.get_state()
    agent = snapshot["agents"][0]
    message = _refused(env, _planted(snapshot, ("rewards", agent), HUGE), "rewards")
    assert "64 bits" in message
    _refused(env, _planted(snapshot, ("cumulative_rewards", agent), HUGE), "cumulative_rewards")
    _refused(env, _planted(snapshot, ("infos", agent, "extra"), HUGE), "infos")
    for path, leaf in _leaves(snapshot):
        if type(leaf) in (int, float):
            before = env.get_state()
            with pytest.raises(ConfigError):
                env.set_state(_planted(snapshot, path, HUGE))
            assert env.get_state() == before, path


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_an_info_of_200k_keys_is_refused_at_the_size_limit_quickly(env_id):
    env = _mid_game(env_id)
    snapshot = env.get_state()
    agent = snapshot["agents"][0]
    huge = {f"k{i}": i for i in range(200_000)}
    keys = list(snapshot["infos"][agent]) or ["extra"]
    for key in keys[:2]:
        bad = _planted(snapshot, ("infos", agent, key), huge)
        start = time.process_time()
        message = _refused(env, bad, "infos")
        seconds = time.process_time() - start
        assert "at most 10,000 values" in message
        assert seconds < 1.0, seconds
