"""Jupiter's symmetries (rows, columns, transpose on a square board) map positions to
positions that play the same: observations, masks, scores and successors all agree."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402

import moon_envs.jax as mj  # noqa: E402


def _positions(twin, key, count):
    step = jax.jit(twin.step)
    state, out = twin.init(key), []
    while len(out) < count:
        key, k_act, k_step = jax.random.split(key, 3)
        if bool(state.terminated):
            state = twin.init(k_step)
            continue
        out.append(state)
        legal = np.flatnonzero(np.asarray(state.legal_action_mask))
        state = step(state, int(legal[jax.random.randint(k_act, (), 0, legal.size)]), k_step)
    return out


@pytest.mark.parametrize(
    "params",
    [{"num_players": 2, "line_features": True}, {"num_players": 3, "black_moons": True}],
)
def test_symmetries_preserve_the_game(params: dict) -> None:
    twin = mj.make("jupiter_v0", **params)
    apply = jax.jit(jax.vmap(twin.apply_action, in_axes=(None, 0)))
    symmetry = jax.jit(twin.random_symmetry)
    observe = jax.jit(twin.observe)
    wrap = jax.jit(twin._wrap)
    seen = set()
    for i, state in enumerate(_positions(twin, jax.random.key(1), 8)):
        obs_index, act_index = (np.asarray(a) for a in symmetry(jax.random.key(100 + i)))
        perm = act_index[: twin.cells]
        seen.add(tuple(perm))
        assert sorted(perm) == list(range(twin.cells))
        mapped_x = state._x._replace(cell=state._x.cell[perm])
        mapped = wrap(mapped_x, state.current_player, state.rewards, state._step_count)
        for seat in range(twin.num_players):
            np.testing.assert_array_equal(
                np.asarray(observe(mapped, seat)), np.asarray(observe(state, seat))[obs_index]
            )
        mask = np.asarray(state.legal_action_mask)
        np.testing.assert_array_equal(np.asarray(mapped.legal_action_mask), mask[act_index])
        # every action (illegal ones leave both positions as they are)
        after = apply(state, jnp.asarray(act_index))._x
        after_mapped = apply(mapped, jnp.arange(twin.num_actions))._x
        np.testing.assert_array_equal(after_mapped.points, after.points)
        np.testing.assert_array_equal(after_mapped.cell, np.asarray(after.cell)[:, perm])
    assert len(seen) > 1


def test_observation_index_is_a_permutation() -> None:
    twin = mj.make("jupiter_v0", num_players=2, line_features=True)
    obs_index, act_index = twin.random_symmetry(jax.random.key(0))
    size = int(np.prod(twin.observation_shape))
    assert sorted(np.asarray(obs_index).tolist()) == list(range(size))
    assert sorted(np.asarray(act_index).tolist()) == list(range(twin.num_actions))
    assert jnp.asarray(act_index)[-1] == 2 * twin.cells
