"""The Moon Harvesters twin's own ``step`` equals the base class's generic one, leaf by
leaf, lane by lane, on random games with illegal and out-of-range actions and finished
games among the lanes (moon_envs.jax.moon_harvesters.twin)."""

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import moon_envs.jax as mj
from moon_envs.jax.env import JaxEnv
from tests.helpers import assert_same_states

BATCH = 16
STEPS = 60
PARAM_SETS = [
    ({"num_players": 2, "num_deposits": 12, "pieces_per_kind": 4}, "win"),
    (
        {
            "num_players": 3,
            "rows": 6,
            "cols": 7,
            "pieces_per_kind": 3,
            "craters_block": False,
            "craters_block_deposits": False,
            "deposits_when_short": "none",
            "ties": "none",
        },
        "score",
    ),
]


@pytest.mark.parametrize(("params", "reward_mode"), PARAM_SETS)
def test_fast_step_equals_the_generic_one(params, reward_mode):
    env = mj.make("moon_harvesters_v0", reward_mode=reward_mode, **params)
    key = jax.random.PRNGKey(11)
    start = jax.jit(env.init)(key)
    lanes = jnp.arange(BATCH)

    @jax.jit
    def move(state, key, t):
        """Both steps on every lane (one lane a step plays anything, so some games end by
        bad input), what the lanes met, and the next states: a lane stepped once while
        finished starts a new game."""
        k_act, k_wild = jax.random.split(key)
        action = jax.random.categorical(k_act, jnp.where(state.legal_action_mask, 0.0, -jnp.inf))
        wild = jax.random.randint(k_wild, (BATCH,), -2, env.num_actions + 2)
        action = jnp.where(lanes == t % BATCH, wild, action).astype(jnp.int32)
        in_range = (action >= 0) & (action < env.num_actions)
        listed = state.legal_action_mask[lanes, jnp.clip(action, 0, env.num_actions - 1)]
        fast = jax.vmap(lambda s, a: env._step_unchecked(s, a, None))(state, action)
        generic = jax.vmap(lambda s, a: JaxEnv._step_unchecked(env, s, a, None))(state, action)
        seen = jnp.stack([
            (~state.terminated & ~(in_range & listed)).sum(),
            state.terminated.sum(),
            (fast.terminated & (fast._x.phase == 4)).sum(),
        ])
        restart = jax.tree.map(lambda a, b: jnp.where(
            state.terminated.reshape((-1,) + (1,) * (a.ndim - 1)), b, a), fast, start)
        return fast, generic, seen, restart

    state = jax.tree.map(lambda leaf: np.stack([leaf] * BATCH), start)
    seen = np.zeros(3, np.int64)  # illegal actions, finished lanes, games ended by play
    for t in range(STEPS):
        key, k_move = jax.random.split(key)
        new, generic, counts, state = move(state, k_move, t)
        assert_same_states(new, generic, f"step {t}")
        seen += np.asarray(counts)
    assert (seen > 0).all(), dict(zip(("illegal", "finished", "ended by play"), seen.tolist()))
