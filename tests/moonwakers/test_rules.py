"""Rule tests on hand-built positions: set-up, opening, abilities, positioning, reveal."""

from __future__ import annotations

import pytest

from moon_envs import IllegalActionError
from moon_envs.core.game import CHANCE
from moon_envs.moonwakers.game import MoonwakersGame
from tests.moonwakers.positions import (
    DASH,
    PERMUTATION,
    SHORTCUT,
    A,
    blank,
    front,
    give,
    lay,
    map_card,
    of_kind,
    roll,
    run,
)


@pytest.mark.parametrize("n", [2, 4])
def test_setup_deals_characters_safe_hand_cards_combos_then_a_d12_roll_off(n):
    s = MoonwakersGame(num_players=n).new_initial_state()
    for seat in range(n):  # characters: every remaining one equally likely
        outs = s.chance_outcomes()
        assert len(outs) == 6 - seat
        s.apply_action(outs[0][0])
    for seat in range(n):  # set-up draws never give an accident or a storm
        kinds = {s.cards.kind_name(c) for c, _ in s.chance_outcomes()}
        assert not kinds & {"accident", "infrared_storm", "ionic_storm"}
        s.apply_action(s.chance_outcomes()[0][0])
        assert s.known[s.hand[seat][0]] == 1 << seat  # seen by its owner only
    for _ in range(2 if n <= 3 else 3):
        s.apply_action(s.chance_outcomes()[0][0])
    assert all(c >= 0 for c in s.combo_up) and len(s.combo_up) == (2 if n <= 3 else 3)
    # the first player: everyone rolls a d12 (one chance node each), ties rolled again
    dice = [9, 12, 12, 3][:n] if n == 4 else [7, 7]
    for die in dice:
        assert s.chance_outcomes() == [(i, 1 / 12) for i in range(12)]
        roll(s, die)
    tied = [x for x in range(n) if dice[x] == max(dice)]
    assert [r[0] for r in s.last_rolls[-len(dice) :]] == list(range(n))
    for x, die in zip(tied, (4, 10)):  # the tied leaders roll again, in seat order
        assert s.tasks[0] == {**s.tasks[0], "seat": x}
        roll(s, die)
    for _ in range(n + 1):  # players + 1 table cards
        s.apply_action(s.chance_outcomes()[0][0])
    assert sum(c >= 0 for c in s.table) == n + 1 and s.initiative == tied[1]
    assert s.current_player() == tied[1] and front(s) == "option"


def test_options_are_sealed_until_all_chose_then_scanners_peek():
    s = blank(3)
    run(s, ("round_start", {"first": True}))
    for _ in range(4):
        s.apply_action(s.chance_outcomes()[0][0])
    s.apply_action(A.OPT_SCAN)  # seat 0
    assert not s.options_public and s.option[0] == 0
    assert s.action_to_public_string(A.OPT_PROTECTION, 0).endswith("(sealed)")
    s.apply_action(A.OPT_PROTECTION)  # seat 1
    s.apply_action(A.OPT_SCAN)  # seat 2
    assert s.options_public and [s.modifier(x) for x in range(3)] == [-1, 2, -1]
    assert front(s) == "peek" and s.current_player() == 0
    card = s.table[2]
    s.apply_action(A.PEEK + 2)
    assert s.known[card] == 1 and s.looks == [[0, 0, sorted(c for c in s.table if c >= 0)]]
    assert front(s) == "peek" and s.current_player() == 2


def test_dash_replaces_a_table_card_and_the_old_one_goes_under_the_pile():
    s = blank(2, chars=[DASH, 1])
    old = lay(s, 0, s.pile[0])
    run(s, ("dash", {"seat": 0}))
    assert s.legal_actions() == [A.PASS, A.DASH]
    s.apply_action(A.DASH)
    assert s.ability_used[0] and s.table[0] == -1
    outs = [c for c, _ in s.chance_outcomes()]
    assert old not in outs  # the replaced card is not drawn back at once
    s.apply_action(outs[0])
    assert s.table[0] == outs[0] and old in s.pile and s.limbo == []
    run(s, ("dash", {"seat": 0}))
    assert s.tasks == []  # once per round


