"""The sections of an experiment config, one strict pydantic model each.

``env``, ``algorithm``, ``opponents`` (with its ``snapshots``), ``budget``, ``eval``,
``checkpoints`` and ``output`` each derive from :class:`_Section`: unknown keys are
errors, assignments are checked and types are strict (``true`` is not an integer);
:class:`~moon_agents.training.schema.ExperimentConfig` combines them. :func:`_cut` shortens
the values that their error messages quote.

A check that reads several fields of a section (``batch_size`` against the rollout,
``params`` against ``id``) is a validator of its last field, reading the earlier ones
from ``info.data``: pydantic runs it together with every other field's check, so one
error lists every invalid field (a model-level validator would run only once all the
fields are valid, showing its error after the others are fixed).
"""

from __future__ import annotations

import itertools
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from moon_agents.paths import check_folder_path, check_plain_name
from moon_envs.core.game import ConfigError

MAX_QUOTE = 120
"""Longest value quoted in an error message (longer ones are cut with ``...``)."""


def _cut(text: str, limit: int = MAX_QUOTE) -> str:
    """``text`` cut to ``limit`` characters for an error message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def field_error(reason: str) -> PydanticCustomError:
    """The error of the field being checked, reported as ``reason`` (which names the
    value and what is allowed)."""
    return PydanticCustomError("field_check", "{reason}", {"reason": reason})


MAX_TIMESTEPS = 10_000_000_000
"""Most learner steps (or self-play decisions) in a budget, and largest step interval."""

MAX_WALL_CLOCK_MINUTES = 10_080
"""Longest wall-clock budget: a week."""

MAX_LAYERS = 16
"""Most hidden layers of a network."""

MAX_WIDTH = 4096
"""Widest hidden layer of a network."""

MAX_EVAL_GAMES = 100_000
"""Most evaluation games against one opponent."""


class _Section(BaseModel):
    """Base of every config section: unknown keys are errors, assignments are checked,
    types are strict (``true`` is not an integer, ``"5"`` is not a number) and floats are
    finite (``.inf`` and ``.nan`` are refused)."""

    model_config = ConfigDict(
        extra="forbid", validate_assignment=True, strict=True, allow_inf_nan=False
    )


def check_layers(value: list[int]) -> list[int]:
    """``value`` if every hidden layer size is in 1..:data:`MAX_WIDTH` (the count is the
    field's ``max_length``)."""
    if any(not 1 <= v <= MAX_WIDTH for v in value):
        raise ValueError(f"every layer size must be in 1..{MAX_WIDTH}, got {_cut(str(value))}")
    return value


class EnvConfig(_Section):
    """The environment the learner plays."""

    id: str = Field("jupiter_v0", description="registered env id (moon_envs.list_envs())")
    params: dict[str, Any] = Field(
        default_factory=dict,
        validate_default=True,  # the env is built even with no params given
        description="parameters for moon_envs.make(id, **params)",
    )
    margin_shaping: float = Field(
        0.0,
        ge=0,
        le=10,
        description="reward shaping, 0 = off: k * change of (own score - best other score)",
    )

    @field_validator("id")
    @classmethod
    def _known_id(cls, value: str) -> str:
        from moon_envs import get_entry, list_envs

        if value not in list_envs():
            raise ValueError(
                f"unknown environment id {_cut(repr(value))}; allowed values: {list_envs()}"
            )
        try:
            get_entry(value).env_class()
        except ImportError as exc:
            raise field_error(
                f"environment {value!r} is registered but not importable: {exc}"
            ) from None
        return value

    @field_validator("params")
    @classmethod
    def _params_build(cls, value: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
        from moon_envs import make

        if "id" not in info.data:  # the id is invalid: its own error says why
            return value
        try:
            env = make(info.data["id"], **value)
        except (ConfigError, TypeError, ImportError) as exc:
            raise field_error(_cut(str(exc), 400)) from None
        env.close()
        return value

    def game_name(self) -> str:
        """The ``GameSpec.name`` of this env (used to look agents up in the zoo)."""
        return self.game_spec().name

    def game_spec(self) -> Any:
        """The ``GameSpec`` of this env: its observation shape and action count size the
        memory estimate (:mod:`moon_agents.training.memory`)."""
        from moon_envs import make

        env = make(self.id, **self.params)
        env.close()
        return env.game.spec


class AlgorithmConfig(_Section):
    """MaskablePPO hyper-parameters (sb3-contrib names)."""

    name: Literal["maskable_ppo"] = "maskable_ppo"
    n_envs: int = Field(8, ge=1, le=1024, description="parallel environments (DummyVecEnv)")
    n_steps: int = Field(256, ge=2, le=1_000_000, description="steps per env per rollout")
    batch_size: int = Field(
        256,
        ge=2,
        le=1_000_000,
        validate_default=True,
        description="minibatch size, 2..n_envs*n_steps",
    )
    n_epochs: int = Field(4, ge=1, le=1000, description="optimisation epochs per rollout")
    learning_rate: float = Field(3e-4, gt=0, le=1, description="Adam step size")
    gamma: float = Field(0.99, gt=0, le=1, description="discount")
    gae_lambda: float = Field(0.95, ge=0, le=1, description="GAE lambda")
    clip_range: float = Field(0.2, gt=0, le=10, description="PPO clip range")
    ent_coef: float = Field(0.01, ge=0, le=10, description="entropy bonus coefficient")
    vf_coef: float = Field(0.5, ge=0, le=100, description="value loss coefficient")
    max_grad_norm: float = Field(0.5, gt=0, le=1000, description="gradient clipping norm")
    target_kl: float | None = Field(
        None, gt=0, le=10, description="early-stop epochs above this KL"
    )
    normalize_advantage: bool = True
    net_arch: list[int] = Field(
        default_factory=lambda: [128, 128], min_length=1, max_length=MAX_LAYERS
    )
    activation: Literal["tanh", "relu"] = "tanh"
    device: Literal["cpu", "cuda", "auto"] = Field("cpu", description="cpu is reproducible")

    @field_validator("net_arch")
    @classmethod
    def _layer_sizes(cls, value: list[int]) -> list[int]:
        return check_layers(value)

    @field_validator("batch_size")
    @classmethod
    def _batch_fits(cls, value: int, info: ValidationInfo) -> int:
        if "n_envs" not in info.data or "n_steps" not in info.data:
            return value  # no rollout size to compare with: their own errors say why
        rollout = info.data["n_envs"] * info.data["n_steps"]
        if value > rollout:
            raise field_error(
                f"{value} exceeds the rollout size n_envs*n_steps={rollout}; allowed: 2..{rollout}"
            )
        return value


class SnapshotConfig(_Section):
    """Frozen copies of the learner added to the opponent pool during training."""

    every_timesteps: int = Field(50_000, ge=0, le=MAX_TIMESTEPS, description="0 disables snapshots")
    max_in_pool: int = Field(5, ge=1, le=100, description="newest snapshots kept in the pool")
    save: bool = Field(True, description="also write each snapshot to checkpoints/")


class PoolStep(_Section):
    """From ``from_timesteps`` learner steps on, ``pool`` replaces the fixed pool."""

    from_timesteps: int = Field(
        ..., ge=1, le=MAX_TIMESTEPS, description="learner steps at which this pool starts"
    )
    pool: list[str] = Field(..., min_length=1, description="the fixed pool from then on")


class OpponentsConfig(_Section):
    """Who plays the other seats: agent specs (``random``, ``greedy``, ``ppo:PATH``, ...)."""

    pool: list[str] = Field(default_factory=lambda: ["random", "greedy"], min_length=1)
    schedule: list[PoolStep] = Field(
        default_factory=list, description="later pools, by increasing from_timesteps"
    )
    snapshots: SnapshotConfig = Field(default_factory=SnapshotConfig)

    @field_validator("schedule")
    @classmethod
    def _increasing(cls, value: list[PoolStep]) -> list[PoolStep]:
        starts = [step.from_timesteps for step in value]
        if any(b <= a for a, b in itertools.pairwise(starts)):
            raise field_error(f"from_timesteps must increase from step to step, got {starts}")
        return value


class BudgetConfig(_Section):
    """When training stops: whichever limit is reached first."""

    total_timesteps: int | None = Field(
        300_000, ge=1, le=MAX_TIMESTEPS, description="learner steps"
    )
    wall_clock_minutes: float | None = Field(
        None,
        gt=0,
        le=MAX_WALL_CLOCK_MINUTES,
        description="stop after this long (makes the run time-dependent)",
    )

    @model_validator(mode="after")
    def _some_limit(self) -> BudgetConfig:
        if self.total_timesteps is None and self.wall_clock_minutes is None:
            raise ValueError(
                "total_timesteps: set total_timesteps and/or wall_clock_minutes; both are null"
            )
        return self


class EvalConfig(_Section):
    """Periodic greedy evaluation of the learner against fixed opponents."""

    every_timesteps: int = Field(25_000, ge=0, le=MAX_TIMESTEPS, description="0: only at the end")
    games: int = Field(
        100, ge=1, le=MAX_EVAL_GAMES, description="games per opponent (seats rotated)"
    )
    opponents: list[str] = Field(
        default_factory=lambda: ["random", "greedy"], min_length=1, max_length=16
    )

    @field_validator("opponents")
    @classmethod
    def _distinct(cls, value: list[str]) -> list[str]:
        twice = sorted({spec for spec in value if value.count(spec) > 1})
        if twice:  # each opponent is one set of metrics columns
            raise ValueError(f"each opponent once; named more than once: {twice}")
        return value


class CheckpointConfig(_Section):
    """Model checkpoints written to ``checkpoints/`` (the final model is always saved)."""

    every_timesteps: int = Field(100_000, ge=0, le=MAX_TIMESTEPS, description="0: final model only")


class OutputConfig(_Section):
    """Where and what a run writes."""

    dir: str = Field("runs", description="parent folder of run folders")
    run_name: str | None = Field(None, description="default: '<name>_seed<seed>'")
    overwrite: bool = Field(
        False, description="replace an existing run folder (only one made by moon-envs train)"
    )
    tensorboard: bool = True
    plot: bool = True
    progress_bar: bool = True

    @field_validator("run_name")
    @classmethod
    def _plain_run_name(cls, value: str | None) -> str | None:
        if value is not None:
            check_plain_name("output.run_name", value)
        return value

    @field_validator("dir")
    @classmethod
    def _folder_dir(cls, value: str) -> str:
        return check_folder_path("output.dir", value)
