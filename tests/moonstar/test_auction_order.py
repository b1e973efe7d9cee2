"""Moonstar's auction order (``auction_order``): round the table, or each speaker drawn by
chance among the seats that have not passed since the last bid."""

from __future__ import annotations

import json

import pytest

import moon_envs
from moon_envs.core.game import CHANCE, ConfigError
from moon_envs.moonstar.rules import MoonstarGame
from tests.moonstar.test_house_rules import BAD, DICE, play
from tests.moonstar.test_rules import MOONS, PLANETS, set_round, start


def speakers(st) -> list[int]:
    assert st.current_player() == CHANCE and st.phase == "auction"
    outcomes = st.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
    assert len({p for _, p in outcomes}) == 1  # uniform
    return [s for s, _ in outcomes]


def draw_and_act(st, seat: int, action: int) -> None:
    st.apply_action(seat)  # chance: ``seat`` speaks
    st.apply_action(action)


def test_rotation_is_the_default_and_goes_round_from_the_organizers_left():
    g, st = start(n=4)
    assert g.config.auction_order == "rotation"
    set_round(st, PLANETS, MOONS, DICE)
    order = []
    for _ in range(4):
        order.append(st.current_player())
        st.apply_action(g.a_pass)
    assert order == [1, 2, 3, 0]


def test_random_order_draws_each_speaker_among_those_who_have_not_passed():
    g, st = start(n=4, auction_order="random")
    set_round(st, PLANETS, MOONS, DICE)
    assert speakers(st) == [0, 1, 2, 3]
    st.apply_action(2)  # chance: seat 2 speaks
    assert st.current_player() == 2 and st.legal_actions_mask()[g.a_pass]
    st.apply_action(g.bid_action(20))
    assert speakers(st) == [0, 1, 3]  # not the high bidder
    st.apply_action(0)
    st.apply_action(g.a_pass)
    assert speakers(st) == [1, 3]  # seat 0 passed since the last bid
    st.apply_action(3)
    st.apply_action(g.bid_action(25))  # a new bid: passing was not final
    assert speakers(st) == [0, 1, 2]
    for seat in (1, 0):
        st.apply_action(seat)
        st.apply_action(g.a_pass)
    assert speakers(st) == [2]
    st.apply_action(2)
    st.apply_action(g.a_pass)  # every other seat passed since the last bid: seat 3 plays
    assert st.phase == "play" and st.bidder == 3 and st.high_bid == 25


def test_random_order_nobody_bids_and_the_excluded_seat_is_never_drawn():
    g, st = start(n=3, auction_order="random")
    set_round(st, PLANETS, MOONS, DICE)
    draw_and_act(st, 1, g.bid_action(60))
    draw_and_act(st, 0, g.a_pass)
    draw_and_act(st, 2, g.a_pass)
    play(st, BAD)  # failed: seat 1 sits the next round out
    assert st.excluded == 1
    set_round(st, PLANETS, MOONS, DICE)
    drawn = []
    while st.phase == "auction":
        options = speakers(st)
        assert 1 not in options
        drawn.append(options[0])
        st.apply_action(options[0])
        st.apply_action(g.a_pass)
    assert sorted(drawn) == [0, 2]  # everyone allowed passed once: nobody bids
    assert st.info()["round_report"]["no_bid"]


def test_random_order_with_challenges_and_a_bid_of_70():
    g, st = start(n=3, game=10, auction_order="random")
    set_round(st, PLANETS, MOONS, DICE)
    st.apply_action(0)
    st.apply_action(g.bid_action(70))
    assert speakers(st) == [1, 2]  # the others may still challenge a 70
    st.apply_action(2)
    st.apply_action(g.a_challenge)
    st.apply_action(1)
    st.apply_action(g.a_pass)
    assert st.phase == "play" and st.challengers.tolist() == [False, False, True]
    play(st, BAD)
    assert st.points.tolist() == [-25, 10, 25]


def test_random_order_observation_shows_who_passed_and_default_layout_is_unchanged():
    assert MoonstarGame().spec.observation_shape == (244,)
    g, st = start(n=4, auction_order="random")
    assert g.spec.observation_shape == (244 + 4,)
    set_round(st, PLANETS, MOONS, DICE)
    st.apply_action(1)
    st.apply_action(g.a_pass)
    st.apply_action(3)
    tail = st.observation(3)[-4:]  # seats from seat 3's point of view: 3, 0, 1, 2
    assert tail.tolist() == [0.0, 0.0, 1.0, 0.0]
    assert st.observation(1)[-4:].tolist() == [1.0, 0.0, 0.0, 0.0]


def test_random_order_snapshots_round_trip_at_the_draw_and_are_checked():
    g, st = start(n=3, auction_order="random")
    set_round(st, PLANETS, MOONS, DICE)
    st.apply_action(1)
    st.apply_action(g.a_pass)
    data = json.loads(json.dumps(st.to_dict()))
    back = g.state_from_dict(data)
    assert back.current_player() == CHANCE and speakers(back) == [0, 2]
    data["state"]["passes"] = 0  # disagrees with passed
    with pytest.raises(ConfigError, match="passes"):
        g.state_from_dict(data)
    # a rotation game has no draw: to_move must be a seat
    g2, st2 = start(n=3)
    set_round(st2, PLANETS, MOONS, DICE)
    data = json.loads(json.dumps(st2.to_dict()))
    data["state"]["to_move"] = -1
    with pytest.raises(ConfigError, match="to_move"):
        g2.state_from_dict(data)


def test_random_order_through_the_env():
    from pettingzoo.test import api_test, seed_test

    api_test(moon_envs.make("moonstar_v1", num_players=3, auction_order="random"), num_cycles=200)
    seed_test(
        lambda: moon_envs.make("moonstar_v1", game=10, auction_order="random"), num_cycles=200
    )
    env = moon_envs.make("moonstar_v1", num_players=4, auction_order="random")
    firsts = set()
    for seed in range(30):
        env.reset(seed=seed)
        firsts.add(env.agent_selection)
    assert len(firsts) > 1  # the first speaker is drawn, not fixed


def test_bad_auction_order_names_the_field():
    with pytest.raises(ConfigError, match="auction_order"):
        MoonstarGame(auction_order="clockwise")
