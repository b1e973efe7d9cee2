"""A Jupiter twin position converts to the Python engine's state and back
(moon_envs.jax.python_states), checked on random positions both ways."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import moon_envs.jax as mj
from moon_envs import ConfigError
from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.jax.python_states import converts_many, from_python, from_python_many, to_python

PARAMS = {"num_players": 3, "line_features": True}  # 3 seats: turns that do not alternate
TRANSITION = {"last_action", "_scores_before", "_last_win_delta"}  # not part of a position


@pytest.fixture(scope="module")
def env():
    return mj.make("jupiter_v0", **PARAMS)


def _position(py) -> dict:
    fields = py.to_dict()["state"]
    return {k: v for k, v in fields.items() if k not in TRANSITION}


def _python_positions(env, count: int, seed: int) -> list:
    """Positions of random Python games, chance nodes and finished games included."""
    rng = np.random.default_rng(seed)
    state, out = env.game.new_initial_state(), []
    while len(out) < count:
        if state.is_terminal():
            out.append(state.clone())
            state = env.game.new_initial_state()
        elif state.is_chance_node():
            state.apply_action(int(rng.choice([o for o, _ in state.chance_outcomes()])))
        else:
            state.apply_action(int(rng.choice(np.flatnonzero(state.legal_actions_mask()))))
        out.append(state.clone())
    return out


def _check_same_position(twin, py) -> None:
    """The twin state and the Python state show the same player, mask, view and scores."""
    player = py.current_player()
    assert int(twin._step_count) == py.move_number
    assert bool(twin.terminated) == (player == TERMINAL)
    assert bool(twin.is_chance) == (player == CHANCE)
    np.testing.assert_array_equal(np.asarray(twin._x.points), py.scores())
    if player >= 0:
        assert int(twin.current_player) == player
        np.testing.assert_array_equal(twin.legal_action_mask, py.legal_actions_mask() > 0)
        np.testing.assert_allclose(twin.observation, py.observation(player), atol=1e-6)


def test_python_positions_go_to_the_twin_and_back(env) -> None:
    kinds = set()
    for py in _python_positions(env, 40, seed=0):
        twin = from_python(env, py)
        _check_same_position(twin, py)
        assert not np.asarray(twin.rewards).any()
        back = to_python(env, twin)
        assert _position(back) == _position(py)
        kinds.add(py.stage)
    assert {"start", "move", "rolling", "rolled", "over"} <= kinds


def test_twin_positions_go_to_python_and_back(env) -> None:
    @jax.jit
    def play(key):  # a batch of random games, the state after every decision
        def decide(state, key):
            k_act, k_step = jax.random.split(key)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            state = env.step(state, jax.random.categorical(k_act, logits), k_step)
            return state, state

        k_init, k_play = jax.random.split(key)
        return jax.lax.scan(decide, env.init(k_init), jax.random.split(k_play, 40))[1]

    states = jax.vmap(play)(jax.random.split(jax.random.PRNGKey(0), 2))
    finished = 0
    for lane in range(2):
        for step in range(0, 40, 3):
            twin = jax.tree.map(lambda leaf, i=lane, t=step: leaf[i, t], states)
            py = to_python(env, twin)
            _check_same_position(twin, py)
            again = from_python(env, py)
            expected = twin.replace(rewards=jnp.zeros_like(twin.rewards))
            for got, want in zip(jax.tree.leaves(again), jax.tree.leaves(expected)):
                np.testing.assert_array_equal(got, want)
            finished += bool(twin.terminated)
    assert finished  # finished games convert too


def test_what_cannot_convert_is_refused_naming_it(env) -> None:
    py = _python_positions(env, 3, seed=1)[-1]
    twin = from_python(env, py)
    with pytest.raises(ConfigError, match="one position"):
        to_python(env, jax.tree.map(lambda leaf: jnp.stack([leaf, leaf]), twin))
    ended = twin.replace(
        terminated=jnp.bool_(True), legal_action_mask=jnp.ones_like(twin.legal_action_mask)
    )
    with pytest.raises(ConfigError, match="ended by bad input"):
        to_python(env, ended)
    with pytest.raises(ConfigError, match="py_state's game has config"):
        from_python(env, mj.make("jupiter_v0").game.new_initial_state())
    with pytest.raises(ConfigError, match=r"no conversion to Python states; allowed"):
        to_python(SimpleNamespace(id="chess_v6"), twin)  # every twin converts today
    with pytest.raises(ConfigError, match="py_state must be a JupiterState"):
        from_python(env, "a state")


def test_many_positions_stack_the_states_of_each(env) -> None:
    """``from_python_many`` on a twin that converts one position at a time (Jupiter)
    stacks ``from_python``'s states in the list's order, and checks each position."""
    positions = _python_positions(env, 5, seed=2)
    many = from_python_many(env, positions)
    assert not converts_many(env) and many.current_player.shape == (len(positions),)
    for b, py in enumerate(positions):
        row = jax.tree.map(lambda leaf, b=b: leaf[b], many)
        for got, want in zip(jax.tree.leaves(row), jax.tree.leaves(from_python(env, py))):
            np.testing.assert_array_equal(got, want)
    with pytest.raises(ConfigError, match="py_states must hold at least one"):
        from_python_many(env, [])
    with pytest.raises(ConfigError, match="py_state's game has config"):
        from_python_many(env, [positions[0], mj.make("jupiter_v0").game.new_initial_state()])