def test_cryogen_freezes_an_ability_and_a_shield_blocks_the_cryogen():
    s = blank(2, chars=[DASH, 1])
    lay(s, 0, s.pile[0])
    give(s, 1, of_kind(s, "cryogen")[0])
    run(s, ("dash", {"seat": 0}))
    s.apply_action(A.DASH)
    assert s.current_player() == 1 and s.legal_actions() == [A.PASS, A.CRYOGEN]
    s.apply_action(A.CRYOGEN)
    assert s.frozen[0] and s.tasks == []  # no SHIELD: the DASH is frozen, nothing drawn
    s2 = blank(2, chars=[DASH, 1])
    card = lay(s2, 0, s2.pile[0])
    give(s2, 1, of_kind(s2, "cryogen")[0])
    give(s2, 0, of_kind(s2, "shield")[0])
    run(s2, ("dash", {"seat": 0}))
    s2.apply_action(A.DASH)
    s2.apply_action(A.CRYOGEN)
    assert s2.current_player() == 0 and s2.legal_actions() == [A.PASS, A.SHIELD]
    s2.apply_action(A.SHIELD)
    assert not s2.frozen[0] and s2.current_player() == CHANCE and card in s2.limbo
    assert s2.hand == [[], []]  # both action cards were spent under the pile


@pytest.mark.parametrize("ability", ["shortcut", "permutation"])
def test_cryogen_freezes_a_shortcut_or_a_permutation_for_the_round(ability):
    user = SHORTCUT if ability == "shortcut" else PERMUTATION
    s = blank(2, chars=[1, user])
    lay(s, 0, s.pile[0], occupant=0 if ability == "permutation" else -1)
    lay(s, 1, s.pile[0], occupant=1 if ability == "permutation" else -1)
    lay(s, 2, s.pile[0])
    give(s, 0, of_kind(s, "cryogen")[0])
    if ability == "shortcut":
        run(s, ("place_start", {}))
        s.apply_action(A.SHORTCUT)
    else:
        run(s, ("permute", {"seat": 1}), ("permute", {"seat": 1}), ("reveal_start", {}))
        s.apply_action(A.PERMUTE)
    assert s.current_player() == 0 and s.legal_actions() == [A.PASS, A.CRYOGEN]
    s.apply_action(A.CRYOGEN)
    assert s.frozen[1] and s.current_player() == 0  # no duel; no second try this round
    assert front(s) == ("place" if ability == "shortcut" else "reveal")
    assert s.position[:2] == ([-1, -1] if ability == "shortcut" else [0, 1])


@pytest.mark.parametrize(("mine", "theirs", "first"), [(12, 1, 1), (1, 12, 0)])
def test_shortcut_is_a_duel_against_the_initiative_player(mine, theirs, first):
    s = blank(2, chars=[1, SHORTCUT])
    for k in range(3):
        lay(s, k, s.pile[0])
    run(s, ("place_start", {}))
    s.apply_action(A.SHORTCUT)
    roll(s, mine)
    roll(s, theirs)
    assert s.current_player() == first and front(s) == "place"


def test_a_tied_duel_is_rolled_again_and_a_target_shield_cancels_it():
    s = blank(2, chars=[1, SHORTCUT])
    lay(s, 0, s.pile[0])
    run(s, ("place_start", {}))
    s.apply_action(A.SHORTCUT)
    roll(s, 5)
    roll(s, 5)  # both PROTECTION: 7 - 7, tie
    roll(s, 3)
    roll(s, 9)
    assert s.current_player() == 0  # the initiative player won the re-roll
    s = blank(2, chars=[1, SHORTCUT])
    lay(s, 0, s.pile[0])
    give(s, 0, of_kind(s, "shield")[0])
    run(s, ("place_start", {}))
    s.apply_action(A.SHORTCUT)
    assert s.current_player() == 0 and s.legal_actions() == [A.PASS, A.SHIELD]
    s.apply_action(A.SHIELD)
    assert s.current_player() == 0 and front(s) == "place"  # no duel was rolled


def test_a_permutation_is_cancelled_by_the_targets_shield():
    s = blank(2, chars=[PERMUTATION, 1])
    lay(s, 0, s.pile[0], occupant=0)
    lay(s, 1, s.pile[0], occupant=1)
    shield = give(s, 1, of_kind(s, "shield")[0])
    run(s, ("permute", {"seat": 0}), ("reveal_start", {}))
    s.apply_action(A.PERMUTE)
    assert s.current_player() == 1 and s.legal_actions() == [A.PASS, A.SHIELD]
    s.apply_action(A.SHIELD)
    assert s.position == [0, 1] and front(s) == "reveal" and shield in s.pile
    assert s.ability_used[0]


