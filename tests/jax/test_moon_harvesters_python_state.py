"""A Moon Harvesters twin position converts to the Python engine's state and back
(moon_envs.jax.python_states), and the twin's fast paths (its constant ``init``, the
covered cells and "still fits" words on row bitboards) replay the Python engine position
by position: every field, not only the rewards.

One small board with three seats and three shapes, so that games are short, seats pass
and every phase shows up; one compile of each jitted function.
"""

from __future__ import annotations

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np

import moon_envs.jax as mj
from moon_envs import ConfigError
from moon_envs.core.game import TERMINAL
from moon_envs.jax.python_states import from_python, to_python

PARAMS = {
    "num_players": 3,
    "rows": 6,
    "cols": 7,
    "shapes": ["L", "##/##", "T"],
    "pieces_per_kind": 4,
    "num_deposits": 30,
}
TRANSITION = {"last_action", "_scores_before", "_last_win_delta"}  # not part of a position
PLIES = 48


@pytest.fixture(scope="module")
def env():
    return mj.make("moon_harvesters_v0", **PARAMS)


@pytest.fixture(scope="module")
def twin_games(env):
    """Two random twin games from ``init``, the state after every decision, and the
    actions taken."""

    @jax.jit
    def play(key):
        def decide(state, key):
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            action = jax.random.categorical(key, logits)
            return env.step(state, action), (state, action)

        return jax.lax.scan(decide, env.init(key), jax.random.split(key, PLIES))[1]

    return jax.vmap(play)(jax.random.split(jax.random.PRNGKey(0), 2))


def _position(py) -> dict:
    fields = py.to_dict()["state"]
    return {k: v for k, v in fields.items() if k not in TRANSITION}


def _check_same_position(twin, py) -> None:
    """The twin state and the Python state show the same player, mask, view and scores."""
    player = py.current_player()
    assert int(twin._step_count) == py.move_number
    assert bool(twin.terminated) == (player == TERMINAL)
    np.testing.assert_array_equal(np.asarray(twin._x.collected), py.scores())
    if player >= 0:
        assert int(twin.current_player) == player
        np.testing.assert_array_equal(twin.legal_action_mask, py.legal_actions_mask() > 0)
        np.testing.assert_allclose(twin.observation, py.observation(player), atol=1e-6)


def _lane(tree, lane: int, ply: int):
    return jax.tree.map(lambda leaf: leaf[lane, ply], tree)


def test_twin_games_replay_the_python_engine_position_by_position(env, twin_games) -> None:
    """Each twin position, from ``init`` on, is the Python engine's position after the
    same actions: every field, the "still fits" flags, the harvesters' numbers and the
    passes included."""
    states, actions = twin_games
    phases, passes = set(), 0
    for lane in range(2):
        py = env.game.new_initial_state()
        for ply in range(PLIES):
            twin = _lane(states, lane, ply)
            if bool(twin.terminated):
                break
            assert _position(to_python(env, twin)) == _position(py)
            _check_same_position(twin, py)
            phases.add(py.phase)
            py.apply_action(int(actions[lane, ply]))
            passes = max(passes, py.passes)
    assert phases == {"auction", "craters", "place", "deposits"}
    assert passes > 0  # seats passed, and the twin counted them


def test_twin_positions_go_to_python_and_back(env, twin_games) -> None:
    states, _ = twin_games
    for lane in range(2):
        for ply in range(0, PLIES, 5):
            twin = _lane(states, lane, ply)
            py = to_python(env, twin)
            assert "phase:" in str(py) and len(py.board_lines()) == 2 * env.tables.rows
            again = from_python(env, py)
            expected = twin.replace(rewards=jnp.zeros_like(twin.rewards))
            for got, want in zip(jax.tree.leaves(again), jax.tree.leaves(expected)):
                np.testing.assert_array_equal(got, want)


def test_python_positions_go_to_the_twin_and_back(env) -> None:
    """Positions of random Python games, finished ones included."""
    rng, finished = np.random.default_rng(0), 0
    for _ in range(2):
        py = env.game.new_initial_state()
        while True:
            twin = from_python(env, py)
            _check_same_position(twin, py)
            assert not np.asarray(twin.rewards).any()
            assert _position(to_python(env, twin)) == _position(py)
            if py.is_terminal():
                finished += 1
                break
            py.apply_action(int(rng.choice(np.flatnonzero(py.legal_actions_mask()))))
    assert finished == 2


def test_what_cannot_convert_is_refused_naming_it(env) -> None:
    twin = env.init(jax.random.PRNGKey(0))
    illegal = int(np.flatnonzero(~np.asarray(twin.legal_action_mask))[0])
    with pytest.raises(ConfigError, match="ended by bad input"):
        to_python(env, jax.jit(env.step)(twin, illegal))
    with pytest.raises(ConfigError, match="py_state's game has config"):
        from_python(env, mj.make("moon_harvesters_v0").game.new_initial_state())


def test_board_words_hold_the_cells_once(env, twin_games):
    """In every state of the games the board's row words set no bit past the grid's
    columns, no cell belongs to two seats, and packing the cells they spell gives the
    words back."""
    from moon_envs.jax.moon_harvesters import board

    t = env.tables
    words = np.asarray(twin_games[0]._x.board).reshape(-1, t.n + 2, t.rows)
    assert words.shape[0] == 2 * PLIES
    assert not (words & np.uint32(t.high_bits)).any()
    seats = words[:, : t.n]
    assert seats.any() and words[:, t.n + 1].any()  # harvesters and deposits were placed
    assert (np.bitwise_or.reduce(seats, axis=1) == seats.sum(axis=1, dtype=np.uint64)).all()

    @jax.jit
    @jax.vmap
    def repacked(w):
        return board.pack_board(t, *board.board_cells(t, w))

    np.testing.assert_array_equal(np.asarray(repacked(words)), words)
