"""Star Master's pictures and text views: labels, dice, phase, last move; a seat's picture
and text show only what that seat is shown, and nothing shows a sealed race choice."""

from __future__ import annotations

import numpy as np

import moon_envs
from moon_envs.core import draw
from moon_envs.star_master.config import NAME0, PASS, SWAP0
from moon_envs.star_master.render import (
    CELL,
    CUBE_COLOURS,
    DIE,
    MARGIN,
    PANEL,
    SPLIT,
    TOP,
    UNKNOWN,
    WIDTH,
    render_rgb,
)
from moon_envs.star_master.text import last_move_text
from tests.star_master.positions import LAYOUT, give, roll, start, where

RED, ORANGE, YELLOW = 0, 1, 2


def _has(img: np.ndarray, colour) -> int:
    return int((img == np.array(colour, dtype=np.uint8)).all(axis=2).sum())


def _cube(img: np.ndarray, slot: int) -> np.ndarray:
    y0, x0 = TOP + (slot // 3) * CELL, MARGIN + (slot % 3) * CELL
    return img[y0 + 20 : y0 + CELL - 20, x0 + 20 : x0 + CELL - 20]


def test_frames_are_wide_and_show_turn_labels_scores_and_the_last_move():
    env = moon_envs.make("star_master_v0", num_players=4, render_mode="rgb_array")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    frames = [env.render()]
    for _ in range(30):
        legal = np.flatnonzero(env.action_mask())
        env.step(int(legal[rng.integers(len(legal))]))
        frames.append(env.render())
    h, w = frames[0].shape[:2]
    assert w == WIDTH >= 400
    bottom = [f[h - 22 :] for f in frames]  # the last-move line
    assert all(b.any() for b in bottom) and len({b.tobytes() for b in bottom}) > 5
    status = [f[h - 40 : h - 22] for f in frames]  # whose turn it is
    assert len({s.tobytes() for s in status}) > 2
    for seat in range(4):  # every seat's label in its colour
        assert _has(frames[-1], draw.PLAYER_COLORS[seat]) > 20


def test_frame_shows_the_dice_the_sought_colour_and_the_colours_held():
    state = start(num_players=2)
    give(state, 1, 5, 7)
    roll(state, ORANGE)
    img = render_rgb(state)
    die = img[TOP + 14 : TOP + 14 + DIE, PANEL : PANEL + DIE]
    assert _has(die, CUBE_COLOURS[ORANGE]) > 400  # the white die shows orange
    black = img[TOP + 14 : TOP + 14 + DIE, PANEL + DIE + 24 : PANEL + 2 * DIE + 24]
    assert _has(black, (250, 200, 60)) == 0  # a blank black die: no star
    raced = start(num_players=2)
    roll(raced, ORANGE, black_star=True)
    black = render_rgb(raced)[TOP + 14 : TOP + 14 + DIE, PANEL + DIE + 24 : PANEL + 2 * DIE + 24]
    assert _has(black, (250, 200, 60)) > 10  # the star
    rows = img[TOP + 3 * CELL + 10 :, SPLIT:]
    row1 = rows[22:44]
    assert _has(row1, CUBE_COLOURS[5]) > 50 and _has(row1, CUBE_COLOURS[7]) > 50
    assert _has(rows[:22], CUBE_COLOURS[5]) == 0  # player_0 holds none


def test_a_seat_picture_shows_only_what_the_seat_is_shown():
    """player_1 has decided since the set-up and seen one flip: its picture shows that
    cube and '?' elsewhere, the same for two layouts that differ elsewhere; the
    spectator's picture shows the true layout."""
    other = [4, 0, 7, 2, 8, 1, 6, 5, 3]  # slots 6, 7, 8 differ from LAYOUT
    frames = []
    for layout in (LAYOUT, other):
        s = start(num_players=2, layout=layout)
        roll(s, RED)
        s.apply_action(where(ORANGE))  # player_0 misses: orange on slot 5
        roll(s, 9)
        s.apply_action(NAME0 + YELLOW)  # player_1 decides: its window starts afresh
        frames.append((render_rgb(s, 1), render_rgb(s), s))
    (seat_a, spec_a, a), (seat_b, spec_b, _) = frames
    assert np.array_equal(seat_a, seat_b)
    assert not np.array_equal(spec_a, spec_b)
    for slot in range(9):
        assert _has(_cube(seat_a, slot), UNKNOWN) > 100
        assert _has(_cube(spec_a, slot), CUBE_COLOURS[LAYOUT[slot]]) > 100
    # player_0 has not decided since: its picture still shows the orange flip
    assert _has(_cube(render_rgb(a, 0), where(ORANGE)), CUBE_COLOURS[ORANGE]) > 100
    assert "?" in a.to_string(1) and "last flip" not in a.to_string(1)
    assert "last flip: player_0 flipped slot 5: orange, a miss" in a.to_string(0)


def test_no_picture_or_text_shows_a_sealed_race_choice():
    base = start(num_players=3)
    roll(base, RED, black_star=True)
    outs = []
    for choice in (PASS, where(RED), 7):
        s = base.clone()
        s.apply_action(choice)
        outs.append(s)
    for view in (None, 1, 2):
        assert len({render_rgb(s, view).tobytes() for s in outs}) == 1
        assert len({s.to_string(view) for s in outs}) == 1
    assert last_move_text(outs[1]) == "p0 chose, sealed"
    # once all have chosen, the rows show each seat's choice and the winner's flip
    s = outs[1]
    s.apply_action(PASS)
    s.apply_action(PASS)
    assert last_move_text(s) == "race won by p0: slot 1: red, found"
    notes = render_rgb(s)[TOP + 3 * CELL + 10 :, WIDTH - 80 :]
    assert _has(notes, (250, 200, 60)) > 20  # player_0's 'GRAB 1' in gold


def test_last_move_names_every_kind_of_decision():
    s = start(num_players=2)
    assert last_move_text(s) == "new game"
    roll(s, RED)
    s.apply_action(where(RED))
    assert last_move_text(s) == "p0 flips slot 1: red, found"
    s.apply_action(SWAP0 + 8)
    assert last_move_text(s) == "p0 swaps slots 1 and 8"
    roll(s, RED)
    s.apply_action(where(ORANGE))
    assert last_move_text(s) == "p1 flips slot 5: orange, a miss"
    roll(s, RED)
    s.apply_action(PASS)  # player_0 holds red
    assert last_move_text(s) == "p0 passes"
    roll(s, 9)
    s.apply_action(NAME0 + YELLOW)
    assert last_move_text(s) == "p1 names yellow"
    roll_race = start(num_players=2)
    roll(roll_race, RED, black_star=True)
    roll_race.apply_action(PASS)
    roll_race.apply_action(PASS)
    assert last_move_text(roll_race) == "race: nobody grabs"
