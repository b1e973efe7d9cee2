"""No leaks: what a seat may not know never reaches its observation, mask, infos or text;
sealed choices stay sealed; resample keeps everything the seat knows."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.game import MoonwakersGame
from tests.helpers import step_state
from tests.moonwakers.positions import blank, give, lay, map_card, of_kind, run


def _same_view(a, b, seat: int) -> None:
    assert np.array_equal(a.observation(seat), b.observation(seat))
    assert a.to_string(seat) == b.to_string(seat)
    assert a.info() == b.info()
    assert a.current_player() == b.current_player()
    if a.current_player() == seat:
        assert np.array_equal(a.legal_actions_mask(), b.legal_actions_mask())


def _twins():
    """Two positions that differ only in seat 1's unseen set-up card and an unscanned
    table card (swapped with pile cards of the same terrain face)."""
    ref = blank(2)
    elements = of_kind(ref, "elements")
    face = {}
    for c in range(50):
        face.setdefault((ref.cards.terrain_biome[c], int(ref.cards.terrain_element[c])), []).append(
            c
        )
    groups = [v for v in face.values() if len(v) >= 2 and all(c in elements for c in v[:2])]
    pair, trio = groups[0], groups[1]
    used = set(pair[:2] + trio[:2])
    mine = next(c for c in elements if c not in used)
    used.add(mine)
    other_table = next(c for c in range(50) if c not in used)
    used.add(other_table)
    mapped = next(c for c in range(50) if c not in used and ref.cards.terrain_element[c] == 1)
    states = []
    for swap in (False, True):
        s = blank(2)
        give(s, 1, pair[swap], public=False)
        give(s, 0, mine, public=False)
        lay(s, 0, trio[swap])
        lay(s, 1, other_table)
        map_card(s, 1, mapped)
        run(s, ("place_start", {}))
        states.append(s)
    return states


def test_hidden_cards_do_not_change_a_seats_view():
    a, b = _twins()
    assert a.hand[1] != b.hand[1] and a.table[0] != b.table[0]
    _same_view(a, b, 0)
    for action in (A.PLACE, A.PLACE + 1):
        a2, b2 = a.clone(), b.clone()
        a2.apply_action(action)
        b2.apply_action(action)
        _same_view(a2, b2, 0)
    assert a.to_string(1) != b.to_string(1)  # seat 1 sees its own card


def test_scans_are_private():
    s = blank(3)
    for k in range(4):
        lay(s, k, s.pile[0])
    s.option = [0, 0, 1]
    run(s, ("peek", {"seat": 0}), ("peek", {"seat": 1}), ("place_start", {}))
    other = s.clone()
    s.apply_action(A.PEEK + 1)
    other.apply_action(A.PEEK + 3)
    for seat in (1, 2):
        _same_view(s, other, seat)
    assert "(sealed)" in s.action_to_public_string(A.PEEK + 2, 2)
    assert not np.array_equal(s.observation(0), other.observation(0))


def test_sealed_options_stay_sealed_until_all_chose():
    s = blank(3)
    s.option, s.options_public = [-1] * 3, False
    run(
        s,
        ("option", {"seat": 0}),
        ("option", {"seat": 1}),
        ("option", {"seat": 2}),
        ("options_reveal", {}),
    )
    scan, prot = s.clone(), s.clone()
    scan.apply_action(A.OPT_SCAN)
    prot.apply_action(A.OPT_PROTECTION)
    for seat in (1, 2):
        _same_view(scan, prot, seat)
    scan.apply_action(A.OPT_SCAN)
    prot.apply_action(A.OPT_SCAN)
    _same_view(scan, prot, 2)
    scan.apply_action(A.OPT_SCAN)
    prot.apply_action(A.OPT_SCAN)
    assert not np.array_equal(scan.observation(2), prot.observation(2))  # revealed now


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
            _same_view(s, r, seat)
            bit = 1 << seat
            for x in range(n):
                known_mine = [c for c in s.hand[x] if s.known[c] & bit]
                assert known_mine == [c for c in r.hand[x] if r.known[c] & bit]
                faces = [(s.cards.terrain_biome[c], s.cards.terrain_element[c]) for c in s.hand[x]]
                assert faces == [
                    (r.cards.terrain_biome[c], r.cards.terrain_element[c]) for c in r.hand[x]
                ]
            assert [c for c in s.table if c >= 0 and s.known[c] & bit] == [
                c for c in r.table if c >= 0 and r.known[c] & bit
            ]


def test_resample_redraws_what_the_seat_cannot_see():
    s = blank(2)
    for k in range(3):
        lay(s, k, s.pile[0])
    changed = 0
    rng = np.random.default_rng(0)
    for _ in range(20):
        r = s.resample(0, rng)
        changed += r.table != s.table or r.pile != s.pile
        assert r.table[:3] != [-1, -1, -1]
    assert changed > 0
