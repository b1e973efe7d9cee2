"""The Moonstar twin's packed scalar fields and its sort-free roll."""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import moon_envs.jax as mj  # noqa: E402
from moon_envs.jax.moonstar import rules  # noqa: E402
from moon_envs.jax.moonstar.arrays import SCALARS, blank_x, upd  # noqa: E402


def test_packed_scalars_are_read_and_written_by_name():
    x = blank_x(mj.make("moonstar_v1", num_players=3).tables)
    assert len(jax.tree.leaves(x)) == 13
    before = {name: int(getattr(x, name)) for name in SCALARS}
    y = x._replace(bidder=jnp.int32(2), points=x.points + 5)
    kept = upd(y, jnp.bool_(False), phase=4, round_no=9)
    moved = upd(y, jnp.bool_(True), phase=4, round_no=9)
    for name in SCALARS:
        want = {"bidder": 2}.get(name, before[name])
        assert int(getattr(y, name)) == want, name
        assert int(getattr(kept, name)) == want, name
        assert int(getattr(moved, name)) == {"phase": 4, "round_no": 9}.get(name, want), name
    assert np.array_equal(np.asarray(moved.points), [5, 5, 5])
    batched = jax.tree.map(lambda a: jnp.stack([a, a]), moved)
    assert np.array_equal(np.asarray(batched.round_no), [9, 9])


def test_sorted_faces_is_a_sort():
    rng = np.random.default_rng(0)
    drawn = rng.integers(1, 8, size=(500, 7)).astype(np.int32)
    got = jax.jit(jax.vmap(rules.sorted_faces))(jnp.asarray(drawn))
    assert np.array_equal(np.asarray(got), np.sort(drawn, axis=1))