def test_placement_is_one_per_card_and_a_scan_card_looks_at_a_table_or_mapped_card():
    s = blank(2)
    for k in range(3):
        lay(s, k, s.pile[0])
    theirs = map_card(s, 1, s.pile[0])
    scan = give(s, 0, of_kind(s, "scan")[0])
    give(s, 0, of_kind(s, "scan")[1])
    run(s, ("place_start", {}))
    legal = s.legal_actions()
    mapped_1 = A.mapped(1, 0)  # player_1's oldest mapped card
    assert legal == [A.PLACE + k for k in range(3)] + [A.SCAN_CARD + k for k in range(3)] + [
        mapped_1
    ]
    s.apply_action(A.SCAN_CARD + 1)
    assert s.known[s.table[1]] == 1 and scan in s.pile and s.current_player() == 0
    assert "(sealed)" in s.action_to_public_string(mapped_1, 1)
    s.apply_action(mapped_1)
    assert s.known[theirs] == 1 and s.current_player() == 0
    assert s.legal_actions() == [A.PLACE + k for k in range(3)]  # no SCAN card left
    s.apply_action(A.PLACE + 1)
    assert s.legal_actions() == [A.PLACE, A.PLACE + 2]
    with pytest.raises(IllegalActionError):
        s.apply_action(A.PLACE + 1)


def test_scan_targets_table_keeps_scan_cards_to_the_table():
    s = blank(2, scan_targets="table")
    lay(s, 0, s.pile[0])
    map_card(s, 1, s.pile[0])
    give(s, 0, of_kind(s, "scan")[0])
    run(s, ("place_start", {}))
    assert s.legal_actions() == [A.PLACE, A.SCAN_CARD]


def test_permutation_swaps_places_after_a_won_duel():
    s = blank(2, chars=[PERMUTATION, 1])
    lay(s, 0, s.pile[0], occupant=0)
    lay(s, 1, s.pile[0], occupant=1)
    run(s, ("permute", {"seat": 0}), ("reveal_start", {}))
    assert s.legal_actions() == [A.PASS, A.PERMUTE]
    s.apply_action(A.PERMUTE)
    roll(s, 10)
    roll(s, 2)
    assert s.position == [1, 0] and s.occupant[:2] == [1, 0]
    assert front(s) == "reveal"


def test_without_ability_duels_an_unanswered_ability_just_works():
    s = blank(2, chars=[PERMUTATION, 1], ability_duel=False)
    lay(s, 0, s.pile[0], occupant=0)
    lay(s, 1, s.pile[0], occupant=1)
    run(s, ("permute", {"seat": 0}), ("reveal_start", {}))
    s.apply_action(A.PERMUTE)
    assert s.position == [1, 0] and front(s) == "reveal"  # no die was rolled


def test_without_shield_against_abilities_the_target_has_no_window():
    s = blank(2, chars=[PERMUTATION, 1], shield_abilities=False)
    lay(s, 0, s.pile[0], occupant=0)
    lay(s, 1, s.pile[0], occupant=1)
    give(s, 1, of_kind(s, "shield")[0])
    run(s, ("permute", {"seat": 0}), ("reveal_start", {}))
    s.apply_action(A.PERMUTE)
    assert s.current_player() == CHANCE and front(s) == "roll"


def test_shortcut_every_is_offered_before_each_other_seats_placement():
    s = blank(3, chars=[4, 5, SHORTCUT], shortcut_when="every")
    for k in range(4):
        lay(s, k, s.pile[0])
    run(s, ("place_start", {}))
    assert s.current_player() == 2 and s.legal_actions() == [A.PASS, A.SHORTCUT]
    s.apply_action(A.PASS)  # not before player_0 ...
    s.apply_action(A.PLACE)
    assert s.current_player() == 2 and s.tasks[0]["target"] == 1  # ... but before player_1
    s.apply_action(A.SHORTCUT)
    roll(s, 12)
    roll(s, 1)
    assert s.current_player() == 2 and front(s) == "place"
    s.apply_action(A.PLACE + 1)
    assert s.current_player() == 1
    s.apply_action(A.PLACE + 2)
    assert front(s) == "reveal"  # player_2 placed already: its own turn is skipped


