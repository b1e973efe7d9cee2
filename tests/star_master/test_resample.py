"""What a seat is shown (observation, info, text view) and ``resample``: a determinisation
redraws exactly what the seat cannot know and agrees with everything it is shown."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs.core.game import CHANCE
from moon_envs.star_master.config import NAME0, PASS, STAR
from moon_envs.star_master.rules import DRAW, RACE, StarMasterGame
from tests.helpers import step_state
from tests.star_master.positions import LAYOUT, roll, start, where

RED, ORANGE, YELLOW = 0, 1, 2


def _shown(state, seat):
    return (
        state.observation(seat).tobytes(),
        repr(state.info_for(seat)),
        state.to_string(seat),
        state.legal_actions_mask().tobytes() if state.current_player() == seat else b"",
    )


def test_a_seat_info_shows_the_last_flip_only_while_its_window_does():
    """player_0 misses on orange; player_1 then names a colour (a decision): its window
    forgets the flip, and so does its info, while player_0's still shows it."""
    state = start(num_players=2)
    roll(state, RED)
    state.apply_action(where(ORANGE))
    flip = {"seat": 0, "slot": where(ORANGE), "colour": ORANGE, "found": False}
    roll(state, STAR)
    assert state.info_for(0)["last_flip"] == state.info_for(1)["last_flip"] == flip
    state.apply_action(NAME0 + YELLOW)  # player_1 decides
    assert state.info_for(1)["last_flip"] is None
    assert (state.win_map[1] == -1).all()
    assert state.info_for(0)["last_flip"] == flip
    assert state.info()["last_flip"] == flip  # the spectator sees every public fact
    # a new flip is in every window again
    state.apply_action(where(RED))
    assert state.info_for(0)["last_flip"]["colour"] == RED
    assert state.info_for(1)["last_flip"]["colour"] == RED


def test_resample_agrees_with_the_info_the_seat_is_shown():
    """Once player_1 has decided after player_0's miss, nothing it is shown places orange:
    its redraws put orange anywhere among the unknown slots, and none contradicts its info."""
    state = start(num_players=2)
    roll(state, RED)
    state.apply_action(where(ORANGE))
    roll(state, STAR)
    state.apply_action(NAME0 + YELLOW)
    rng = np.random.default_rng(0)
    places = set()
    for _ in range(200):
        s = state.resample(1, rng)
        assert _shown(s, 1) == _shown(state, 1)
        flip = s.info_for(1)["last_flip"]
        if flip is not None:  # what it is shown must hold in every redraw
            assert s.layout[flip["slot"]] == flip["colour"]
        places.add(where(ORANGE, s.layout.tolist()))
    assert len(places) > 4
    # player_0 still has the flip in its window: its redraws keep orange where it was seen
    for _ in range(50):
        assert state.resample(0, rng).layout[where(ORANGE)] == ORANGE


def test_a_seat_info_shows_the_last_race_only_until_its_next_decision():
    state = start(num_players=3)
    roll(state, RED, black_star=True)
    for _ in range(3):
        assert state.info_for(0)["last_race"] is None  # sealed until all have chosen
        state.apply_action(PASS)
    assert [state.info_for(p)["last_race"] for p in range(3)] == [[-1, -1, -1]] * 3
    roll(state, RED)  # player_1 flips: a decision
    state.apply_action(where(ORANGE))
    assert state.info_for(1)["last_race"] is None
    assert state.info_for(0)["last_race"] == state.info_for(2)["last_race"] == [-1, -1, -1]


@pytest.mark.parametrize("colours", [9, 6])
@pytest.mark.parametrize("memory", ["none", "perfect", "decay"])
def test_fuzzed_resamples_keep_everything_the_seat_is_shown(memory, colours):
    """At decisions of random games, every seat's redraws keep its observation, info, text
    view and mask, stay valid positions, agree with its window and memory, and with the
    last flip its info shows (with 9 and with 6 colours)."""
    game = StarMasterGame(
        num_players=3, memory=memory, forget_prob=0.3, max_turns=40, num_colours=colours
    )
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(12):
        state = game.new_initial_state()
        srng = np.random.default_rng(seed)
        while not state.is_terminal():
            step_state(state, srng)
            if state.current_player() == CHANCE or srng.random() > 0.2:
                continue
            for p in range(3):
                info = state.info_for(p)
                if info["last_flip"] is not None:  # info never outlives the window
                    assert (state.win_map[p] == info["last_flip"]["colour"]).any()
                for _ in range(3):
                    s = state.resample(p, rng)
                    s.validate()
                    assert _shown(s, p) == _shown(state, p)
                    known = (state.win_map[p] >= 0) | (state.memory[p] >= 0)
                    assert (s.layout[known] == state.layout[known]).all()
                    checked += 1
    assert checked > 300


