"""star_master_v0 through PettingZoo: API and seed tests over every player count x variant x
memory mode (and with 6 and 7 colours), the no-leak guarantees of the observation, and
the global state."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import moon_envs
from moon_envs.star_master.config import FLIP0, PASS, SWAP0
from moon_envs.star_master.observation import CH
from moon_envs.star_master.rules import PHASE_NAMES, RACE
from tests.star_master.positions import (
    COLOUR_GRID,
    GRID,
    LAYOUT,
    LAYOUTS,
    grid_id,
    roll,
    start,
    where,
)


@pytest.mark.parametrize("params", GRID + COLOUR_GRID, ids=grid_id)
def test_pettingzoo_api_and_seed_tests(params):
    # a short cap so that games end inside the tests' cycles
    api_test(moon_envs.make("star_master_v0", max_turns=10, **params), num_cycles=40)
    seed_test(lambda: moon_envs.make("star_master_v0", max_turns=10, **params), num_cycles=40)


def _views(state, seat):
    return (
        state.observation(seat).tobytes(),
        state.legal_actions_mask().tobytes() if state.current_player() == seat else b"",
        repr(state.info_for(seat)),
        state.to_string(seat),
    )


def _race_on_yellow_then_red(layout):
    """player_0 grabs yellow (slot 3) in a race, player_1 abstains, player_0 swaps it onto
    slot 0; then player_1 rolls red. player_1's window holds the flip of slot 3 and the swap."""
    s = start(num_players=2, layout=layout)
    roll(s, 2, black_star=True)
    s.apply_action(3)
    s.apply_action(PASS)  # player_1 decides: its window starts afresh
    s.apply_action(SWAP0 + 0)
    roll(s, 0)
    assert s.current_player() == 1
    return s


def test_hidden_layouts_with_the_same_events_look_the_same_in_none_mode():
    """Two games whose layouts differ only on slots nobody has flipped since player_1's
    last decision give player_1 identical observations, infos and text views."""
    other = [4, 0, 7, 2, 8, 1, 6, 5, 3]  # slots 6, 7 and 8 differ from LAYOUT
    a, b = start(num_players=2, layout=LAYOUT), start(num_players=2, layout=other)
    assert _views(a, 1) != _views(b, 1)  # the set-up shows the layout once
    a, b = _race_on_yellow_then_red(LAYOUT), _race_on_yellow_then_red(other)
    assert not np.array_equal(a.layout, b.layout)
    assert _views(a, 1) == _views(b, 1)
    # the views do tell positions apart once a differing slot is shown in the window
    a.apply_action(FLIP0 + 6)
    b.apply_action(FLIP0 + 6)
    for seat in (0, 1):
        assert _views(a, seat)[0] != _views(b, seat)[0]
        assert _views(a, seat)[2] != _views(b, seat)[2]  # info: the last flip's colour
        assert _views(a, seat)[3] != _views(b, seat)[3]


@pytest.mark.parametrize("colours", [9, 6])
@pytest.mark.parametrize("chooser", [0, 1, 2])
def test_sealed_race_choices_change_nothing_another_seat_sees(chooser, colours):
    """Whichever seat chooses (first, second or third of four), every other seat's
    observation, info, text view and the public name of the move are the same for every
    choice, and its observation and info are those it had before the choice (with 9 and
    with 6 colours)."""
    layout = LAYOUTS[colours]
    base = start(layout, num_players=4, num_colours=colours)
    abstain = base.game.actions.pass_
    roll(base, 0, black_star=True)
    for _ in range(chooser):  # the seats before the chooser abstain
        base.apply_action(abstain)
    assert base.phase == RACE and base.current_player() == chooser
    others = [s for s in range(4) if s != chooser]
    before = {seat: _views(base, seat) for seat in others}
    outs = []
    for choice in (abstain, where(0, layout), 5):
        s = base.clone()
        for seat in others:
            assert s.action_to_public_string(choice, seat) == (
                f"player_{chooser} makes a sealed race choice"
            )
        assert s.action_to_public_string(choice, chooser) == s.action_to_string(choice)
        s.apply_action(choice)
        assert s.phase == RACE  # player_3 has not chosen yet
        outs.append(s)
    for seat in others:
        views = [_views(s, seat) for s in outs]
        assert len(set(views)) == 1, f"player_{seat} tells the choices apart"
        assert views[0][0] == before[seat][0] and views[0][2] == before[seat][2]
    assert len({str(s) for s in outs}) == 1  # the spectator's text neither
    assert len({repr(s.info()) for s in outs}) == 1
    # the chooser itself knows its choice
    assert [int(s.race_choice[chooser]) for s in outs] == [-1, where(0, layout), 5]


