"""Fuzzed Star Master games over every player count x variant x memory mode, and with 6
and 7 colours: the invariants hold and ``validate()`` passes after every step, games end,
and clone / ``to_dict`` / pickle / deepcopy copies taken mid-game continue identically.

450 games in all (6 per configuration), kept fast by a short turn cap.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from moon_envs.star_master.rules import StarMasterGame
from tests.helpers import play_to_end, step_state
from tests.star_master.positions import COLOUR_GRID, GRID, grid_id

GAMES = 6
MAX_TURNS = 15


def check_invariants(state) -> None:
    k = state.game.config.num_colours  # colours, cubes and slots
    pawns = state.pawns
    assert pawns.shape == (state.game.num_players, k)
    assert ((pawns == 0) | (pawns == 1)).all(), "a pawn count left 0..1"
    assert state.held.tolist() == pawns.sum(axis=1).tolist(), "held is not the pawns' sum"
    assert (state.held <= 6).all()
    if state.setup_index == k:
        assert sorted(state.layout.tolist()) == list(range(k)), "the cubes are no permutation"
        for arr in (state.memory, state.win_map):
            assert ((arr < 0) | (arr == state.layout[None, :])).all(), "a view contradicts"
    if state.game.config.memory == "none":
        assert (state.memory == -1).all()
    for p in range(state.game.num_players):
        assert sorted(state.win_perm[p].tolist()) == list(range(k))
    if state.white >= 0:
        assert state.white in state.game.config.white_faces
    if state.current_player() >= 0:
        assert state.legal_actions_mask().shape == (3 * k + 1,)


@pytest.mark.parametrize("params", GRID + COLOUR_GRID, ids=grid_id)
def test_fuzzed_games_keep_the_invariants_end_and_round_trip(params):
    game = StarMasterGame(max_turns=MAX_TURNS, **params)
    for seed in range(GAMES):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        split = int(rng.integers(5, 60))  # where the copies are taken
        copies = None
        steps = 0
        tail: list[int] = []  # the actions after the split
        while not state.is_terminal():
            if steps == split:
                copies = [
                    state.clone(),
                    game.state_from_dict(state.to_dict()),
                    pickle.loads(pickle.dumps(state)),
                    copy.deepcopy(state),
                ]
                rng = np.random.default_rng(1000 + seed)  # the copies replay from here
            action = step_state(state, rng)
            if copies is not None:
                tail.append(action)
            steps += 1
            state.validate()
            check_invariants(state)
            assert state.move_number <= game.spec.max_game_length
        assert state.turn <= game.config.turn_cap
        assert state.returns().shape == (game.num_players,)
        if copies is None:
            continue
        for other in copies:
            assert play_to_end(other, np.random.default_rng(1000 + seed)) == tail
            assert other.to_dict() == state.to_dict()
        back = type(state).from_dict(state.to_dict())  # the config travels in the snapshot
        assert back.game == game and back.to_dict() == state.to_dict()


@pytest.mark.parametrize(
    "num_players, num_colours", [(1, 9), (2, 9), (3, 9), (6, 9), (2, 6)], ids=str
)
def test_full_length_fuzzed_games_reach_six_colours(num_players, num_colours):
    """At the default 300-turn cap, random play often wins by six colours (the short cap
    above never gets there): the game then ends at once, the winner holds six colours and
    nobody else does, and the invariants hold on the way. With 6 colours the winner holds
    every colour."""
    game = StarMasterGame(num_players=num_players, num_colours=num_colours)
    won = 0
    for seed in range(8):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            step_state(state, rng)
            check_invariants(state)
        state.validate()
        six = [p for p in range(num_players) if state.held[p] == 6]
        if six:
            won += 1
            assert six == state.winners(), (seed, six, state.winners())
            if num_colours == 6:
                assert state.pawns[six[0]].all()
        else:
            assert state.turn == game.config.turn_cap
    assert won > 0, "no random game reached six colours"
