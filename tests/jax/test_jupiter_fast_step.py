"""The Jupiter twin's own ``init`` and ``step`` equal the base class's generic ones, leaf
by leaf, on random games with illegal and out-of-range actions, chance nodes and finished
games among the lanes (moon_envs.jax.jupiter)."""

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import moon_envs.jax as mj
from moon_envs.jax.env import JaxEnv, _select
from tests.helpers import assert_same_states

BATCH = 32
PARAM_SETS = [
    ({"num_players": 2}, "win"),
    (
        {
            "num_players": 3,
            "line_features": True,
            "random_first_player": False,
            "stuck_player": "end",
            "ties": "none",
            "num_probes": 2,
        },
        "score",
    ),
    ({"num_players": 4, "black_moons": True, "expanding_universe": True}, "win"),
]


@pytest.mark.parametrize(("params", "reward_mode"), PARAM_SETS)
def test_fast_init_and_step_equal_the_generic_ones(params, reward_mode):
    env = mj.make("jupiter_v0", reward_mode=reward_mode, **params)
    lanes = jnp.arange(BATCH)
    roll = jnp.full((BATCH,), 2 * env.game.num_cells, jnp.int32)

    @jax.jit
    def inits(key):
        keys = jax.random.split(key, BATCH)
        return jax.vmap(env.init)(keys), jax.vmap(lambda k: JaxEnv.init(env, k))(keys)

    @jax.jit
    def move(state, key, t):
        """One step of every lane by both paths, after putting a few lanes at a chance node
        (the first player still to draw, or a die taken and not yet rolled); one lane in 8
        plays a wild (illegal or out-of-range) action. Also counts what the lanes met."""
        k_act, k_wild, k_step, k_mix = jax.random.split(key, 4)
        mixed = jax.random.randint(k_mix, (BATCH,), 0, 16)
        initial = jax.vmap(lambda _: env.initial_state())(lanes)
        state = jax.vmap(_select)(mixed == 0, initial, state)
        rolled = jax.vmap(env.apply_action)(state, roll)
        state = jax.vmap(_select)((mixed == 1) & state.legal_action_mask[:, -1], rolled, state)
        action = jax.random.categorical(k_act, jnp.where(state.legal_action_mask, 0.0, -jnp.inf))
        wild = jax.random.randint(k_wild, (BATCH,), -2, env.num_actions + 2)
        action = jnp.where(lanes % 8 == t % 8, wild, action).astype(jnp.int32)
        keys = jax.random.split(k_step, BATCH)
        illegal = (
            ~state.legal_action_mask[lanes, jnp.clip(action, 0, env.num_actions - 1)]
            | (action < 0)
            | (action >= env.num_actions)
        )
        seen = jnp.stack([illegal.sum(), state.is_chance.sum(), state.terminated.sum()])
        fast = jax.vmap(env._step_unchecked)(state, action, keys)
        generic = jax.vmap(lambda s, a, k: JaxEnv._step_unchecked(env, s, a, k))(
            state, action, keys
        )
        return fast, generic, seen

    key = jax.random.PRNGKey(7)
    state, generic = inits(key)
    assert_same_states(state, generic, "init")
    seen = np.zeros(3, np.int64)  # illegal actions, chance nodes, finished games
    for t in range(min(env.spec.max_game_length + 2, 24)):
        key, k_move = jax.random.split(key)
        new, generic, counts = move(state, k_move, t)
        assert_same_states(new, generic, f"step {t}")
        seen += np.asarray(counts)
        state = new
    assert (seen > 0).all(), dict(zip(("illegal", "chance", "finished"), seen.tolist()))
