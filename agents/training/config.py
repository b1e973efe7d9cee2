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
dotted path such as ``algorithm.n_steps``) and what is allowed there, all in one message:
the checks that span sections (the agents named in ``opponents`` and ``eval`` against the
env, and the run's memory estimate, :mod:`moon_agents.training.memory`) run even when
another section is invalid. Every number has a finite range, so every run has a finite
budget and a bounded size.

This module loads, validates and saves configs; the schema is in
:mod:`moon_agents.training.sections` (one model per section) and :mod:`moon_agents.training.schema`
(:class:`ExperimentConfig`), the strict YAML reader in :mod:`moon_agents.training.strict_yaml`;
every name is importable from here.
"""

from __future__ import annotations

import re
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from moon_agents.training.schema import ExperimentConfig, agent_problems
from moon_agents.training.sections import (
    MAX_QUOTE,
    AlgorithmConfig,
    BudgetConfig,
    CheckpointConfig,
    EnvConfig,
    EvalConfig,
    OpponentsConfig,
    OutputConfig,
    SnapshotConfig,
    _cut,
)
from moon_agents.training.strict_yaml import (
    MAX_CONFIG_BYTES,
    MAX_YAML_DEPTH,
    StrictYamlLoader,
    load_yaml_text,
    read_config_yaml,
    read_yaml,
)
from moon_envs.core.game import ConfigError

__all__ = [  # loading and saving and, for existing imports, the schema and YAML reader
    "MAX_CONFIG_BYTES",
    "MAX_ERROR_LINES",
    "MAX_QUOTE",
    "MAX_YAML_DEPTH",
    "AlgorithmConfig",
    "BudgetConfig",
    "CheckpointConfig",
    "EnvConfig",
    "EvalConfig",
    "ExperimentConfig",
    "OpponentsConfig",
    "OutputConfig",
    "SnapshotConfig",
    "StrictYamlLoader",
    "format_validation_error",
    "load_config",
    "load_yaml_text",
    "parse_config",
    "read_yaml",
    "save_config",
]

# ---- loading --------------------------------------------------------------------------------


def parse_config(
    data: Mapping[str, Any],
    source: str = "config",
    problems: list[tuple[str, str]] | None = None,
) -> ExperimentConfig:
    """Validate ``data`` as an :class:`ExperimentConfig`; errors name every bad field.

    ``problems`` (``(dotted field, what is wrong)``, e.g. the file's repeated keys) are
    errors found before validation, reported in the same message."""
    if not isinstance(data, Mapping):
        raise ConfigError(f"{source}: the top level must be a mapping, got {type(data).__name__}")
    data, model = dict(data), ExperimentConfig
    # -- RLlib back-end: `algorithm: rllib-ppo` selects its schema (agents/training/rllib/config.py)
    from moon_agents.training.rllib.config import is_rllib, rllib_schema

    if is_rllib(data):
        data, model = rllib_schema(data)
    # --
    # -- JAX trainers: `algorithm: alphazero` / `jax_ppo` (agents/training/jax/config.py)
    from moon_agents.training.jax.config import is_jax, jax_schema

    if is_jax(data):
        data, model = jax_schema(data)
    # --
    lines = [_line(field, why) for field, why in problems or []]
    try:
        config = model.model_validate(data)
    except ValidationError as exc:
        lines += error_lines(exc, model)
        if issubclass(model, ExperimentConfig):
            more = unchecked_agent_lines(data) + unchecked_memory_lines(data, model)
            lines += [line for line in more if line not in lines]
        elif is_jax(data):
            from moon_agents.training.jax.config import unchecked_twin_lines

            more = [_line(*p.split(": ", 1)) for p in unchecked_twin_lines(data)]
            lines += [line for line in more if line not in lines]
    else:
        if not lines:
            return config
    raise ConfigError(error_report(source, lines))


def unchecked_agent_lines(data: Mapping[str, Any]) -> list[str]:
    """Error lines for the bad agent specs in raw config ``data``.

    Pydantic runs :class:`ExperimentConfig`'s agent check only once every field is valid;
    when another field is not, this runs the same check (:func:`agent_problems`) on the
    lists of specs in ``data`` (defaults where a list is left out), so that one error
    names the bad agents too. Nothing is reported when the env itself is invalid.
    """
    try:
        env = EnvConfig.model_validate(data.get("env", {}))
    except ValidationError:
        return []
    opponents = data.get("opponents", {})
    opponents = opponents if isinstance(opponents, Mapping) else {}
    evaluation = data.get("eval", {})
    evaluation = evaluation if isinstance(evaluation, Mapping) else {}
    lists = [
        ("opponents.pool", opponents.get("pool", _default(OpponentsConfig, "pool"))),
        ("eval.opponents", evaluation.get("opponents", _default(EvalConfig, "opponents"))),
    ]
    schedule = opponents.get("schedule", [])
    for i, step in enumerate(schedule if isinstance(schedule, list) else []):
        if isinstance(step, Mapping):
            lists.append((f"opponents.schedule.{i}.pool", step.get("pool", [])))
    good = [(f, specs) for f, specs in lists if isinstance(specs, list)]
    good = [(f, specs) for f, specs in good if all(isinstance(s, str) for s in specs)]
    return [_line(field, why) for field, why in agent_problems(env, good)]


def unchecked_memory_lines(data: Mapping[str, Any], model: type[ExperimentConfig]) -> list[str]:
    """The memory estimate's error line (:func:`~moon_agents.training.schema.run_memory_problems`)
    for raw config ``data`` whose other fields failed to validate: the sections it reads
    (``env``, ``algorithm``, ``opponents.snapshots``, ``budget``, and ``ray`` for RLlib)
    are validated alone, defaults where left out; nothing is reported when one of them is
    invalid (its own error says why)."""
    from types import SimpleNamespace

    from moon_agents.training.schema import run_memory_problems

    sections = {}
    for name in ("env", "algorithm", "budget", "ray"):
        field = model.model_fields.get(name)
        if field is None:
            continue
        raw = data.get(name, {})
        try:
            sections[name] = field.annotation.model_validate(raw)  # type: ignore[union-attr]
        except ValidationError:
            return []
    opponents = data.get("opponents", {})
    raw = opponents.get("snapshots", {}) if isinstance(opponents, Mapping) else {}
    try:
        snapshots = SnapshotConfig.model_validate(raw)
    except ValidationError:
        return []
    config = SimpleNamespace(**sections, opponents=SimpleNamespace(snapshots=snapshots))
    return [_line(*p.split(": ", 1)) for p in run_memory_problems(config)]  # type: ignore[arg-type]


def _default(model: type[BaseModel], field: str) -> Any:
    return model.model_fields[field].get_default(call_default_factory=True)


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
    data, duplicates = read_config_yaml(p)
    for dotted, value in (overrides or {}).items():
        _set_dotted(data, dotted, value)
    return parse_config(data, source=str(p), problems=duplicates)


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
    return error_report(source, error_lines(exc, model))


def error_report(source: str, lines: list[str]) -> str:
    """The error message: ``source``, how many fields are invalid, then the lines (at most
    :data:`MAX_ERROR_LINES`)."""
    head = f"{_cut(source, 300)}: {len(lines)} invalid field(s)"
    more = len(lines) - MAX_ERROR_LINES
    tail = [f"  ... and {more} more"] if more > 0 else []
    return "\n".join([head, *lines[:MAX_ERROR_LINES], *tail])


def _line(field: str, message: str) -> str:
    return f"  {field}: {_cut(message, 400)}"


def error_lines(exc: ValidationError, model: type[BaseModel] | None = None) -> list[str]:
    """One line per problem in ``exc``: ``  field: what is wrong (got value)``, allowed
    keys for an unknown key. A check's message ``sub: text`` names a field below the one
    that raised it, and a message of several such lines is several problems."""
    lines = []
    for err in exc.errors():
        loc = [_cut(str(p), 60) for p in err["loc"]]
        tags = ("alphazero", "jax_ppo", "imitation")
        if len(loc) > 1 and loc[0] == "algorithm" and loc[1] in tags:
            del loc[1]  # the tag pydantic adds for the algorithm's discriminated union
        field = ".".join(loc) or "(top level)"
        if err["type"] == "extra_forbidden":
            allowed = _allowed_keys(err["loc"][:-1], model or ExperimentConfig)
            lines.append(f"  {field}: unknown key; allowed keys here: {allowed}")
            continue
        if err["type"] == "value_error":
            for part in err["msg"].removeprefix("Value error, ").splitlines():
                sub = re.match(r"^([a-z_][a-z0-9_.]*): ", part)
                if sub:
                    lines.append(_line(".".join([*loc, sub.group(1)]), part[sub.end() :]))
                else:
                    lines.append(_line(field, part))
            continue
        got = err.get("input")
        says_value = isinstance(got, (dict, list)) or err["type"] == "field_check"
        shown = "" if says_value else f" (got {_cut(repr(got))})"
        lines.append(f"  {field}: {_cut(err['msg'], 400)}{shown}")
    return lines


def _allowed_keys(loc: tuple[Any, ...], model: Any) -> list[str]:
    """The keys of the section at ``loc`` (an error's location less its last part) of
    ``model``: through nested sections, list items (``schedule.0``) and the algorithm's
    union, whose member pydantic names in ``loc`` by its tag (``algorithm.alphazero``)."""
    parts = list(loc)
    while parts:
        part = str(parts.pop(0))
        field = model.model_fields.get(part)
        if field is None:
            return []
        model = _section_model(field.annotation, parts)
        if model is None:
            return []
    return list(model.model_fields)


def _section_model(annotation: Any, rest: list[Any]) -> type[BaseModel] | None:
    """The section model that ``annotation`` holds, taking from ``rest`` the list index
    or union tag that pydantic puts in an error's location after such a field."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) is list and args:
        if rest and isinstance(rest[0], int):
            rest.pop(0)
            return _section_model(args[0], rest)
        return None
    if typing.get_origin(annotation) is typing.Annotated:
        return _section_model(args[0], rest)
    models = [a for a in args if isinstance(a, type) and issubclass(a, BaseModel)]
    if len(models) == 1:  # an optional section
        return models[0]
    for member in models:  # a tagged union: the tag is the member's `name`
        name = member.model_fields.get("name")
        if rest and name is not None and name.default == rest[0]:
            rest.pop(0)
            return member
    return None
