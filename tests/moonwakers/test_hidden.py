"""No leaks: what a seat may not know never reaches its observation, mask, infos or text;
sealed choices stay sealed; resample depends only on what the seat knows, keeps all of
it, and deals positions that respect every rule the seat knows."""

from __future__ import annotations

import numpy as np
import pytest

from moon_agents.search import MCTSAgent
from moon_envs.core.view import AgentView
from moon_envs.moonwakers.game import MoonwakersGame
from tests.helpers import step_state
from tests.moonwakers.positions import (
    A,
    blank,
    front,
    give,
    lay,
    map_card,
    of_kind,
    paying_a_claim,
    run,
    seen_later_twins,
    show,
)

DUNE_O = (17, 23)  # two element cards with the same terrain face (Dune Sea, O)
ICE_O = (16, 22)  # Ice Field O: an element card and a SHIELD
H2O, O2 = 0, 1


def same_view(a, b, seat: int) -> None:
    assert np.array_equal(a.observation(seat), b.observation(seat))
    assert a.to_string(seat) == b.to_string(seat)
    assert a.info() == b.info()
    assert a.current_player() == b.current_player()
    if a.current_player() == seat:
        assert np.array_equal(a.legal_actions_mask(), b.legal_actions_mask())
    if a.current_player() >= 0:
        for action in a.legal_actions():
            assert a.action_to_public_string(action, seat) == b.action_to_public_string(
                action, seat
            )


def same_resamples(a, b, seat: int, draws: int = 4) -> None:
    for k in range(draws):
        ra = a.resample(seat, np.random.default_rng(k))
        rb = b.resample(seat, np.random.default_rng(k))
        assert ra.to_dict() == rb.to_dict()
        same_view(a, ra, seat)


def same_search(a, b, seat: int) -> None:
    one, two = MCTSAgent(seed=0, simulations=100), MCTSAgent(seed=0, simulations=100)
    assert one.act(AgentView.of(a, seat)) == two.act(AgentView.of(b, seat))
    assert one.last.root == two.last.root
    assert one.last.simulations == (100 if len(a.legal_actions()) > 1 else 0)


def check_twins(a, b, seat: int, search: bool = True) -> None:
    """(a) the same view, (b) the same determinisations, (c) the same search."""
    assert a.to_dict() != b.to_dict()  # the twins do differ
    same_view(a, b, seat)
    same_resamples(a, b, seat)
    if search:
        same_search(a, b, seat)


def _base(**params):
    """Round 1 of 2 (short rollouts), two DASH characters: player_0 holds an unseen
    SHELTER and a public O card, two COMBINATION cards are up."""
    s = blank(2, chars=[4, 5], max_rounds=2, **params)
    show(s, 0, H2O)
    show(s, 1, O2)
    give(s, 0, of_kind(s, "shelter")[0], public=False)
    give(s, 0, 29)  # O2 S
    return s


def _hidden_twins(build):
    """Two positions built by ``build(s, swap)`` that differ only in player_1's set-up
    card and an unscanned table card (each swapped with a card of the same face)."""
    out = []
    for swap in (0, 1):
        s = _base()
        give(s, 1, DUNE_O[swap], public=False)
        lay(s, 0, ICE_O[swap])
        build(s, swap)
        out.append(s)
    return out


def test_hidden_cards_twins_at_placement():
    def build(s, swap):
        lay(s, 1, of_kind(s, "elements")[0])
        lay(s, 2, of_kind(s, "elements")[1])
        run(s, ("place_start", {}))

    a, b = _hidden_twins(build)
    check_twins(a, b, 0)
    assert a.to_string(1) != b.to_string(1)  # player_1 sees its own card


def test_hidden_cards_twins_in_an_accident_window():
    def build(s, swap):
        lay(s, 1, of_kind(s, "accident")[0], occupant=0)
        run(s, ("reveal", {"seat": 0}), ("end_round", {}))
        s.apply_action(A.EXPLORE)

    a, b = _hidden_twins(build)
    assert front(a) == "accident" and a.legal_actions() == [A.SHELTER, A.ROLL]
    check_twins(a, b, 0)


