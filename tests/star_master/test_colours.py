"""Star Master with fewer colours (``num_colours``): the parameter's checks, the white die's
faces, the spaces, a hand-built game on a 6-slot board, snapshots, text, pictures, the
human-play hooks and the memory agent."""

from __future__ import annotations

import json

import numpy as np
import pytest

import moon_envs
from moon_agents.heuristics.star_master import StarMasterMemoryAgent
from moon_agents.play.human import narrate
from moon_agents.play.human import star_master as sm
from moon_envs import ConfigError
from moon_envs.core.view import AgentView
from moon_envs.star_master.config import STAR
from moon_envs.star_master.render import render_rgb
from moon_envs.star_master.rules import END, FLIP, NAME, RACE, ROLL, SWAP, StarMasterGame
from tests.helpers import step_state
from tests.star_master.positions import LAYOUT6, give, roll, start

RED, ORANGE, YELLOW, GREEN, CYAN, BLUE = range(6)
# with 6 colours: flip 0..5, swap 6..11, name 12..17, pass 18
SWAP0, NAME0, PASS = 6, 12, 18


def where(colour: int) -> int:
    return LAYOUT6.index(colour)


def start6(**params):
    return start(LAYOUT6, num_colours=6, **params)


@pytest.mark.parametrize("bad", [5, 10, True, "9", 6.0, None])
def test_bad_colour_counts_are_refused_naming_the_field_and_range(bad):
    with pytest.raises(ConfigError, match="num_colours") as err:
        StarMasterGame(num_colours=bad)
    if isinstance(bad, int) and not isinstance(bad, bool):
        assert "6..9" in str(err.value)


def test_white_faces_follow_the_colour_count():
    assert StarMasterGame().config.white_faces == tuple(range(10))
    g = StarMasterGame(num_colours=6)
    assert g.config.white_faces == (0, 1, 2, 3, 4, 5, STAR)
    assert g == StarMasterGame(num_colours=6, white_faces=[0, 1, 2, 3, 4, 5, 9])
    # each colour and the star 1/7, the black die's star 2/6
    assert dict(g.dice_outcomes) == pytest.approx(
        {2 * w + b: (1 / 7) * (2 / 6 if b else 4 / 6) for w in (*range(6), STAR) for b in (0, 1)}
    )
    assert StarMasterGame(num_colours=7, white_faces=(6, 9)).config.white_faces == (6, 9)


@pytest.mark.parametrize("faces", [(0, 7, 9), (6,), (0, 10)])
def test_a_white_face_naming_a_colour_not_in_play_is_refused(faces):
    with pytest.raises(ConfigError, match="white_faces") as err:
        StarMasterGame(num_colours=6, white_faces=faces)
    assert "allowed faces: colours 0..5 (num_colours=6) or 9 (star)" in str(err.value)


@pytest.mark.parametrize("k", [6, 7, 8, 9])
def test_spaces_follow_the_colour_count(k):
    env = moon_envs.make("star_master_v0", num_players=2, num_colours=k)
    assert env.action_space("player_0").n == 3 * k + 1
    assert env.observation_space("player_0")["observation"].shape == (
        3 * k * k + 6 * k + 9 + 2 * k,
    )
    if k == 9:  # the default layout
        assert env.action_space("player_0").n == 28
        assert env.observation_space("player_0")["observation"].shape == (324,)


def test_a_six_slot_board_flip_find_and_swap():
    state = start6(num_players=2)
    assert state.layout.tolist() == LAYOUT6 and state.phase == ROLL
    assert state.win_map[1].tolist() == LAYOUT6  # the set-up shows the layout once
    roll(state, YELLOW)
    assert state.phase == FLIP and state.legal_actions() == list(range(6))
    state.apply_action(where(YELLOW))
    assert state.pawns[0, YELLOW] == 1 and state.phase == SWAP
    assert state.legal_actions() == [SWAP0 + t for t in range(6) if t != where(YELLOW)]
    assert state.action_to_string(SWAP0 + 5) == "swap with slot 5"
    state.apply_action(SWAP0 + 5)
    expected = list(LAYOUT6)
    expected[where(YELLOW)], expected[5] = expected[5], expected[where(YELLOW)]
    assert state.layout.tolist() == expected and state.roller == 1
    assert state.win_perm[1, 5] == where(YELLOW)
    # a miss puts the cube back; a held colour may be passed
    roll(state, RED)
    state.apply_action(expected.index(ORANGE))
    assert state.last_flip.tolist() == [1, expected.index(ORANGE), ORANGE, 0]
    roll(state, YELLOW)
    assert state.legal_actions() == [*range(6), PASS]
    assert state.action_to_string(PASS) == "pass"
    state.apply_action(PASS)
    assert state.roller == 1 and state.phase == ROLL
    state.validate()


