"""A Moonstar twin position converts to the Python engine's state and back
(moon_envs.jax.python_states), checked on random positions of several Games and player
counts, both ways."""

from __future__ import annotations

import functools

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import moon_envs.jax as mj
from moon_envs import ConfigError
from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.jax.python_states import from_python, to_python
from tests.jax.random_python_positions import random_python_positions

# Games and seats that reach every phase: Game 1 at 4 seats; Game 6's red planet at 3;
# Game 11's sealed side bets at 5, with a random set-up and speaking order; Game 12's menu
# (chains, squares, challenges among its entries) at 2. Low targets: games that finish.
PARAMS = {
    "game1": {"target": 60},
    "game6": {"game": 6, "num_players": 3, "target": 40},
    "game11_random": {
        "game": 11, "num_players": 5, "setup": "random", "auction_order": "random", "target": 60,
    },
    "game12": {"game": 12, "num_players": 2, "dealer_menu": (1, 7, 8, 10), "target": 30},
}  # fmt: skip
OWN_PHASE = {"game6": "favourite", "game11_random": "bets", "game12": "menu"}
# a transition's data, and the engine's caches outside the phases that read them
TRANSITION = {"last_action", "report", "_scores_before", "_last_win_delta", "best_total"}


@functools.cache
def _env(name: str):
    return mj.make("moonstar_v1", **PARAMS[name])


@functools.cache
def _views(name: str):
    """A jitted ``state -> (every seat's observation, chance probabilities)``."""
    env = _env(name)
    seats = jnp.arange(env.num_players)
    return jax.jit(lambda s: (jax.vmap(lambda p: env.observe(s, p))(seats), env.chance_probs(s)))


def _position(py) -> dict:
    """The position's fields, caches only where the rules read them."""
    fields = {k: v for k, v in py.to_dict()["state"].items() if k not in TRANSITION}
    fields.pop("board")  # kept up to date move by move: compared to float32 rounding
    if py.phase not in ("planet", "moon", "roll"):
        fields.pop("moons_on_star")  # read only while moons are placed
    if py.phase != "play":
        fields.pop("play_block")
    return fields


def _check_same_position(name: str, twin, py) -> None:
    """The twin state and the Python state show the same player, mask, every seat's view,
    the chance distribution and the scores."""
    env = _env(name)
    player = py.current_player()
    assert int(twin._step_count) == py.move_number
    assert bool(twin.terminated) == (player == TERMINAL)
    assert bool(twin.is_chance) == (player == CHANCE)
    np.testing.assert_array_equal(np.asarray(twin._x.points), py.scores())
    views, probs = _views(name)(twin)
    for seat in range(env.num_players):
        np.testing.assert_allclose(views[seat], py.observation(seat), atol=1e-5)
    expected = np.zeros(env.num_chance_outcomes, np.float32)
    for outcome, p in py.chance_outcomes():
        expected[outcome] = p
    np.testing.assert_allclose(probs, expected, atol=1e-6)
    if player >= 0:
        assert int(twin.current_player) == player
        np.testing.assert_array_equal(twin.legal_action_mask, py.legal_actions_mask() > 0)


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_python_positions_go_to_the_twin_and_back(name) -> None:
    env = _env(name)
    phases = set()
    for py in random_python_positions(env, 16, seed=len(name), every=7):
        twin = from_python(env, py)
        _check_same_position(name, twin, py)
        assert not np.asarray(twin.rewards).any()
        back = to_python(env, twin)
        assert _position(back) == _position(py)
        if py.current_player() >= 0:  # a chance node may hold a board still being updated
            np.testing.assert_allclose(back.board, py.board, atol=1e-6)
        if py.phase in ("favourite", "bets") or (py.phase == "play" and py.moves_done == 0):
            assert back.best_total == py.best_total  # the round's optimum, solved alike
        phases.add(py.phase)
        if py.is_terminal():
            np.testing.assert_array_equal(back.returns(), py.returns())
    assert {"auction", "play", "over", OWN_PHASE.get(name, "roll")} <= phases


def test_twin_positions_go_to_python_and_back() -> None:
    name = "game11_random"  # one compile of a random game: the most chance and hidden bets
    env = _env(name)

    @jax.jit
    def play(key):  # a random game, the state after every decision
        def decide(state, key):
            k_act, k_step = jax.random.split(key)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            state = env.step(state, jax.random.categorical(k_act, logits), k_step)
            return state, state

        k_init, k_play = jax.random.split(key)
        return jax.lax.scan(decide, env.init(k_init), jax.random.split(k_play, 120))[1]

    states = play(jax.random.PRNGKey(3))
    phases = set()
    for step in range(0, 120, 7):
        twin = jax.tree.map(lambda leaf, t=step: leaf[t], states)
        py = to_python(env, twin)
        _check_same_position(name, twin, py)
        assert str(py)  # the text view of a converted position
        again = from_python(env, py)
        for got, want in zip(jax.tree.leaves(again._x), jax.tree.leaves(twin._x)):
            np.testing.assert_array_equal(got, want)
        for field in ("current_player", "legal_action_mask", "terminated", "is_chance"):
            np.testing.assert_array_equal(getattr(again, field), getattr(twin, field))
        if int(twin.current_player) >= 0:  # a chance node shows the last decider's view
            np.testing.assert_array_equal(again.observation, twin.observation)
        phases.add(py.phase)
        if int(twin.current_player) >= 0 and not bool(twin.terminated):
            action = int(np.flatnonzero(twin.legal_action_mask)[0])
            py.apply_action(action)  # the engine plays on from the converted position
    assert {"auction", "play"} <= phases


def test_what_cannot_convert_is_refused_naming_it() -> None:
    env = _env("game1")
    py = env.game.new_initial_state()
    py.apply_action(0)  # seat 0 organizes, places a planet
    py.apply_action(int(np.flatnonzero(py.legal_actions_mask())[0]))
    twin = from_python(env, py)
    with pytest.raises(ConfigError, match="one position"):
        to_python(env, jax.tree.map(lambda leaf: jnp.stack([leaf, leaf]), twin))
    ended = twin.replace(
        terminated=jnp.bool_(True), legal_action_mask=jnp.ones_like(twin.legal_action_mask)
    )
    with pytest.raises(ConfigError, match="ended by bad input"):
        to_python(env, ended)
    with pytest.raises(ConfigError, match="py_state's game has config"):
        from_python(env, _env("game6").game.new_initial_state())
    assert py.planets_to_place == [10, 5, 5]
    odd = py.clone()
    odd.planets_to_place = [10, 10, 5]  # not the end of (10, 10, 5, 5)
    with pytest.raises(ConfigError, match=r"planets_to_place=\[10, 10, 5\] is not the end"):
        from_python(env, odd)
    odd = py.clone()
    odd.points = np.array([2**40, 0, 0, 0])
    with pytest.raises(ConfigError, match=r"points\[0\]=1099511627776 is out of the twin's"):
        from_python(env, odd)
    while py.phase != "moon" or py.moons_placed == 0:
        py.apply_action(int(np.flatnonzero(py.legal_actions_mask())[0]))
    odd = py.clone()
    odd.moons_on_star = np.zeros(12, np.int8)
    with pytest.raises(ConfigError, match=r"moons_on_star=.* disagrees with moon_star"):
        from_python(env, odd)
