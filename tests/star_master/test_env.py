"""star_master_v0 through PettingZoo: API and seed tests over players x variants x memory
modes, fuzzed invariants, round-trips and the no-leak guarantees of the observation."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import moon_envs
from moon_envs.core.game import CHANCE
from moon_envs.star_master.config import PASS, SWAP0
from moon_envs.star_master.rules import RACE, StarMasterGame
from tests.helpers import play_to_end, step_state
from tests.star_master.positions import LAYOUT, roll, start, where

GRID = [
    dict(num_players=1, solitaire=True),
    dict(num_players=1, memory="decay"),
    dict(num_players=2),
    dict(num_players=2, memory="perfect", competition=True),
    dict(num_players=3, memory="decay", children=True),
    dict(num_players=4, memory="perfect"),
    dict(num_players=5, competition=True, race_winner="seat_order"),
    dict(num_players=6, memory="decay", forget_prob=0.5),
]


@pytest.mark.parametrize("params", GRID, ids=str)
def test_pettingzoo_api_and_seed_tests(params):
    api_test(moon_envs.make("star_master_v0", max_turns=40, **params), num_cycles=60)
    seed_test(lambda: moon_envs.make("star_master_v0", max_turns=40, **params), num_cycles=60)


def _check_invariants(state):
    assert ((state.pawns == 0) | (state.pawns == 1)).all()
    if state.setup_index == 9:
        assert sorted(state.layout.tolist()) == list(range(9))
        for arr in (state.memory, state.win_map):
            assert ((arr < 0) | (arr == state.layout[None, :])).all()
    if state.game.config.memory == "none":
        assert (state.memory == -1).all()


@pytest.mark.parametrize("params", GRID, ids=str)
def test_fuzzed_games_keep_the_invariants_and_end(params):
    game = StarMasterGame(**{"max_turns": 60, **params})
    for seed in range(30):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            step_state(state, rng)
            _check_invariants(state)
            moves += state.current_player() >= 0
            assert state.move_number <= game.spec.max_game_length
        assert state.turn <= game.config.turn_cap


@pytest.mark.parametrize("params", GRID[1:6], ids=str)
def test_clone_dict_and_pickle_round_trips_continue_identically(params):
    game = StarMasterGame(max_turns=60, **params)
    for seed in range(8):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        for _ in range(15 + 7 * seed):
            if state.is_terminal():
                break
            step_state(state, rng)
        copies = [
            state.clone(),
            game.state_from_dict(state.to_dict()),
            pickle.loads(pickle.dumps(state)),
            copy.deepcopy(state),
        ]
        rest = play_to_end(state, np.random.default_rng(99))
        for other in copies:
            assert play_to_end(other, np.random.default_rng(99)) == rest
            assert other.to_dict() == state.to_dict()


def _views(state, seat):
    return (
        state.observation(seat).tobytes(),
        state.legal_actions_mask().tobytes() if state.current_player() == seat else b"",
        repr(state.info()),
        state.to_string(seat),
    )


def test_hidden_layouts_with_the_same_events_look_the_same_in_none_mode():
    """Two games whose layouts differ only on slots nobody has flipped since player_1's
    last decision give player_1 identical observations, infos and text views."""
    other = [4, 0, 7, 2, 8, 1, 6, 5, 3]  # slots 6, 7 and 8 differ from LAYOUT
    a, b = start(num_players=2, layout=LAYOUT), start(num_players=2, layout=other)
    assert _views(a, 1) != _views(b, 1)  # the set-up shows the layout once
    for s in (a, b):
        roll(s, 2, black_star=True)  # a race on yellow: player_0 grabs, player_1 abstains
        s.apply_action(3)
        s.apply_action(PASS)  # player_1 decides: its window starts afresh
        s.apply_action(SWAP0 + 0)  # player_0 found yellow on slot 3 and swaps it with slot 0
        roll(s, 0)  # player_1 looks for red
    assert a.current_player() == b.current_player() == 1
    assert _views(a, 1) == _views(b, 1)
    assert (a.observation(1) != b.observation(0)).any()


def test_sealed_race_choices_change_nothing_another_seat_sees():
    base = start(num_players=3)
    roll(base, 0, black_star=True)
    assert base.phase == RACE
    before = {seat: _views(base, seat) for seat in (1, 2)}
    outs = []
    for choice in (PASS, 0, 5):
        s = base.clone()
        assert "sealed" in s.action_to_public_string(choice, observer=1)
        assert s.action_to_public_string(choice, observer=0) != s.action_to_public_string(
            choice, observer=1
        )
        s.apply_action(choice)
        outs.append(s)
    for seat in (1, 2):
        seen = {_views(s, seat)[0] for s in outs} | {_views(s, seat)[2] for s in outs}
        assert len({_views(s, seat)[0] for s in outs}) == 1
        assert len({_views(s, seat)[2] for s in outs}) == 1
        assert len({_views(s, seat)[3] for s in outs}) == 1
        assert seen
        assert _views(outs[0], seat)[0] == before[seat][0]
    # the spectator's text view does not show the choice either
    assert len({str(s) for s in outs}) == 1
    # env.infos and observations through the env: player_0 grabs, player_1 must not see it
    env = moon_envs.make("star_master_v0", num_players=3)
    env.reset(seed=0)
    env.game_state = base.clone()
    env.agent_selection = "player_0"
    env.step(5)
    obs1, info1 = env.observe("player_1"), dict(env.infos["player_1"])
    env2 = moon_envs.make("star_master_v0", num_players=3)
    env2.reset(seed=0)
    env2.game_state = base.clone()
    env2.agent_selection = "player_0"
    env2.step(PASS)
    assert np.array_equal(obs1["observation"], env2.observe("player_1")["observation"])
    assert info1 == env2.infos["player_1"]


def test_resample_keeps_the_seat_view_and_redraws_only_what_it_cannot_know():
    rng = np.random.default_rng(0)
    for memory in ("none", "perfect", "decay"):
        game = StarMasterGame(num_players=3, memory=memory, forget_prob=0.3)
        for seed in range(6):
            state = game.new_initial_state()
            srng = np.random.default_rng(seed)
            for _ in range(30 + 5 * seed):
                if state.is_terminal():
                    break
                step_state(state, srng)
            if state.is_terminal() or state.current_player() == CHANCE:
                continue
            p = state.current_player()
            layouts = set()
            for _ in range(10):
                s = state.resample(p, rng)
                s.validate()
                assert np.array_equal(s.observation(p), state.observation(p))
                assert np.array_equal(s.legal_actions_mask(), state.legal_actions_mask())
                layouts.add(tuple(s.layout.tolist()))
            if memory == "perfect":
                assert layouts == {tuple(state.layout.tolist())}


def test_resample_redraws_other_seats_sealed_choices():
    state = start(num_players=3)
    roll(state, 0, black_star=True)
    state.apply_action(where(0))
    rng = np.random.default_rng(1)
    choices = {int(state.resample(1, rng).race_choice[0]) for _ in range(40)}
    assert len(choices) > 3


def test_env_renders_and_global_state_shows_the_true_layout():
    env = moon_envs.make("star_master_v0", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "spectator" in text and "slots:" in text
    s = env.state()
    layout = env.game_state.layout
    assert s.shape == env.state_space.shape
    assert all(s[slot * 10 + 1 + layout[slot]] == 1 for slot in range(9))


def test_memory_agent_ladder_on_a_few_games():
    from agents.evaluate import tournament

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
