"""The Star Master twin's fast ``init`` and ``step`` (moon_envs.jax.star_master.fast) give
the generic states leaf by leaf, on random games with illegal and out-of-range actions,
chance nodes and finished games among the lanes (so the bit-word observation and mask
are the views'); the unrolled threefry gives ``jax.random.bits``'s words; the layout
draw reaches every permutation once."""

from __future__ import annotations

import itertools

import pytest

jax = pytest.importorskip("jax")

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import moon_envs.jax as mj  # noqa: E402
from moon_envs.jax.env import JaxEnv, _select  # noqa: E402
from moon_envs.jax.random_words import random_words  # noqa: E402
from moon_envs.jax.star_master import chance  # noqa: E402

BATCH = 16
# each its own compile: 2 seats with the defaults; 4 seats, decay memory, competition and
# a turn cap (reached); 1 seat, children (no swap); 6 seats, seat-order races, 6 colours
PARAM_SETS = [
    ({}, "win"),
    (
        {
            "num_players": 4,
            "memory": "decay",
            "forget_prob": 0.3,
            "competition": True,
            "max_turns": 12,
        },
        "score",
    ),
    ({"num_players": 6, "num_colours": 6, "race_winner": "seat_order", "children": True}, "win"),
]


def _assert_same(fast, generic, where: str) -> None:
    assert jax.tree.structure(fast) == jax.tree.structure(generic), where
    for (path, a), b in zip(jax.tree_util.tree_leaves_with_path(fast), jax.tree.leaves(generic)):
        assert a.dtype == b.dtype and a.shape == b.shape, (where, path)
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=f"{where} {path}")


@pytest.mark.parametrize(("params", "reward_mode"), PARAM_SETS)
def test_fast_init_and_step_equal_the_generic_ones(params, reward_mode):
    env = mj.make("star_master_v0", reward_mode=reward_mode, **params)
    t = env.tables

    def generic_init(key):
        x = chance.start(t, chance.init_words(key))
        return env._wrap(x, jnp.int32(0), env._zero_rewards(), jnp.int32(0))

    def generic_step(state, action, key):
        return JaxEnv._step_unchecked(env, state, action, key)

    fast_init, slow_init = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(generic_init))
    fast_step = jax.jit(jax.vmap(env._step_unchecked))
    slow_step = jax.jit(jax.vmap(generic_step))
    select = jax.jit(jax.vmap(_select))
    apply_action = jax.jit(jax.vmap(env.apply_action))
    initial = jax.vmap(lambda _: env.initial_state())(jnp.arange(BATCH))

    key = jax.random.PRNGKey(11)
    state = fast_init(jax.random.split(key, BATCH))
    _assert_same(state, slow_init(jax.random.split(key, BATCH)), "init")
    lanes = jnp.arange(BATCH)
    seen = {"illegal": 0, "chance": 0, "finished": 0, "rewarded": 0}
    for step in range(24):
        key, k_act, k_wild, k_step, k_mix, k_init = jax.random.split(key, 6)
        # a few lanes at a chance node: before set-up, or after an action whose chance
        # (a roll, a race draw) is still to come; finished lanes restart now and then
        mixed = jax.random.randint(k_mix, (BATCH,), 0, 24)
        legal_pick = jax.random.categorical(
            k_act, jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        ).astype(jnp.int32)
        state = select(mixed == 0, initial, state)
        pending = apply_action(state, legal_pick)
        state = select((mixed == 1) & ~state.terminated & ~state.is_chance, pending, state)
        restarted = fast_init(jax.random.split(k_init, BATCH))
        state = select(state.terminated & (mixed < 8), restarted, state)
        action = jax.random.categorical(
            k_act, jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        ).astype(jnp.int32)
        wild = jax.random.randint(k_wild, (BATCH,), -2, env.num_actions + 2)
        action = jnp.where(lanes % 9 == step % 9, wild, action).astype(jnp.int32)
        index = jnp.clip(action, 0, env.num_actions - 1)
        listed = np.asarray(state.legal_action_mask)[np.arange(BATCH), np.asarray(index)]
        seen["illegal"] += int((~listed | (action < 0) | (action >= env.num_actions)).sum())
        seen["chance"] += int(state.is_chance.sum())
        seen["finished"] += int(state.terminated.sum())
        keys = jax.random.split(k_step, BATCH)
        new = fast_step(state, action, keys)
        _assert_same(new, slow_step(state, action, keys), f"step {step}")
        seen["rewarded"] += int((np.asarray(new.rewards) != 0).any(axis=1).sum())
        state = new
    assert all(count > 0 for count in seen.values()), seen


def test_random_words_are_jax_random_bits():
    keys = jax.random.split(jax.random.PRNGKey(3), 64)
    want = jax.vmap(lambda k: jax.random.bits(k, (5,), jnp.uint32))(keys)
    got = jax.jit(jax.vmap(lambda k: random_words(k, 5)))(keys)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    typed = jax.random.split(jax.random.key(4), 8)  # new-style key arrays too
    want = jax.vmap(lambda k: jax.random.bits(k, (3,), jnp.uint32))(typed)
    np.testing.assert_array_equal(np.asarray(jax.vmap(lambda k: random_words(k, 3))(typed)), want)


def test_layout_draws_reach_every_permutation_once():
    # the mixed-radix digits of every index 0..k!-1, through the shuffle: each
    # permutation of 6 colours exactly once, so uniform digits give a uniform layout
    k = 6
    radices = list(range(k, 1, -1))
    rows = np.array(list(itertools.product(*[range(r) for r in radices])), np.int32)
    layouts = jax.jit(jax.vmap(lambda d: chance.shuffled(k, list(d))))(jnp.asarray(rows))
    assert len({tuple(row) for row in np.asarray(layouts).tolist()}) == len(rows) == 720
    # the digits of one word: each index 0..P-1 from an equal share of the words
    words = jnp.asarray(np.arange(0, 2**32, 2**32 // 4096, dtype=np.uint64).astype(np.uint32))
    digits = jax.vmap(lambda w: jnp.stack(chance.digits(w, [6, 5, 4])))(words)
    index = np.asarray(digits) @ np.array([20, 4, 1])
    counts = np.bincount(index, minlength=120)
    assert counts.max() - counts.min() <= 1


def test_roll_and_draw_follow_their_probabilities():
    env = mj.make("star_master_v0", white_faces=[0, 1, 1, 9], black_faces=[1, 0, 0])
    t = env.tables
    words = jnp.asarray(np.arange(0, 2**32, 2**32 // 12000, dtype=np.uint64).astype(np.uint32))
    outcomes = np.asarray(jax.vmap(lambda w: chance.roll_outcome(t, w))(words))
    freq = np.bincount(outcomes, minlength=20) / outcomes.size
    np.testing.assert_allclose(freq, t.roll_probs, atol=1e-3)
    flags = jnp.array([True, False, True, True])
    drawn = np.asarray(jax.vmap(lambda w: chance._among(flags, w))(words))
    assert set(drawn.tolist()) == {0, 2, 3}
    shares = np.bincount(drawn, minlength=4)[[0, 2, 3]] / drawn.size
    np.testing.assert_allclose(shares, 1 / 3, atol=1e-3)
