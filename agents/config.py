"""Experiment configs: a validated schema for ``moon-envs train`` and a YAML loader.

A config is a YAML mapping with the sections below (every field has a default, so a
config names only what it changes; ``configs/README.md`` documents each field)::

    name: jupiter_ppo
    seed: 0
    env:        {id: jupiter_v0, params: {num_players: 2}}
    algorithm:  {n_envs: 8, n_steps: 256, batch_size: 256, learning_rate: 3.0e-4, ...}
    opponents:  {pool: [random, greedy], snapshots: {every_timesteps: 50000, max_in_pool: 5}}
    budget:     {total_timesteps: 300000, wall_clock_minutes: 10}
    eval:       {every_timesteps: 25000, games: 100, opponents: [random, greedy]}
    checkpoints: {every_timesteps: 100000}
    output:     {dir: runs}

Unknown keys and bad values are errors: :func:`load_config` raises
:class:`~moon_envs.core.game.ConfigError` whose message names every offending field (as a
dotted path such as ``algorithm.n_steps``) and what is allowed there.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from moon_envs.core.game import ConfigError


class _Section(BaseModel):
    """Base of every config section: unknown keys are errors, assignments are checked, and
    types are strict (``true`` is not an integer, ``"5"`` is not a number)."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, strict=True)


class EnvConfig(_Section):
    """The environment the learner plays."""

    id: str = Field("jupiter_v0", description="registered env id (moon_envs.list_envs())")
    params: dict[str, Any] = Field(
        default_factory=dict, description="parameters for moon_envs.make(id, **params)"
    )

    @field_validator("id")
    @classmethod
    def _known_id(cls, value: str) -> str:
        from moon_envs import list_envs

        if value not in list_envs():
            raise ValueError(
                f"unknown environment id {_cut(repr(value))}; allowed values: {list_envs()}"
            )
        return value

    @model_validator(mode="after")
    def _params_build(self) -> EnvConfig:
        from moon_envs import make

        try:
            env = make(self.id, **self.params)
        except ImportError as exc:
            raise ValueError(f"id: environment {self.id!r} is registered but not importable: {exc}")
        except (ConfigError, TypeError) as exc:
            raise ValueError(f"params: {_cut(str(exc), 400)}") from None
        env.close()
        return self

    def game_name(self) -> str:
        """The ``GameSpec.name`` of this env (used to look agents up in the zoo)."""
        from moon_envs import make

        return make(self.id, **self.params).game.spec.name


class AlgorithmConfig(_Section):
    """MaskablePPO hyper-parameters (sb3-contrib names)."""

    name: Literal["maskable_ppo"] = "maskable_ppo"
    n_envs: int = Field(8, ge=1, description="parallel environments (DummyVecEnv)")
    n_steps: int = Field(256, ge=2, description="steps per env per rollout")
    batch_size: int = Field(256, ge=2, description="minibatch size")
    n_epochs: int = Field(4, ge=1, description="optimisation epochs per rollout")
    learning_rate: float = Field(3e-4, gt=0, description="Adam step size")
    gamma: float = Field(0.99, gt=0, le=1, description="discount")
    gae_lambda: float = Field(0.95, ge=0, le=1, description="GAE lambda")
    clip_range: float = Field(0.2, gt=0, description="PPO clip range")
    ent_coef: float = Field(0.01, ge=0, description="entropy bonus coefficient")
    vf_coef: float = Field(0.5, ge=0, description="value loss coefficient")
    max_grad_norm: float = Field(0.5, gt=0, description="gradient clipping norm")
    target_kl: float | None = Field(None, gt=0, description="early-stop epochs above this KL")
    normalize_advantage: bool = True
    net_arch: list[int] = Field(default_factory=lambda: [128, 128], min_length=1)
    activation: Literal["tanh", "relu"] = "tanh"
    device: Literal["cpu", "cuda", "auto"] = Field("cpu", description="cpu is reproducible")

    @field_validator("net_arch")
    @classmethod
    def _positive_layers(cls, value: list[int]) -> list[int]:
        if any(v < 1 for v in value):
            raise ValueError(f"every layer size must be >= 1, got {value}")
        return value

    @model_validator(mode="after")
    def _batch_fits(self) -> AlgorithmConfig:
        rollout = self.n_envs * self.n_steps
        if self.batch_size > rollout:
            raise ValueError(
                f"batch_size: {self.batch_size} exceeds the rollout size n_envs*n_steps={rollout}; "
                f"allowed: 2..{rollout}"
            )
        return self


