"""Moonstar rules on hand-built rounds, one group per Game of the rule book (seed text)."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs.core.game import CHANCE, TERMINAL, IllegalActionError
from moon_envs.moonstar.rules import MoonstarGame, MoonstarState

# Game 1 board used below: 10s on stars 0 and 6, 5s on stars 3 and 9 (placed 10, 10, 5, 5)
PLANETS = [0, 6, 3, 9]
MOONS = [1, 2, 4, 5, 7, 8, 10]


def start(n: int = 3, **kw) -> tuple[MoonstarGame, MoonstarState]:
    g = MoonstarGame(num_players=n, first_organizer=0, **kw)
    return g, g.new_initial_state()


def set_round(st: MoonstarState, planets, moons, dice) -> None:
    for s in planets:
        st.apply_action(s)
    for s in moons:
        st.apply_action(s)
    assert st.phase == "roll" and st.current_player() == CHANCE
    st.apply_action(st.game.roll_outcome(dice))
    assert st.phase == "auction"


def move(st: MoonstarState, moon: int, face: int, k: int) -> int:
    """Move ``moon`` with the first free die showing ``face``; return the points gained."""
    before = st.round_total
    d = next(i for i, f in enumerate(st.dice.tolist()) if f == face and not st.die_used[i])
    st.apply_action(st.game.move_action(moon, d, k))
    return st.round_total - before if st.phase == "play" else None


def win_auction(st: MoonstarState, seat: int, bid: int) -> None:
    """Everyone passes except ``seat`` who bids ``bid`` when its turn comes."""
    g = st.game
    while st.phase == "auction":
        p = st.current_player()
        st.apply_action(g.bid_action(bid) if p == seat and st.bidder != seat else g.a_pass)


# ---- Game 1 ------------------------------------------------------------------------------


def test_first_organizer_is_a_uniform_chance_node():
    g = MoonstarGame(num_players=5)
    st = g.new_initial_state()
    assert st.current_player() == CHANCE
    outs = st.chance_outcomes()
    assert [o for o, _ in outs] == list(range(5))
    assert all(abs(p - 0.2) < 1e-12 for _, p in outs)
    st.apply_action(3)
    assert st.organizer == 3 and st.current_player() == 3 and st.phase == "planet"


def test_setup_limits_one_planet_and_three_moons_per_star():
    _g, st = start()
    st.apply_action(4)
    mask = st.legal_actions_mask()
    assert not mask[4] and mask[:12].sum() == 11
    with pytest.raises(IllegalActionError):
        st.apply_action(4)
    for s in (5, 6, 7):
        st.apply_action(s)
    assert st.phase == "moon"
    for _ in range(3):
        st.apply_action(4)  # moons may share a star with a planet
    assert not st.legal_actions_mask()[4]
    assert st.legal_actions_mask()[5]
    # planets were placed highest first
    assert st.planet_value[4] == 10 and st.planet_value[5] == 10 and st.planet_value[7] == 5


def test_the_roll_is_one_chance_node_over_sorted_multisets():
    g, st = start()
    for s in PLANETS + MOONS:
        st.apply_action(s)
    outs = st.chance_outcomes()
    assert len(outs) == 792  # multisets of 7 faces
    probs = np.array([p for _, p in outs])
    assert abs(probs.sum() - 1) < 1e-12 and (np.diff(probs) <= 1e-15).all()  # likeliest first
    assert abs(probs[g.roll_outcome([6] * 7)] - 6.0**-7) < 1e-15
    assert abs(probs[g.roll_outcome([1, 2, 3, 4, 5, 6, 6])] - 5040 / 2 / 6**7) < 1e-15
    st.apply_action(g.roll_outcome([3, 1, 6, 6, 2, 2, 5]))
    assert st.dice[:7].tolist() == [1, 2, 2, 3, 5, 6, 6] and st.phase == "auction"


def test_random_setup_is_chance():
    g = MoonstarGame(num_players=2, first_organizer=1, setup="random")
    st = g.new_initial_state()
    assert st.current_player() == CHANCE and st.phase == "planet"
    outs = st.chance_outcomes()
    assert len(outs) == 12 and abs(sum(p for _, p in outs) - 1) < 1e-12


def test_dice_are_sorted_and_equal_dice_deduplicated_in_the_mask():
    g, st = start()
    set_round(st, PLANETS, MOONS, [4, 2, 2, 6, 1, 2, 5])
    assert st.dice[:7].tolist() == [1, 2, 2, 2, 4, 5, 6]
    win_auction(st, 1, 10)
    mask = st.legal_actions_mask()
    dice_offered = {g.decode_move(a)[1] for a in np.flatnonzero(mask)}
    assert dice_offered == {0, 1, 4, 5, 6}  # one die of each face
    assert mask.sum() == 7 * 5 * 2


def test_auction_order_passing_not_final_and_end():
    g, st = start(n=4)
    set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
    assert st.current_player() == 1  # left of the organizer
    st.apply_action(g.a_pass)  # 1 passes
    st.apply_action(g.bid_action(5))  # 2 bids 5
    assert not st.legal_actions_mask()[g.bid_action(5)]  # must bid more
    assert st.legal_actions_mask()[g.bid_action(6)]
    st.apply_action(g.a_pass)  # 3
    st.apply_action(g.a_pass)  # 0
    assert st.current_player() == 1
    st.apply_action(g.bid_action(9))  # 1 bids again after passing
    st.apply_action(g.a_pass)  # 2
    st.apply_action(g.a_pass)  # 3
    assert st.phase == "auction"
    st.apply_action(g.a_pass)  # 0: all others passed in a row
    assert st.phase == "play" and st.bidder == 1 and st.high_bid == 9
    assert st.current_player() == 1


def test_bid_of_70_ends_the_auction_at_once():
    g, st = start(n=4)
    set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
    st.apply_action(g.bid_action(70))
    assert st.phase == "play" and st.bidder == 1


def test_game1_scoring_made_bid_scores_the_bid_not_the_total():
    _g, st = start()
    set_round(st, PLANETS, MOONS, [1, 1, 2, 3, 4, 5, 6])
    win_auction(st, 1, 20)
    assert move(st, 0, 1, 1) == 10  # star 1 -> 0 (10)
    assert move(st, 1, 2, 1) == 10  # star 2 -> 0 (10)
    assert move(st, 2, 1, 1) == 5  # star 4 -> 3 (5)
    assert move(st, 3, 3, 1) == 1  # star 5 -> 2 (no planet)
    assert move(st, 4, 4, 0) == 1  # star 7 -> 11 (no planet)
    assert st.round_total == 27


def test_game1_round_settlement_made():
    _g, st = start()
    set_round(st, PLANETS, MOONS, [1, 1, 2, 3, 4, 5, 6])
    win_auction(st, 1, 20)
    for moon, face, k in [
        (0, 1, 1),
        (1, 2, 1),
        (2, 1, 1),
        (3, 3, 1),
        (4, 4, 1),
        (5, 5, 1),
        (6, 6, 1),
    ]:
        move(st, moon, face, k)
    # 10 + 10 + 5 + 1 + 5 (7 -> 3) + 5 (8 -> 3) + 1 (10 -> 4) = 37 >= 20
    report = st.info()["round_report"]
    assert report["achieved"] == 37 and report["made"] and report["bid"] == 20
    assert st.points.tolist() == [0, 20, 0]
    assert report["best_total"] >= 37 and report["regret"] == report["best_total"] - 37
    assert st.organizer == 1 and st.phase == "planet"  # rotation to the left
    assert st.excluded == -1


def test_game1_failed_bid_gives_others_10_and_excludes_the_bidder():
    g, st = start()
    set_round(st, PLANETS, MOONS, [1, 1, 2, 3, 4, 5, 6])
    win_auction(st, 1, 60)
    for moon, face, k in [
        (0, 1, 0),
        (1, 1, 0),
        (2, 2, 0),
        (3, 3, 0),
        (4, 4, 0),
        (5, 5, 0),
        (6, 6, 0),
    ]:
        move(st, moon, face, k)
    assert not st.info()["round_report"]["made"]
    assert st.points.tolist() == [10, 0, 10]
    assert st.excluded == 1  # next round
    set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
    seen = set()
    while st.phase == "auction":
        seen.add(st.current_player())
        st.apply_action(g.a_pass)
    assert 1 not in seen and seen == {0, 2}


def test_nobody_bids_gives_the_organizer_20_and_a_new_setup():
    g, st = start()
    set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
    for _ in range(3):
        st.apply_action(g.a_pass)
    assert st.points.tolist() == [20, 0, 0]
    assert st.organizer == 0 and st.phase == "planet" and st.current_player() == 0
    assert st.round_no == 2 and st.info()["round_report"]["no_bid"]


def test_target_ends_the_game_and_ties_share_the_win():
    _g, st = start(target=30)
    st.points[:] = [25, 10, 25]
    set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
    win_auction(st, 1, 70)
    for m in range(7):
        face = next(int(f) for i, f in enumerate(st.dice.tolist()) if f and not st.die_used[i])
        move(st, m, face, 0)
    # failed: 0 and 2 reach 35 together
    assert st.current_player() == TERMINAL
    assert st.winners() == [0, 2]
    assert st.returns().tolist() == [0.5, -1.0, 0.5]


def test_highest_score_wins_when_several_pass_the_target():
    g, st = start(target=30)
    st.points[:] = [25, 10, 28]
    set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
    for _ in range(3):
        st.apply_action(g.a_pass)  # organizer 0 gets 20 -> 45
    assert st.is_terminal() and st.winners() == [0]


def test_max_rounds_bounds_the_game():
    g, st = start(max_rounds=2)
    for _ in range(2):
        set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
        for _ in range(3):
            st.apply_action(g.a_pass)
    assert st.is_terminal() and st.winners() == [0]


# ---- Games 2-5: counts and planets -------------------------------------------------------


def test_game2_nine_moons_nine_moves():
    _g, st = start(game=2)
    set_round(st, PLANETS, [*MOONS, 11, 11], [1, 2, 3, 4, 5, 6, 1, 2, 3])
    win_auction(st, 1, 2)
    for m in range(9):
        face = next(int(f) for i, f in enumerate(st.dice.tolist()) if f and not st.die_used[i])
        move(st, m, face, 0)
    assert st.info()["round_report"]["made"]


def test_game3_moons_without_a_die_are_removed():
    _g, st = start(num_moons=10, num_dice=8)
    set_round(st, PLANETS, [*MOONS, 11, 11, 11], [1, 1, 1, 1, 1, 1, 1, 1])
    win_auction(st, 1, 2)
    for m in range(8):
        move(st, m, 1, 0)
    assert st.phase == "planet"  # settled after 8 moves: a new round
    # moons on 1 2 4 5 7 8 10 11 move one star clockwise: 2 3 5 6 8 9 11 0
    assert st.info()["round_report"]["achieved"] == 1 + 5 + 1 + 10 + 1 + 5 + 1 + 10


def test_game3_removal_visible_at_the_end_of_the_game():
    _g, st = start(num_moons=10, num_dice=8, target=2)
    set_round(st, PLANETS, [*MOONS, 11, 11, 11], [1] * 8)
    win_auction(st, 1, 2)
    for m in range(8):
        move(st, m, 1, 0)
    assert st.is_terminal()
    assert (st.moon_star[8:10] == -1).all()  # no die: removed
    assert (st.moon_star[:8] >= 0).all()


def test_game4_unused_dice_are_discarded():
    _g, st = start(num_moons=8, num_dice=10, target=2)
    set_round(st, PLANETS, [*MOONS, 11], [1, 2, 3, 4, 5, 6, 1, 2, 3, 4])
    win_auction(st, 1, 2)
    for m in range(8):
        face = next(int(f) for i, f in enumerate(st.dice.tolist()) if f and not st.die_used[i])
        move(st, m, face, 0)
    assert st.is_terminal()
    assert (st.dice > 0).sum() == 8 and st.die_used.sum() == 8


def test_game5_planet_values():
    _g, st = start(planets=[7, 20])
    set_round(st, [5, 2], MOONS, [1, 2, 3, 4, 5, 6, 6])  # 20 on star 5, 7 on star 2
    assert st.planet_value[5] == 20 and st.planet_value[2] == 7
    win_auction(st, 1, 2)
    assert move(st, 0, 1, 1) == 1  # 1 -> 0
    assert move(st, 2, 2, 1) == 7  # star 4 -> 2: 7


# ---- Game 6: favourite star --------------------------------------------------------------


def test_game6_red_planet_on_a_planet_star_doubles():
    _g, st = start(game=6)
    set_round(st, PLANETS, MOONS, [1, 2, 3, 4, 5, 6, 6])
    win_auction(st, 2, 5)
    assert st.phase == "favourite" and st.current_player() == 2
    mask = st.legal_actions_mask()
    assert np.flatnonzero(mask).tolist() == sorted(PLANETS)
    st.apply_action(3)  # the 5 on star 3
    assert st.red_star == 3 and st.phase == "play"
    assert move(st, 2, 1, 1) == 10  # star 4 -> 3: 5 doubled
    assert move(st, 0, 2, 0) == 10  # star 1 -> 3: doubled again
    assert move(st, 1, 4, 0) == 10  # star 2 -> 6: a 10, not red


# ---- Game 7: squares ------------------------------------------------------------------------


def test_game7_squares_of_moons_per_star():
    g, st = start(game=7)
    assert g.config.target == 100 and g.config.planets == ()
    set_round(st, [], [0, 1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1, 1])
    win_auction(st, 1, 2)
    # moons 0..3 all to star 6: 0+6, 1+5, 2+4, 3+3
    move(st, 0, 6, 0)
    move(st, 1, 5, 0)
    move(st, 2, 4, 0)
    move(st, 3, 3, 0)
    assert st.round_total == 16  # 4 moons on one star: 4^2
    move(st, 4, 2, 0)  # star 6 too: 25
    move(st, 5, 1, 1)  # star 4
    move(st, 6, 1, 1)  # 6 -> 5
    assert st.info()["round_report"]["achieved"] == 25 + 1 + 1


# ---- Game 8: chains -----------------------------------------------------------------------------


def test_game8_chain_scoring_and_breaking():
    g, st = start(game=8)
    assert g.config.target == 50
    set_round(st, [], [0, 1, 2, 3, 4, 5, 6], [1, 1, 2, 3, 4, 5, 6])
    win_auction(st, 1, 2)
    assert move(st, 0, 6, 0) == 1  # -> 6
    assert move(st, 1, 5, 0) == 2  # -> 6, chain of 2
    assert move(st, 2, 4, 0) == 3  # -> 6, chain of 3
    assert move(st, 3, 1, 0) == 1  # -> 4: chain broken, new chain
    assert st.chain_star == 4 and st.chain_len == 1
    assert move(st, 4, 2, 1) == 1  # -> 2: broken again
    assert move(st, 5, 3, 1) == 2  # -> 2: chain of 2
    move(st, 6, 1, 0)  # -> 7: 1
    assert st.info()["round_report"]["achieved"] == 1 + 2 + 3 + 1 + 1 + 2 + 1


def test_game8_forbids_the_timer():
    from moon_envs.core.game import ConfigError

    with pytest.raises(ConfigError, match="Game 8 has no timer"):
        MoonstarGame(game=8, move_budget=3)


# ---- Game 9: double / half movement ------------------------------------------------------


def test_game9_double_clockwise_half_counter_clockwise():
    g, st = start(game=9)
    assert g.num_dirs == 4
    set_round(st, PLANETS, [1, 2, 4, 5, 7, 8, 10], [1, 3, 5, 5, 6, 2, 4])
    win_auction(st, 1, 2)
    assert st.legal_actions_mask()[g.move_action(0, 0, 3)]
    move(st, 0, 5, 2)  # 1 + 10 = 11
    assert st.moon_star[0] == 11
    move(st, 1, 5, 3)  # 2 - 2 = 0 (half of 5 = 2)
    assert st.moon_star[1] == 0
    move(st, 2, 3, 3)  # 4 - 1 = 3 (half of 3 = 1)
    assert st.moon_star[2] == 3
    move(st, 3, 1, 3)  # half of 1 = 0: stays on 5
    assert st.moon_star[3] == 5


def test_exact_movement_has_two_directions():
    g, _st = start()
    assert g.num_dirs == 2


# ---- Game 10: challenges -----------------------------------------------------------------


def _challenge_round(made: bool):
    g, st = start(n=4, game=10)
    set_round(st, PLANETS, MOONS, [1, 1, 2, 3, 4, 5, 6])
    st.apply_action(g.bid_action(30 if made else 69))  # seat 1
    st.apply_action(g.a_challenge)  # seat 2
    st.apply_action(g.a_pass)  # seat 3
    st.apply_action(g.a_pass)  # seat 0
    assert st.phase == "play" and st.challengers.tolist() == [False, False, True, False]
    for moon, face, k in [
        (0, 1, 1),
        (1, 2, 1),
        (2, 1, 1),
        (3, 3, 1),
        (4, 4, 1),
        (5, 5, 1),
        (6, 6, 1),
    ]:
        move(st, moon, face, k)  # 37 points (see Game 1 test)
    return st


def test_game10_challenged_and_made():
    st = _challenge_round(made=True)
    assert st.points.tolist() == [0, 30 + 25, -25, 0]


def test_game10_challenged_and_failed():
    st = _challenge_round(made=False)
    assert st.points.tolist() == [10, -25, 25, 10]
    assert st.excluded == 1


def test_game10_new_bid_cancels_challenges_and_bidder_cannot_challenge():
    g, st = start(n=3, game=10)
    set_round(st, PLANETS, MOONS, [1, 1, 2, 3, 4, 5, 6])
    assert not st.legal_actions_mask()[g.a_challenge]  # no bid yet
    st.apply_action(g.bid_action(10))  # 1
    st.apply_action(g.a_challenge)  # 2
    assert st.challengers[2]
    st.apply_action(g.bid_action(12))  # 0
    assert not st.challengers.any()
    assert st.legal_actions_mask()[g.a_challenge]  # seat 1 may challenge seat 0's bid


# ---- Game 11: side bets ------------------------------------------------------------------


def test_game11_sealed_bets_and_settlement():
    g, st = start(n=3, game=11)
    st.points[:] = [40, 100, 9]
    set_round(st, PLANETS, MOONS, [1, 1, 2, 3, 4, 5, 6])
    win_auction(st, 1, 30)
    assert st.phase == "bets" and st.current_player() == 1  # bidder first
    mask = st.legal_actions_mask()
    assert mask[g.bet_action(False, 3)] and not mask[g.bet_action(True, 1)]  # only "made"
    st.apply_action(g.bet_action(False, 2))  # bidder: half of 100 on made
    obs_before = st.observation(2)
    st.apply_action(g.bet_action(True, 3))  # seat 2: all 9 on failed
    sampled = st.resample(0, np.random.default_rng(0))
    assert np.array_equal(sampled.observation(0), st.observation(0))
    assert obs_before.shape == st.observation(2).shape
    st.apply_action(g.bet_action(True, 1))  # seat 0: a quarter of 40 on failed
    assert st.phase == "play"
    assert st.bet_stake.tolist() == [10, 50, 9]
    for moon, face, k in [
        (0, 1, 1),
        (1, 2, 1),
        (2, 1, 1),
        (3, 3, 1),
        (4, 4, 1),
        (5, 5, 1),
        (6, 6, 1),
    ]:
        move(st, moon, face, k)  # 37 >= 30: made
    assert st.points.tolist() == [40 - 10, 100 + 30 + 50, 9 - 9]


def test_game11_others_bets_hidden_until_all_have_bet():
    g, st = start(n=3, game=11)
    st.points[:] = [40, 100, 40]
    set_round(st, PLANETS, MOONS, [1, 1, 2, 3, 4, 5, 6])
    win_auction(st, 1, 30)
    before = st.observation(0)
    st.apply_action(g.bet_action(False, 3))
    after = st.observation(0)
    # only the "player to move" one-hot may change for seat 0, not a bet feature
    c = st.clone()
    c.bet_side[1], c.bet_idx[1] = 0, 1
    assert np.array_equal(c.observation(0), after)
    assert not np.array_equal(before, after)


def test_game11_bet_names_are_sealed_for_the_other_players():
    g, st = start(n=3, game=11)
    st.points[:] = [40, 100, 40]
    set_round(st, PLANETS, MOONS, [1, 1, 2, 3, 4, 5, 6])
    win_auction(st, 1, 30)
    bet = g.bet_action(False, 2)
    assert st.action_to_public_string(bet, 1) == st.action_to_string(bet)  # the bettor
    assert "of score on made" in st.action_to_public_string(bet, 1)
    assert st.action_to_public_string(bet, 0) == "a sealed side bet"
    assert st.action_to_public_string(g.bid_action(12), 0) == "bid 12"  # nothing else hidden


# ---- Game 12: dealer's choice and the timer -------------------------------------------


def test_game12_organizer_chooses_the_rules_of_the_round():
    g, st = start(dealer_menu=[1, 7])
    assert st.phase == "menu" and st.current_player() == 0
    assert np.flatnonzero(st.legal_actions_mask()).tolist() == [g.a_menu, g.a_menu + 1]
    st.apply_action(g.a_menu + 1)
    assert st.rules.scoring == "squares" and st.phase == "moon"  # no planets in Game 7


def test_move_budget_removes_unmoved_moons():
    _g, st = start(move_budget=3, target=1)
    set_round(st, PLANETS, MOONS, [1, 1, 2, 3, 4, 5, 6])
    win_auction(st, 1, 2)
    move(st, 0, 1, 1)
    move(st, 1, 2, 1)
    move(st, 2, 1, 1)
    assert st.is_terminal()
    assert st.info()["round_report"]["achieved"] == 25
    assert (st.moon_star[3:7] == -1).all()
