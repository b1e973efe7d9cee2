"""The memory agent: what it remembers, its capacity, its reset and its policy."""

from __future__ import annotations

import numpy as np
import pytest

from moon_agents.heuristics.star_master import StarMasterMemoryAgent
from moon_agents.zoo import make_agent
from moon_envs import ConfigError
from moon_envs.core.view import AgentView
from moon_envs.star_master.config import NAME0, PASS, STAR, SWAP0
from tests.star_master.positions import give, roll, start, where


def test_zoo_names_resolve():
    assert make_agent("memory", "star_master").capacity is None
    assert make_agent("memory3", "star_master").capacity == 3
    assert isinstance(make_agent("greedy", "star_master"), StarMasterMemoryAgent)
    agent = make_agent("memory:capacity=5", "star_master", seed=1)
    assert type(agent) is StarMasterMemoryAgent and agent.capacity == 5
    assert agent.name == "memory:capacity=5"
    assert make_agent(" memory:capacity=0 ".strip(), "star_master").capacity == 0


@pytest.mark.parametrize(
    "spec, words",
    [
        ("memory:capacity=10", ["capacity", "allowed values: integers 0..9"]),
        ("memory:capacity=-1", ["capacity", "allowed values: integers 0..9"]),
        ("memory:capacity=two", ["capacity", "allowed values: integers 0..9"]),
        ("memory:slots=3", ["'slots'", "allowed fields: ['capacity']"]),
        ("memory:capacity", ["field=value", "['capacity']"]),
        ("memory:capacity=2,capacity=3", ["'capacity'", "twice"]),
        ("memory:", ["memory:capacity=N"]),
        ("memory3:capacity=2", ["'memory3' takes no parameters"]),
        ("random:capacity=2", ["'random' takes no parameters"]),
        ("recall:capacity=2", ["unknown agent 'recall'", "allowed:"]),
    ],
)
def test_bad_agent_specs_name_the_field_and_the_allowed_values(spec, words):
    with pytest.raises(ConfigError) as err:
        make_agent(spec, "star_master")
    for w in words:
        assert w in str(err.value)


def test_memory_spec_works_in_tournaments():
    from moon_agents.evaluation.tournament import tournament

    res = tournament("star_master_v0", ["memory:capacity=9", "random"], games=4, seed=0)
    assert res.stats["memory:capacity=9"].games == 4


def test_perfect_recall_flips_the_sought_colour_from_the_set_up_view():
    state = start()
    agent = StarMasterMemoryAgent(seed=0)
    agent.reset(state.game, 0)
    roll(state, 5)
    assert agent.act(AgentView.of(state)) == where(5)


def test_capacity_keeps_only_the_most_recent_slots():
    state = start()
    agent = StarMasterMemoryAgent(seed=0, capacity=2)
    agent.reset(state.game, 0)
    roll(state, 5)
    agent.act(AgentView.of(state))
    colours, _ = agent._memory[0]
    assert (colours >= 0).sum() == 2
    with pytest.raises(ValueError, match="capacity"):
        StarMasterMemoryAgent(capacity=12)


def test_memory_follows_swaps_between_decisions():
    state = start(num_players=2)
    a0, a1 = StarMasterMemoryAgent(seed=0), StarMasterMemoryAgent(seed=1)
    a0.reset(state.game, 0)
    a1.reset(state.game, 1)
    give(state, 0, 0)
    roll(state, 0, black_star=True)  # race on red: player_0 owns red and abstains
    assert a0.act(AgentView.of(state)) == PASS
    state.apply_action(PASS)
    assert a1.act(AgentView.of(state)) == where(0)  # player_1 knows where red is
    state.apply_action(where(0))
    assert state.pawns[1, 0] == 1 and state.current_player() == 1
    state.apply_action(SWAP0 + 0)  # red swaps with slot 0, where cyan (4) stood
    roll(state, 0)
    state.apply_action(PASS)  # player_1 owns red: passes
    roll(state, 4)  # player_0 seeks colour 4, which moved with the swap
    assert state.current_player() == 0
    assert a0.act(AgentView.of(state)) == where(4, state.layout.tolist()) == where(0)
    assert a0._memory[0][0].tolist() == state.layout.tolist()


def test_policy_names_a_located_lacking_colour_and_passes_on_unknown_owned_colours():
    state = start()
    give(state, 0, 0)
    agent = StarMasterMemoryAgent(seed=0, capacity=0)  # remembers nothing
    agent.reset(state.game, 0)
    roll(state, 0)
    assert agent.act(AgentView.of(state)) == PASS
    state.apply_action(PASS)
    roll(state, 0)  # player_1
    state.apply_action(where(1))  # a miss shows orange
    roll(state, STAR)
    late = StarMasterMemoryAgent(seed=0)  # joins now: it has seen only the orange flip
    late.reset(state.game, 0)
    assert late.act(AgentView.of(state)) == NAME0 + 1  # the one lacking colour it located
    assert np.flatnonzero(late._memory[0][0] >= 0).tolist() == [where(1)]


def test_race_policy_abstains_without_knowing_where_the_colour_is():
    """A race on red: an agent whose memory holds red grabs it; one that has seen only a
    yellow flip since joining abstains, although it lacks red and grabbing is legal."""
    state = start(num_players=2)
    roll(state, 3)
    state.apply_action(where(1))  # player_0 misses (orange)
    roll(state, 0)
    state.apply_action(where(2))  # player_1 decides and misses (yellow)
    roll(state, 0, black_star=True)  # player_0 rolls a race on red
    state.apply_action(PASS)  # player_0 abstains; player_1 chooses
    assert state.current_player() == 1
    late = StarMasterMemoryAgent(seed=0)  # its view of the board: the yellow flip only
    late.reset(state.game, 1)
    knows = StarMasterMemoryAgent(seed=0)
    knows.reset(state.game, 1)
    knows.remember(start(num_players=2).observation(1), 1, 2)  # the set-up layout
    assert late.act(AgentView.of(state)) == PASS
    assert np.flatnonzero(late._memory[1][0] >= 0).tolist() == [where(2)]
    assert knows.act(AgentView.of(state)) == where(0)
    # owning red, even a perfect memory abstains (a wrong grab can only lose a pawn)
    give(state, 1, 0)
    assert knows.act(AgentView.of(state)) == PASS
