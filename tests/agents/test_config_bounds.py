"""Every numeric config field has a finite range, and a run that would not fit in memory
is refused at validation, naming the field, before a run folder is made."""

from __future__ import annotations

import io
import re
import types
import typing
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel

from moon_agents.training import memory
from moon_agents.training.config import load_config, parse_config
from moon_agents.training.jax.config import (
    AlphaZeroConfig,
    ImitationConfig,
    JaxExperimentConfig,
    JaxPPOConfig,
)
from moon_agents.training.rllib.config import RllibExperimentConfig
from moon_agents.training.schema import ExperimentConfig
from moon_envs import ConfigError

ROOT = Path(__file__).resolve().parents[2]
JUPITER = {"id": "jupiter_v0", "params": {"num_players": 2}}
GiB = 2**30


def refused(tmp_path: Path, data: dict) -> str:
    """The error of loading ``data`` as a config file whose runs go under tmp_path/runs;
    the runs folder must not exist afterwards."""
    path = tmp_path / "c.yaml"
    path.write_text(yaml.safe_dump({**data, "output": {"dir": str(tmp_path / "runs")}}))
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml"]
    return str(info.value)


def alphazero(**fields: object) -> dict:
    return {"env": JUPITER, "algorithm": {"name": "alphazero", **fields}}


def jax_ppo(**fields: object) -> dict:
    return {"env": JUPITER, "algorithm": {"name": "jax_ppo", **fields}}


@pytest.mark.parametrize(
    ("data", "field", "says"),
    [
        (alphazero(replay_size=10**12), "algorithm.replay_size", "less than or equal"),
        (jax_ppo(num_steps=10**12), "algorithm.num_steps", "less than or equal"),
        (jax_ppo(num_epochs=10**12), "algorithm.num_epochs", "less than or equal"),
        (alphazero(hidden=[4096] * 16), "algorithm.hidden", "at most 50,000,000"),
        (alphazero(batch_size=10**12), "algorithm.batch_size", "less than or equal"),
        (alphazero(sample_reuse=1e300), "algorithm.sample_reuse", "less than or equal"),
        (alphazero(learning_rate=float("inf")), "algorithm.learning_rate", "finite"),
        (alphazero(max_grad_norm=1e308), "algorithm.max_grad_norm", "less than or equal"),
        (jax_ppo(snapshot_every=10**12), "algorithm.snapshot_every", "less than or equal"),
        (
            alphazero(simulations=4096, max_considered_actions=4096),
            "algorithm.max_considered_actions",
            "allowed: 2..33",
        ),
        ({**alphazero(), "eval": {"games": 10**12}}, "eval.games", "less than or equal"),
        ({"eval": {"games": 10**12}}, "eval.games", "less than or equal"),
        ({"budget": {"total_timesteps": 10**30}}, "budget.total_timesteps", "less than"),
        (
            {"budget": {"total_timesteps": None, "wall_clock_minutes": float("inf")}},
            "budget.wall_clock_minutes",
            "finite",
        ),
        (
            {"budget": {"total_timesteps": None, "wall_clock_minutes": 20_000.0}},
            "budget.wall_clock_minutes",
            "less than or equal to 10080",
        ),
        ({"algorithm": {"learning_rate": float("nan")}}, "algorithm.learning_rate", "finite"),
        ({"algorithm": {"net_arch": [64] * 17}}, "algorithm.net_arch", "at most 16"),
        (
            {"algorithm": {"name": "rllib-ppo", "max_grad_norm": 1e308}},
            "algorithm.max_grad_norm",
            "less than or equal",
        ),
    ],
)
def test_an_out_of_range_setting_is_refused_naming_its_field(
    tmp_path: Path, data: dict, field: str, says: str
) -> None:
    lines = refused(tmp_path, data).splitlines()[1:]
    mine = [line for line in lines if line.startswith(f"  {field}: ")]
    assert mine, lines
    assert says in mine[0]


def test_a_budget_needs_a_finite_limit(tmp_path: Path) -> None:
    msg = refused(tmp_path, {"budget": {"total_timesteps": None, "wall_clock_minutes": None}})
    assert "budget.total_timesteps: set total_timesteps and/or wall_clock_minutes" in msg


# ---- every numeric field has a finite range ------------------------------------------------


