"""The config schema of the RLlib back-end (``algorithm: {name: rllib-ppo}``).

An RLlib config is an :class:`~moon_agents.training.config.ExperimentConfig` whose ``algorithm``
section holds RLlib PPO's hyper-parameters and which has a ``ray`` section::

    algorithm:
      name: rllib-ppo
      train_batch_size: 4000     # env steps per training iteration
      minibatch_size: 500
      num_epochs: 6
      learning_rate: 3.0e-4
      ...
    ray:
      address: null              # null: start a local Ray; "auto" or "ray://host:10001": join
      num_env_runners: 2         # sampling processes (0: sample in the driver)
      num_cpus: null             # CPUs of a local Ray (null: all)

``opponents.self_play: true`` adds pure self-play episodes (every seat the learner) to the
league. Everything else (env, opponents.pool, snapshots, budget, eval, checkpoints,
output) means what it means for the SB3 trainer (``configs/README.md``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from moon_agents.training.schema import ExperimentConfig
from moon_agents.training.sections import MAX_LAYERS, MAX_WIDTH, OpponentsConfig, _Section

ALGORITHM_NAMES = ("rllib-ppo",)


class RllibAlgorithmConfig(_Section):
    """RLlib PPO hyper-parameters (RLlib's names in brackets where they differ)."""

    name: Literal["rllib-ppo"] = "rllib-ppo"
    train_batch_size: int = Field(4000, ge=2, le=10_000_000, description="env steps per iteration")
    minibatch_size: int = Field(500, ge=2, le=10_000_000, description="SGD minibatch size")
    num_epochs: int = Field(6, ge=1, le=1000, description="passes over each batch")
    learning_rate: float = Field(3e-4, gt=0, le=1, description="Adam step size (lr)")
    gamma: float = Field(0.99, gt=0, le=1, description="discount")
    gae_lambda: float = Field(0.95, ge=0, le=1, description="GAE lambda (lambda_)")
    clip_range: float = Field(0.2, gt=0, le=10, description="PPO clip (clip_param)")
    ent_coef: float = Field(0.01, ge=0, le=10, description="entropy bonus (entropy_coeff)")
    vf_coef: float = Field(0.5, ge=0, le=100, description="value loss weight (vf_loss_coeff)")
    vf_clip: float = Field(10.0, gt=0, le=1_000_000, description="value loss clip (vf_clip_param)")
    max_grad_norm: float = Field(0.5, gt=0, le=1000, description="gradient clipping (grad_clip)")
    use_kl_loss: bool = Field(False, description="PPO's adaptive KL penalty")
    net_arch: list[int] = Field(
        default_factory=lambda: [128, 128], min_length=1, max_length=MAX_LAYERS
    )
    activation: Literal["tanh", "relu"] = "tanh"

    @model_validator(mode="after")
    def _minibatch_fits(self) -> RllibAlgorithmConfig:
        if any(not 1 <= v <= MAX_WIDTH for v in self.net_arch):
            raise ValueError(
                f"net_arch: every layer size must be in 1..{MAX_WIDTH}, got {self.net_arch}"
            )
        if self.minibatch_size > self.train_batch_size:
            raise ValueError(
                f"minibatch_size: {self.minibatch_size} exceeds train_batch_size="
                f"{self.train_batch_size}; allowed: 2..{self.train_batch_size}"
            )
        return self


class RayConfig(_Section):
    """Where RLlib runs."""

    address: str | None = Field(
        None, description='null: start a local Ray; "auto" or an address: join that cluster'
    )
    num_env_runners: int = Field(
        1, ge=0, le=1024, description="sampling processes (0: in the driver)"
    )
    num_envs_per_env_runner: int = Field(
        8,
        ge=1,
        le=1024,
        description="envs each runner steps together (one batched forward pass)",
    )
    num_cpus: int | None = Field(
        None, ge=1, le=65536, description="CPUs of a local Ray (null: all)"
    )
    restart_failed_env_runners: bool = Field(
        False, description="false: an env runner's error stops the run; true: restart it"
    )


class RllibOpponentsConfig(OpponentsConfig):
    """The league: zoo agents, frozen snapshots of the learner and optional self-play."""

    self_play: bool = Field(False, description="also play episodes with every seat the learner")


class RllibExperimentConfig(ExperimentConfig):
    """An experiment trained by RLlib PPO (``algorithm.name: rllib-ppo``)."""

    algorithm: RllibAlgorithmConfig = Field(default_factory=RllibAlgorithmConfig)
    opponents: RllibOpponentsConfig = Field(default_factory=RllibOpponentsConfig)
    ray: RayConfig = Field(default_factory=RayConfig)

    @model_validator(mode="after")
    def _sb3_only(self) -> RllibExperimentConfig:
        """Options only the SB3 trainer has are refused, not silently ignored."""
        if self.env.margin_shaping:
            raise ValueError(
                "env.margin_shaping: the rllib-ppo trainer has no reward shaping; allowed: 0 "
                "(use algorithm.name: maskable_ppo for shaping)"
            )
        if self.opponents.schedule:
            raise ValueError(
                "opponents.schedule: the rllib-ppo trainer has no pool schedule; allowed: [] "
                "(use algorithm.name: maskable_ppo for a schedule)"
            )
        return self


def is_rllib(data: object) -> bool:
    """Whether raw config data names an RLlib algorithm (``algorithm.name`` or a bare
    ``algorithm: rllib-ppo``)."""
    if not isinstance(data, dict):
        return False
    algo = data.get("algorithm")
    name = algo.get("name") if isinstance(algo, dict) else algo
    return isinstance(name, str) and name in ALGORITHM_NAMES


def rllib_schema(data: dict) -> tuple[dict, type[RllibExperimentConfig]]:
    """``data`` with a bare ``algorithm: rllib-ppo`` expanded, and the schema to check it."""
    data = dict(data)
    if isinstance(data.get("algorithm"), str):
        data["algorithm"] = {"name": data["algorithm"]}
    return data, RllibExperimentConfig
