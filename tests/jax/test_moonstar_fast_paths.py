"""The Moonstar twin's fast paths (``moon_envs.jax.moonstar.fast``, the sort-free roll)
give exactly the generic paths' states, step by step in random play."""

from __future__ import annotations

import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import moon_envs.jax as mj  # noqa: E402
from moon_envs.jax.env import JaxEnv  # noqa: E402
from moon_envs.jax.moonstar import rules  # noqa: E402
from moon_envs.jax.moonstar.arrays import SCALARS, blank_x, upd  # noqa: E402
from moon_envs.jax.moonstar.twin import MoonstarTwin  # noqa: E402


class GenericMoonstar(MoonstarTwin):
    """The twin through the base class's ``init`` and ``while_loop`` chance resolution."""

    init = JaxEnv.init
    _resolve_x = JaxEnv._resolve_x


def _same(a, b) -> bool:
    return all(
        np.array_equal(np.asarray(p), np.asarray(q))
        for p, q in zip(jax.tree.leaves(a), jax.tree.leaves(b))
    )


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


@pytest.mark.parametrize("params", [{"num_players": 4}, {"num_players": 3, "first_organizer": 1}])
def test_fast_init_and_step_replay_the_generic_paths(params):
    fast = mj.make("moonstar_v1", **params)
    generic = GenericMoonstar(fast.id, fast.game, fast.reward_mode)
    batch, steps = 16, 120
    keys = jax.random.split(jax.random.PRNGKey(5), batch)

    def run(env):
        def body(state, key):
            k_act, k_step, k_init = jax.random.split(key, 3)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(k_act, logits)
            state = env.step(state, action, k_step)
            fresh = env.init(k_init)
            state = jax.tree.map(lambda f, s: jnp.where(state.terminated, f, s), fresh, state)
            return state, state

        def play(keys):
            first = jax.vmap(env.init)(keys)
            step_keys = jax.random.split(jax.random.PRNGKey(9), (steps, batch))
            _, trace = jax.lax.scan(lambda s, k: jax.vmap(body)(s, k), first, step_keys)
            return first, trace

        return jax.jit(play)(keys)

    first_fast, trace_fast = run(fast)
    first_generic, trace_generic = run(generic)
    assert _same(first_fast, first_generic)
    assert _same(trace_fast, trace_generic)
    # the games got somewhere: rolls were drawn and rounds were played
    assert int(np.asarray(trace_fast._x.round_no).max()) >= 2
