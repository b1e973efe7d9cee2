"""The config schema of the trainers on the JAX twins (``algorithm.name: alphazero`` or
``jax_ppo``).

A JAX config has the SB3 trainer's ``name``, ``seed``, ``env``, ``budget``, ``eval`` and
``output`` sections (``configs/README.md``), with ``budget.total_timesteps`` counting
self-play decisions, and its own ``algorithm`` section::

    algorithm:
      name: alphazero          # Gumbel MuZero policy improvement on the twin (mctx)
      games: 256               # self-play games played in lock-step
      simulations: 16          # search simulations per decision
      ...
    export: best               # the weights kept: best evaluation (best) or last

The env must have a JAX twin (``moon_envs.jax.list_twins()``), two players, and
``env.margin_shaping: 0``. Evaluation games are played in the Python env against zoo
agents, as for every trainer.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from moon_agents.net_weights import ACTIVATIONS
from moon_agents.training.sections import (
    BudgetConfig,
    EnvConfig,
    EvalConfig,
    OutputConfig,
    _Section,
)

ALGORITHM_NAMES = ("alphazero", "jax_ppo")


class _NetworkFields(_Section):
    hidden: list[int] = Field(
        default_factory=lambda: [256, 256],
        min_length=1,
        max_length=16,
        description="MLP trunk layer sizes",
    )
    activation: Literal[ACTIVATIONS] = "relu"  # type: ignore[valid-type]
    learning_rate: float = Field(1e-3, gt=0, description="Adam step size at the start")
    final_learning_rate: float = Field(1e-4, gt=0, description="cosine decay to this")
    max_grad_norm: float = Field(1.0, gt=0, description="gradient clipping norm")

    @field_validator("hidden")
    @classmethod
    def _sizes(cls, value: list[int]) -> list[int]:
        if any(not 1 <= v <= 4096 for v in value):
            raise ValueError(f"every layer size must be in 1..4096, got {value}")
        return value


class AlphaZeroConfig(_NetworkFields):
    """Self-play with Gumbel MuZero policy improvement, the twin's ``step`` as the model."""

    name: Literal["alphazero"] = "alphazero"
    games: int = Field(256, ge=1, le=65536, description="self-play games in lock-step")
    unroll: int = Field(64, ge=2, le=100_000, description="decisions per game per iteration")
    simulations: int = Field(16, ge=1, le=4096, description="search simulations a decision")
    max_considered_actions: int = Field(16, ge=2, le=4096, description="Gumbel top-k at the root")
    gumbel_scale: float = Field(1.0, ge=0, description="0: no Gumbel noise at the root")
    batch_size: int = Field(512, ge=1, description="SGD minibatch")
    sample_reuse: float = Field(4.0, gt=0, description="SGD samples per self-play position")
    replay_size: int = Field(150_000, ge=1, description="positions kept for training")
    value_weight: float = Field(1.0, ge=0, description="value loss weight")
    weight_decay: float = Field(1e-4, ge=0, description="AdamW weight decay")
    value_target: Literal["outcome", "bootstrap"] = Field(
        "outcome",
        description="unfinished games at a window's end: dropped, or valued by the network",
    )
    augment: bool = Field(
        False, description="train on random symmetries of the rules (games that have them)"
    )


class JaxPPOConfig(_NetworkFields):
    """PPO on batched twins (the PureJaxRL recipe), masked, against a self-play pool."""

    name: Literal["jax_ppo"] = "jax_ppo"
    num_envs: int = Field(256, ge=1, le=65536, description="twins stepped in lock-step")
    num_steps: int = Field(64, ge=1, description="decisions per env per rollout")
    num_epochs: int = Field(4, ge=1, description="passes over each rollout")
    num_minibatches: int = Field(8, ge=1, description="minibatches per epoch")
    gamma: float = Field(1.0, gt=0, le=1, description="discount")
    gae_lambda: float = Field(0.95, ge=0, le=1, description="GAE lambda")
    clip_range: float = Field(0.2, gt=0, description="PPO clip range")
    ent_coef: float = Field(0.01, ge=0, description="entropy bonus")
    vf_coef: float = Field(0.5, ge=0, description="value loss weight")
    pool_size: int = Field(
        8, ge=0, le=64, description="frozen snapshots kept as opponents (0: self-play only)"
    )
    snapshot_every: int = Field(20, ge=1, description="rollouts between snapshots")
    self_play_fraction: float = Field(
        0.5, ge=0, le=1, description="share of envs where the learner plays every seat"
    )
    heuristic_fraction: float = Field(
        0.0,
        ge=0,
        le=1,
        description="share of the other envs whose opponent is the game's heuristic on the "
        "twin instead of a snapshot (games that have one: moon_harvesters_v0)",
    )
    heuristic_learner_seat: int | None = Field(
        None,
        ge=0,
        le=1,
        description="the learner's seat in the games against the heuristic (null: drawn at "
        "random like every game's)",
    )

    @model_validator(mode="after")
    def _minibatches_fit(self) -> JaxPPOConfig:
        window = self.num_envs * self.num_steps
        if window % self.num_minibatches:
            raise ValueError(
                f"num_minibatches: {self.num_minibatches} does not divide the window "
                f"num_envs*num_steps={window}; allowed: a divisor of {window}"
            )
        return self