def test_with_six_colours_the_goal_is_every_colour():
    state = start6(num_players=2)
    give(state, 0, RED, ORANGE, YELLOW, GREEN, CYAN)
    roll(state, STAR)  # name the one colour lacking
    assert state.phase == NAME
    assert state.legal_actions() == [NAME0 + BLUE]
    assert state.action_to_string(NAME0 + BLUE) == "name blue"
    state.apply_action(NAME0 + BLUE)
    assert state.target == BLUE
    state.apply_action(where(BLUE))
    assert state.phase == END and state.winners() == [0]
    assert state.pawns[0].all() and state.held[0] == 6
    assert state.returns().tolist() == [1.0, -1.0]
    state.validate()


def test_a_race_on_a_six_slot_board():
    state = start6(num_players=3)
    roll(state, YELLOW, black_star=True)
    assert state.phase == RACE and state.legal_actions() == [*range(6), PASS]
    assert state.action_to_string(PASS) == "abstain"
    state.apply_action(where(YELLOW))
    state.apply_action(PASS)
    state.apply_action(PASS)
    assert state.phase == SWAP and state.mover == 0 and state.pawns[0, YELLOW] == 1
    state.validate()


def test_snapshots_carry_the_colour_count():
    state = start6(num_players=2, memory="perfect")
    roll(state, RED)
    data = json.loads(json.dumps(state.to_dict()))
    assert data["config"]["num_colours"] == 6
    back = type(state).from_dict(data)
    assert back.game == state.game and back.to_dict() == state.to_dict()
    with pytest.raises(ConfigError, match="num_colours"):
        StarMasterGame(num_players=2, memory="perfect").state_from_dict(data)
    # a default game's snapshot is as before the parameter existed
    assert "num_colours" not in start().to_dict()["config"]
    assert "num_colours" in StarMasterGame().config.__dataclass_fields__


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda s: s.layout.__setitem__(0, 6), "layout"),
        (lambda s: setattr(s, "white", 7), "white"),
        (lambda s: setattr(s, "target", 6), "target"),
        (lambda s: s.race_choice.__setitem__(1, 6), "race_choice"),
    ],
)
def test_positions_naming_a_colour_or_slot_not_in_play_are_refused(edit, field):
    state = start6(num_players=2)
    roll(state, RED)
    edit(state)
    with pytest.raises(ConfigError, match=field):
        state.validate()


def test_text_picture_and_human_hooks_show_six_slots():
    state = start6(num_players=2)
    text = state.to_string(None)
    assert "slots: 0:cyan 1:red 2:yellow 3:blue 4:orange 5:green" in text
    nine = render_rgb(start(num_players=2))
    six = render_rgb(state)
    assert six.shape[1] == nine.shape[1] and six.shape[0] < nine.shape[0]  # two rows
    legend = sm.HOOKS.legend(state, 0)
    assert "Slots are numbered 0-5 (two rows: 0 1 2 / 3 4 5)" in legend
    roll(state, RED)
    assert sm.move_name(state, where(RED)) == f"flip slot {where(RED)} (shown: red)"
    after = state.clone()
    after.apply_action(where(RED))
    lines = narrate(state, where(RED), after, 1)
    assert lines == [f"flips slot {where(RED)}: red, found: gains red"]
    lines = narrate(after, SWAP0 + 5, _applied(after, SWAP0 + 5), 1)
    assert lines == [f"swaps slot {where(RED)} with slot 5"]


def _applied(state, action):
    after = state.clone()
    after.apply_action(action)
    return after


@pytest.mark.parametrize("k", [6, 7])
def test_the_memory_agent_plays_legally_and_beats_random(k):
    from moon_agents.evaluation.tournament import tournament

    game = StarMasterGame(num_players=2, num_colours=k, memory="perfect", max_turns=60)
    agent = StarMasterMemoryAgent(seed=0)
    rng = np.random.default_rng(k)
    for _ in range(3):
        state = game.new_initial_state()
        agent.reset(game, 0)
        while not state.is_terminal():
            if state.current_player() == 0:
                action = agent.act(AgentView.of(state))
                assert state.legal_actions_mask()[action]
                state.apply_action(action)
            else:
                step_state(state, rng)
    res = tournament(
        "star_master_v0", ["random", "memory"], games=6, seed=0, env_params={"num_colours": k}
    )
    assert res.stats["memory"].wins >= 5
