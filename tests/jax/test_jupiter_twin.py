"""The JAX twin of Jupiter plays exactly the Python engine's game (moon_envs.jax.jupiter)."""

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import moon_envs.jax as mj
from moon_agents.evaluation.jax_equivalence import check_with_agents
from moon_envs.core.game import ConfigError

ENV_ID = "jupiter_v0"

# (params, reward_mode, games): every player count and every variant parameter at least once
EQUIVALENCE_SETS = [
    ({"num_players": 2}, "score", 24),
    (
        {
            "num_players": 3,
            "line_features": True,
            "random_first_player": False,
            "stuck_player": "end",
            "ties": "none",
            "num_probes": 2,
            "num_dice": 12,
        },
        "win",
        16,
    ),
    ({"num_players": 4, "black_moons": True, "expanding_universe": True}, "win", 16),
]
BATCH = 32

_ENVS: dict = {}


def _env(params: dict, reward_mode: str = "win"):
    """One twin per parameter set, so that compiled functions are reused."""
    key = (tuple(sorted(params.items())), reward_mode)
    if key not in _ENVS:
        env = mj.make(ENV_ID, reward_mode=reward_mode, **params)
        init = jax.jit(jax.vmap(env.init))
        step = jax.jit(jax.vmap(env.step))
        _ENVS[key] = (env, init, step)
    return _ENVS[key]


@pytest.mark.parametrize(("params", "reward_mode", "games"), EQUIVALENCE_SETS)
def test_equivalence_with_agents(params, reward_mode, games):
    report = check_with_agents(ENV_ID, params, games, batch=games, reward_mode=reward_mode)
    assert report.ok, report.problems
    assert report.games == games and report.events > 0


@jax.jit
def _random_actions(mask, key):
    """A uniformly random legal action per game."""
    return jax.random.categorical(key, jnp.where(mask, 0.0, -jnp.inf), axis=-1)


def test_batched_random_games_end_with_the_python_reward_sums():
    env, init, step = _env({"num_players": 2})
    batch = BATCH
    keys = jax.random.split(jax.random.PRNGKey(1), batch)
    state = init(keys)
    total = jnp.zeros((batch, env.num_players))
    key = jax.random.PRNGKey(2)
    for _ in range(env.spec.max_game_length + 1):
        key, k1, k2 = jax.random.split(key, 3)
        action = _random_actions(state.legal_action_mask, k1)
        state = step(state, action, jax.random.split(k2, batch))
        total = total + state.rewards
    assert bool(state.terminated.all())
    scores = np.asarray(state._x.points, np.float32)
    total = np.asarray(total)
    # the winners share +1, the others -1 (0 if everyone shares the best score): the sum
    # is 0, as the Python env's "win" returns
    for row, pts in zip(total, scores):
        best = pts == pts.max()
        expected = np.where(best, 1.0 / best.sum(), -1.0 / max((~best).sum(), 1))
        if best.all():
            expected[:] = 0.0
        np.testing.assert_allclose(row, expected, atol=1e-6)
        assert abs(row.sum()) < 1e-6


def _actions(action: int) -> jax.Array:
    """The same action in every game of the batch (int32, as the random actions, so that
    the compiled ``step`` is reused)."""
    return jnp.asarray(np.full(BATCH, action, np.int32))


def test_terminated_state_steps_to_itself_and_illegal_action_is_penalised():
    env, init, step = _env({"num_players": 2})
    c = env.game.num_cells  # 16: a 4 x 4 board
    state = init(jax.random.split(jax.random.PRNGKey(3), BATCH))  # the compiled batch size
    keys = jax.random.split(jax.random.PRNGKey(4), BATCH)
    player = int(state.current_player[0])
    # the roll action is legal; a die on a cell is not, before a roll
    assert bool(state.legal_action_mask[0, 2 * c]) and not bool(state.legal_action_mask[0, c])
    bad = step(state, _actions(c), keys)
    assert bool(bad.terminated[0])
    expected = np.zeros(2, np.float32)
    expected[player] = -1.0
    np.testing.assert_array_equal(np.asarray(bad.rewards[0]), expected)
    # an out-of-range action is illegal too
    out = step(state, _actions(2 * c + 5), keys)
    assert bool(out.terminated[0]) and float(out.rewards[0, player]) == -1.0
    # a finished game steps to itself with zero rewards
    again = step(bad, _actions(0), keys)
    np.testing.assert_array_equal(np.asarray(again.rewards), 0.0)
    for a, b in zip(jax.tree.leaves(again.replace(rewards=bad.rewards)), jax.tree.leaves(bad)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_env_parameters_a_twin_cannot_take_raise_config_error():
    # every Jupiter parameter is expressible; only the env-level render / raise options are not
    with pytest.raises(ConfigError, match="render_mode"):
        mj.make(ENV_ID, render_mode="ansi")
    with pytest.raises(ConfigError, match="illegal_action"):
        mj.make(ENV_ID, illegal_action="raise")
    with pytest.raises(ConfigError, match="num_players"):
        mj.make(ENV_ID, num_players=5)
