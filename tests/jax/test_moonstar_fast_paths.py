"""The Moonstar twin's fast ``init`` (``moon_envs.jax.moonstar.fast``) gives the generic
``init``'s states, key by key, and the sort-free roll is a sort."""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import moon_envs.jax as mj  # noqa: E402
from moon_envs.jax.env import JaxEnv  # noqa: E402
from moon_envs.jax.moonstar import rules  # noqa: E402
from moon_envs.jax.moonstar.twin import MoonstarTwin  # noqa: E402


class GenericMoonstar(MoonstarTwin):
    """The twin through the base class's ``init`` (chance resolved in a ``while_loop``)."""

    init = JaxEnv.init


def _assert_same(got, want) -> None:
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want), strict=True):
        a, b = np.asarray(a), np.asarray(b)
        if a.dtype.kind == "f":  # the table's observation was computed in another program
            np.testing.assert_allclose(a, b, atol=1e-6)
        else:
            np.testing.assert_array_equal(a, b)


def test_sorted_faces_is_a_sort():
    rng = np.random.default_rng(0)
    drawn = rng.integers(1, 8, size=(500, 7)).astype(np.int32)
    got = jax.jit(jax.vmap(rules.sorted_faces))(jnp.asarray(drawn))
    assert np.array_equal(np.asarray(got), np.sort(drawn, axis=1))


@pytest.mark.parametrize("params", [{}, {"game": 12, "num_players": 3}])
def test_table_init_is_the_generic_init(params):
    fast = mj.make("moonstar_v1", **params)
    generic = GenericMoonstar(fast.id, fast.game, fast.reward_mode)
    keys = jax.random.split(jax.random.PRNGKey(5), 48)
    got = jax.jit(jax.vmap(fast.init))(keys)
    want = jax.jit(jax.vmap(generic.init))(keys)
    _assert_same(got, want)
    organizers = set(np.asarray(got._x.organizer).tolist())
    assert organizers == set(range(fast.num_players))  # every row of the table was read
    assert fast._init_table is not None  # the table path, not the generic fallback


def test_a_fixed_first_organizer_keeps_the_generic_init():
    env = mj.make("moonstar_v1", num_players=3, first_organizer=1)
    state = jax.jit(env.init)(jax.random.PRNGKey(0))
    assert env._init_table is None and int(state.current_player) == 1