def test_resample_redraws_unknown_slots_and_other_seats_sealed_choices():
    state = start(num_players=3)
    roll(state, RED, black_star=True)
    state.apply_action(where(RED))  # player_0 grabs, sealed
    state.apply_action(PASS)  # player_1 abstains: its window is empty now
    rng = np.random.default_rng(1)
    draws = [state.resample(1, rng) for _ in range(60)]
    assert len({int(s.race_choice[0]) for s in draws}) > 3  # player_0's choice redrawn
    assert {int(s.race_choice[1]) for s in draws} == {-1}  # its own is kept
    assert {int(s.race_choice[2]) for s in draws} == {-2}  # not chosen yet: known
    assert len({tuple(s.layout.tolist()) for s in draws}) > 10
    # player_2 has not decided since the set-up showed the layout: it knows the layout
    assert {tuple(s.layout.tolist()) for s in (state.resample(2, rng) for _ in range(20))} == {
        tuple(LAYOUT)
    }


def test_revealed_race_choices_are_kept_at_the_draw():
    state = start(num_players=3)
    roll(state, RED, black_star=True)
    state.apply_action(where(RED))
    state.apply_action(PASS)
    state.apply_action(where(ORANGE))
    assert state.phase == DRAW
    rng = np.random.default_rng(2)
    for p in range(3):
        assert all(
            state.resample(p, rng).race_choice.tolist() == state.race_choice.tolist()
            for _ in range(10)
        )


def _positions(memory: str, num_players: int = 3, games: int = 10, num_colours: int = 9):
    """Positions at every decision of seeded random games."""
    game = StarMasterGame(
        num_players=num_players, memory=memory, max_turns=40, num_colours=num_colours
    )
    for seed in range(games):
        state = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            step_state(state, rng)
            if state.current_player() >= 0:
                yield state.clone()


@pytest.mark.parametrize("colours", [9, 6])
def test_perfect_memory_resample_is_a_clone_outside_races(colours):
    rng = np.random.default_rng(0)
    checked = 0
    for state in _positions("perfect", num_colours=colours):
        if state.phase == RACE:
            continue
        for p in range(state.game.num_players):
            assert state.resample(p, rng).to_dict() == state.to_dict()
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("colours", [9, 6])
def test_perfect_memory_resample_in_a_race_redraws_only_other_seats_sealed_choices(colours):
    """Inside a race the one difference from a clone is ``race_choice`` of the other
    seats that have chosen; it is redrawn among abstain and the 9 slots (6 with 6
    colours)."""
    rng = np.random.default_rng(0)
    redrawn = set()
    races = 0
    for state in _positions("perfect", num_colours=colours):
        if state.phase != RACE:
            continue
        races += 1
        want = state.to_dict()["state"]
        for p in range(state.game.num_players):
            for _ in range(4):
                s = state.resample(p, rng)
                got = s.to_dict()["state"]
                diff = {k for k in want if got[k] != want[k]}
                assert diff <= {"race_choice"}
                for q, (old, new) in enumerate(zip(state.race_choice, s.race_choice)):
                    if q == p or old == -2:
                        assert new == old
                    else:
                        assert -1 <= new < colours
                        redrawn.add(int(new))
    assert races > 20 and redrawn == set(range(-1, colours))


def test_env_infos_are_each_seat_own_info():
    import moon_envs

    env = moon_envs.make("star_master_v0", num_players=3)
    env.reset(seed=4)
    differ = 0
    for _ in range(300):
        if not env.agents:
            break
        state = env.game_state
        infos = [env.infos[f"player_{p}"] for p in range(3)]
        assert infos == [state.info_for(p) for p in range(3)]
        differ += len({repr(i) for i in infos}) > 1
        env.step(int(np.flatnonzero(env.action_mask())[0]))
    assert differ > 20  # the seats' windows do differ
