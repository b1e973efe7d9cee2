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
    for env_id in moon_envs.list_envs():
        if env_id in listed:
            assert mj.make(env_id).id == env_id
        else:
            with pytest.raises(ConfigError, match="no JAX twin"):
                mj.make(env_id)
    assert "moonwakers_v1" in moon_envs.list_envs() and "moonwakers_v1" not in listed
