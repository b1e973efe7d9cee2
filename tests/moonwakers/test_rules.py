"""Rule tests on hand-built positions: set-up, opening, abilities, positioning, reveal."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs import IllegalActionError
from moon_envs.core.game import CHANCE
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.game import MoonwakersGame
from tests.moonwakers.positions import (
    DASH,
    PERMUTATION,
    SHORTCUT,
    blank,
    front,
    give,
    lay,
    of_kind,
    run,
)


def _roll(s, die):
    assert s.current_player() == CHANCE and s.tasks[0]["t"] == "roll"
    s.apply_action(die - 1)


@pytest.mark.parametrize("n", [2, 4])
def test_setup_deals_characters_safe_hand_cards_combos_and_first_player(n):
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
    assert s.chance_outcomes() == [(x, 1 / n) for x in range(n)]  # the first player
    s.apply_action(n - 1)
    for _ in range(n + 1):  # players + 1 table cards
        s.apply_action(s.chance_outcomes()[0][0])
    assert sum(c >= 0 for c in s.table) == n + 1 and s.initiative == n - 1
    assert s.current_player() == n - 1 and front(s) == "option"


def test_options_are_sealed_until_all_chose_then_scanners_peek():
    s = blank(3)
    for k in range(4):
        lay(s, k, s.pile[0])
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
    assert s.known[card] == 1
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


@pytest.mark.parametrize(("mine", "theirs", "first"), [(12, 1, 1), (1, 12, 0)])
def test_shortcut_is_a_duel_against_the_initiative_player(mine, theirs, first):
    s = blank(2, chars=[1, SHORTCUT])
    for k in range(3):
        lay(s, k, s.pile[0])
    run(s, ("shortcut", {"seat": 1}), ("place_start", {}))
    s.apply_action(A.SHORTCUT)
    _roll(s, mine)
    _roll(s, theirs)
    assert s.current_player() == first and front(s) == "place"


def test_a_tied_duel_is_rolled_again_and_a_target_shield_cancels_it():
    s = blank(2, chars=[1, SHORTCUT])
    lay(s, 0, s.pile[0])
    run(s, ("shortcut", {"seat": 1}), ("place_start", {}))
    s.apply_action(A.SHORTCUT)
    _roll(s, 5)
    _roll(s, 5)  # both PROTECTION: 7 - 7, tie
    _roll(s, 3)
    _roll(s, 9)
    assert s.current_player() == 0  # the initiative player won the re-roll
    s = blank(2, chars=[1, SHORTCUT])
    lay(s, 0, s.pile[0])
    give(s, 0, of_kind(s, "shield")[0])
    run(s, ("shortcut", {"seat": 1}), ("place_start", {}))
    s.apply_action(A.SHORTCUT)
    assert s.current_player() == 0 and s.legal_actions() == [A.PASS, A.SHIELD]
    s.apply_action(A.SHIELD)
    assert s.current_player() == 0 and front(s) == "place"  # no duel was rolled


def test_placement_is_one_per_card_and_a_scan_card_peeks_first():
    s = blank(2)
    for k in range(3):
        lay(s, k, s.pile[0])
    scan = give(s, 0, of_kind(s, "scan")[0])
    run(s, ("place_start", {}))
    legal = s.legal_actions()
    assert [A.PLACE + k for k in range(3)] + [A.SCAN_CARD + k for k in range(3)] == legal
    s.apply_action(A.SCAN_CARD + 1)
    assert s.known[s.table[1]] == 1 and scan in s.pile and s.current_player() == 0
    s.apply_action(A.PLACE + 1)
    assert s.legal_actions() == [A.PLACE, A.PLACE + 2]
    with pytest.raises(IllegalActionError):
        s.apply_action(A.PLACE + 1)


def test_permutation_swaps_places_after_a_won_duel():
    s = blank(2, chars=[PERMUTATION, 1])
    lay(s, 0, s.pile[0], occupant=0)
    lay(s, 1, s.pile[0], occupant=1)
    run(s, ("permute", {"seat": 0}), ("reveal_start", {}))
    assert s.legal_actions() == [A.PASS, A.PERMUTE]
    s.apply_action(A.PERMUTE)
    _roll(s, 10)
    _roll(s, 2)
    assert s.position == [1, 0] and s.occupant[:2] == [1, 0]
    assert front(s) == "reveal"


def test_map_keeps_the_terrain_face_and_explore_flips_into_the_hand():
    s = blank(2)
    a = lay(s, 0, of_kind(s, "elements")[0], occupant=0)
    b = lay(s, 1, of_kind(s, "elements")[1], occupant=1)
    run(s, ("reveal_start", {}))
    s.apply_action(A.MAP)
    s.apply_action(A.EXPLORE)
    assert s.mapped[0] == [a] and s.known[a] == 0
    assert s.hand[1] == [b] and s.known[b] == 3
    want = np.zeros(6, dtype=np.int64)
    want[s.cards.terrain_element[a]] = 1
    assert np.array_equal(s.resources(0), want)
    assert np.array_equal(s.resources(1), s.cards.explored_elements[b])