def test_hidden_cards_twins_in_a_defective_window_of_the_other_seat():
    def build(s, swap):
        lay(s, 1, of_kind(s, "accident")[0], occupant=1)
        give(s, 1, of_kind(s, "shelter")[1])
        run(s, ("reveal", {"seat": 1}), ("end_round", {}))
        s.apply_action(A.EXPLORE)
        s.apply_action(A.SHELTER)

    a, b = _hidden_twins(build)
    assert front(a) == "defective" and a.current_player() == 0 and a.legal_actions() == [0]
    check_twins(a, b, 0)


def test_hidden_cards_twins_with_labo_and_payment():
    def build(s, swap):
        give(s, 0, of_kind(s, "labo")[0])
        map_card(s, 1, 21)  # Mountain O, unseen by all
        map_card(s, 0, 4)  # Ice Field H
        give(s, 0, 13)  # Stone Columns O: explored, public
        run(s, ("claims_start", {}))

    a, b = _hidden_twins(build)
    assert A.mapped(1, 0) in a.legal_actions()  # LABO on player_1's mapped card
    check_twins(a, b, 0)
    for s in (a, b):
        s.apply_action(A.CLAIM + 1)  # O2
        s.apply_action(A.PASS)
    assert front(a) == "pay" and a.current_player() == 0
    check_twins(a, b, 0)


def test_twins_differing_in_another_seats_sealed_opening_choice():
    twins = []
    for choice in (A.OPT_SCAN, A.OPT_PROTECTION):
        s = _base()
        give(s, 1, DUNE_O[0], public=False)
        for k in range(3):
            lay(s, k, of_kind(s, "elements")[k])
        s.initiative = 1
        s.option, s.options_public = [-1, -1], False
        run(s, ("option", {"seat": 1}), ("option", {"seat": 0}), ("options_reveal", {}))
        s.apply_action(choice)
        twins.append(s)
    check_twins(*twins, seat=0)


def test_twins_differing_in_another_seats_peek_target():
    twins = []
    for slot in (0, 1):
        s = _base()
        give(s, 1, DUNE_O[0], public=False)
        for k in range(3):
            lay(s, k, of_kind(s, "elements")[k])
        s.initiative = 1
        s.option = [0, 0]
        run(s, ("peek", {"seat": 1}), ("peek", {"seat": 0}), ("place_start", {}))
        s.apply_action(A.PEEK + slot)
        twins.append(s)
    check_twins(*twins, seat=0)
    later = [t.clone() for t in twins]
    for t in later:  # the peeked card mapped: still the same view and determinisations
        t.apply_action(A.PEEK + 2)
        t.apply_action(A.PLACE + 1)
        t.apply_action(A.PLACE)
        t.apply_action(A.MAP)
        t.apply_action(A.MAP)
    check_twins(*later, seat=0, search=False)


def test_twins_differing_in_another_seats_sealed_claim():
    twins = []
    for choice in (A.CLAIM + 1, A.PASS):
        s = _base()
        give(s, 1, DUNE_O[0], public=False)
        give(s, 1, 16)  # Ice Field O, public: player_1 can afford O2 (2 O)
        s.initiative = 1
        run(s, ("claims_start", {}))
        s.apply_action(choice)
        twins.append(s)
    assert twins[0].current_player() == 0
    check_twins(*twins, seat=0)


def test_twins_differing_in_another_seats_sealed_answer_to_the_free_accident():
    twins = []
    for choice in (A.SHELTER, A.ROLL):
        s = _base()
        give(s, 1, of_kind(s, "shelter")[1])
        lay(s, 2, of_kind(s, "accident")[0])
        s.initiative = 1
        run(s, ("end_round", {}))
        s.apply_action(choice)
        twins.append(s)
    assert front(twins[0]) == "respond" and twins[0].current_player() == 0
    check_twins(*twins, seat=0)


# ---- what resample keeps and what it respects ---------------------------------------------------