class SnapshotConfig(_Section):
    """Frozen copies of the learner added to the opponent pool during training."""

    every_timesteps: int = Field(50_000, ge=0, description="0 disables snapshots")
    max_in_pool: int = Field(5, ge=1, description="newest snapshots kept in the pool")
    save: bool = Field(True, description="also write each snapshot to checkpoints/")


class OpponentsConfig(_Section):
    """Who plays the other seats: agent specs (``random``, ``greedy``, ``ppo:PATH``, ...)."""

    pool: list[str] = Field(default_factory=lambda: ["random", "greedy"], min_length=1)
    snapshots: SnapshotConfig = Field(default_factory=SnapshotConfig)


class BudgetConfig(_Section):
    """When training stops: whichever limit is reached first."""

    total_timesteps: int | None = Field(300_000, ge=1, description="learner steps")
    wall_clock_minutes: float | None = Field(
        None, gt=0, description="stop after this long (makes the run time-dependent)"
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

    every_timesteps: int = Field(25_000, ge=0, description="0: only at the end")
    games: int = Field(100, ge=1, description="games per opponent (seats rotated)")
    opponents: list[str] = Field(default_factory=lambda: ["random", "greedy"], min_length=1)


class CheckpointConfig(_Section):
    """Model checkpoints written to ``checkpoints/`` (the final model is always saved)."""

    every_timesteps: int = Field(100_000, ge=0, description="0: final model only")


class OutputConfig(_Section):
    """Where and what a run writes."""

    dir: str = Field("runs", description="parent folder of run folders")
    run_name: str | None = Field(None, description="default: '<name>_seed<seed>'")
    overwrite: bool = Field(False, description="reuse an existing run folder")
    tensorboard: bool = True
    plot: bool = True
    progress_bar: bool = True


class ExperimentConfig(_Section):
    """A whole training experiment; see ``configs/README.md``."""

    name: str = Field("experiment", min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.-]+$")
    seed: int = Field(0, ge=0, le=2**31 - 1)
    torch_threads: int = Field(1, ge=1, description="torch intra-op threads")
    env: EnvConfig = Field(default_factory=EnvConfig)
    algorithm: AlgorithmConfig = Field(default_factory=AlgorithmConfig)
    opponents: OpponentsConfig = Field(default_factory=OpponentsConfig)
    budget: BudgetConfig = Field(default_factory=BudgetConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    checkpoints: CheckpointConfig = Field(default_factory=CheckpointConfig)
    output: OutputConfig = Field(default_factory=OutputConfig)

    @model_validator(mode="after")
    def _agents_exist(self) -> ExperimentConfig:
        from agents.zoo import agent_names, make_agent

        game = self.env.game_name()
        allowed = agent_names(game)
        for section, specs in (
            ("opponents.pool", self.opponents.pool),
            ("eval.opponents", self.eval.opponents),
        ):
            for spec in specs:
                if spec.startswith(("ppo:", "ppo-trusted:")):
                    path = spec.partition(":")[2]
                    if not Path(path).exists() and not Path(path + ".zip").exists():
                        raise ValueError(f"{section}: checkpoint {_cut(path)} does not exist")
                elif spec.startswith("rllib:"):  # RLlib back-end model directory
                    if not Path(spec[6:]).is_dir():
                        raise ValueError(
                            f"{section}: model directory {_cut(spec[6:])} does not exist"
                        )
                elif spec.partition(":")[0] not in allowed:
                    raise ValueError(
                        f"{section}: unknown agent {_cut(repr(spec))} for {self.env.id}; "
                        f"allowed values: {allowed} or 'ppo:PATH' or 'rllib:PATH'"
                    )
                else:
                    try:
                        make_agent(spec, game, seed=0)
                    except ImportError as exc:
                        raise ValueError(
                            f"{section}: agent {spec!r} for {self.env.id} is not importable: {exc}"
                        ) from None
        return self

    def run_name(self) -> str:
        """The run folder's name: ``output.run_name`` or ``<name>_seed<seed>``."""
        return self.output.run_name or f"{self.name}_seed{self.seed}"

    def to_dict(self) -> dict[str, Any]:
        """The resolved config (every default filled in) as plain data."""
        return self.model_dump(mode="json")


# ---- loading --------------------------------------------------------------------------------


def parse_config(data: Mapping[str, Any], source: str = "config") -> ExperimentConfig:
    """Validate ``data`` as an :class:`ExperimentConfig`; errors name every bad field."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: the top level must be a mapping, got {type(data).__name__}")
    data, model = dict(data), ExperimentConfig
    # -- RLlib back-end: `algorithm: rllib-ppo` selects its schema (agents/rllib/config.py)
    from agents.rllib.config import is_rllib, rllib_schema

    if is_rllib(data):
        data, model = rllib_schema(data)
    # --
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(exc, source, model)) from None


MAX_CONFIG_BYTES = 1 << 20
"""Largest config file :func:`load_config` reads."""
MAX_YAML_DEPTH = 32
"""Deepest nesting of mappings and lists in a config file."""
MAX_QUOTE = 120
"""Longest value quoted in an error message (longer ones are cut with ``...``)."""
MAX_ERROR_LINES = 20
"""Most problems listed in one error message."""


def load_config(path: str | Path, overrides: Mapping[str, Any] | None = None) -> ExperimentConfig:
    """Read a YAML config file, apply dotted ``overrides`` and validate it.

    ``overrides`` maps dotted paths to values, e.g. ``{"budget.total_timesteps": 5000,
    "output.dir": "/tmp/runs"}``; they are validated like the file's own values.

    The file must be UTF-8 YAML of at most :data:`MAX_CONFIG_BYTES` bytes holding one
    mapping; empty files and empty mappings (``{}``: a config names at least ``env.id``),
    duplicate keys, anchors and aliases (``&a`` / ``*a``), nesting deeper than
    :data:`MAX_YAML_DEPTH` and values YAML cannot convert are refused with a
    :class:`ConfigError`.
    """
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"config file {_cut(str(path))} does not exist")
    data = read_yaml(p)
    for dotted, value in (overrides or {}).items():
        _set_dotted(data, dotted, value)
    return parse_config(data, source=str(p))


def read_yaml(p: Path) -> dict[str, Any]:
    """The mapping in the YAML file ``p``, read with :class:`StrictYamlLoader`."""
    if p.stat().st_size > MAX_CONFIG_BYTES:
        raise ConfigError(f"{p}: the file is larger than {MAX_CONFIG_BYTES} bytes")
    raw = p.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{p}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    data = load_yaml_text(text, str(p))
    if data is None or data == {}:
        raise ConfigError(
            f"{p}: the config is empty; a config is a YAML mapping that names at least "
            "env.id, the environment to train on (e.g. env: {id: jupiter_v0}); see configs/"
        )
    if not isinstance(data, dict):
        raise ConfigError(f"{p}: the top level must be a mapping, got {type(data).__name__}")
    return data


def load_yaml_text(text: str, source: str = "value") -> Any:
    """The data of the YAML document ``text``, read with :class:`StrictYamlLoader` (no
    anchors or aliases, no duplicate keys, at most :data:`MAX_YAML_DEPTH` levels).

    Every problem, including values PyYAML cannot convert (an integer of thousands of
    digits), is a short :class:`ConfigError` naming ``source``.
    """
    loader = StrictYamlLoader(text)  # a safe loader: no Python tags
    loader.name = source  # error marks name the source
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: not valid YAML: {_cut(str(exc), 400)}") from None
    except (ValueError, RecursionError, OverflowError) as exc:
        raise ConfigError(
            f"{source}: a value cannot be read ({type(exc).__name__}: {_cut(str(exc), 200)})"
        ) from None
    finally:
        loader.dispose()


class StrictYamlLoader(yaml.SafeLoader):
    """PyYAML's safe loader that also refuses duplicate keys, anchors and aliases (so no
    alias bomb can expand) and nesting deeper than :data:`MAX_YAML_DEPTH`, and that reads
    ``3e-4`` as a float, as YAML 1.2 does (PyYAML alone reads it as a string)."""

    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise yaml.composer.ComposerError(
                None, None, "anchors and aliases (&name, *name) are not allowed", event.start_mark
            )
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH + 1:
                raise yaml.composer.ComposerError(
                    None, None, f"nested deeper than {MAX_YAML_DEPTH} levels", event.start_mark
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:  # an unhashable key: the base class reports it
                break
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {_cut(repr(key))}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


StrictYamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"),
)


def _cut(text: str, limit: int = MAX_QUOTE) -> str:
    """``text`` cut to ``limit`` characters for an error message."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def save_config(config: ExperimentConfig, path: str | Path) -> None:
    """Write the resolved config (all defaults filled in) as YAML."""
    Path(path).write_text(yaml.safe_dump(config.to_dict(), sort_keys=False))


def _set_dotted(data: dict[str, Any], dotted: str, value: Any) -> None:
    *parents, last = dotted.split(".")
    node = data
    for key in parents:
        child = node.get(key)
        if child is None:
            child = node[key] = {}
        if not isinstance(child, dict):
            raise ConfigError(f"cannot set {dotted!r}: {key!r} is not a mapping")
        node = child
    node[last] = value


def format_validation_error(
    exc: ValidationError, source: str = "config", model: type[BaseModel] | None = None
) -> str:
    """One line per problem: the dotted field, what is wrong, what is allowed."""
    lines = [f"{_cut(source, 300)}: {exc.error_count()} invalid field(s)"]
    errors = exc.errors()
    for err in errors[:MAX_ERROR_LINES]:
        loc = [_cut(str(p), 60) for p in err["loc"]]
        field = ".".join(loc) or "(top level)"
        if err["type"] == "extra_forbidden":
            allowed = _allowed_keys(err["loc"][:-1], model or ExperimentConfig)
            lines.append(f"  {field}: unknown key; allowed keys here: {allowed}")
            continue
        msg = err["msg"].removeprefix("Value error, ")
        sub = re.match(r"^([a-z_][a-z0-9_.]*): ", msg)
        if err["type"] == "value_error" and sub:
            field = ".".join([*loc, sub.group(1)])
            msg = msg[sub.end() :]
        got = err.get("input")
        shown = (
            ""
            if isinstance(got, (dict, list)) or err["type"] == "value_error"
            else f" (got {_cut(repr(got))})"
        )
        lines.append(f"  {field}: {_cut(msg, 400)}{shown}")
    if len(errors) > MAX_ERROR_LINES:
        lines.append(f"  ... and {len(errors) - MAX_ERROR_LINES} more")
    return "\n".join(lines)


def _allowed_keys(loc: tuple[Any, ...], model: Any) -> list[str]:
    for part in loc:
        field = model.model_fields.get(str(part)) if isinstance(model, type) else None
        ann = getattr(field, "annotation", None)
        if not (isinstance(ann, type) and issubclass(ann, BaseModel)):
            return []
        model = ann
    return list(model.model_fields)
