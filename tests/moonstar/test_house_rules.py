"""Moonstar rules as written and every house reading as a parameter, on hand-built rounds:
Game 10's challengeable 70, exclusion and the round nobody bids on, ties, Game 8's removed
moons, Game 10's bonus to bystanders and Game 11's bidder bets."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs.core.game import ConfigError
from moon_envs.moonstar.rules import MoonstarGame
from tests.moonstar.test_rules import MOONS, PLANETS, move, set_round, start, win_auction

DICE = [1, 1, 2, 3, 4, 5, 6]
# moves scoring 37 with the board of test_rules (made for any bid up to 37)
GOOD = [(0, 1, 1), (1, 2, 1), (2, 1, 1), (3, 3, 1), (4, 4, 1), (5, 5, 1), (6, 6, 1)]
# moves scoring 7 (every moon on an empty star)
BAD = [(0, 1, 0), (1, 1, 0), (2, 2, 0), (3, 3, 0), (4, 4, 0), (5, 5, 0), (6, 6, 0)]


def play(st, moves) -> None:
    for moon, face, k in moves:
        move(st, moon, face, k)


def fail_round(st, bidder: int, bid: int = 60) -> None:
    set_round(st, PLANETS, MOONS, DICE)
    win_auction(st, bidder, bid)
    while st.phase == "bets":  # Game 11: nobody bets
        st.apply_action(st.game.bet_action(False, 0))
    play(st, BAD)


def pass_all(st) -> list[int]:
    seen = []
    while st.phase == "auction":
        seen.append(st.current_player())
        st.apply_action(st.game.a_pass)
    return seen


# ---- Game 10: a bid of 70 may still be challenged -----------------------------------------


def test_game10_a_bid_of_70_can_still_be_challenged():
    g, st = start(n=4, game=10)
    set_round(st, PLANETS, MOONS, DICE)
    st.apply_action(g.bid_action(70))  # seat 1
    assert st.phase == "auction" and st.current_player() == 2
    mask = st.legal_actions_mask()
    assert mask[g.a_challenge] and mask[g.a_pass]
    assert not mask[g.a_bid : g.a_pass].any()  # nothing tops 70
    st.apply_action(g.a_challenge)  # seat 2
    st.apply_action(g.a_pass)  # seat 3
    st.apply_action(g.a_pass)  # seat 0
    assert st.phase == "play" and st.bidder == 1
    assert st.challengers.tolist() == [False, False, True, False]
    play(st, BAD)  # failed
    assert st.points.tolist() == [10, -25, 25, 10]


def test_without_challenges_70_still_ends_the_auction_at_once():
    g, st = start(n=4)
    set_round(st, PLANETS, MOONS, DICE)
    st.apply_action(g.bid_action(70))
    assert st.phase == "play"


# ---- exclusion and the round nobody bids on -------------------------------------------------


def test_exclusion_is_kept_over_a_round_nobody_bids_on_by_default():
    _g, st = start(n=3)
    fail_round(st, bidder=1)
    assert st.excluded == 1
    set_round(st, PLANETS, MOONS, DICE)
    assert 1 not in pass_all(st)  # nobody bids: a void round
    assert st.excluded == 1  # still barred from the round actually played next
    set_round(st, PLANETS, MOONS, DICE)
    assert 1 not in pass_all(st)


def test_exclusion_can_be_spent_by_a_round_nobody_bids_on():
    _g, st = start(n=3, exclusion_after_no_bid="spent")
    fail_round(st, bidder=1)
    set_round(st, PLANETS, MOONS, DICE)
    pass_all(st)
    assert st.excluded == -1
    set_round(st, PLANETS, MOONS, DICE)
    assert 1 in pass_all(st)


@pytest.mark.parametrize("bonus", [True, False])
def test_an_excluded_organizer_and_the_no_bid_bonus(bonus):
    _g, st = start(n=3, excluded_organizer_bonus=bonus)
    # seat 1 organizes round 2; make seat 1 the failed bidder of round 1
    fail_round(st, bidder=1)
    assert st.organizer == 1 and st.excluded == 1
    before = st.points.copy()
    set_round(st, PLANETS, MOONS, DICE)
    pass_all(st)
    gained = st.points - before
    assert gained.tolist() == [0, 20 if bonus else 0, 0]
    assert st.info()["round_report"]["score_changes"] == gained.tolist()


def test_the_organizer_may_sit_out_the_round_after_nobody_bid():
    _g, st = start(n=3, no_bid_reading="organizer_sits_out")
    set_round(st, PLANETS, MOONS, DICE)
    assert pass_all(st) == [1, 2, 0]
    assert st.points.tolist() == [20, 0, 0] and st.organizer == 0 and st.sitting_out == 0
    set_round(st, PLANETS, MOONS, DICE)
    assert pass_all(st) == [1, 2]  # the organizer may not bid in the new round
    # the barred seat is shown to everyone, like an exclusion
    assert "(sits out)" in str(st)


def test_when_every_seat_is_barred_the_round_is_void_and_the_exclusion_spent():
    g, st = start(n=2, no_bid_reading="organizer_sits_out")
    fail_round(st, bidder=0)  # seat 0 excluded; seat 1 organizes next
    set_round(st, PLANETS, MOONS, DICE)
    assert pass_all(st) == [1]  # the organizer alone may bid, and passes: +20
    assert st.excluded == 0 and st.sitting_out == 1
    points = st.points.copy()
    for star in PLANETS + MOONS:
        st.apply_action(star)
    st.apply_action(g.roll_outcome(DICE))  # nobody may bid: the round is void at once
    assert st.phase == "planet" and st.round_no == 4
    assert (st.points - points).tolist() == [0, 20]
    # a round nobody could bid on spends the exclusion, so play goes on
    assert st.excluded == -1 and st.sitting_out == 1
    set_round(st, PLANETS, MOONS, DICE)
    assert pass_all(st) == [0]


def test_excluded_player_places_no_side_bet_by_default():
    g, st = start(n=3, game=11)
    st.points[:] = [40, 40, 40]
    fail_round(st, bidder=1)  # seat 1 excluded next round
    assert st.excluded == 1
    set_round(st, PLANETS, MOONS, DICE)
    win_auction(st, 2, 20)
    bettors = []
    while st.phase == "bets":
        bettors.append(st.current_player())
        st.apply_action(g.bet_action(False, 0))
    assert bettors == [2, 0]


def test_excluded_player_may_bet_when_allowed():
    g, st = start(n=3, game=11, excluded_side_bets=True)
    fail_round(st, bidder=1)
    set_round(st, PLANETS, MOONS, DICE)
    win_auction(st, 2, 20)
    bettors = []
    while st.phase == "bets":
        bettors.append(st.current_player())
        st.apply_action(g.bet_action(False, 0))
    assert bettors == [2, 0, 1]


# ---- ties, Game 10's bystander bonus, Game 11's bidder bets ----------------------------------


def test_a_tie_at_the_top_can_be_nobodys_win():
    _g, st = start(target=30, ties="none")
    st.points[:] = [25, 10, 25]
    set_round(st, PLANETS, MOONS, DICE)
    win_auction(st, 1, 70)
    play(st, BAD)  # failed: seats 0 and 2 reach 35 together
    assert st.is_terminal() and st.winners() == []
    assert st.returns().tolist() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize("bonus", [10, 0, 5])
def test_game10_bystanders_bonus_on_a_failed_challenged_bid(bonus):
    g, st = start(n=4, game=10, challenge_fail_bonus=bonus)
    set_round(st, PLANETS, MOONS, DICE)
    st.apply_action(g.bid_action(60))  # seat 1
    st.apply_action(g.a_challenge)  # seat 2
    st.apply_action(g.a_pass)  # seat 3
    st.apply_action(g.a_pass)  # seat 0
    play(st, BAD)
    assert st.points.tolist() == [bonus, -25, 25, bonus]


def test_game10_unchallenged_failure_keeps_the_plain_bonus():
    _g, st = start(n=3, game=10, challenge_fail_bonus=0)
    fail_round(st, bidder=1)
    assert st.points.tolist() == [10, 0, 10]


@pytest.mark.parametrize("rule", ["made_only", "any"])
def test_game11_bidder_bets(rule):
    g, st = start(n=3, game=11, bidder_bets=rule)
    st.points[:] = [40, 40, 40]
    set_round(st, PLANETS, MOONS, DICE)
    win_auction(st, 1, 30)
    assert st.current_player() == 1
    assert bool(st.legal_actions_mask()[g.bet_action(True, 1)]) == (rule == "any")
    # the determinisation of the others' view follows the same rule
    st.apply_action(g.bet_action(False, 1))
    sides = {int(st.resample(0, np.random.default_rng(k)).bet_side[1]) for k in range(40)}
    assert sides == ({0} if rule == "made_only" else {0, 1})


# ---- Game 8: a broken chain's moons leave the board ------------------------------------------


def test_game8_broken_chain_moons_leave_board_observation_and_text():
    _g, st = start(game=8)
    set_round(st, [], [0, 1, 2, 3, 4, 5, 6], DICE)
    win_auction(st, 1, 2)
    move(st, 0, 6, 0)  # moon 0 -> 6
    move(st, 1, 5, 0)  # moon 1 -> 6 (chain of 2)
    assert st.moon_star[0] == 6 and st.moon_star[1] == 6
    move(st, 3, 1, 0)  # moon 3: 3 -> 4, the chain breaks
    assert st.moon_star[0] == -1 and st.moon_star[1] == -1 and st.moon_star[3] == 4
    assert np.array_equal(st.board, st.board_features())
    text = str(st)
    assert "star  6" in text and "moved [3]" in text and "moved [0 1]" not in text
    assert st.round_total == 1 + 2 + 1


# ---- parameters are validated ---------------------------------------------------------------


@pytest.mark.parametrize(
    "field,value",
    [
        ("ties", "split"),
        ("no_bid_reading", "x"),
        ("exclusion_after_no_bid", 1),
        ("excluded_organizer_bonus", "yes"),
        ("excluded_side_bets", None),
        ("challenge_fail_bonus", -1),
        ("bidder_bets", "failed_only"),
    ],
)
def test_bad_house_rule_values_name_the_field(field, value):
    with pytest.raises(ConfigError, match=field):
        MoonstarGame(**{field: value})


# ---- Game 9: the two readings of the garbled sentence ----------------------------------------


@pytest.mark.parametrize("movement,far_back", [("double_half", 1), ("double_double", 6)])
def test_game9_counter_clockwise_far_move(movement, far_back):
    g, st = start(game=9, movement=movement)
    set_round(st, PLANETS, MOONS, DICE)
    win_auction(st, 1, 2)
    # moon 4 sits on star 7; die 3 counter-clockwise, the far option (direction 3)
    d = st.dice.tolist().index(3)
    st.apply_action(g.move_action(4, d, 3))
    assert st.moon_star[4] == (7 - far_back) % 12
    assert ("ccw x2" if movement == "double_double" else "ccw half") in st.last_action


# ---- Game 8: which moons make a chain ----------------------------------------------------------

# moons 0..6 on stars 0, 5, 6, 6, 4, 1, 2 (two unmoved moons stand on star 6)
CHAIN_MOONS = [0, 5, 6, 6, 4, 1, 2]
CHAIN_DICE = [6, 1, 2, 2, 3, 4, 5]
CHAIN_MOVES = [(0, 6, 0), (1, 1, 0), (2, 2, 0), (4, 2, 0), (3, 3, 0), (5, 4, 0), (6, 5, 0)]


@pytest.mark.parametrize(
    "members,gains",
    [
        # moved moons only: 0->6 starts a chain, 5->6 continues it, 6->8 breaks it, ...
        ("moved", [1, 2, 1, 1, 1, 1, 1]),
        # the two moons standing on star 6 count: 1+2, then 1+1+2; 6->8 breaks the chain
        # (the moved moons leave), 4->6 finds one moon still standing there: 1+1
        ("all", [3, 4, 1, 2, 1, 1, 1]),
    ],
)
def test_game8_chain_members(members, gains):
    _g, st = start(game=8, chain_members=members)
    set_round(st, [], CHAIN_MOONS, CHAIN_DICE)
    win_auction(st, 1, 2)
    got = [move(st, *mv) for mv in CHAIN_MOVES[:-1]]
    move(st, *CHAIN_MOVES[-1])
    assert got == gains[:-1]
    assert st.info()["round_report"]["achieved"] == sum(gains)


@pytest.mark.parametrize("members", ["moved", "all"])
def test_game8_solver_plan_reaches_the_reported_optimum(members):
    g, st = start(game=8, chain_members=members)
    set_round(st, [], CHAIN_MOONS, CHAIN_DICE)
    win_auction(st, 1, 2)
    from moon_envs.moonstar import solver

    sol = solver.solve(st.situation())
    moons, dice = st.situation_index()
    for m, d, k in sol.plan:
        st.apply_action(g.move_action(moons[m], dice[d], k))
    report = st.info()["round_report"]
    assert report["achieved"] == report["best_total"] == sol.total
    assert report["regret"] == 0