def test_permutation_own_is_offered_right_after_the_users_placement():
    s = blank(3, chars=[4, PERMUTATION, 5], permutation_when="own")
    for k in range(4):
        lay(s, k, s.pile[0])
    run(s, ("place_start", {}))
    s.apply_action(A.PLACE)
    s.apply_action(A.PLACE + 1)
    assert s.current_player() == 1 and front(s) == "permute"
    assert s.legal_actions() == [A.PASS, A.PERMUTE + 1]  # player_0 (2 seats left) only
    s.apply_action(A.PASS)
    assert s.current_player() == 2 and front(s) == "place"


def test_map_keeps_the_terrain_face_and_explore_flips_into_the_hand():
    s = blank(2)
    a = lay(s, 0, of_kind(s, "elements")[0], occupant=0)
    b = lay(s, 1, of_kind(s, "elements")[1], occupant=1)
    run(s, ("reveal_start", {}))
    s.apply_action(A.MAP)
    s.apply_action(A.EXPLORE)
    assert s.mapped[0] == [a] and s.known[a] == 0
    assert s.hand[1] == [b] and s.known[b] == 3
    want = [0] * 6
    want[s.cards.element_of[a]] = 1
    assert s.resources(0) == want
    assert s.resources(1) == list(s.cards.gives[b])


@pytest.mark.parametrize(
    ("param", "value"),
    [
        ("setup_hand", "never"),
        ("shortcut_when", 1),
        ("pile", "stacked"),
        ("ability_duel", "yes"),
        ("purchases_per_round", 4),
        ("max_rounds", 0),
        ("game_end", None),
        ("response_windows", "all"),
        ("scan_targets", "x" * 500),
    ],
)
def test_bad_parameters_name_the_field_and_the_allowed_values(param, value):
    from moon_envs import ConfigError

    with pytest.raises(ConfigError, match=param) as err:
        MoonwakersGame(**{param: value})
    assert len(str(err.value)) < 300
    assert "allowed" in str(err.value) or "must be" in str(err.value)


def test_setup_hand_keep_can_deal_an_accident_that_stays_in_hand():
    s = MoonwakersGame(num_players=2, setup_hand="keep").new_initial_state()
    for _ in range(2):
        s.apply_action(s.chance_outcomes()[0][0])  # characters
    acc = of_kind(s, "accident")[0]
    assert (acc, 1 / 50) in s.chance_outcomes()
    s.apply_action(acc)
    assert s.hand[0] == [acc] and s.known[acc] == 1 and s.resources(0) == [0] * 6
    redraw = MoonwakersGame(num_players=2, pile="ordered").new_initial_state()
    for _ in range(2):
        redraw.apply_action(redraw.chance_outcomes()[0][0])
    redraw.apply_action(acc)  # drawn from the shuffled pile: shown and put under it
    assert redraw.hand[0] == [] and redraw.pile_under == [acc] and redraw.known[acc] == 3
    assert front(redraw) == "draw" and redraw.tasks[0]["seat"] == 0


def test_an_ordered_pile_gives_back_the_cards_put_under_it_in_order():
    s = blank(2, pile="ordered")
    first, second = of_kind(s, "elements")[:2]
    give(s, 0, first)
    give(s, 0, second, public=False)
    for c in (second, first):
        s.hand[0].remove(c)
        s.to_pile(c)
    assert s.pile_under == [second, first] and s.known[first] == 3 and s.known[second] == 1
    s.pile = []  # the shuffled part is used up
    s.known = [k if c in (first, second) else 0 for c, k in enumerate(s.known)]
    run(s, ("draw", {"dest": "table", "slot": 0}), ("draw", {"dest": "table", "slot": 1}))
    assert s.chance_outcomes() == [(second, 1.0)]
    s.apply_action(second)
    s.apply_action(first)
    assert s.table[:2] == [second, first] and s.known[second] == 1  # still known to player_0
    assert "??" not in s.to_string(0).split("table:")[1].split("\n")[0]


def test_each_ability_is_used_at_most_once_per_round():
    s = blank(3, chars=[4, 5, SHORTCUT], shortcut_when="every")
    for k in range(4):
        lay(s, k, s.pile[0])
    run(s, ("place_start", {}))
    s.apply_action(A.SHORTCUT)  # before player_0's placement
    roll(s, 1)
    roll(s, 12)  # lost
    assert s.ability_used[2] and s.current_player() == 0
    s.apply_action(A.PLACE)
    assert s.current_player() == 1 and front(s) == "place"  # no second try before player_1
