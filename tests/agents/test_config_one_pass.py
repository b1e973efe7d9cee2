"""One config error lists every invalid field: the checks that read several fields (the
agents against the env, the batch against the rollout, the params against the env id, the
schedule's order) report together with the plain field checks, never after them."""

from __future__ import annotations

from pathlib import Path

import pytest

from moon_agents.training.config import load_config, parse_config
from moon_envs import ConfigError

THREE_SECTIONS = """\
name: one_pass
env:
  id: jupiter_v0
  params: {num_players: 2}
algorithm:
  activation: elu
opponents:
  pool: [random, greddy]
budget:
  total_timesteps: 0
"""


def error_of(data: dict) -> str:
    with pytest.raises(ConfigError) as info:
        parse_config(data)
    return str(info.value)


def test_three_bad_fields_in_three_sections_come_in_one_error(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(THREE_SECTIONS)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    lines = str(info.value).splitlines()
    assert lines[0] == f"{path}: 3 invalid field(s)"
    by_field = {line.split(": ", 1)[0].strip(): line for line in lines[1:]}
    assert set(by_field) == {"algorithm.activation", "opponents.pool", "budget.total_timesteps"}
    # each names the value and what is allowed
    assert "'tanh' or 'relu'" in by_field["algorithm.activation"]
    assert "(got 'elu')" in by_field["algorithm.activation"]
    assert "unknown agent 'greddy'" in by_field["opponents.pool"]
    assert "'greedy'" in by_field["opponents.pool"] and "'random'" in by_field["opponents.pool"]
    assert "greater than or equal to 1 (got 0)" in by_field["budget.total_timesteps"]


def test_every_bad_agent_is_named_at_once() -> None:
    msg = error_of(
        {
            "opponents": {
                "pool": ["nope1", "random"],
                "schedule": [{"from_timesteps": 10, "pool": ["nope2"]}],
            },
            "eval": {"opponents": ["nope3"]},
        }
    )
    assert "3 invalid field(s)" in msg
    for field, spec in [
        ("opponents.pool", "nope1"),
        ("opponents.schedule.0.pool", "nope2"),
        ("eval.opponents", "nope3"),
    ]:
        assert f"  {field}: unknown agent '{spec}'" in msg


@pytest.mark.parametrize(
    ("data", "fields"),
    [
        (  # the batch against the rollout, beside another algorithm field
            {"algorithm": {"batch_size": 10_000, "activation": "elu"}},
            ["algorithm.batch_size", "algorithm.activation"],
        ),
        (  # the params against the env, beside another env field
            {"env": {"params": {"num_players": 9}, "margin_shaping": -1.0}},
            ["env.params", "env.margin_shaping"],
        ),
        (  # the schedule's order, beside a bad snapshot setting
            {
                "opponents": {
                    "schedule": [
                        {"from_timesteps": 50, "pool": ["random"]},
                        {"from_timesteps": 10, "pool": ["greedy"]},
                    ],
                    "snapshots": {"max_in_pool": 0},
                }
            },
            ["opponents.schedule", "opponents.snapshots.max_in_pool"],
        ),
        (  # an eval opponent of the default pool's env, beside a bad output field
            {"eval": {"opponents": ["ppo:/no/such/model.zip"]}, "output": {"plot": "yes"}},
            ["eval.opponents", "output.plot"],
        ),
    ],
)
def test_checks_of_several_fields_report_with_the_others(data: dict, fields: list[str]) -> None:
    msg = error_of(data)
    assert f"{len(fields)} invalid field(s)" in msg
    for field in fields:
        assert f"\n  {field}: " in msg, field


def test_a_bad_env_id_alone_is_reported_not_the_agents_it_cannot_check() -> None:
    msg = error_of({"env": {"id": "nope_v0"}, "opponents": {"pool": ["greddy"]}})
    assert "1 invalid field(s)" in msg and "env.id" in msg and "greddy" not in msg


def test_repeated_keys_come_with_the_schema_errors(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("seed: 1\nalgorithm:\n  n_envs: 2\n  n_envs: 4\n  gamma: 2.0\nseed: 2\n")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    lines = str(info.value).splitlines()
    assert lines[0] == f"{path}: 3 invalid field(s)"
    assert "  algorithm.n_envs: duplicate key 'n_envs' at line 4 (first at line 3)" in lines[1]
    assert "  seed: duplicate key 'seed' at line 6 (first at line 1)" in lines[2]
    assert lines[3].startswith("  algorithm.gamma: Input should be less than or equal to 1")
    path.write_text("seed: 1\nseed: 2\n")  # alone, a repeated key is still an error
    with pytest.raises(ConfigError, match=r"1 invalid field\(s\)\n  seed: duplicate key"):
        load_config(path)


def test_a_jax_config_reports_its_cross_field_checks_with_the_field_errors() -> None:
    pytest.importorskip("jax")
    data = {
        "env": {"id": "jupiter_v0", "margin_shaping": 0.1, "params": {"reward_mode": "score"}},
        "algorithm": {"name": "alphazero", "activation": "elu"},
        "eval": {"opponents": ["greddy"]},
        "budget": {"total_timesteps": 0},
    }
    lines = error_of(data).splitlines()
    fields = [line.split(": ", 1)[0].strip() for line in lines[1:]]
    assert lines[0] == "config: 5 invalid field(s)", lines
    assert set(fields) == {
        "algorithm.activation",
        "budget.total_timesteps",
        "env.margin_shaping",
        "env.params.reward_mode",
        "eval.opponents",
    }
    # with the plain fields fixed, the cross-field checks still come all at once
    data["algorithm"]["activation"] = "relu"
    data["budget"]["total_timesteps"] = 64
    assert error_of(data).splitlines()[0] == "config: 3 invalid field(s)"
