"""Star Master for people: narration of dice, flips, swaps and races as a seat may know
them, move names from the seat's own view, the legend."""

from __future__ import annotations

from moon_agents.play.human import hooks_for, narrate, narrate_chance, parse_move
from moon_agents.play.human import star_master as sm
from moon_envs.star_master.config import NAME0, PASS, SWAP0
from tests.star_master.positions import give, roll, start, where

RED, ORANGE, YELLOW = 0, 1, 2


def _told(state, action, observer):
    after = state.clone()
    after.apply_action(action)
    return narrate(state, action, after, observer), after


def test_star_master_hooks_are_registered():
    assert hooks_for("star_master") is sm.HOOKS
    assert "6 colours" in sm.HOOKS.legend(start(), 0)


def test_flips_say_found_or_miss_and_what_was_gained_or_lost():
    s = start(num_players=2)
    roll(s, RED)
    lines, after = _told(s, where(RED), 1)
    assert lines == ["flips slot 1: red, found: gains red"]
    lines, _ = _told(after, SWAP0 + 8, 1)
    assert lines == ["swaps slot 1 with slot 8"]
    comp = start(num_players=2, competition=True)
    give(comp, 0, RED)
    roll(comp, RED)
    lines, _ = _told(comp, where(ORANGE), None)
    assert lines == ["flips slot 5: orange, a miss: loses red"]
    held = start(num_players=2)
    give(held, 0, RED)
    roll(held, RED)
    assert _told(held, PASS, 1)[0] == ["passes (holds red)"]
    roll(s := start(num_players=2), 9)
    assert _told(s, NAME0 + YELLOW, 1)[0] == ["names yellow"]


def test_race_choices_are_sealed_for_others_then_revealed_with_the_winner_flip():
    s = start(num_players=3)
    roll(s, RED, black_star=True)
    assert _told(s, 7, 1)[0] == ["makes a sealed race choice"]
    assert _told(s, 7, 0)[0] == ["grab slot 7 (sealed)"]  # the chooser knows its choice
    s.apply_action(7)
    s.apply_action(PASS)
    lines, _ = _told(s, where(RED), 0)  # player_2 chooses last: everything is revealed
    assert lines == [
        "grab slot 1",
        "race: player_0 grabs slot 7, player_1 abstains, player_2 grabs slot 1",
        "player_0, player_2 grabbed: a draw picks the fastest hand",
    ]
    s.apply_action(where(RED))
    after = s.clone()
    after.apply_action(2)  # the draw: player_2 is fastest
    assert narrate_chance(s, after, 0) == [
        "the draw gives the race to player_2: slot 1: red, found: gains red"
    ]
    alone = start(num_players=2)
    roll(alone, RED, black_star=True)
    alone.apply_action(PASS)
    lines, _ = _told(alone, where(YELLOW), 0)
    assert lines[1:] == [
        "race: player_0 abstains, player_1 grabs slot 3",
        "player_1 wins the race: slot 3: yellow, a miss",
    ]
    nobody = start(num_players=2)
    roll(nobody, RED, black_star=True)
    nobody.apply_action(PASS)
    assert _told(nobody, PASS, 0)[0][-1] == "nobody grabbed: the dice pass on"


def test_rolls_and_the_end_of_the_game_are_announced():
    s = start(num_players=2)
    roll(s, RED)
    s.apply_action(where(ORANGE))
    after = s.clone()
    roll(after, YELLOW, black_star=True)
    assert narrate_chance(s, after, 0) == [
        "turn 2: player_1 rolls white yellow, black star: a race for yellow: every seat "
        "grabs a slot or abstains"
    ]
    after = s.clone()
    roll(after, 9)
    assert narrate_chance(s, after, 0)[0].endswith("player_1 names a colour they lack, then flips")
    win = start(num_players=2)
    give(win, 0, 1, 2, 3, 4, 5)
    roll(win, RED)
    lines, _ = _told(win, where(RED), 1)
    assert lines[-1] == "== game over: player_0 wins with 6 colours"
    cap = start(num_players=2, max_turns=1)
    roll(cap, RED)
    assert _told(cap, where(ORANGE), 0)[0][-1] == (
        "== game over at the turn cap (1 turns): nobody wins"
    )


def test_move_names_show_only_colours_the_mover_is_shown_and_parse_by_name():
    s = start(num_players=2)
    roll(s, RED)
    assert sm.move_name(s, where(RED)) == "flip slot 1 (shown: red)"  # the set-up view
    s.apply_action(where(ORANGE))  # player_0 decides: its window keeps only later flips
    roll(s, RED)
    s.apply_action(where(YELLOW))
    roll(s, 9)  # player_0 names
    names = {a: sm.move_name(s, a) for a in s.legal_actions()}
    assert names[NAME0 + RED] == "name red"  # seen at set-up, before its decision
    assert names[NAME0 + ORANGE] == f"name orange (shown at slot {where(ORANGE)})"
    assert names[NAME0 + YELLOW] == f"name yellow (shown at slot {where(YELLOW)})"
    assert parse_move("yellow", names) == NAME0 + YELLOW
    s.apply_action(NAME0 + YELLOW)
    names = {a: sm.move_name(s, a) for a in s.legal_actions()}
    assert sum("shown" in n for n in names.values()) == 0  # its decision cleared the window
    assert parse_move("flip 3", names) == 3
