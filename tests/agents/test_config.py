"""Experiment config schema: defaults, the shipped config, and clear errors for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.config import ExperimentConfig, load_config, parse_config
from moon_envs import ConfigError

ROOT = Path(__file__).resolve().parents[2]


def test_defaults_are_valid() -> None:
    cfg = parse_config({})
    assert isinstance(cfg, ExperimentConfig)
    assert cfg.env.id == "jupiter_v0"
    assert cfg.algorithm.name == "maskable_ppo"
    assert cfg.run_name() == "experiment_seed0"


def test_shipped_config_loads() -> None:
    cfg = load_config(ROOT / "configs" / "jupiter_ppo.yaml")
    assert cfg.env.params["num_players"] == 2
    assert cfg.algorithm.n_envs == 8 and cfg.algorithm.net_arch == [128, 128]
    assert set(cfg.opponents.pool) == {"random", "greedy"}
    assert cfg.budget.total_timesteps and cfg.budget.total_timesteps > 0


def test_overrides_apply_and_are_validated(tmp_path: Path) -> None:
    cfg = load_config(
        ROOT / "configs" / "jupiter_ppo.yaml",
        {"budget.total_timesteps": 1234, "output.dir": str(tmp_path), "seed": 5},
    )
    assert cfg.budget.total_timesteps == 1234
    assert cfg.output.dir == str(tmp_path) and cfg.seed == 5
    with pytest.raises(ConfigError, match=r"budget\.total_timesteps"):
        load_config(ROOT / "configs" / "jupiter_ppo.yaml", {"budget.total_timesteps": 0})


@pytest.mark.parametrize(
    ("data", "field", "hint"),
    [
        ({"algorithm": {"n_stepz": 64}}, "algorithm.n_stepz", "allowed keys here"),
        ({"bogus": 1}, "bogus", "'algorithm'"),
        ({"algorithm": {"activation": "elu"}}, "algorithm.activation", "'tanh' or 'relu'"),
        ({"algorithm": {"n_steps": 1}}, "algorithm.n_steps", "greater than or equal to 2"),
        ({"algorithm": {"learning_rate": -1}}, "algorithm.learning_rate", "greater than 0"),
        ({"algorithm": {"batch_size": 10_000}}, "algorithm.batch_size", "allowed: 2..2048"),
        ({"algorithm": {"net_arch": [64, 0]}}, "algorithm.net_arch", ">= 1"),
        ({"env": {"id": "nope_v0"}}, "env.id", "jupiter_v0"),
        ({"env": {"params": {"num_players": 9}}}, "env.params", "2..4"),
        ({"env": {"params": {"colour": "red"}}}, "env.params", "num_players"),
        ({"opponents": {"pool": ["bogus"]}}, "opponents.pool", "'greedy'"),
        ({"opponents": {"pool": []}}, "opponents.pool", "at least 1"),
        ({"eval": {"opponents": ["ppo:/no/such/model.zip"]}}, "eval.opponents", "does not exist"),
        ({"budget": {"total_timesteps": None}}, "budget.total_timesteps", "wall_clock_minutes"),
        ({"seed": -3}, "seed", "greater than or equal to 0"),
        ({"name": "has space"}, "name", "pattern"),
    ],
)
def test_bad_values_name_the_field(data: dict, field: str, hint: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(data)
    msg = str(info.value)
    assert f"  {field}:" in msg
    assert hint in msg


def test_all_errors_reported_at_once() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({"algorithm": {"n_steps": 0, "gamma": 2.0}, "extra": True})
    msg = str(info.value)
    assert "3 invalid field(s)" in msg
    for field in ("algorithm.n_steps", "algorithm.gamma", "extra"):
        assert field in msg


def test_yaml_file_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("algorithm: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_config(bad)
    listy = tmp_path / "list.yaml"
    listy.write_text("- 1\n- 2\n")
    with pytest.raises(ConfigError, match="must be a mapping"):
        load_config(listy)
    typo = tmp_path / "typo.yaml"
    typo.write_text("algorithm:\n  learning_rat: 0.1\n")
    with pytest.raises(ConfigError, match=r"algorithm\.learning_rat: unknown key"):
        load_config(typo)
