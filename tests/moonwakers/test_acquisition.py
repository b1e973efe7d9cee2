"""Rule tests: sealed claims, duels, payment card by card, LABO, the end of the game."""

from __future__ import annotations

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.moonwakers.config import ActionLayout as A
from tests.moonwakers.positions import blank, front, give, map_card, of_kind, run, show

H2O, O2 = 0, 1  # combination ids in the default file


def _cards_with(s, element: str, count: int = 1) -> list[int]:
    e = "CHNOPS".index(element)
    return [c for c in of_kind(s, "elements") if s.cards.explored_elements[c][e] >= count]


def _rich(s, seat: int) -> None:
    """Give ``seat`` enough for H2O and O2 (public hand cards)."""
    for c in _cards_with(s, "O", 2)[:2] + _cards_with(s, "H", 2)[:1]:
        if c in s.pile:
            give(s, seat, c)


def test_claims_are_sealed_and_only_affordable_cards_can_be_claimed():
    s = blank(2)
    show(s, 0, H2O)
    show(s, 1, 16)  # glycine, 10 atoms
    _rich(s, 0)
    run(s, ("claims_start", {}))
    assert s.legal_actions() == [A.PASS, A.CLAIM]
    passed = s.clone()
    passed.apply_action(A.PASS)
    s.apply_action(A.CLAIM)
    assert s.claims[0] == 0 and not s.claims_public
    assert np.array_equal(s.observation(1), passed.observation(1))
    assert s.to_string(1) == passed.to_string(1) and s.info() == passed.info()
    assert not np.array_equal(s.observation(0), passed.observation(0))  # one's own claim shows
    assert s.action_to_public_string(A.PASS, 0) == "player_1 chooses a claim (sealed)"
    s.apply_action(A.PASS)
    assert s.claims_public and s.claims == [0, -1]


def test_a_single_claim_pays_card_by_card_then_the_slot_is_refilled():
    s = blank(2)
    show(s, 0, H2O)
    show(s, 1, O2)
    h = map_card(s, 0, next(c for c in range(50) if s.cards.terrain_element[c] == 1))
    ho = give(s, 0, next(c for c in _cards_with(s, "O") if s.cards.explored_elements[c][1] == 1))
    run(s, ("claims_start", {}))
    s.apply_action(A.CLAIM)
    s.apply_action(A.PASS)
    assert front(s) == "pay" and s.pay_need == [0, 2, 0, 1, 0, 0]
    assert s.legal_actions() == [A.PAY_MAPPED + 1, A.HAND + ho]
    s.apply_action(A.HAND + ho)
    assert s.pay_need == [0, 1, 0, 0, 0, 0] and s.legal_actions() == [A.PAY_MAPPED + 1]
    s.apply_action(A.PAY_MAPPED + 1)
    assert s.bought[0] == [H2O] and s.discard == [ho, h] and s.combo_up[0] == -1
    assert s.current_player() == CHANCE and s.tasks[0]["t"] == "combo"


def test_overpaying_gives_no_change():
    s = blank(2)
    show(s, 0, O2)
    big = give(s, 0, _cards_with(s, "O", 2)[0])
    extra = give(s, 0, _cards_with(s, "O", 1)[-1])
    run(s, ("claims_start", {}))
    s.apply_action(A.CLAIM)
    s.apply_action(A.PASS)
    s.apply_action(A.HAND + big)
    assert s.bought[0] == [O2] and extra in s.hand[0] and big in s.discard


def test_two_claims_on_one_card_are_settled_by_a_duel():
    s = blank(2)
    show(s, 0, O2)
    for seat in (0, 1):
        give(s, seat, _cards_with(s, "O", 2)[seat])
    run(s, ("claims_start", {}))
    s.apply_action(A.CLAIM)
    s.apply_action(A.CLAIM)
    assert s.claims_public and {**s.tasks[0], "_chance": None} == {
        "t": "roll",
        "seat": 0,
        "why": "duel",
        "_chance": None,
    }
    s.apply_action(2)
    s.apply_action(9)
    assert front(s) == "pay" and s.current_player() == 1


def test_labo_explores_an_opponents_mapped_card_into_the_hand():
    s = blank(2)
    show(s, 0, 16)
    give(s, 0, of_kind(s, "labo")[0])
    target = map_card(s, 1, of_kind(s, "elements")[0])
    element = int(s.cards.terrain_element[target])
    run(s, ("claims_start", {}))
    action = A.LABO + 1 * 6 + element
    assert action in s.legal_actions()
    s.apply_action(action)
    assert target in s.hand[0] and s.mapped[1] == [] and s.known[target] == 3
    assert front(s) == "claim" and s.current_player() == 0


def test_the_game_ends_at_the_target_and_ties_go_to_more_cards():
    s = blank(2)
    s.bought = [[15, 16, 0, 1], [14, 13, 2, 3, 4, 5]]  # 9+10+3+2 = 24 vs 8+8+2+3+3+3 = 27
    for c in s.bought[0] + s.bought[1]:
        s.combo_pile.remove(c)
    run(s, ("round_over", {}))
    assert s.current_player() == TERMINAL and s.winners() == [1]
    s = blank(2)
    s.bought = [[15, 5, 6], [16, 0, 1, 8]]  # 15 vs 19: below target
    for c in s.bought[0] + s.bought[1]:
        s.combo_pile.remove(c)
    run(s, ("round_over", {}))
    assert s.current_player() == CHANCE and s.round == 2 and s.initiative == 1
    s = blank(2)
    s.bought = [[16], [11, 5, 2]]  # 10 points each: more COMBINATION cards wins
    s.round = s.game.config.max_rounds
    for c in s.bought[0] + s.bought[1]:
        s.combo_pile.remove(c)
    run(s, ("round_over", {}))
    assert s.is_terminal() and s.winners() == [1]
    assert np.array_equal(s.returns(), [-1.0, 1.0])


def test_equal_points_and_cards_share_the_win():
    s = blank(2)
    s.bought = [[0], [4]]  # 3 points, one card each
    s.round = s.game.config.max_rounds
    s.combo_pile = [c for c in s.combo_pile if c not in (0, 4)]
    run(s, ("round_over", {}))
    assert s.winners() == [0, 1]


def test_the_discard_pile_is_reshuffled_into_an_empty_pile():
    s = blank(2)
    s.discard, s.pile = s.pile, []
    run(s, ("draw", {"dest": "table", "slot": 0}))
    assert s.discard == [] and len(s.chance_outcomes()) == 50


def test_the_game_ends_when_no_combination_card_is_left():
    s = blank(2)
    s.bought = [list(range(0, 17, 2)), list(range(1, 17, 2))]
    s.combo_pile = []
    run(s, ("round_over", {}))
    assert s.is_terminal()
