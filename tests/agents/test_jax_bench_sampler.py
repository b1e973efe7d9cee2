"""The JAX bench's random player draws the k-th legal action with one uniform number,
counting legal actions in blocks on wide masks: the same action as a count over the
whole mask, for every mask width."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

from moon_agents.benchmarks.jax_speed import BLOCK, uniform_legal_action  # noqa: E402


def _kth_legal(key, mask):
    u = float(jax.random.uniform(key))
    legal = np.flatnonzero(np.asarray(mask))
    return int(legal[int(np.floor(u * len(legal)))])


@pytest.mark.parametrize("width", [7, BLOCK, BLOCK + 1, 1443])
def test_the_drawn_action_is_the_kth_legal_one(width: int) -> None:
    rng = np.random.default_rng(width)
    masks = rng.random((64, width)) < rng.choice([0.02, 0.3, 0.9], size=(64, 1))
    masks[np.arange(64), rng.integers(0, width, 64)] = True  # at least one legal action
    masks[0] = False
    masks[0, -1] = True  # only the last action (in the padded block)
    keys = jax.random.split(jax.random.key(width), 64)
    drawn = np.asarray(jax.jit(jax.vmap(uniform_legal_action))(keys, jnp.asarray(masks)))
    expected = [_kth_legal(k, m) for k, m in zip(keys, masks)]
    assert drawn.tolist() == expected
