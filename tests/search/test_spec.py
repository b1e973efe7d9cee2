"""Agent spec strings for MCTS: parsing, defaults and errors naming the field."""

from __future__ import annotations

import pytest

from moon_agents.search import MCTSAgent, MCTSConfig, parse_params
from moon_agents.zoo import agent_names, make_agent
from moon_envs.core.game import ConfigError


def test_defaults_and_full_spec():
    assert parse_params("") == MCTSConfig()
    cfg = parse_params("simulations=400,rollout=greedy,c=1.4,seconds=0.5,reward=score")
    assert cfg == MCTSConfig(400, 0.5, 1.4, "greedy", "score")


def test_horizon_and_widening_are_read():
    cfg = parse_params("horizon=12,widening=0.5,reward=score")
    assert cfg.horizon == 12 and cfg.widening == 0.5 and cfg.reward == "score"


def test_errors_quote_long_values_briefly():
    with pytest.raises(ConfigError) as err:
        parse_params("rollout=" + "x" * 10_000 + ",simulations=0")
    assert len(str(err.value)) < 300


def test_seconds_alone_is_a_time_budget():
    assert parse_params("seconds=0.25") == MCTSConfig(simulations=None, seconds=0.25)


@pytest.mark.parametrize(
    "text, field",
    [
        ("simulations=0", "simulations"),
        ("simulations=ten", "simulations"),
        ("seconds=-1", "seconds"),
        ("seconds=nan", "seconds"),
        ("c=-0.5", "c"),
        ("c=x", "c"),
        ("reward=points", "reward"),
        ("depth=3", "depth"),
        ("simulations", "simulations"),
        ("c=1,c=2", "c"),
        ("horizon=0", "horizon"),
        ("horizon=2.5", "horizon"),
        ("widening=0", "widening"),
        ("widening=1.5", "widening"),
        ("widening=x", "widening"),
        ("simulations=" + "9" * 500, "simulations"),
    ],
)
def test_bad_parameters_name_the_field(text, field):
    with pytest.raises(ConfigError, match=field):
        parse_params(text)


def test_zoo_builds_mcts_for_every_game_and_checks_the_rollout_agent():
    for game in ("jupiter", "moonstar", "moon_harvesters"):
        assert "mcts" in agent_names(game)
        assert isinstance(make_agent("mcts", game), MCTSAgent)
    agent = make_agent("mcts:simulations=10,rollout=greedy", "jupiter", seed=1)
    assert agent.rollout_agent is not None and agent.config.simulations == 10
    with pytest.raises(ConfigError, match=r"rollout='oracle'.*allowed values"):
        make_agent("mcts:rollout=oracle", "jupiter")
    with pytest.raises(ConfigError, match="rollout"):
        make_agent("mcts:rollout=mcts", "jupiter")


def test_configs_accept_mcts_specs_and_reject_bad_ones():
    from moon_agents.training.config import ExperimentConfig

    base = {"env": {"id": "jupiter_v0"}}
    ok = ExperimentConfig.model_validate({**base, "opponents": {"pool": ["mcts:simulations=5"]}})
    assert ok.opponents.pool == ["mcts:simulations=5"]
    with pytest.raises(ValueError, match="simulations"):
        ExperimentConfig.model_validate({**base, "opponents": {"pool": ["mcts:simulations=0"]}})
