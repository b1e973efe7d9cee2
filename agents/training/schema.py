"""The whole experiment config: :class:`ExperimentConfig`, its sections and the agents it names.

The sections are in :mod:`moon_agents.training.sections`; this model adds the name, seed and
torch threads, checks that every opponent and evaluation agent exists for the env
(:func:`agent_problems`, every bad spec at once), and names the run folder. Reading and
validating files is :mod:`moon_agents.training.config`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import Field, model_validator

from moon_agents.training.sections import (
    AlgorithmConfig,
    BudgetConfig,
    CheckpointConfig,
    EnvConfig,
    EvalConfig,
    OpponentsConfig,
    OutputConfig,
    _cut,
    _Section,
)


class ExperimentConfig(_Section):
    """A whole training experiment; see ``configs/README.md``."""

    name: str = Field("experiment", min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.-]+$")
    seed: int = Field(0, ge=0, le=2**31 - 1)
    torch_threads: int = Field(1, ge=1, le=1024, description="torch intra-op threads")
    env: EnvConfig = Field(default_factory=EnvConfig)
    algorithm: AlgorithmConfig = Field(default_factory=AlgorithmConfig)
    opponents: OpponentsConfig = Field(default_factory=OpponentsConfig)
    budget: BudgetConfig = Field(default_factory=BudgetConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    checkpoints: CheckpointConfig = Field(default_factory=CheckpointConfig)
    output: OutputConfig = Field(default_factory=OutputConfig)

    @model_validator(mode="after")
    def _agents_exist(self) -> ExperimentConfig:
        lists = [("opponents.pool", self.opponents.pool)]
        lists += [
            (f"opponents.schedule.{i}.pool", step.pool)
            for i, step in enumerate(self.opponents.schedule)
        ]
        problems = agent_problems(self.env, [*lists, ("eval.opponents", self.eval.opponents)])
        problems += [tuple(line.split(": ", 1)) for line in run_memory_problems(self)]
        if problems:  # one line per bad spec, each naming its field (config.py splits them)
            raise ValueError("\n".join(f"{field}: {why}" for field, why in problems))
        return self

    def run_name(self) -> str:
        """The run folder's name: ``output.run_name`` or ``<name>_seed<seed>``."""
        return self.output.run_name or f"{self.name}_seed{self.seed}"

    def to_dict(self) -> dict[str, Any]:
        """The resolved config (every default filled in) as plain data."""
        return self.model_dump(mode="json")


def run_memory_problems(config: ExperimentConfig) -> list[str]:
    """``field: why`` when the run's estimated arrays exceed the machine's memory limit
    (:mod:`moon_agents.training.memory`: the SB3 or RLlib trainer's estimate)."""
    from moon_agents.training import memory

    spec = config.env.game_spec()
    if config.algorithm.name == "rllib-ppo":
        return memory.memory_problems(memory.rllib_parts(config, spec))
    return memory.memory_problems(memory.sb3_parts(config, spec))


def agent_problems(env: EnvConfig, lists: Iterable[tuple[str, list[str]]]) -> list[tuple[str, str]]:
    """``(field, what is wrong)`` for every spec in ``lists`` (``(field, specs)``) that names
    no agent ``env``'s game has, or a checkpoint that does not exist, or an agent this
    install cannot build; empty when every spec is good."""
    from moon_agents.zoo import agent_names, make_agent

    game = env.game_name()
    allowed = agent_names(game)
    problems = []
    for field, specs in lists:
        for spec in specs:
            why = None
            if spec.startswith(("ppo:", "ppo-trusted:")):
                path = spec.partition(":")[2]
                if not Path(path).exists() and not Path(path + ".zip").exists():
                    why = f"checkpoint {_cut(path)} does not exist"
            elif spec.startswith(("az:", "jppo:")):  # a network trained on a JAX twin
                from moon_agents.net_agent import parse_spec

                path = parse_spec(spec)[0]
                if not Path(path).is_file():
                    why = f"weights file {_cut(path)} does not exist"
            elif spec.startswith("rllib:"):  # RLlib back-end model directory
                if not Path(spec[6:]).is_dir():
                    why = f"model directory {_cut(spec[6:])} does not exist"
            elif spec.partition(":")[0] not in allowed:
                why = (
                    f"unknown agent {_cut(repr(spec))} for {env.id}; allowed values: "
                    f"{allowed} or 'ppo:PATH', 'az:PATH' or 'rllib:PATH'"
                )
            else:
                try:
                    make_agent(spec, game, seed=0)
                except ImportError as exc:
                    why = f"agent {spec!r} for {env.id} is not importable: {exc}"
                except ValueError as exc:  # ConfigError: the spec's own parameters
                    why = f"agent {_cut(repr(spec))}: {_cut(str(exc), 300)}"
            if why:
                problems.append((field, why))
    return problems
