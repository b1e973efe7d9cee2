"""Jupiter's house-rule parameters on hand-built positions: ``stuck_player`` and ``ties``."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs import ConfigError
from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.jupiter.rules import JupiterGame, JupiterState
from tests.helpers import step_state


def fresh(**params) -> JupiterState:
    """A position with player_0 to move (no first-player draw)."""
    return JupiterGame(random_first_player=False, **params).new_initial_state()


def stuck_position(rule: str) -> JupiterState:
    """player_1 holds no probe and no die is left; player_0 (two probes) is to move."""
    state = fresh(num_players=2, stuck_player=rule)
    state.probes_left[:] = [2, 0]
    state.dice_left = 0
    return state


def test_default_house_rules_are_skip_and_shared():
    cfg = JupiterGame().config
    assert (cfg.stuck_player, cfg.ties) == ("skip", "shared")


def test_stuck_player_skip_passes_over_the_player_with_nothing():
    state = stuck_position("skip")
    state.apply_action(state.game.probe_action(0))
    assert state.current_player() == 0  # player_1 is skipped
    assert state.empty_cells == state.game.num_cells - 1
    state.apply_action(state.game.probe_action(1))
    assert state.current_player() == TERMINAL  # now nobody holds anything


def test_stuck_player_end_ends_the_game_with_empty_cells_left():
    state = stuck_position("end")
    state.points[:] = [0, 4]
    state.apply_action(state.game.probe_action(0))
    assert state.current_player() == TERMINAL
    assert state.empty_cells == state.game.num_cells - 1
    assert state.probes_left.tolist() == [1, 0]
    assert state.winners() == [1]


def test_stuck_player_end_lets_a_player_with_probes_move():
    state = fresh(num_players=3, stuck_player="end")
    state.probes_left[:] = [2, 1, 0]
    state.dice_left = 0
    state.apply_action(state.game.probe_action(0))
    assert state.current_player() == 1  # player_1 still has a probe
    state.apply_action(state.game.probe_action(1))
    assert state.current_player() == TERMINAL  # player_2 has neither


def test_stuck_player_end_changes_nothing_while_a_die_is_left():
    state = fresh(num_players=2, stuck_player="end")
    state.probes_left[:] = [1, 0]
    state.apply_action(state.game.probe_action(0))
    assert state.current_player() == 1  # no probe, but a die to take
    state.apply_action(state.game.roll_action)
    assert state.current_player() == CHANCE


def tied_ending(rule: str) -> JupiterState:
    """3 players; the last empty cell is taken by a probe that scores nothing, leaving
    scores 7, 7, 3."""
    state = fresh(num_players=3, ties=rule)
    g = state.game
    for c in range(g.num_cells - 1):
        state.place(c, seat=2)
    state.points[:] = [7, 7, 3]
    state.apply_action(g.probe_action(g.num_cells - 1))
    assert state.current_player() == TERMINAL
    return state


def test_ties_shared_every_leader_wins():
    state = tied_ending("shared")
    assert state.winners() == [0, 1]
    assert state.returns("win").tolist() == [0.5, 0.5, -1.0]
    assert "winner(s): player_0, player_1" in str(state)


def test_ties_none_a_tie_for_first_has_no_winner():
    state = tied_ending("none")
    assert state.winners() == []
    assert state.returns("win").tolist() == [0.0, 0.0, 0.0]
    assert state.rewards("win").tolist() == [0.0, 0.0, 0.0]
    assert "tied: no winner" in str(state)


def test_ties_none_keeps_a_sole_winner():
    state = fresh(num_players=3, ties="none")
    g = state.game
    for c in range(g.num_cells - 1):
        state.place(c, seat=2)
    state.points[:] = [7, 6, 3]
    state.apply_action(g.probe_action(g.num_cells - 1))
    assert state.winners() == [0]


@pytest.mark.parametrize("field,value", [("stuck_player", "pass"), ("ties", "split")])
def test_bad_house_rule_values_name_the_field_and_the_choices(field, value):
    with pytest.raises(ConfigError, match=rf"{field}=.*allowed values"):
        JupiterGame(**{field: value})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_under_the_other_readings_stay_valid(players):
    game = JupiterGame(num_players=players, stuck_player="end", ties="none")
    for seed in range(40):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            state.validate()  # among others: the player to move has a legal action
            step_state(state, rng)
        state.validate()
        assert state.returns("win").sum() == pytest.approx(0.0)
        if len(np.flatnonzero(state.points == state.points.max())) > 1:
            assert state.winners() == []
