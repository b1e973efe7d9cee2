"""The mctx search agent on Star Master (hidden information) and Moon Harvesters (no
chance): ``mctx:trained`` never reads what its seat may not know, and plays the
evaluation's opening protocol.

One option set per game, so one compile each; Moon Harvesters' is the one
tests/test_docs_commands.py runs its documented ``mctx:`` eval with, so they share it."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("mctx")

import jax

import moon_envs
import moon_envs.jax as mj
from moon_agents.evaluation.openings import DEFAULT_PLIES
from moon_agents.evaluation.tournament import tournament
from moon_agents.net_weights import load_net
from moon_agents.zoo import TRAINED_DIR, make_agent
from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.core.view import AgentView
from moon_envs.jax.python_states import from_python, from_python_many
from moon_envs.star_master.phases import NOT_CHOSEN, RACE

SM_SPEC = "mctx:trained,simulations=8,considered=4,samples=4"
MH_SPEC = "mctx:trained,simulations=8,considered=4,margin=1"  # the docs' command, shrunk


def _star_master_params() -> dict:
    """The game parameters the shipped Star Master network was trained with."""
    return load_net(TRAINED_DIR / "star_master.npz")[1]["game_config"]


def _sealed_race_pairs(count: int) -> list:
    """``(state, other, seat)``: Star Master positions (the shipped network's parameters)
    in a race where another seat's sealed choice is made, and a copy where that choice
    is changed by hand. The seat to move is shown the same in both."""
    game = moon_envs.make("star_master_v0", **_star_master_params()).game
    pairs = []
    for seed in range(400):
        state, rng = game.new_initial_state(), np.random.default_rng(seed)
        while state.current_player() != TERMINAL:
            seat = state.current_player()
            if seat == CHANCE:
                ids = [o for o, _ in state.chance_outcomes()]
                state.apply_chance_outcome(int(rng.choice(ids)))
                continue
            sealed = [q for q in range(game.num_players) if q != seat]
            sealed = [q for q in sealed if state.race_choice[q] != NOT_CHOSEN]
            if state.phase == RACE and sealed:
                break
            state.apply_action(int(rng.choice(state.legal_actions_mask().nonzero()[0])))
        else:
            continue
        for choice in range(-1, game.k):  # every other choice the seat may have sealed
            other = state.clone()
            other.race_choice[sealed[0]] = choice
            if choice != state.race_choice[sealed[0]]:
                other.validate()
                pairs.append((state, other, seat))
        if len(pairs) >= count:
            return pairs
    pytest.fail("no race with a sealed choice was reached")


def test_star_master_search_does_not_peek_at_sealed_race_choices() -> None:
    """Positions that differ only in another seat's sealed race choice: the same view for
    the seat to move, different twin positions (a search of the true position would see
    the choice), and the same move from ``mctx:trained`` with the same seed."""
    pairs = _sealed_race_pairs(6)
    twin = mj.make("star_master_v0", **_star_master_params())
    for state, other, seat in pairs:
        assert np.array_equal(state.observation(seat), other.observation(seat))
        assert np.array_equal(state.legal_actions_mask(), other.legal_actions_mask())
        assert state.to_string(seat) == other.to_string(seat)
        true_roots = [jax.tree.leaves(from_python(twin, s)) for s in (state, other)]
        assert any(not np.array_equal(a, b) for a, b in zip(*true_roots))
        moves, searches = [], []
        for s in (state, other):
            agent = make_agent(SM_SPEC, "star_master", seed=5)
            agent.reset(s.game, seat)
            moves.append(agent.act(AgentView.of(s.clone(), seat)))
            searches.append(agent.last)
        assert moves[0] == moves[1]
        assert state.legal_actions_mask()[moves[0]] == 1
        # the whole search, not only its vote: a root holding the true sealed choice
        # would value the race's outcomes differently
        np.testing.assert_array_equal(searches[0].actions, searches[1].actions)
        np.testing.assert_array_equal(searches[0].weights, searches[1].weights)


def test_moon_harvesters_plays_the_evaluation_opening_protocol() -> None:
    """On the chance-free game the search is deterministic, so the evaluation's random
    opening is what varies its games: both seat orders of a rotation share the opening
    drawn from the env seed, and every game is its own."""
    spec = MH_SPEC
    r = tournament("moon_harvesters_v0", [spec, "greedy"], games=4, seed=300000)
    assert r.opening == f"random-opening:{DEFAULT_PLIES}"
    openings = [g.opening for g in r.games]
    assert all(len(o) == DEFAULT_PLIES for o in openings)
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert openings[0] != openings[2]
    assert r.distinct == 4
    assert r.stats[spec].games == 4


def test_margin_reward_is_the_movers_score_change_minus_the_others() -> None:
    """``margin=K`` adds the ``jax_ppo`` shaping to the search's rewards: on twin positions
    converted from a Python game, the change of the mover's score minus the other's,
    exactly as the Python engine scores the move (the sign a shaped value expects)."""
    game = moon_envs.make("moon_harvesters_v0", num_players=2).game
    agent = make_agent(MH_SPEC, "moon_harvesters", seed=0)
    search, rng = agent._search, np.random.default_rng(4)
    state, checked = game.new_initial_state(), 0
    while state.current_player() != TERMINAL and checked < 3:
        mover, before = state.current_player(), state.clone()
        state.apply_action(int(rng.choice(state.legal_actions_mask().nonzero()[0])))
        gained = np.asarray(state.scores(), float) - np.asarray(before.scores(), float)
        if not gained.any():
            continue
        pair = [from_python_many(search.twin, [s]) for s in (before, state)]
        change = search._margin_change(*pair, np.array([mover]))
        assert float(change[0]) == pytest.approx(gained[mover] - gained[1 - mover])
        checked += 1
    assert checked == 3
