"""The greedy Moon Harvesters rule on the JAX twin picks among exactly the Python agent's
choices, position by position, and plays like it."""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import moon_envs.jax as mj  # noqa: E402
from moon_agents.heuristics.moon_harvesters import best_actions  # noqa: E402
from moon_agents.heuristics.moon_harvesters_jax import GreedyOnTwin  # noqa: E402

PARAMS = [
    {"num_players": 2},
    {"num_players": 3, "rows": 9, "cols": 11, "craters_block_deposits": False},
]


@pytest.mark.parametrize("params", PARAMS, ids=["2p", "3p_board"])
def test_twin_greedy_ranks_first_exactly_the_python_choices(params: dict) -> None:
    twin = mj.make("moon_harvesters_v0", **params)
    greedy = GreedyOnTwin(twin)
    choices = jax.jit(greedy.choices)
    apply = jax.jit(twin.apply_action)
    rng = np.random.default_rng(0)
    compared = tied = 0
    for _ in range(3):
        state, x = twin.game.new_initial_state(), twin.initial_state()
        while not state.is_terminal():
            legal = np.flatnonzero(state.legal_actions_mask())
            expected = best_actions(state, legal, state.current_player())
            got = np.flatnonzero(np.asarray(choices(x)))
            assert got.tolist() == sorted(expected.tolist()), (state.phase, compared)
            compared += 1
            tied += expected.size > 1
            # half greedy, half random moves: positions the greedy player would not reach
            action = int(rng.choice(expected if rng.random() < 0.5 else legal))
            state.apply_action(action)
            x = apply(x, np.int32(action))
    assert compared > 100 and tied > 10  # the ties (the random draw) were exercised


def test_twin_greedy_beats_random_on_the_twin() -> None:
    twin = mj.make("moon_harvesters_v0", num_players=2)
    greedy = GreedyOnTwin(twin)
    n = 32

    def move(state, key):
        k_rand, k_greedy = jax.random.split(key)
        random_action = jax.random.categorical(
            k_rand, jax.numpy.where(state.legal_action_mask, 0.0, -1e9)
        )
        pick = jax.numpy.where(
            state.current_player == 0, greedy.action(state, k_greedy), random_action
        )
        return twin.step(state, pick, key)

    @jax.jit
    def play(key):
        states = jax.vmap(twin.init)(jax.random.split(key, n))

        def body(carry):
            states, key = carry
            key, sub = jax.random.split(key)
            stepped = jax.vmap(move)(states, jax.random.split(sub, n))
            return jax.tree.map(
                lambda a, b: jax.numpy.where(
                    states.terminated.reshape((-1,) + (1,) * (a.ndim - 1)), a, b
                ),
                states,
                stepped,
            ), key

        states, _ = jax.lax.while_loop(
            lambda c: ~jax.numpy.all(c[0].terminated), body, (states, key)
        )
        return states

    final = play(jax.random.key(0))
    scores = np.asarray(jax.vmap(twin.scores)(final))
    assert np.asarray(final.terminated).all()
    assert (scores[:, 0] > scores[:, 1]).mean() > 0.9
