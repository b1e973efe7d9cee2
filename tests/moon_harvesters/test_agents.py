"""The greedy Moon Harvesters baseline: its stated rules, legality, and strength."""

from __future__ import annotations

import numpy as np
import pytest

import moon_envs
from moon_agents.evaluation.tournament import tournament
from moon_agents.heuristics.moon_harvesters import HarvestersGreedyAgent, reach_counts
from moon_agents.zoo import make_agent
from moon_envs.core.view import AgentView
from moon_envs.moon_harvesters.rules import AUCTION, DEPOSITS, PLACE, HarvestersGame


def _random_position(game: HarvestersGame, seed: int, phase: str, min_moves: int = 12):
    rng = np.random.default_rng(seed)
    s = game.new_initial_state()
    while True:
        if s.is_terminal():
            s = game.new_initial_state()
        if s.phase == phase and s.move_number >= min_moves:
            return s
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])


def test_zoo_builds_the_greedy_agent():
    agent = make_agent("greedy", "moon_harvesters", seed=1, name="g")
    assert isinstance(agent, HarvestersGreedyAgent) and agent.name == "g"


def test_reach_counts_match_a_direct_count():
    game = HarvestersGame(num_players=3)
    s = _random_position(game, 0, PLACE, min_moves=30)
    reach = reach_counts(s)
    for k in range(game.num_kinds):
        flags = s.fits[k * game.per_kind : (k + 1) * game.per_kind]
        direct = np.zeros(game.num_cells, dtype=np.int64)
        for p in np.flatnonzero(flags):
            direct[game.fp.cells[k][p]] += 1
        assert np.array_equal(reach[:, k], direct)


def test_auction_takes_the_most_flexible_kind_never_a_crater():
    game = HarvestersGame(num_players=4)  # L 8, X 1, U 4, P 8 orientations
    s = game.new_initial_state()
    agent = HarvestersGreedyAgent(seed=0)
    picks = []
    while s.phase == AUCTION:
        a = agent.act(AgentView.of(s))
        assert a < game.num_kinds
        picks.append(game.kinds[a].name)
        s.apply_action(a)
    assert picks == ["L", "P", "U", "X"]


@pytest.mark.parametrize("seed", range(6))
def test_placement_collects_the_most_then_closes_the_most(seed):
    game = HarvestersGame(num_players=2)
    s = _random_position(game, seed, PLACE)
    seat = s.current_player()
    own = int(s.kind_of[seat])
    opp = int(s.kind_of[1 - seat])
    a = HarvestersGreedyAgent(seed=seed).act(AgentView.of(s))
    legal = s.legal_actions()
    assert a in legal
    foot = game.fp.cells[own]
    gains = {b: int(s.deposit[foot[b - game.place_base]].sum()) for b in legal}
    assert gains[a] == max(gains.values())
    reach = reach_counts(s)

    def closed(b):
        cells = foot[b - game.place_base]
        return int(reach[cells, opp].sum() - reach[cells, own].sum())

    best = max(closed(b) for b in legal if gains[b] == gains[a])
    assert closed(a) == best


@pytest.mark.parametrize("seed", range(4))
def test_deposits_go_where_opponents_reach_least(seed):
    game = HarvestersGame(num_players=3)
    s = _random_position(game, seed, DEPOSITS, min_moves=20)
    seat = s.current_player()
    a = HarvestersGreedyAgent(seed=seed).act(AgentView.of(s))
    assert s.legal_actions_mask()[a]
    reach = reach_counts(s)
    opps = [int(s.kind_of[q]) for q in range(3) if q != seat and s.placed[q] < 10]
    opp_reach = reach[:, opps].sum(axis=1)
    free = np.flatnonzero(s.free_cells())
    cell = a - game.deposit_base
    assert opp_reach[cell] == opp_reach[free].min()
    tied = free[opp_reach[free] == opp_reach[cell]]
    assert reach[cell, int(s.kind_of[seat])] == reach[tied, int(s.kind_of[seat])].max()


@pytest.mark.parametrize(
    "params",
    [{"num_players": 2}, {"num_players": 4}, {"num_players": 3, "shapes": "I,T,##/##"}],
)
def test_greedy_plays_whole_games_legally(params):
    env = moon_envs.make("moon_harvesters_v0", **params)
    agents = [HarvestersGreedyAgent(seed=i) for i in range(env.game.config.num_players)]
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            view = env.agent_view(agent)
            a = agents[view.seat].act(view)
            assert view.action_mask[a]
            env.step(a)
        assert env.game_state.is_terminal()


def test_greedy_beats_random():
    result = tournament("moon_harvesters_v0", ["greedy", "random"], games=40, seed=3)
    assert result.win_rate("greedy") >= 0.85
    four = tournament(
        "moon_harvesters_v0",
        ["greedy", "random", "random", "random"],
        games=24,
        seed=3,
        env_params={"num_players": 4},
    )
    assert four.win_rate("greedy") >= 0.6