AlgorithmSection = Annotated[AlphaZeroConfig | JaxPPOConfig, Field(discriminator="name")]


class JaxExperimentConfig(_Section):
    """A training experiment on a JAX twin; see the module docstring."""

    name: str = Field("experiment", min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.-]+$")
    seed: int = Field(0, ge=0, le=2**31 - 1)
    env: EnvConfig = Field(default_factory=EnvConfig)
    algorithm: AlgorithmSection
    budget: BudgetConfig = Field(default_factory=BudgetConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    output: OutputConfig = Field(default_factory=OutputConfig)
    export: Literal["best", "last"] = Field(
        "best", description="weights written as model.npz: best evaluation or the last"
    )

    @model_validator(mode="after")
    def _twin_exists(self) -> JaxExperimentConfig:
        if self.env.margin_shaping and self.algorithm.name != "jax_ppo":
            raise ValueError(
                f"env.margin_shaping: the {self.algorithm.name} trainer has no reward "
                "shaping (jax_ppo has); allowed: 0"
            )
        if self.env.params.get("reward_mode", "win") != "win":
            raise ValueError(
                "env.params.reward_mode: the JAX trainers learn from win rewards "
                "(add env.margin_shaping for score-based shaping with jax_ppo); allowed: 'win'"
            )
        try:
            import moon_envs.jax as mj
        except ImportError as exc:
            raise ValueError(f"algorithm.name: {self.algorithm.name} needs jax: {exc}") from None
        if self.env.id not in mj.list_twins():
            raise ValueError(
                f"env.id: {self.env.id} has no JAX twin; allowed values: {mj.list_twins()}"
            )
        twin = mj.make(self.env.id, **self.env.params)
        if getattr(self.algorithm, "augment", False) and not hasattr(twin, "random_symmetry"):
            raise ValueError(
                f"algorithm.augment: {self.env.id}'s twin has no symmetries to train on; "
                "allowed: false"
            )
        if getattr(self.algorithm, "heuristic_fraction", 0.0):
            from moon_agents.zoo import jax_heuristic, jax_heuristic_games

            if jax_heuristic(self.env.game_name(), twin) is None:
                raise ValueError(
                    f"algorithm.heuristic_fraction: {self.env.id} has no heuristic on its twin; "
                    f"allowed: 0 (games with one: {jax_heuristic_games()})"
                )
        if (
            getattr(self.algorithm, "heuristic_learner_seat", None) is not None
            and not self.algorithm.heuristic_fraction
        ):
            raise ValueError(
                "algorithm.heuristic_learner_seat: only with heuristic_fraction above 0; "
                "allowed: null"
            )
        if twin.num_players != 2:
            raise ValueError(
                f"env.params.num_players: the {self.algorithm.name} trainer plays two-player "
                f"games; got {twin.num_players}; allowed: 2"
            )
        from moon_agents.zoo import make_agent

        game = self.env.game_name()
        for spec in self.eval.opponents:
            try:
                make_agent(spec, game, seed=0)
            except Exception as exc:  # any refusal is a config error
                raise ValueError(f"eval.opponents: {spec!r}: {exc}") from None
        return self

    def run_name(self) -> str:
        """The run folder's name: ``output.run_name`` or ``<name>_seed<seed>``."""
        return self.output.run_name or f"{self.name}_seed{self.seed}"

    def to_dict(self) -> dict[str, Any]:
        """The resolved config (every default filled in) as plain data."""
        return self.model_dump(mode="json")


def is_jax(data: object) -> bool:
    """Whether raw config data names a JAX trainer in ``algorithm.name``."""
    if not isinstance(data, dict):
        return False
    algo = data.get("algorithm")
    name = algo.get("name") if isinstance(algo, dict) else algo
    return isinstance(name, str) and name in ALGORITHM_NAMES


def jax_schema(data: dict) -> tuple[dict, type[JaxExperimentConfig]]:
    """``data`` with a bare ``algorithm: alphazero`` expanded, and the schema to check it."""
    data = dict(data)
    if isinstance(data.get("algorithm"), str):
        data["algorithm"] = {"name": data["algorithm"]}
    return data, JaxExperimentConfig
