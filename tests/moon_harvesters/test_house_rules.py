"""Moon Harvesters' house-rule parameters on hand-built positions: ``craters_block_deposits``,
``deposits_when_short`` and ``ties`` (``craters_block`` is covered in test_rules)."""

from __future__ import annotations

import numpy as np
import pytest

from moon_envs import ConfigError, IllegalActionError
from moon_envs.moon_harvesters.render import CELL, DEPOSIT, MARGIN, render_rgb
from moon_envs.moon_harvesters.rules import DEPOSITS, OVER, PLACE, HarvestersGame
from tests.moon_harvesters.test_rules import find_action, tiny_game
from tests.moon_harvesters.test_rules import setup as run_auction

X_ON_ROW_6 = {c + 60 for c in (1, 12, 13, 14, 25)}  # an X harvester away from A1..B2


def test_defaults_keep_the_published_reading():
    cfg = HarvestersGame().config
    assert cfg.craters_block and cfg.craters_block_deposits
    assert (cfg.deposits_when_short, cfg.ties) == ("fewer", "shared")


def test_craters_block_deposits_by_default():
    g = HarvestersGame(num_players=2)
    s = run_auction(g, kinds=[0, 1], crater_takers=[0], crater_cells=[13])
    assert s.phase == DEPOSITS
    assert not s.legal_actions_mask()[g.deposit_action(13)]
    with pytest.raises(IllegalActionError):
        s.apply_action(g.deposit_action(13))


def test_deposits_may_go_on_craters_when_they_do_not_block():
    g = HarvestersGame(num_players=2, craters_block=False, craters_block_deposits=False)
    s = run_auction(g, kinds=[0, 1], crater_takers=[0], crater_cells=[13])
    assert s.legal_actions_mask()[g.deposit_action(13)]
    assert s.free_cells()[13]
    s.apply_action(g.deposit_action(13))
    assert s.deposit[13] and s.crater[13]
    row_2 = next(line.split() for line in str(s).splitlines() if line.split()[:1] == ["2"])
    assert row_2[2] == "@" and "@ deposit on a crater" in str(s)  # B2
    image = render_rgb(s)
    y = x = MARGIN + CELL + CELL // 2  # the centre of B2
    assert tuple(image[y, x]) == DEPOSIT  # the deposit is drawn over the crater
    s.apply_action(g.deposit_action(0))
    # player_1's X covers the crater and collects the deposit lying on it
    s.apply_action(find_action(s, 1, {1, 12, 13, 14, 25}))
    assert int(s.collected[1]) == 1 and not s.deposit[13]


def test_deposits_when_short_fewer_places_what_is_left():
    g = HarvestersGame(num_players=2, num_deposits=3)
    s = run_auction(g, kinds=[0, 1])
    s.apply_action(g.deposit_action(0))
    s.apply_action(g.deposit_action(1))
    s.apply_action(find_action(s, 1, X_ON_ROW_6))
    assert s.phase == DEPOSITS and s.deposits_due == 1


def test_deposits_when_short_none_places_nothing():
    g = HarvestersGame(num_players=2, num_deposits=3, deposits_when_short="none")
    s = run_auction(g, kinds=[0, 1])
    s.apply_action(g.deposit_action(0))
    s.apply_action(g.deposit_action(1))
    s.apply_action(find_action(s, 1, X_ON_ROW_6))
    assert s.phase == PLACE and s.current_player() == 0  # the one deposit left stays out
    assert s.supply == 1 and s.deposits_due == 0


@pytest.mark.parametrize("rule,due", [("fewer", 1), ("none", 0)])
def test_deposits_when_short_counts_free_cells_too(rule, due):
    # 3x3 grid, monomino and domino kinds, 2 deposits per turn, a large supply
    g = tiny_game(first_deposits=0, deposits_per_turn=2, deposits_when_short=rule)
    s = run_auction(g, kinds=[0, 1])  # p0 monomino, p1 domino; p1 starts
    s.deposit[3:] = True  # only A1, B1 and C1 are free
    s.apply_action(find_action(s, 1, {0, 1}))  # the domino leaves C1 alone free
    assert s.deposits_due == due
    assert s.phase == (DEPOSITS if due else PLACE)


def _finish(game: HarvestersGame, collected, placed):
    s = game.new_initial_state()
    s.collected[:] = collected
    s.placed[:] = placed
    s.phase = OVER
    return s


def test_ties_shared_every_remaining_leader_wins():
    s = _finish(HarvestersGame(num_players=3), [9, 9, 2], [4, 4, 3])
    assert s.winners() == [0, 1]
    assert s.returns().tolist() == [0.5, 0.5, -1.0]


def test_ties_none_leaves_no_winner_after_the_harvester_tie_break():
    g = HarvestersGame(num_players=3, ties="none")
    s = _finish(g, [9, 9, 2], [4, 4, 3])
    assert s.winners() == []
    assert s.returns().tolist() == [0.0, 0.0, 0.0]
    assert "tied: no winner" in str(s)
    broken = _finish(g, [9, 9, 2], [5, 4, 3])  # fewer harvesters still breaks the tie
    assert broken.winners() == [1]
    assert broken.returns().tolist() == [-0.5, 1.0, -0.5]


@pytest.mark.parametrize(
    "field,value",
    [("deposits_when_short", "all"), ("ties", "replay"), ("craters_block_deposits", "yes")],
)
def test_bad_house_rule_values_name_the_field(field, value):
    with pytest.raises(ConfigError, match=field):
        HarvestersGame(**{field: value})


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_under_the_other_readings_stay_valid(players):
    game = HarvestersGame(
        num_players=players,
        craters_block=False,
        craters_block_deposits=False,
        deposits_when_short="none",
        ties="none",
        num_deposits=25,
    )
    for seed in range(4):
        s = game.new_initial_state()
        rng = np.random.default_rng(seed)
        while not s.is_terminal():
            s.validate()  # among others: the player to move has a legal action
            legal = np.flatnonzero(s.legal_actions_mask())
            s.apply_action(int(legal[rng.integers(legal.size)]))
        s.validate()
        assert s.supply >= 0 and s.returns().sum() == pytest.approx(0.0)
