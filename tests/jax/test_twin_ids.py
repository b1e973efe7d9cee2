"""``moon_envs.jax.list_envs()`` lists exactly the ids ``moon_envs.jax.make`` accepts."""

from __future__ import annotations

import pytest

pytest.importorskip("jax")

import moon_envs
import moon_envs.jax as mj
from moon_envs import ConfigError


def test_list_envs_names_only_the_ids_make_accepts():
    listed = mj.list_envs()
    assert listed == mj.list_twins() and listed == sorted(listed)
    assert listed == moon_envs.list_envs()  # every game has its twin
    for env_id in listed:
        assert mj.make(env_id).id == env_id
    with pytest.raises(ConfigError, match=r"unknown environment id 'chess_v6'.*jupiter_v0"):
        mj.make("chess_v6")
