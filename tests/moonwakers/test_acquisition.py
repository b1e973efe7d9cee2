"""Rule tests: sealed claims, duels, payment card by card, LABO, the end of the game."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs.core.game import CHANCE, TERMINAL
from tests.moonwakers.positions import A, blank, front, give, map_card, of_kind, roll, run, show

H2O, O2 = 0, 1  # combination ids in the default file


def _cards_with(s, element: str, count: int = 1) -> list[int]:
    e = "CHNOPS".index(element)
    return [c for c in of_kind(s, "elements") if s.cards.gives[c][e] >= count]


def _rich(s, seat: int) -> None:
    """Give ``seat`` enough for H2O and O2 (public hand cards)."""
    for c in _cards_with(s, "O", 2)[:2] + _cards_with(s, "H", 2)[:1]:
        if c in s.pile:
            give(s, seat, c)


def _bought(s, seat: int, combos: list[int]) -> None:
    for c in combos:
        s.combo_pile.remove(c)
    s.bought[seat] = list(combos)
    score = list(s.score)
    score[seat] = sum(s.cards.points_of[c] for c in combos)
    s.score = score


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


def test_open_claims_are_seen_as_they_are_made():
    s = blank(2, claims="open")
    show(s, 0, H2O)
    _rich(s, 0)
    run(s, ("claims_start", {}))
    s.apply_action(A.CLAIM)
    assert s.claims_public and "claim slot 0" in s.to_string(1)


def test_a_single_claim_pays_card_by_card_choosing_each_card_then_the_slot_is_refilled():
    s = blank(2)
    show(s, 0, H2O)
    show(s, 1, O2)
    hydrogen = [c for c in range(50) if s.cards.element_of[c] == 1]
    h1 = map_card(s, 0, hydrogen[0])
    h2 = map_card(s, 0, hydrogen[1])
    ho = give(s, 0, next(c for c in _cards_with(s, "O") if s.cards.gives[c][1] == 1))
    run(s, ("claims_start", {}))
    s.apply_action(A.CLAIM)
    s.apply_action(A.PASS)
    assert front(s) == "pay" and s.pay_need == [0, 2, 0, 1, 0, 0]
    assert s.legal_actions() == [A.mapped(0, 0), A.mapped(0, 1), A.HAND + ho]
    s.apply_action(A.HAND + ho)
    assert s.pay_need == [0, 1, 0, 0, 0, 0]
    assert s.legal_actions() == [A.mapped(0, 0), A.mapped(0, 1)]
    s.apply_action(A.mapped(0, 1))  # the newer of the two hydrogen cards
    assert s.bought[0] == [H2O] and s.discard == [ho, h2] and s.mapped[0] == [h1]
    assert s.combo_up[0] == -1 and s.points(0) == 3
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
    roll(s, 3)
    roll(s, 10)
    assert front(s) == "pay" and s.current_player() == 1


def test_a_payment_that_cannot_be_made_is_an_error_not_a_silent_skip():
    s = blank(2)
    show(s, 0, O2)
    give(s, 0, _cards_with(s, "O", 2)[0])
    run(s, ("pay_start", {"seat": 0, "slot": 0}))
    s.hand[0] = []  # a position the rules cannot reach
    s.tasks[0].pop("_legal")
    with pytest.raises(RuntimeError, match="holds nothing that pays it"):
        s.legal_actions()


def test_labo_explores_an_opponents_mapped_card_into_the_hand_with_no_shield_window():
    s = blank(2)
    show(s, 0, 16)
    give(s, 0, of_kind(s, "labo")[0])
    give(s, 1, of_kind(s, "shield")[0])
    target = map_card(s, 1, of_kind(s, "elements")[0])
    run(s, ("claims_start", {}))
    action = A.mapped(1, 0)
    assert action in s.legal_actions()
    s.apply_action(action)
    assert target in s.hand[0] and s.mapped[1] == [] and s.known[target] == 3
    assert front(s) == "claim" and s.current_player() == 0  # no SHIELD answers a LABO


def test_labo_on_ones_own_mapped_accident_keeps_it_with_no_accident():
    s = blank(2)
    show(s, 0, 16)
    labo = give(s, 0, of_kind(s, "labo")[0])
    acc = map_card(s, 0, of_kind(s, "accident")[0])
    run(s, ("claims_start", {}))
    assert s.legal_actions()[-1] == A.mapped(0, 0)
    s.apply_action(A.mapped(0, 0))
    assert s.hand[0] == [acc] and labo in s.pile and s.known[acc] == 3
    assert front(s) == "claim" and s.limbo == []  # no accident to face


def test_a_claim_is_dropped_when_a_later_labo_makes_it_unaffordable():
    s = blank(2)
    show(s, 0, O2)
    oxygen = [c for c in of_kind(s, "elements") if s.cards.element_of[c] == 3]
    map_card(s, 0, oxygen[0])
    map_card(s, 0, oxygen[1])
    give(s, 1, of_kind(s, "labo")[0])
    run(s, ("claims_start", {}))
    s.apply_action(A.CLAIM)  # player_0 claims O2 with two mapped O
    s.apply_action(A.mapped(1, 0))  # player_1 LABOs one of them away
    assert s.claims == [0, -2] and s.mapped[0] == [oxygen[1]]
    s.apply_action(A.PASS)  # claims revealed: player_0's claim is dropped, nobody pays
    assert s.bought == [[], []] and s.combo_up[0] == O2 and s.last_rolls == []
    assert s.round == 2 and s.current_player() == CHANCE


def test_several_purchases_per_round_open_another_claim_turn():
    s = blank(2, purchases_per_round=2)
    show(s, 0, O2)
    show(s, 1, H2O)
    _rich(s, 0)
    run(s, ("claims_start", {}))
    s.apply_action(A.CLAIM)
    s.apply_action(A.PASS)
    s.apply_action(A.HAND + _cards_with(s, "O", 2)[0])  # pays O2 with one card
    s.apply_action(s.combo_pile[0])  # the slot is refilled
    assert front(s) == "claim" and s.claim_turns == 2 and s.current_player() == 0
    s = blank(2)
    show(s, 0, O2)
    _rich(s, 0)
    run(s, ("claims_start", {}))
    s.apply_action(A.CLAIM)
    s.apply_action(A.PASS)
    s.apply_action(A.HAND + _cards_with(s, "O", 2)[0])
    s.apply_action(s.combo_pile[0])
    assert front(s) != "claim" and s.round == 2  # one purchase per round by default


def test_the_game_ends_at_the_target_and_ties_go_to_more_cards():
    s = blank(2)
    _bought(s, 0, [15, 16, 0, 1])  # 9+10+3+2 = 24
    _bought(s, 1, [14, 13, 2, 3, 4, 5])  # 8+8+2+3+3+3 = 27
    run(s, ("round_over", {}))
    assert s.current_player() == TERMINAL and s.winners() == [1]
    s = blank(2)
    _bought(s, 0, [15, 5, 6])
    _bought(s, 1, [16, 0, 1, 8])  # 15 vs 19: below target
    run(s, ("round_over", {}))
    assert s.current_player() == CHANCE and s.round == 2 and s.initiative == 1
    s = blank(2)
    _bought(s, 0, [16])
    _bought(s, 1, [11, 5, 2])  # 10 points each: more COMBINATION cards wins
    s.round = s.game.config.max_rounds
    run(s, ("round_over", {}))
    assert s.is_terminal() and s.winners() == [1]
    assert np.array_equal(s.returns(), [-1.0, 1.0])


def test_with_game_end_choice_a_player_at_the_target_may_play_on_or_end_it():
    s = blank(2, game_end="choice")
    _bought(s, 0, [15, 16, 0, 1, 2])  # 26 points
    run(s, ("round_over", {}))
    assert s.current_player() == 0 and s.legal_actions() == [A.PASS, A.END]
    s.apply_action(A.PASS)
    assert s.current_player() == CHANCE and s.round == 2
    run(s, ("round_over", {}))
    s.apply_action(A.END)
    assert s.is_terminal() and s.winners() == [0]


def test_equal_points_and_cards_share_the_win():
    s = blank(2)
    _bought(s, 0, [0])
    _bought(s, 1, [4])  # 3 points, one card each
    s.round = s.game.config.max_rounds
    run(s, ("round_over", {}))
    assert s.winners() == [0, 1]


def test_the_discard_pile_is_reshuffled_into_an_empty_pile():
    s = blank(2)
    s.discard, s.pile = s.pile, []
    for c in s.discard:
        s.known[c] = 3
    run(s, ("draw", {"dest": "table", "slot": 0}))
    assert s.discard == [] and len(s.chance_outcomes()) == 50
    assert all(k == 0 for k in s.known) and min(s.gone_pub) > 0


def test_the_game_ends_when_no_combination_card_is_left():
    s = blank(2)
    _bought(s, 0, list(range(0, 17, 2)))
    _bought(s, 1, list(range(1, 17, 2)))
    run(s, ("round_over", {}))
    assert s.is_terminal()