@pytest.mark.parametrize("n", [2, 4, 6])
def test_resample_keeps_everything_the_seat_knows(n):
    game = MoonwakersGame(num_players=n)
    for seed in range(6):
        rng = np.random.default_rng(seed)
        s = game.new_initial_state()
        for _ in range(30 + 50 * seed):
            if s.is_terminal():
                break
            step_state(s, rng)
        for seat in range(n):
            r = s.resample(seat, rng)
            r.validate()
            same_view(s, r, seat)
            bit = 1 << seat
            for x in range(n):
                known_mine = [c for c in s.hand[x] if s.known[c] & bit]
                assert known_mine == [c for c in r.hand[x] if r.known[c] & bit]
                faces = [s.cards.face_of[c] for c in s.hand[x] + s.mapped[x]]
                assert faces == [r.cards.face_of[c] for c in r.hand[x] + r.mapped[x]]
            assert [c for c in s.table if c >= 0 and s.known[c] & bit] == [
                c for c in r.table if c >= 0 and r.known[c] & bit
            ]


def test_resample_redraws_what_the_seat_cannot_see():
    s = blank(2)
    for k in range(3):
        lay(s, k, s.pile[0])
    rng = np.random.default_rng(0)
    tables = set()
    for _ in range(30):
        r = s.resample(0, rng)
        assert all(c >= 0 for c in r.table[:3]) and r.table[3:] == [-1] * 4
        assert [r.cards.face_of[c] for c in r.table[:3]] == [
            s.cards.face_of[c] for c in s.table[:3]
        ]
        tables.add(tuple(r.table[:3]))
    assert len(tables) > 1


def test_resample_never_deals_an_accident_or_a_storm_as_a_set_up_card():
    s = blank(2)
    card = give(s, 1, 2, public=False)  # Crystal Forest H: its face is shared by 1 and 8
    assert {s.cards.kind_name(c) for c in (1, 8)} == {"ionic_storm", "accident"}
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert s.resample(0, rng).hand[1] == [card]
    keep = blank(2, setup_hand="keep")
    give(keep, 1, 2, public=False)
    assert {tuple(keep.resample(0, rng).hand[1]) for _ in range(200)} == {(1,), (2,), (8,)}


def test_resample_never_puts_a_card_seen_later_elsewhere_into_an_older_place():
    s, fresh = seen_later_twins()
    rng = np.random.default_rng(0)
    assert all(s.resample(0, rng).hand[1] == [4] for _ in range(200))
    assert {fresh.resample(0, rng).hand[1][0] for _ in range(200)} == {4, 10}


def test_resample_keeps_a_revealed_claim_and_a_payment_affordable():
    s, hidden = paying_a_claim()
    rng = np.random.default_rng(0)
    for _ in range(100):
        r = s.resample(0, rng)
        assert r.hand[1][0] == hidden  # never the SHELTER of the same face
        r.validate()  # the payment under way can be made


def test_resample_redraws_sealed_choices_and_looks_of_other_seats_only():
    s = blank(3)
    for k in range(4):
        lay(s, k, of_kind(s, "elements")[k])
    s.option = [0, 0, 0]
    run(s, ("peek", {"seat": 0}), ("peek", {"seat": 1}), ("peek", {"seat": 2}))
    s.apply_action(A.PEEK + 3)
    s.apply_action(A.PEEK + 0)
    rng = np.random.default_rng(1)
    looked = set()
    for _ in range(60):
        r = s.resample(0, rng)
        assert r.known[r.table[3]] & 1  # my own look stays
        looked.add(next(k for k in range(4) if r.known[r.table[k]] & 2))
    assert looked == {0, 1, 2, 3}


def test_a_seat_sees_its_own_faces_and_never_the_hidden_faces_of_others():
    game = MoonwakersGame(num_players=3)
    rng = np.random.default_rng(5)
    s = game.new_initial_state()
    checked = 0
    while not s.is_terminal() and checked < 300:
        step_state(s, rng)
        for seat in range(3):
            text = s.to_string(seat)
            from moon_envs.moonwakers.text import explored, face

            for c in s.hand[seat]:
                assert f"{face(s, c)}/{explored(s, c, None)}" in text
            for x in range(3):
                for c in s.hand[x] + s.mapped[x] + [c for c in s.table if c >= 0]:
                    if not s.known[c] >> seat & 1:
                        assert f"{face(s, c)}/??" in text or f"{face(s, c)} / ??" in text
            checked += 1
