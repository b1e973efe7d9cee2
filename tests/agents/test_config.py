"""Experiment config schema: defaults, the shipped config, and clear errors for bad input."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from moon_agents.training.config import ExperimentConfig, load_config, parse_config
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
    assert cfg.env.params["line_features"] is True and cfg.env.margin_shaping == 0.02
    assert cfg.algorithm.n_envs == 16 and cfg.algorithm.net_arch == [256, 256]
    assert set(cfg.opponents.pool) == {"random", "greedy"}
    assert [(s.from_timesteps, s.pool) for s in cfg.opponents.schedule] == [(1048576, ["greedy"])]
    assert cfg.budget.total_timesteps == 3145728


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
        ({"algorithm": {"net_arch": [64, 0]}}, "algorithm.net_arch", "in 1..4096"),
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


# ---- untrusted config files ----------------------------------------------------------------


def _write(tmp_path: Path, content: str | bytes) -> Path:
    p = tmp_path / "c.yaml"
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content)
    return p


@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n", "---\n"])
def test_an_empty_file_is_refused(tmp_path: Path, content: str) -> None:
    with pytest.raises(ConfigError, match="the config is empty"):
        load_config(_write(tmp_path, content))


def test_duplicate_keys_are_refused(tmp_path: Path) -> None:
    text = "seed: 1\nalgorithm:\n  n_envs: 2\n  n_envs: 4\n"
    with pytest.raises(ConfigError, match=r"(?s)duplicate key 'n_envs'.*line 4"):
        load_config(_write(tmp_path, text))


def test_an_alias_bomb_is_refused_without_expanding(tmp_path: Path) -> None:
    lines = ["env:", "  id: jupiter_v0", "  params:", '    a0: &a0 ["lol","lol","lol","lol"]']
    for i in range(1, 40):
        prev = f"*a{i - 1}"
        lines.append(f"    a{i}: &a{i} [{', '.join([prev] * 9)}]")
    start = time.perf_counter()
    with pytest.raises(ConfigError, match="anchors and aliases") as info:
        load_config(_write(tmp_path, "\n".join(lines) + "\n"))
    assert time.perf_counter() - start < 2.0
    assert len(str(info.value)) < 1000


def test_non_utf8_and_deep_nesting_are_short_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"not UTF-8 text \(byte 0xff at offset 6\)"):
        load_config(_write(tmp_path, b"name: \xff\xfe\n"))
    deep = "env:\n  params:\n    x: " + "[" * 5000 + "]" * 5000 + "\n"
    with pytest.raises(ConfigError, match="nested deeper than") as info:
        load_config(_write(tmp_path, deep))
    assert len(str(info.value)) < 1000


def test_error_messages_cut_long_values(tmp_path: Path) -> None:
    long = "x" * 100_000
    for text in (
        f"name: {long}\n",
        f"env:\n  id: {long}\n",
        f"{long}: 1\n",
        f"opponents:\n  pool: [{long}]\n",
        f"env:\n  params:\n    num_players: {long}\n",
    ):
        with pytest.raises(ConfigError) as info:
            load_config(_write(tmp_path, text))
        assert len(str(info.value)) < 2000, text[:40]


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("algorithm:\n  n_envs: true\n", "algorithm.n_envs"),
        ("algorithm:\n  n_steps: '64'\n", "algorithm.n_steps"),
        ("algorithm:\n  learning_rate: false\n", "algorithm.learning_rate"),
        ("seed: 1.0\n", "seed"),
        ("output:\n  dir: 5\n", "output.dir"),
    ],
)
def test_types_are_strict(tmp_path: Path, text: str, field: str) -> None:
    with pytest.raises(ConfigError, match=re.escape(field)):
        load_config(_write(tmp_path, text))


def test_exponent_floats_read_as_numbers(tmp_path: Path) -> None:
    cfg = load_config(_write(tmp_path, "algorithm:\n  learning_rate: 3e-4\n"))
    assert cfg.algorithm.learning_rate == pytest.approx(3e-4)


def test_a_huge_integer_is_a_short_config_error(tmp_path: Path) -> None:
    for text in ("seed: " + "7" * 5000 + "\n", "env:\n  params:\n    x: [" + "9" * 6000 + "]\n"):
        with pytest.raises(ConfigError, match="cannot be read") as info:
            load_config(_write(tmp_path, text))
        assert len(str(info.value)) < 500


@pytest.mark.parametrize("content", ["{}\n", "--- {}\n"])
def test_an_empty_mapping_is_refused_naming_what_a_config_needs(tmp_path, content) -> None:
    with pytest.raises(ConfigError, match=r"the config is empty.*env\.id"):
        load_config(_write(tmp_path, content))
    assert parse_config({}).env.id == "jupiter_v0"  # in code, every field keeps its default


# ---- --param values on the command line are read as strictly as config files ---------------


def _alias_bomb(levels: int = 6) -> str:
    parts = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels + 1):
        parts.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]")
    return "{" + ", ".join(parts) + "}"


def test_param_values_refuse_alias_bombs_duplicates_deep_nesting_and_huge_numbers() -> None:
    from moon_agents.cli.main import UsageError, parse_value

    for text, what in (
        (_alias_bomb(), "anchors and aliases"),
        ('{"a": 1, "a": 2}', "duplicate key"),
        ("{a: 1, a: 2}", "duplicate key"),
        ("[" * 5000 + "]" * 5000, "nested deeper than"),
        ("[" * 40 + "1" + "]" * 40, "nested deeper than"),
        ("[" + "9" * 6000 + "]", "digits"),
        ("{x: [" + "9" * 6000 + "]}", "cannot be read"),
    ):
        with pytest.raises(UsageError, match=what) as info:
            parse_value(text)
        assert len(str(info.value)) < 800, what
    assert parse_value("[3,5,8]") == [3, 5, 8]
    assert parse_value("[a, b]") == ["a", "b"]
    assert parse_value('{"scoring": "chains"}') == {"scoring": "chains"}
    assert parse_value("{scoring: chains, num_moons: 9}") == {"scoring": "chains", "num_moons": 9}


def test_play_with_an_alias_bomb_param_prints_one_short_error(capsys) -> None:
    from moon_agents.cli.main import main

    argv = ["play", "moonstar_v1", "--agents", "random", "--param", f"planets={_alias_bomb()}"]
    status = main(argv)
    assert status == 2
    err = capsys.readouterr().err
    assert "anchors and aliases" in err and len(err) < 800
