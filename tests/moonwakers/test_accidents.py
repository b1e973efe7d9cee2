"""Rule tests: accidents (roll, SHELTER, DEFECTIVE SHELTER, SHIELD, losses), storms and the
end of the round."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs.core.game import CHANCE
from tests.moonwakers.positions import (
    A,
    blank,
    front,
    give,
    lay,
    map_card,
    of_kind,
    roll,
    run,
    show,
)


def _explore_accident(option=1, shelter=False, mapped=True, **params):
    s = blank(2, **params)
    s.option = [option, 1]
    acc = lay(s, 0, of_kind(s, "accident")[0], occupant=0)
    if mapped:
        map_card(s, 0, of_kind(s, "elements")[0])
        map_card(s, 0, of_kind(s, "elements")[5])
    give(s, 0, of_kind(s, "elements")[2])
    if shelter:
        give(s, 0, of_kind(s, "shelter")[0])
    run(s, ("reveal", {"seat": 0}))
    s.apply_action(A.EXPLORE)
    return s, acc


@pytest.mark.parametrize(
    ("option", "die", "avoided"), [(1, 5, True), (1, 4, False), (0, 7, False), (0, 8, True)]
)
def test_an_explored_accident_is_avoided_by_a_roll_with_the_modifiers(option, die, avoided):
    s, acc = _explore_accident(option)
    assert front(s) == "accident" and s.legal_actions() == [A.ROLL]
    s.apply_action(A.ROLL)
    roll(s, die)
    if avoided:
        assert acc in s.hand[0] and s.tasks == []
    else:
        assert acc in s.pile and front(s) == "loss"


def test_a_failed_roll_loses_the_mapped_card_of_the_losers_choice():
    s, _acc = _explore_accident()
    s.apply_action(A.ROLL)
    roll(s, 1)
    first, second = s.mapped[0]
    assert s.legal_actions() == [A.mapped(0, 0), A.mapped(0, 1)]  # each card by its place
    assert "lose player_0's mapped card #1" in s.action_to_string(A.mapped(0, 1))
    s.apply_action(A.mapped(0, 1))
    assert s.mapped[0] == [first] and second in s.pile


def test_without_mapped_cards_the_loser_gives_a_hand_card_of_their_choice():
    s, _acc = _explore_accident(mapped=False)
    s.apply_action(A.ROLL)
    roll(s, 1)
    card = s.hand[0][0]
    assert s.legal_actions() == [A.HAND + card]
    s.apply_action(A.HAND + card)
    assert s.hand[0] == [] and card in s.pile


def test_a_shelter_avoids_the_accident_and_keeps_it():
    s, acc = _explore_accident(shelter=True)
    assert s.legal_actions() == [A.SHELTER, A.ROLL]
    shelter = s.holding(0, "shelter")
    s.apply_action(A.SHELTER)
    assert acc in s.hand[0] and shelter in s.pile and s.tasks == []


def test_a_defective_shelter_cancels_the_shelter_and_a_shield_blocks_it():
    s, acc = _explore_accident(shelter=True)
    give(s, 1, of_kind(s, "defective_shelter")[0])
    s.apply_action(A.SHELTER)
    assert s.current_player() == 1 and s.legal_actions() == [A.PASS, A.DEFECTIVE]
    s.apply_action(A.DEFECTIVE)
    assert s.current_player() == CHANCE  # no SHIELD: the shelter is void, roll the die
    roll(s, 12)
    assert acc in s.hand[0]
    s, acc = _explore_accident(shelter=True)
    give(s, 1, of_kind(s, "defective_shelter")[0])
    give(s, 0, of_kind(s, "shield")[0])
    s.apply_action(A.SHELTER)
    s.apply_action(A.DEFECTIVE)
    assert s.current_player() == 0 and s.legal_actions() == [A.PASS, A.SHIELD]
    s.apply_action(A.SHIELD)
    assert acc in s.hand[0] and s.tasks == [] and s.hand[1] == []


def test_a_cancelled_shelter_can_mean_the_accident_hits_at_once():
    s, acc = _explore_accident(shelter=True, cancelled_shelter="loss")
    give(s, 1, of_kind(s, "defective_shelter")[0])
    s.apply_action(A.SHELTER)
    s.apply_action(A.DEFECTIVE)
    assert front(s) == "loss" and s.current_player() == 0 and acc in s.pile


def test_a_response_window_is_offered_with_pass_only_to_a_seat_with_an_unseen_card():
    s, acc = _explore_accident(shelter=True)
    give(s, 1, of_kind(s, "elements")[3], public=False)
    s.apply_action(A.SHELTER)
    assert s.current_player() == 1 and s.legal_actions() == [A.PASS]
    s.apply_action(A.PASS)
    assert acc in s.hand[0]


def test_holders_windows_go_to_holders_only_and_show_the_unseen_card():
    s, acc = _explore_accident(shelter=True, response_windows="holders")
    give(s, 1, of_kind(s, "elements")[3], public=False)
    s.apply_action(A.SHELTER)
    assert s.tasks == [] and acc in s.hand[0]  # nobody was asked
    assert s.not_kinds[1] == 1 << 6  # the table learnt: not a DEFECTIVE SHELTER
    s, acc = _explore_accident(shelter=True, response_windows="holders")
    card = give(s, 1, of_kind(s, "defective_shelter")[0], public=False)
    s.apply_action(A.SHELTER)
    assert s.current_player() == 1 and s.known[card] == 3  # being asked shows it


def test_an_infrared_storm_replaces_the_face_up_combinations():
    s = blank(2)
    show(s, 0, 0)
    show(s, 1, 1)
    storm = lay(s, 0, of_kind(s, "infrared_storm")[0], occupant=0)
    run(s, ("reveal", {"seat": 0}))
    s.apply_action(A.EXPLORE)
    assert s.combo_up == [-1, -1] and sorted(s.combo_under) == [0, 1]
    for _ in range(2):
        outs = [c for c, _ in s.chance_outcomes()]
        assert 0 not in outs and 1 not in outs  # the old ones go under the pile
        s.apply_action(outs[0])
    assert s.combo_up == [2, 3] and {0, 1} <= set(s.combo_pile) and storm in s.hand[0]


def test_an_infrared_storm_refills_from_the_returned_cards_when_the_pile_runs_short():
    s = blank(2)
    show(s, 0, 0)
    show(s, 1, 1)
    s.bought = [s.combo_pile[:-1], []]  # one COMBINATION card left in the pile
    s.score = [sum(s.cards.points_of[c] for c in s.bought[0]), 0]
    s.combo_pile = s.combo_pile[-1:]
    lay(s, 0, of_kind(s, "infrared_storm")[0], occupant=0)
    run(s, ("reveal", {"seat": 0}))
    s.apply_action(A.EXPLORE)
    last = s.combo_pile[0]
    assert s.chance_outcomes() == [(last, 1.0)]
    s.apply_action(last)
    assert s.combo_up == [last, -1] and s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    s.apply_action(1)
    assert s.combo_up == [last, 1] and s.combo_pile == [0] and s.tasks == []


def test_an_ionic_storm_makes_everyone_draw_and_explore():
    s = blank(2)
    lay(s, 0, of_kind(s, "ionic_storm")[0], occupant=1)
    run(s, ("reveal", {"seat": 1}))
    s.apply_action(A.EXPLORE)
    good, acc = of_kind(s, "elements")[0], of_kind(s, "accident")[0]
    s.apply_action(good)  # player_1 (the explorer) draws first
    assert good in s.hand[1] and s.known[good] == 3
    s.apply_action(acc)  # player_0 draws an accident: it must be faced
    assert front(s) == "accident" and s.current_player() == 0 and acc in s.limbo


@pytest.mark.parametrize("mode", ["inert", "act"])
def test_a_storm_drawn_by_an_ionic_storm_does_nothing_or_acts(mode):
    s = blank(2, ionic_storm_draws=mode)
    show(s, 0, 0)
    show(s, 1, 1)
    lay(s, 0, of_kind(s, "ionic_storm")[0], occupant=1)
    run(s, ("reveal", {"seat": 1}))
    s.apply_action(A.EXPLORE)
    infrared = of_kind(s, "infrared_storm")[0]
    s.apply_action(infrared)  # player_1 draws and explores an infrared storm
    assert infrared in s.hand[1]
    if mode == "inert":
        assert s.combo_up == [0, 1] and s.tasks[0]["dest"] == "ionic"
    else:
        assert s.combo_up == [-1, -1] and s.tasks[0]["t"] == "combo"


def _end_round(s):
    run(s, ("end_round", {}))


def test_the_free_card_is_flipped_for_all_and_goes_under_the_pile_next_round():
    s = blank(2)
    free = lay(s, 2, of_kind(s, "elements")[0])
    s.known[free] = 1  # player_0 had scanned it
    run(s, ("end_round", {}), ("claims_start", {}))
    assert s.table[2] == free and s.known[free] == 3 and front(s) == "claim"
    assert "[2] " in s.to_string(1) and "??" not in s.to_string(1).split("table:")[1][:40]
    obs_before = s.observation(1)
    hidden = s.clone()
    hidden.known[free] = 1
    assert not np.array_equal(obs_before, hidden.observation(1))  # the face is observed
    run(s, ("round_start", {}))
    assert free in s.pile and s.known[free] == 0 and s.gone_pub[free] == s.gone[1][free] > 0


def test_the_free_card_can_go_to_the_discard_pile_instead():
    s = blank(2, free_card="discard")
    free = lay(s, 2, of_kind(s, "elements")[0])
    acc = lay(s, 1, of_kind(s, "accident")[0])
    run(s, ("round_start", {}))
    assert s.discard == [free] and acc in s.pile


def test_the_free_cards_accident_is_answered_by_all_at_once_sealed():
    s = blank(3)
    acc = lay(s, 3, of_kind(s, "accident")[0])
    give(s, 1, of_kind(s, "shelter")[0])
    _end_round(s)
    assert s.table[3] == acc and s.known[acc] == 7  # flipped and left face up
    seen = []
    while front(s) == "respond":
        seen.append((s.current_player(), s.legal_actions()))
        if s.current_player() == 1:
            assert "(sealed)" in s.action_to_public_string(A.SHELTER, 0)
        s.apply_action(s.legal_actions()[0])
        assert not s.responses_public or front(s) != "respond"
    assert seen == [(0, [A.ROLL]), (1, [A.SHELTER, A.ROLL]), (2, [A.ROLL])]
    assert s.responses_public and s.responses == [0, 1, 0]
    while front(s) != "claim":
        assert s.current_player() == CHANCE
        roll(s, 12)
    assert s.hand[1] == []  # the shelter was given; the accident stays on the table


def test_a_defective_shelter_answers_a_shelter_against_the_free_cards_accident():
    s = blank(2)
    lay(s, 2, of_kind(s, "accident")[0])
    give(s, 0, of_kind(s, "shelter")[0])
    give(s, 1, of_kind(s, "defective_shelter")[0])
    map_card(s, 0, of_kind(s, "elements")[0])
    _end_round(s)
    s.apply_action(A.SHELTER)  # player_0
    s.apply_action(A.ROLL)  # player_1
    assert s.current_player() == 1 and s.legal_actions() == [A.PASS, A.DEFECTIVE]
    s.apply_action(A.DEFECTIVE)
    roll(s, 2)  # player_0's shelter is void: the die, 2 + 2 < 7
    assert front(s) == "loss" and s.current_player() == 0
    s.apply_action(A.mapped(0, 0))
    roll(s, 12)  # player_1's own roll
    assert front(s) == "claim" and s.mapped[0] == []


@pytest.mark.parametrize(("replaces", "kept"), [("all", []), ("two", [2])])
def test_at_four_players_the_infrared_storm_replaces_all_or_two(replaces, kept):
    """[HOUSE] infrared_storm_replaces: "all" three face-up cards, or the first "two"."""
    s = blank(4, infrared_storm_replaces=replaces)
    for slot in range(3):
        show(s, slot, slot)
    lay(s, 0, of_kind(s, "infrared_storm")[0], occupant=0)
    run(s, ("reveal", {"seat": 0}))
    s.apply_action(A.EXPLORE)
    replaced = [k for k in range(3) if k not in kept]
    assert sorted(s.combo_under) == replaced
    assert s.combo_up == [-1 if k in replaced else k for k in range(3)]
    for _ in replaced:
        outs = [c for c, _ in s.chance_outcomes()]
        assert not set(outs) & {0, 1, 2}  # neither the old cards nor the kept one
        s.apply_action(outs[0])
    assert [s.combo_up[k] for k in kept] == kept
    assert all(c not in replaced for c in s.combo_up) and set(replaced) <= set(s.combo_pile)


def test_with_two_players_both_settings_are_the_same_game():
    for replaces in ("all", "two"):
        s = blank(2, infrared_storm_replaces=replaces)
        show(s, 0, 0)
        show(s, 1, 1)
        lay(s, 0, of_kind(s, "infrared_storm")[0], occupant=0)
        run(s, ("reveal", {"seat": 0}))
        s.apply_action(A.EXPLORE)
        assert s.combo_up == [-1, -1] and sorted(s.combo_under) == [0, 1]
