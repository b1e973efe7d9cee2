"""Search never reads what the seat may not know: two positions that differ only in
hidden information give the same move, in training (the AlphaZero search on the twin)
and at play time (``az:PATH,simulations=N`` in the Python engine)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("mctx")
pytest.importorskip("equinox")

import jax

import moon_envs
import moon_envs.jax as mj
from moon_agents.net_agent import NetAgent
from moon_agents.training.config import parse_config
from moon_agents.training.jax.alphazero import AlphaZero
from moon_agents.training.jax.network import net_description
from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.core.view import AgentView
from moon_envs.jax.python_states import from_python

GAMES = {
    "star_master_v0": {"num_players": 2},
    "moonstar_v1": {"game": 11, "num_players": 2},
}


def _config(env_id: str, params: dict):
    return parse_config(
        {
            "env": {"id": env_id, "params": params},
            "algorithm": {
                "name": "alphazero",
                "games": 2,
                "unroll": 2,
                "simulations": 8,
                "max_considered_actions": 4,
                "hidden": [16],
            },
            "budget": {"total_timesteps": 4},
            "eval": {"games": 1, "opponents": ["random"]},
        }
    )


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request: pytest.FixtureRequest) -> tuple:
    """``(env_id, config, twin, trainer)``: one AlphaZero trainer per game for the module's
    tests (building one compiles the twin's tables and the network's init)."""
    env_id = request.param
    config = _config(env_id, GAMES[env_id])
    twin = mj.make(env_id, **GAMES[env_id])
    return env_id, config, twin, AlphaZero(config, twin)


def test_training_search_is_blind_to_hidden_information(game: tuple) -> None:
    env_id, _, twin, trainer = game
    py_state, py_other, seat = _python_hidden_pair(env_id, GAMES[env_id], seed=3)
    # the same pair as twin states: different in the twin's arrays, equal in the seat's view
    state, other = (from_python(twin, s) for s in (py_state, py_other))
    assert int(state.current_player) == seat
    assert any(
        not np.array_equal(a, b)
        for a, b in zip(jax.tree.leaves(state._x), jax.tree.leaves(other._x))
    )
    np.testing.assert_array_equal(twin.observe(state, seat), twin.observe(other, seat))
    search = jax.jit(trainer.search)
    one = [jax.tree.map(lambda a: a[None], s) for s in (state, other)]
    for k in range(3):
        a, b = (search(trainer.params, jax.random.key(k), s) for s in one)
        assert int(a.action[0]) == int(b.action[0])
        np.testing.assert_array_equal(a.action_weights, b.action_weights)


def _python_hidden_pair(env_id: str, params: dict, seed: int):
    game = moon_envs.make(env_id, **params).game
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for i in range(400):
        p = state.current_player()
        if p == TERMINAL:
            state = game.new_initial_state()
            continue
        if p == CHANCE:
            ids = [o for o, _ in state.chance_outcomes()]
            state.apply_chance_outcome(int(rng.choice(ids)))
            continue
        if i > 10:
            other = state.resample(p, rng)
            same_view = other.observation(p).tolist() == state.observation(p).tolist()
            if same_view and other.to_dict() != state.to_dict():
                return state, other, p
        state.apply_action(int(rng.choice(state.legal_actions_mask().nonzero()[0])))
    pytest.fail("no position with hidden information was reached")


def test_play_time_search_is_blind_to_hidden_information(game: tuple) -> None:
    env_id, config, twin, trainer = game
    description = net_description(config, twin)
    state, other, seat = _python_hidden_pair(env_id, GAMES[env_id], seed=3)
    moves = []
    for s in (state, other):
        agent = NetAgent(trainer.arrays(), description, seed=11, simulations=24)
        moves.append(agent.act(AgentView.of(s, seat)))
    assert moves[0] == moves[1]
