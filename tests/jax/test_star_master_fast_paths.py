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
from moon_envs.jax.random_words import random_words, split_key  # noqa: E402
from moon_envs.jax.star_master import chance  # noqa: E402
from tests.helpers import assert_same_states  # noqa: E402

BATCH = 16
# one compile (about 45 s of CPU) with every option the fast paths branch on: 6 seats,
# 6 colours, seat-order races, children, decay memory, competition, a turn cap (reached)
# and score rewards. The defaults' fast step plays every batched random game of
# tests/jax/test_star_master_twin.py against the engine's reward sums.
PARAM_SETS = [
    (
        {
            "num_players": 6,
            "num_colours": 6,
            "race_winner": "seat_order",
            "children": True,
            "memory": "decay",
            "forget_prob": 0.3,
            "competition": True,
            "max_turns": 12,
        },
        "score",
    ),
]


@pytest.mark.parametrize(("params", "reward_mode"), PARAM_SETS)
def test_fast_init_and_step_equal_the_generic_ones(params, reward_mode):
    env = mj.make("star_master_v0", reward_mode=reward_mode, **params)
    t = env.tables

    def generic_init(key):
        x = chance.start(t, chance.init_words(key))
        return env._wrap(x, jnp.int32(0), env._zero_rewards(), jnp.int32(0))

    def generic_step(state, action, key):
        return JaxEnv._step_unchecked(env, state, action, key)

    lanes = jnp.arange(BATCH)

    @jax.jit
    def inits(key):
        keys = jax.random.split(key, BATCH)
        return jax.vmap(env.init)(keys), jax.vmap(generic_init)(keys)

    @jax.jit
    def move(state, key, step):
        """Both steps on every lane, what the lanes met, after putting a few lanes at a
        chance node (before set-up, or after an action whose chance, a roll or a race draw,
        is still to come) and restarting some finished lanes; one lane in 9 plays a wild
        (illegal or out-of-range) action."""
        k_act, k_wild, k_step, k_mix, k_init = jax.random.split(key, 5)
        select = jax.vmap(_select)
        mixed = jax.random.randint(k_mix, (BATCH,), 0, 24)
        legal_pick = jax.random.categorical(
            k_act, jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        ).astype(jnp.int32)
        initial = jax.vmap(lambda _: env.initial_state())(lanes)
        state = select(mixed == 0, initial, state)
        pending = jax.vmap(env.apply_action)(state, legal_pick)
        state = select((mixed == 1) & ~state.terminated & ~state.is_chance, pending, state)
        restarted = jax.vmap(env.init)(jax.random.split(k_init, BATCH))
        state = select(state.terminated & (mixed < 8), restarted, state)
        action = jax.random.categorical(
            k_act, jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        ).astype(jnp.int32)
        wild = jax.random.randint(k_wild, (BATCH,), -2, env.num_actions + 2)
        action = jnp.where(lanes % 9 == step % 9, wild, action).astype(jnp.int32)
        listed = state.legal_action_mask[lanes, jnp.clip(action, 0, env.num_actions - 1)]
        keys = jax.random.split(k_step, BATCH)
        fast = jax.vmap(env._step_unchecked)(state, action, keys)
        generic = jax.vmap(generic_step)(state, action, keys)
        seen = jnp.stack([
            (~listed | (action < 0) | (action >= env.num_actions)).sum(),
            state.is_chance.sum(),
            state.terminated.sum(),
            (fast.rewards != 0).any(axis=1).sum(),
        ])
        return fast, generic, seen

    key = jax.random.PRNGKey(11)
    state, generic = inits(key)
    assert_same_states(state, generic, "init")
    counts = np.zeros(4, np.int64)
    for step in range(24):
        key, k_move = jax.random.split(key)
        new, generic, met = move(state, k_move, step)
        assert_same_states(new, generic, f"step {step}")
        counts += np.asarray(met)
        state = new
    seen = dict(zip(("illegal", "chance", "finished", "rewarded"), counts.tolist()))
    assert all(count > 0 for count in seen.values()), seen


def test_random_words_are_jax_random_bits():
    keys = jax.random.split(jax.random.PRNGKey(3), 64)
    want = jax.vmap(lambda k: jax.random.bits(k, (5,), jnp.uint32))(keys)
    got = jax.jit(jax.vmap(lambda k: random_words(k, 5)))(keys)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    typed = jax.random.split(jax.random.key(4), 8)  # new-style key arrays too
    want = jax.vmap(lambda k: jax.random.bits(k, (3,), jnp.uint32))(typed)
    np.testing.assert_array_equal(np.asarray(jax.vmap(lambda k: random_words(k, 3))(typed)), want)


def test_split_key_is_jax_random_split():
    """The chance loops' and Moonstar's ``init`` key splits: bit for bit, batched and not,
    for raw keys; typed keys go to ``jax.random.split`` and come back typed."""
    keys = jax.random.split(jax.random.PRNGKey(5), 64)
    for num in (1, 2, 3):
        want = jax.vmap(lambda k, n=num: jax.random.split(k, n))(keys)
        got = jax.jit(jax.vmap(lambda k, n=num: split_key(k, n)))(keys)
        np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    np.testing.assert_array_equal(np.asarray(split_key(keys[0])), jax.random.split(keys[0]))
    typed = split_key(jax.random.key(6), 3)
    assert jax.dtypes.issubdtype(typed.dtype, jax.dtypes.prng_key)
    want = jax.random.key_data(jax.random.split(jax.random.key(6), 3))
    np.testing.assert_array_equal(np.asarray(jax.random.key_data(typed)), np.asarray(want))


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