def test_sealed_race_choice_stays_out_of_env_observations_and_infos():
    seen = {}
    for choice in (5, PASS):
        env = moon_envs.make("star_master_v0", num_players=3)
        env.reset(seed=0)
        base = start(num_players=3)
        roll(base, 0, black_star=True)
        env.game_state = base
        env.agent_selection = "player_0"
        env.step(choice)
        assert env.agent_selection == "player_1"
        seen[choice] = [
            (env.observe(a)["observation"].tobytes(), repr(env.infos[a]))
            for a in ("player_1", "player_2")
        ]
    assert seen[5] == seen[PASS]


def _one_hot(block: np.ndarray) -> int:
    assert block.sum() == 1
    return int(np.argmax(block))


@pytest.mark.parametrize("k", [9, 6])
def test_global_state_holds_every_field_of_the_position(k):
    """``env.state()`` decoded block by block gives back the true layout, pawns, dice,
    phase, sealed race choices, every memory, window and window permutation, the turn and
    the player to move (with 9 and with 6 colours)."""
    layout = LAYOUTS[k]
    state = start(layout, num_players=3, memory="decay", forget_prob=0.4, seed=7, num_colours=k)
    state._set_pawn(2, 5, 1)
    roll(state, 0, black_star=True)
    state.apply_action(state.game.actions.pass_)
    state.apply_action(where(0, layout))  # player_1 grabs red, sealed; player_2 to choose
    g = state.global_state()
    L = state.game.layout
    n, ch = 3, k + 1
    assert ch == L.ch and (k != 9 or ch == CH)
    assert g.shape == state.game.spec.state_shape
    slots = [_one_hot(g[s * ch : (s + 1) * ch]) - 1 for s in range(k)]
    assert slots == state.layout.tolist()
    assert g[L.g_pawns : L.g_white].reshape(n, k).tolist() == state.pawns.tolist()
    assert _one_hot(g[L.g_white : L.g_white + k + 1]) == state.white == 0
    assert g[L.g_black] == state.black_star == 1
    assert PHASE_NAMES[_one_hot(g[L.g_phase : L.g_phase + 9])] == "race"
    assert not g[L.g_target : L.g_found + k].any()  # no target nor found slot in a race
    b = k + 2  # per seat: not chosen, abstain, the k slots
    race = [_one_hot(g[L.g_race + b * p : L.g_race + b * (p + 1)]) - 2 for p in range(n)]
    assert race == state.race_choice.tolist() == [-1, where(0, layout), -2]
    for p in range(n):
        mem = g[L.g_mem + p * k * ch : L.g_mem + (p + 1) * k * ch].reshape(k, ch)
        win = g[L.g_win + p * k * ch : L.g_win + (p + 1) * k * ch].reshape(k, ch)
        perm = g[L.g_perm + p * k * k : L.g_perm + (p + 1) * k * k].reshape(k, k)
        assert (mem.argmax(axis=1) - 1).tolist() == state.memory[p].tolist()
        assert (win.argmax(axis=1) - 1).tolist() == state.win_map[p].tolist()
        assert perm.argmax(axis=1).tolist() == state.win_perm[p].tolist()
    assert g[L.g_turn] == pytest.approx(state.turn / state.game.turn_cap)
    assert _one_hot(g[L.g_move : L.g_move + n + 1]) == state.current_player() == 2
    # through the env
    env = moon_envs.make("star_master_v0", num_players=3)
    env.reset(seed=3)
    assert np.array_equal(env.state(), env.game_state.global_state())
    assert env.state().shape == env.state_space.shape


def test_memory_agent_ladder_on_a_few_games():
    from moon_agents.evaluation.tournament import tournament

    res = tournament("star_master_v0", ["random", "memory3"], games=10, seed=0)
    assert res.stats["memory3"].wins >= 8
    res = tournament("star_master_v0", ["memory3", "memory"], games=10, seed=0)
    assert res.stats["memory"].wins >= 7


def test_match_block_marks_the_shown_slot_of_the_sought_colour():
    state = start(num_players=2)
    L = state.game.layout
    roll(state, 0)
    match = state.observation(0)[L.match : L.match + 9]
    assert np.flatnonzero(match).tolist() == [where(0)]
    state.apply_action(where(1))  # player_0 misses; its window now holds only that flip
    roll(state, 1)  # player_1 seeks orange: its window still shows the set-up layout
    assert np.flatnonzero(state.observation(1)[L.match : L.match + 9]).tolist() == [where(1)]
    state.apply_action(PASS if state.legal_actions_mask()[PASS] else where(2))
    roll(state, 3)  # player_0 seeks green: its window holds only the orange flip
    assert not state.observation(0)[L.match : L.match + 9].any()