def _numeric_fields(model: type[BaseModel], prefix: str = "") -> list[tuple[str, object]]:
    """``(dotted name, FieldInfo)`` of every int or float field of ``model`` and its
    sections, through optional and list and union annotations."""
    found = []
    for name, info in model.model_fields.items():
        ann = info.annotation
        args = typing.get_args(ann) or (ann,)
        if isinstance(ann, types.UnionType) or typing.get_origin(ann) is typing.Union:
            args = tuple(a for a in args if a is not type(None))
        if typing.get_origin(ann) is typing.Annotated:
            args = typing.get_args(args[0])
        for arg in args:
            if typing.get_origin(arg) is list:
                arg = typing.get_args(arg)[0]
            if arg in (int, float) and arg is not bool:
                found.append((prefix + name, info))
                break
            if isinstance(arg, type) and issubclass(arg, BaseModel):
                found += _numeric_fields(arg, f"{prefix}{name}.")
    return found


def _bounds(info: object) -> tuple[object, object]:
    low = high = None
    for m in info.metadata:  # type: ignore[attr-defined]
        low = getattr(m, "ge", None) if getattr(m, "ge", None) is not None else low
        low = getattr(m, "gt", None) if getattr(m, "gt", None) is not None else low
        high = getattr(m, "le", None) if getattr(m, "le", None) is not None else high
        high = getattr(m, "lt", None) if getattr(m, "lt", None) is not None else high
    return low, high


MODELS = [ExperimentConfig, RllibExperimentConfig, JaxExperimentConfig]


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_numeric_field_has_a_finite_documented_range(model: type[BaseModel]) -> None:
    readme = (ROOT / "configs" / "README.md").read_text()
    fields = _numeric_fields(model)
    names = {name for name, _ in fields}
    assert {"seed", "budget.total_timesteps", "eval.games"} <= names
    unbounded = [name for name, info in fields if None in _bounds(info)]
    lists_checked = {"algorithm.net_arch", "algorithm.hidden"}  # layer sizes: a validator
    assert set(unbounded) <= lists_checked, unbounded
    undocumented = [n for n in names if not re.search(rf"[`.]{n.rpartition('.')[2]}`", readme)]
    assert not undocumented


def test_the_algorithm_sections_of_the_jax_trainers_are_bounded() -> None:
    for model in (AlphaZeroConfig, JaxPPOConfig, ImitationConfig):
        fields = _numeric_fields(model)
        assert len(fields) > 8
        assert [n for n, info in fields if None in _bounds(info) and n != "hidden"] == []


def test_an_evaluation_opponent_named_twice_is_refused() -> None:
    """Each opponent is one set of metrics columns: a repeat would overwrite its rows."""
    with pytest.raises(ConfigError, match=r"eval.opponents: each opponent once.*\['greedy'\]"):
        load_config(
            ROOT / "configs" / "jupiter_ppo.yaml",
            {"eval.opponents": ["greedy", "random", "greedy"]},
        )
    with pytest.raises(ConfigError, match=r"eval.opponents"):
        load_config(ROOT / "configs" / "jupiter_ppo.yaml", {"eval.opponents": ["random"] * 17})


@pytest.mark.parametrize("value", [float("inf"), float("-inf"), float("nan")])
def test_no_float_field_takes_inf_or_nan(value: float) -> None:
    with pytest.raises(ConfigError, match=r"env.margin_shaping: Input should be a finite"):
        parse_config({"env": {"margin_shaping": value}})


# ---- the memory estimate ------------------------------------------------------------------


@pytest.fixture
def machine_of_16_gib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "physical_memory", lambda: 16 * GiB)


def test_a_replay_that_does_not_fit_is_refused_with_the_estimate(
    tmp_path: Path, machine_of_16_gib: None
) -> None:
    msg = refused(tmp_path, alphazero(replay_size=100_000_000))
    line = next(x for x in msg.splitlines() if x.startswith("  algorithm.replay_size: "))
    # 1e8 positions x (158 observation + 33 policy + 1 value) float32 = 71.5 GiB
    assert "the run would need about 71." in line
    assert "replay buffer: replay_size 100000000 x 192 float32" in line
    assert "this machine allows 12.8 GiB (80% of its 16 GiB)" in line
    assert line.endswith("lower replay_size")


def test_the_same_run_fits_a_larger_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "physical_memory", lambda: 1024 * GiB)
    assert parse_config(alphazero(replay_size=100_000_000)).algorithm.replay_size == 10**8


def test_the_memory_error_comes_with_the_other_field_errors(machine_of_16_gib: None) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({**alphazero(replay_size=100_000_000), "eval": {"games": 0}, "seed": -1})
    msg = str(info.value)
    assert msg.splitlines()[0] == "config: 3 invalid field(s)"
    for field in ("algorithm.replay_size", "eval.games", "seed"):
        assert f"\n  {field}: " in msg


