"""A Star Master twin position converts to the Python engine's state and back
(moon_envs.jax.python_states), checked on random positions both ways."""

from __future__ import annotations

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import moon_envs.jax as mj
from moon_envs import ConfigError
from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.jax.python_states import from_python, to_python
from moon_envs.star_master.text import text_view
from tests.jax.random_python_positions import random_python_positions

# 3 seats, 6 colours, forgetting by the seeded hash: races, draws, seeds and memory
PARAMS = {"num_players": 3, "num_colours": 6, "memory": "decay"}
# a transition's or a narration's data, not part of the twin's position
INFO = {
    "_scores_before", "_last_win_delta", "last_flip", "last_race", "in_window",
    "last_seat", "last_action", "last_phase",
}  # fmt: skip


@pytest.fixture(scope="module")
def env():
    return mj.make("star_master_v0", **PARAMS)


def _position(py) -> dict:
    fields = py.to_dict()["state"]
    return {k: v for k, v in fields.items() if k not in INFO}


def _check_same_position(twin, py) -> None:
    """The twin state and the Python state show the same player, mask, view and scores."""
    player = py.current_player()
    assert int(twin._step_count) == py.move_number
    assert bool(twin.terminated) == (player == TERMINAL)
    assert bool(twin.is_chance) == (player == CHANCE)
    np.testing.assert_array_equal(np.asarray(twin._x.pawns).sum(axis=1), py.scores())
    if player >= 0:
        assert int(twin.current_player) == player
        np.testing.assert_array_equal(twin.legal_action_mask, py.legal_actions_mask() > 0)
        np.testing.assert_allclose(twin.observation, py.observation(player), atol=1e-6)


def test_python_positions_go_to_the_twin_and_back(env) -> None:
    phases = set()
    for py in random_python_positions(env, 40, seed=0, every=7):
        twin = from_python(env, py)
        _check_same_position(twin, py)
        assert not np.asarray(twin.rewards).any()
        back = to_python(env, twin)
        assert _position(back) == _position(py)
        phases.add(py.phase)
        if py.is_terminal():
            np.testing.assert_array_equal(back.returns(), py.returns())
    assert len(phases) >= 5 and py.is_terminal()  # finished games convert too


def test_twin_positions_go_to_python_and_back(env) -> None:
    @jax.jit
    def play(key):  # a random game, the state after every decision
        def decide(state, key):
            k_act, k_step = jax.random.split(key)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            state = env.step(state, jax.random.categorical(k_act, logits), k_step)
            return state, state

        k_init, k_play = jax.random.split(key)
        return jax.lax.scan(decide, env.init(k_init), jax.random.split(k_play, 40))[1]

    states = play(jax.random.PRNGKey(0))
    for step in range(0, 40, 2):
        twin = jax.tree.map(lambda leaf, t=step: leaf[t], states)
        py = to_python(env, twin)
        _check_same_position(twin, py)
        assert text_view(py, None) and str(py)  # the text view of a converted position
        again = from_python(env, py)
        for got, want in zip(jax.tree.leaves(again._x), jax.tree.leaves(twin._x)):
            np.testing.assert_array_equal(got, want)
        for name in ("current_player", "legal_action_mask", "terminated", "is_chance"):
            np.testing.assert_array_equal(getattr(again, name), getattr(twin, name))
        if int(twin.current_player) >= 0:  # a chance node shows the last decider's view
            np.testing.assert_array_equal(again.observation, twin.observation)


def test_what_cannot_convert_is_refused_naming_it(env) -> None:
    py = next(p for p in random_python_positions(env, 20, seed=1) if p.current_player() >= 0)
    twin = from_python(env, py)
    with pytest.raises(ConfigError, match="one position"):
        to_python(env, jax.tree.map(lambda leaf: jnp.stack([leaf, leaf]), twin))
    ended = twin.replace(
        terminated=jnp.bool_(True), legal_action_mask=jnp.ones_like(twin.legal_action_mask)
    )
    with pytest.raises(ConfigError, match="ended by bad input"):
        to_python(env, ended)
    with pytest.raises(ConfigError, match="py_state's game has config"):
        from_python(env, mj.make("star_master_v0").game.new_initial_state())
