"""Jupiter rules on hand-built positions (docs/rules.md and the rulebook's examples)."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs import ConfigError, IllegalActionError
from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.jupiter.rules import JupiterGame, JupiterState
from tests.helpers import play_to_end


def fresh(**params) -> JupiterState:
    """A position after the first-player draw, player_0 to move."""
    state = JupiterGame(random_first_player=False, **params).new_initial_state()
    assert state.current_player() == 0
    return state


def cell(game: JupiterGame, col: str, row: int) -> int:
    return (row - 1) * game.cols + "ABCDEF".index(col)


def roll_and_place(state: JupiterState, face: int, target: int) -> None:
    g = state.game
    state.apply_action(g.roll_action)
    assert state.current_player() == CHANCE
    state.apply_action(face - 1)
    state.apply_action(g.die_action(target))


@pytest.mark.parametrize(
    "players,expanding,cols",
    [(2, False, 4), (3, False, 5), (4, False, 6), (2, True, 6), (3, True, 6)],
)
def test_board_sizes(players, expanding, cols):
    g = JupiterGame(num_players=players, expanding_universe=expanding)
    assert (g.rows, g.cols) == (4, cols)
    assert g.spec.num_actions == 2 * 4 * cols + 1


def test_first_player_is_a_uniform_chance_draw():
    state = JupiterGame(num_players=3).new_initial_state()
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)
    assert state.current_player() == 2


def test_rulebook_example_1_probe_scores_4_plus_2_times_2():
    """Red places a probe and scores 8: a 4 in its column and two 2s in its row."""
    state = fresh(num_players=3)
    g = state.game
    state.place(cell(g, "B", 1), face=4)
    state.place(cell(g, "A", 3), face=2)
    state.place(cell(g, "D", 3), face=2)
    state.place(cell(g, "E", 1), face=6)  # neither row 3 nor column B
    state.apply_action(g.probe_action(cell(g, "B", 3)))
    assert state.points.tolist() == [8, 0, 0]


def test_rulebook_example_2_die_5_gives_red_5_and_yellow_15():
    """A 5 is placed: one red and one yellow probe in its row, two yellow in its column."""
    state = fresh(num_players=3)
    g = state.game
    red, yellow = 0, 1
    state.place(cell(g, "A", 2), seat=red)
    state.place(cell(g, "E", 2), seat=yellow)
    state.place(cell(g, "C", 1), seat=yellow)
    state.place(cell(g, "C", 4), seat=yellow)
    state.place(cell(g, "A", 4), seat=2)  # neither row 2 nor column C
    roll_and_place(state, 5, cell(g, "C", 2))
    assert state.points.tolist() == [5, 15, 0]


def test_a_die_scores_for_probes_placed_after_it_too():
    state = fresh()
    g = state.game
    roll_and_place(state, 6, cell(g, "A", 1))  # player_0's die
    state.apply_action(g.probe_action(cell(g, "D", 1)))  # player_1's probe in row 1
    assert state.points.tolist() == [0, 6]


def test_black_moons_are_negative_and_scores_clamp_at_zero():
    state = fresh(black_moons=True)
    g = state.game
    state.place(cell(g, "A", 1), seat=0)
    state.place(cell(g, "B", 2), seat=1)
    state.points[:] = [2, 10]
    # a 4 in row 1 (player_0's probe) and column B (player_1's probe)
    roll_and_place(state, 4, cell(g, "B", 1))
    assert state.points.tolist() == [0, 6]  # 2 - 4 clamps to 0; 10 - 4 = 6
    state.apply_action(g.probe_action(cell(g, "B", 4)))  # player_1 probes under the 4
    assert state.points.tolist() == [0, 2]


def test_forced_choices_no_probes_must_roll_no_dice_must_place():
    state = fresh(num_probes=1, num_dice=1)
    g = state.game
    c = g.num_cells
    mask = state.legal_actions_mask()
    assert mask[:c].all() and mask[2 * c] == 1 and not mask[c : 2 * c].any()
    state.apply_action(g.probe_action(0))  # player_0 has no probe left
    state.apply_action(g.probe_action(1))  # player_1 has no probe left
    mask = state.legal_actions_mask()
    assert np.flatnonzero(mask).tolist() == [2 * c]  # must roll
    state.apply_action(2 * c)
    state.apply_action(0)  # rolled a 1
    mask = state.legal_actions_mask()
    assert not mask[:c].any() and not mask[2 * c] and mask[c : 2 * c].sum() == c - 2
    state.apply_action(g.die_action(5))
    # nobody holds a probe and no die is left: the game ends before the board is full
    assert state.current_player() == TERMINAL


def test_a_player_with_neither_probes_nor_dice_is_skipped():
    state = fresh(num_players=3, num_probes=2, num_dice=1)
    g = state.game
    state.apply_action(g.probe_action(0))  # p0
    state.apply_action(g.probe_action(1))  # p1
    state.apply_action(g.probe_action(2))  # p2
    roll_and_place(state, 3, 3)  # p0 uses the only die
    state.apply_action(g.probe_action(4))  # p1: last probe
    state.apply_action(g.probe_action(5))  # p2: last probe
    assert state.current_player() == 0
    state.apply_action(g.probe_action(6))  # p0: last probe; p1 and p2 hold nothing
    assert state.current_player() == TERMINAL


def test_game_ends_when_the_board_is_full():
    state = fresh()
    rng = np.random.default_rng(0)
    play_to_end(state, rng)
    assert state.empty_cells == 0 and (state.cell != 0).all()


def test_expanding_universe_plays_until_all_probes_and_dice_are_used():
    state = fresh(expanding_universe=True)  # 2 players: 12 probes + 6 dice on 24 cells
    play_to_end(state, np.random.default_rng(1))
    assert state.probes_left.sum() == 0 and state.dice_left == 0
    assert state.empty_cells == 24 - 18


def test_ties_share_the_win():
    state = fresh(num_players=3, num_probes=1, num_dice=1)
    g = state.game
    for p in range(3):
        state.apply_action(g.probe_action(p * 5))
    state.points[:] = [7, 7, 3]
    roll_and_place(state, 1, g.num_cells - 1)  # touches no probe
    assert state.current_player() == TERMINAL
    assert state.winners() == [0, 1]
    assert state.returns("win").tolist() == [0.5, 0.5, -1.0]


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    state = fresh()
    g = state.game
    state.apply_action(g.probe_action(0))
    before = state.to_dict()
    for bad in [g.probe_action(0), g.die_action(3), -1, g.spec.num_actions, 2.5, None]:
        with pytest.raises(IllegalActionError):
            state.apply_action(bad)
        assert state.to_dict() == before
    state.apply_action(g.roll_action)
    with pytest.raises(IllegalActionError, match="chance outcome 6"):
        state.apply_action(6)


@pytest.mark.parametrize(
    "params,field",
    [
        ({"num_players": 5}, "num_players"),
        ({"num_players": "2"}, "num_players"),
        ({"black_moons": 1}, "black_moons"),
        ({"num_dice": 0}, "num_dice"),
        ({"colour": "red"}, "valid parameters"),
    ],
)
def test_bad_params_name_the_field(params, field):
    with pytest.raises(ConfigError, match=field):
        JupiterGame(**params)


def test_action_strings_and_text_render():
    state = fresh()
    g = state.game
    assert state.action_to_string(g.probe_action(cell(g, "C", 2))) == "probe C2"
    assert state.action_to_string(g.die_action(0)) == "die on A1"
    assert state.action_to_string(g.roll_action) == "roll a die"
    state.apply_action(g.probe_action(cell(g, "C", 2)))
    text = str(state)
    assert "player_0 probes C2" in text and "* player_1" in text


def test_line_features_read_row_and_column_sums_off_the_board():
    with_features, plain = fresh(line_features=True), fresh()
    g = with_features.game
    for state in (with_features, plain):
        state.place(cell(g, "B", 1), face=4)
        state.place(cell(g, "A", 3), face=2)
        state.place(cell(g, "B", 3), seat=0)
        state.place(cell(g, "D", 1), seat=1)
        state.place(cell(g, "C", 4), seat=1)
    obs = with_features.observation(0)
    assert obs.shape == (158 + 3 * 16,)
    assert np.array_equal(obs[:158], plain.observation(0))  # the board part is unchanged
    feats = obs[158:].reshape(16, 3)
    a1 = cell(g, "A", 1)  # row 1 holds the 4 and player_1's D1, column A the 2
    assert feats[a1, 0] == pytest.approx(6 / 36)
    assert feats[a1, 1] == 0 and feats[a1, 2] == pytest.approx(1 / 6)
    b4 = cell(g, "B", 4)  # column B: the 4 and player_0's B3; row 4: player_1's C4
    assert feats[b4, 0] == pytest.approx(4 / 36)
    assert feats[b4, 1] == pytest.approx(1 / 6) and feats[b4, 2] == pytest.approx(1 / 6)
    d4 = cell(g, "D", 4)  # column D: player_1's D1; row 4: player_1's C4; no die
    assert tuple(feats[d4]) == (0.0, 0.0, pytest.approx(2 / 6))
    seen_by_1 = with_features.observation(1)[158:].reshape(16, 3)  # "mine" and "others" swap
    assert np.array_equal(seen_by_1[:, 1], feats[:, 2])
    assert np.array_equal(seen_by_1[:, 2], feats[:, 1])
    with pytest.raises(ConfigError, match="line_features"):
        JupiterGame(line_features="yes")