@pytest.mark.parametrize(
    ("data", "field", "part"),
    [
        (alphazero(games=65536, simulations=512), "algorithm.simulations", "search tree"),
        (jax_ppo(num_envs=65536, num_steps=10_000), "algorithm.num_steps", "rollout window"),
        (
            {"algorithm": {"n_envs": 1024, "n_steps": 100_000}},
            "algorithm.n_steps",
            "rollout buffer",
        ),
        (
            {
                "algorithm": {"name": "rllib-ppo", "train_batch_size": 10_000_000},
                "ray": {"num_env_runners": 0},
            },
            "algorithm.train_batch_size",
            "train batch",
        ),
    ],
)
def test_each_trainer_refuses_a_run_larger_than_the_machine(
    tmp_path: Path, machine_of_16_gib: None, data: dict, field: str, part: str
) -> None:
    msg = refused(tmp_path, data)
    line = next(x for x in msg.splitlines() if x.startswith(f"  {field}: "))
    assert "the run would need about" in line and part in line
    assert f"lower {field.rpartition('.')[2]}" in line


def test_the_sb3_memory_error_comes_with_the_other_field_errors(machine_of_16_gib) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({"algorithm": {"n_envs": 1024, "n_steps": 100_000}, "name": "a b"})
    msg = str(info.value)
    assert "\n  algorithm.n_steps: the run would need about" in msg
    assert "\n  name: " in msg


def test_the_replay_estimate_is_the_replay_the_trainer_allocates() -> None:
    pytest.importorskip("mctx")
    from moon_agents.training.jax.alphazero import _Replay
    from moon_agents.training.jax.budget import alphazero_parts

    config = parse_config(alphazero(replay_size=1000)).algorithm
    replay = _Replay(1000, 158, 33)
    allocated = replay.obs.nbytes + replay.policy.nbytes + replay.value.nbytes
    parts = alphazero_parts(config, 158, 33, 732, 1000)
    assert next(p.nbytes for p in parts if p.what.startswith("replay")) == allocated


def test_human_bytes() -> None:
    assert memory.human_bytes(512) == "512 B"
    assert memory.human_bytes(1.5 * GiB) == "1.5 GiB"
    assert memory.human_bytes(575 * 2**40) == "575 TiB"


# ---- the run folder is never made -----------------------------------------------------------


@pytest.mark.parametrize(
    "algorithm",
    [
        {"name": "alphazero", "replay_size": 10**12},
        {"name": "jax_ppo", "num_steps": 10**12},
        {"name": "alphazero", "hidden": [4096] * 16},
    ],
)
def test_moon_envs_train_refuses_before_making_the_run_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture, algorithm: dict
) -> None:
    from moon_agents.cli.main import main

    path = tmp_path / "c.yaml"
    out = tmp_path / "runs"
    path.write_text(yaml.safe_dump({"env": JUPITER, "algorithm": algorithm}))
    code = main(["train", str(path), "--out", str(out)], stdout=io.StringIO())
    assert code == 2
    assert "c.yaml: 1 invalid field(s)" in capsys.readouterr().err
    assert not out.exists()


# ---- the error's allowed keys and the shipped configs --------------------------------------


@pytest.mark.parametrize(
    ("name", "key"), [("alphazero", "replay_size"), ("jax_ppo", "num_minibatches")]
)
def test_an_unknown_jax_algorithm_key_lists_the_allowed_keys(name: str, key: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config({"env": JUPITER, "algorithm": {"name": name, "replay_sise": 5}})
    line = str(info.value).splitlines()[1]
    assert line.startswith("  algorithm.replay_sise: unknown key; allowed keys here: [")
    assert f"'{key}'" in line and "'hidden'" in line and "[]" not in line


def test_an_unknown_key_in_a_schedule_step_lists_its_keys() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(
            {"opponents": {"schedule": [{"from_timesteps": 5, "pool": ["random"], "x": 1}]}}
        )
    assert "opponents.schedule.0.x: unknown key; allowed keys here: ['from_timesteps', 'pool']" in (
        str(info.value)
    )


@pytest.mark.parametrize("path", sorted((ROOT / "configs").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_shipped_config_validates(path: Path) -> None:
    if "rllib" in path.stem:
        pytest.importorskip("ray")
    if "alphazero" in path.stem or "jax_ppo" in path.stem:
        pytest.importorskip("jax")
    config = load_config(path)
    assert config.budget.total_timesteps or config.budget.wall_clock_minutes
