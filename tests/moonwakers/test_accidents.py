"""Rule tests: accidents (roll, SHELTER, DEFECTIVE SHELTER, SHIELD, losses), storms and the
end of the round."""

from __future__ import annotations

import pytest

from moon_envs.core.game import CHANCE
from moon_envs.moonwakers.config import ActionLayout as A
from tests.moonwakers.positions import blank, front, give, lay, map_card, of_kind, run, show


def _explore_accident(option=1, shelter=False, mapped=True):
    s = blank(2)
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
    s.apply_action(die - 1)
    if avoided:
        assert acc in s.hand[0] and s.tasks == []
    else:
        assert acc in s.pile and front(s) == "loss"


def test_a_failed_roll_loses_a_mapped_card_of_the_losers_choice():
    s, _acc = _explore_accident()
    s.apply_action(A.ROLL)
    s.apply_action(0)
    elements = sorted({int(s.cards.terrain_element[c]) for c in s.mapped[0]})
    assert s.legal_actions() == [A.LOSE_MAPPED + e for e in elements]
    lost = next(c for c in s.mapped[0] if s.cards.terrain_element[c] == elements[-1])
    s.apply_action(A.LOSE_MAPPED + elements[-1])
    assert lost in s.pile and lost not in s.mapped[0]


def test_without_mapped_cards_the_loser_gives_a_hand_card_of_their_choice():
    s, _acc = _explore_accident(mapped=False)
    s.apply_action(A.ROLL)
    s.apply_action(0)
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
    s.apply_action(11)
    assert acc in s.hand[0]
    s, acc = _explore_accident(shelter=True)
    give(s, 1, of_kind(s, "defective_shelter")[0])
    give(s, 0, of_kind(s, "shield")[0])
    s.apply_action(A.SHELTER)
    s.apply_action(A.DEFECTIVE)
    assert s.current_player() == 0 and s.legal_actions() == [A.PASS, A.SHIELD]
    s.apply_action(A.SHIELD)
    assert acc in s.hand[0] and s.tasks == [] and s.hand[1] == []


def test_a_response_window_is_offered_with_pass_only_to_a_seat_with_an_unseen_card():
    s, acc = _explore_accident(shelter=True)
    give(s, 1, of_kind(s, "elements")[3], public=False)
    s.apply_action(A.SHELTER)
    assert s.current_player() == 1 and s.legal_actions() == [A.PASS]
    s.apply_action(A.PASS)
    assert acc in s.hand[0]


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


def test_the_free_cards_accident_hits_every_player_and_other_free_cards_go_under():
    s = blank(3)
    acc = lay(s, 3, of_kind(s, "accident")[0])
    other = lay(s, 2, of_kind(s, "elements")[0])
    give(s, 1, of_kind(s, "shelter")[0])
    run(s, ("end_round", {}))
    assert acc in s.pile and other in s.pile and s.table == [-1] * 7
    seen = []
    while front(s) != "claim":
        if s.current_player() == CHANCE:
            s.apply_action(11)
        else:
            seen.append((s.current_player(), s.legal_actions()))
            s.apply_action(s.legal_actions()[0])
    assert seen == [(0, [A.ROLL]), (1, [A.SHELTER, A.ROLL]), (2, [A.ROLL])]
    assert s.hand[1] == []  # the shelter was given; the accident card stays under the pile
