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
    MAX_LAYERS,
    MAX_TIMESTEPS,
    BudgetConfig,
    EnvConfig,
    EvalConfig,
    OutputConfig,
    _Section,
    check_layers,
)
from moon_envs.core.game import ConfigError

MAX_OPENING_PLIES = 32
"""The largest ``algorithm.opening_plies`` (``jax_ppo``; see its ``openings`` module)."""

ALGORITHM_NAMES = ("alphazero", "jax_ppo", "imitation")
MAX_DEVICES = 4096
"""The largest ``algorithm.devices`` a config may name."""


class _NetworkFields(_Section):
    hidden: list[int] = Field(
        default_factory=lambda: [256, 256],
        min_length=1,
        max_length=MAX_LAYERS,
        description="MLP trunk layer sizes",
    )
    activation: Literal[ACTIVATIONS] = "relu"  # type: ignore[valid-type]
    learning_rate: float = Field(1e-3, gt=0, le=1, description="Adam step size at the start")
    final_learning_rate: float = Field(1e-4, gt=0, le=1, description="cosine decay to this")
    max_grad_norm: float = Field(1.0, gt=0, le=1000, description="gradient clipping norm")
    devices: Annotated[int, Field(ge=1, le=MAX_DEVICES)] | Literal["all"] = Field(
        "all",
        description="devices the batch is split over (1..4096, at most the devices JAX "
        "sees, or all of them); the config's batch sizes are per device",
    )
    init_from: str | None = Field(
        None,
        min_length=1,
        max_length=4096,
        description="start from the weights of this network file (a run's model.npz or "
        "checkpoint, relative to the current directory; same env, parameters and "
        "architecture), or from the actor of this MaskablePPO policy .zip (its net_arch "
        "and activation those of the network; the value head starts at zero), instead of "
        "random ones; null: random",
    )

    @field_validator("hidden")
    @classmethod
    def _sizes(cls, value: list[int]) -> list[int]:
        return check_layers(value)


class AlphaZeroConfig(_NetworkFields):
    """Self-play with Gumbel MuZero policy improvement, the twin's ``step`` as the model."""

    name: Literal["alphazero"] = "alphazero"
    games: int = Field(256, ge=1, le=65536, description="self-play games in lock-step")
    unroll: int = Field(64, ge=2, le=100_000, description="decisions per game per iteration")
    simulations: int = Field(16, ge=1, le=4096, description="search simulations a decision")
    max_considered_actions: int = Field(16, ge=2, le=4096, description="Gumbel top-k at the root")
    gumbel_scale: float = Field(1.0, ge=0, le=100, description="0: no Gumbel noise at the root")
    batch_size: int = Field(512, ge=1, le=1_000_000, description="SGD minibatch")
    sample_reuse: float = Field(
        4.0, gt=0, le=1000, description="SGD samples per self-play position"
    )
    replay_size: int = Field(
        150_000, ge=1, le=100_000_000, description="positions kept for training"
    )
    value_weight: float = Field(1.0, ge=0, le=100, description="value loss weight")
    weight_decay: float = Field(1e-4, ge=0, le=1, description="AdamW weight decay")
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
    num_steps: int = Field(64, ge=1, le=100_000, description="decisions per env per rollout")
    num_epochs: int = Field(4, ge=1, le=1000, description="passes over each rollout")
    num_minibatches: int = Field(8, ge=1, le=1_000_000, description="minibatches per epoch")
    gamma: float = Field(1.0, gt=0, le=1, description="discount")
    gae_lambda: float = Field(0.95, ge=0, le=1, description="GAE lambda")
    clip_range: float = Field(0.2, gt=0, le=10, description="PPO clip range")
    ent_coef: float = Field(0.01, ge=0, le=10, description="entropy bonus")
    vf_coef: float = Field(0.5, ge=0, le=100, description="value loss weight")
    pool_size: int = Field(
        8, ge=0, le=64, description="frozen snapshots kept as opponents (0: self-play only)"
    )
    snapshot_every: int = Field(20, ge=1, le=1_000_000, description="rollouts between snapshots")
    pool_keep_initial: bool = Field(
        False,
        description="the starting network (random, or algorithm.init_from's) keeps its pool "
        "slot for the whole run, a fixed opponent; snapshots take turns in the other slots",
    )
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
    opponent_net: str | None = Field(
        None,
        min_length=1,
        max_length=4096,
        description="a network file (.npz, relative to the current directory; same env and "
        "parameters, any architecture) that is the only opponent: it fills the pool's one "
        "slot for the whole run and no snapshot replaces it; needs pool_size 1, "
        "self_play_fraction 0 and heuristic_fraction 0; null: the self-play pool",
    )
    opponent_argmax: bool = Field(
        False,
        description="with opponent_net: the frozen network plays its most probable legal "
        "action, as the az: agent does in the Python env, instead of a sample of its policy",
    )
    opening_plies: int = Field(
        0,
        ge=0,
        le=MAX_OPENING_PLIES,
        description="uniformly random legal moves that start every game (0: the standard "
        "start); a move that would end a game is not played",
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
        if self.pool_keep_initial and self.pool_size < 2:
            raise ValueError(
                f"pool_keep_initial: needs a slot for the snapshots beside the starting "
                f"network; allowed: pool_size of 2 or more (got {self.pool_size})"
            )
        if self.opponent_argmax and self.opponent_net is None:
            raise ValueError("opponent_argmax: only with an opponent_net; allowed: false")
        if self.opponent_net is not None:
            wrong = [
                f"{field} {value}"
                for field, value, wanted in (
                    ("pool_size", self.pool_size, 1),
                    ("self_play_fraction", self.self_play_fraction, 0),
                    ("heuristic_fraction", self.heuristic_fraction, 0),
                )
                if value != wanted
            ]
            if self.pool_keep_initial:
                wrong.append("pool_keep_initial true")
            if wrong:
                raise ValueError(
                    f"opponent_net: the frozen network is the only opponent, got "
                    f"{', '.join(wrong)}; allowed: pool_size 1, self_play_fraction 0, "
                    f"heuristic_fraction 0, pool_keep_initial false"
                )
        return self


class ImitationConfig(_NetworkFields):
    """Behavioural cloning of a teacher, then DAgger rounds, in the Python env
    (:mod:`moon_agents.training.jax.imitation`)."""

    name: Literal["imitation"] = "imitation"
    teacher: str = Field(
        "oracle", min_length=1, max_length=200, description="zoo agent that labels positions"
    )
    opponents: list[str] = Field(
        default_factory=lambda: ["heuristic"],
        min_length=1,
        max_length=16,
        description="zoo agents across the learner's seat in the data games, in turn",
    )
    games_per_round: int = Field(1000, ge=1, le=100_000, description="games a data round plays")
    explore: float = Field(
        0.2, ge=0, le=1, description="first round: share of the learner seat's random moves"
    )
    learner_share: float = Field(
        0.85, ge=0, le=1, description="later rounds: share of games the network plays"
    )
    epochs: int = Field(10, ge=1, le=1000, description="passes over the kept positions a round")
    batch_size: int = Field(1024, ge=1, le=1_000_000, description="SGD minibatch")
    max_positions: int = Field(
        2_000_000, ge=1, le=20_000_000, description="positions kept (the oldest replaced)"
    )
    value_weight: float = Field(0.1, ge=0, le=100, description="value loss weight")
    input_features: list[Literal["landing_values"]] = Field(
        default_factory=list, max_length=1, description="fixed features after the observation"
    )
    workers: int = Field(1, ge=1, le=64, description="processes playing the data games")

    @model_validator(mode="after")
    def _fresh_networks(self) -> ImitationConfig:
        if self.init_from is not None:
            raise ValueError(
                "init_from: the imitation trainer trains a fresh network each round; "
                "allowed: null"
            )
        return self


AlgorithmSection = Annotated[
    AlphaZeroConfig | JaxPPOConfig | ImitationConfig, Field(discriminator="name")
]


class JaxBudgetConfig(BudgetConfig):
    """The JAX trainers' budget: the SB3 trainer's, and a stop before the schedule's end."""

    stop_at_timesteps: int | None = Field(
        None,
        ge=1,
        le=MAX_TIMESTEPS,
        description="stop once this many decisions are made, while the learning-rate "
        "schedule still spans total_timesteps: the run is the start of the longer one, "
        "decision for decision; null: at total_timesteps",
    )

    @model_validator(mode="after")
    def _stop_within_the_schedule(self) -> JaxBudgetConfig:
        stop, total = self.stop_at_timesteps, self.total_timesteps
        if stop is not None and (total is None or stop > total):
            raise ValueError(
                f"stop_at_timesteps: {stop} must be at most budget.total_timesteps "
                f"({total}), which the learning-rate schedule spans; allowed: 1..{total}"
            )
        return self


class JaxExperimentConfig(_Section):
    """A training experiment on a JAX twin; see the module docstring."""

    name: str = Field("experiment", min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.-]+$")
    seed: int = Field(0, ge=0, le=2**31 - 1)
    env: EnvConfig = Field(default_factory=EnvConfig)
    algorithm: AlgorithmSection
    budget: JaxBudgetConfig = Field(default_factory=JaxBudgetConfig)
    eval: EvalConfig = Field(default_factory=EvalConfig)
    output: OutputConfig = Field(default_factory=OutputConfig)
    export: Literal["best", "last"] = Field(
        "best", description="weights written as model.npz: best evaluation or the last"
    )

    @model_validator(mode="after")
    def _twin_exists(self) -> JaxExperimentConfig:
        problems = twin_problems(self.env, self.algorithm, self.eval.opponents)
        if problems:  # every one at once: one line each (see config.error_lines)
            raise ValueError("\n".join(problems))
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


def twin_problems(env: EnvConfig, algorithm: Any, eval_opponents: list[str]) -> list[str]:
    """What the JAX trainers refuse in valid ``env``, ``algorithm`` and ``eval`` sections
    taken together, one ``field: why; allowed: ...`` line each (all of them: the checks
    that need the twin are left out only when the twin cannot be built). With a valid
    ``algorithm`` section these include the network's size and the run's memory estimate
    (:func:`moon_agents.training.jax.budget.budget_problems`)."""
    name = algorithm.name
    problems = []
    if env.margin_shaping and name != "jax_ppo":
        problems.append(
            f"env.margin_shaping: the {name} trainer has no reward shaping (jax_ppo has); "
            "allowed: 0"
        )
    if env.params.get("reward_mode", "win") != "win":
        problems.append(
            "env.params.reward_mode: the JAX trainers learn from win rewards (add "
            "env.margin_shaping for score-based shaping with jax_ppo); allowed: 'win'"
        )
    if getattr(algorithm, "heuristic_learner_seat", None) is not None and not getattr(
        algorithm, "heuristic_fraction", 0.0
    ):
        problems.append(
            "algorithm.heuristic_learner_seat: only with heuristic_fraction above 0; allowed: null"
        )
    problems += _eval_problems(env, eval_opponents)
    if name == "imitation" and hasattr(algorithm, "teacher"):
        from moon_agents.training.imitation_data import round_problems

        problems += round_problems(
            env.game_name(), algorithm.teacher, algorithm.opponents, algorithm.input_features
        )
    try:
        import moon_envs.jax as mj
    except ImportError as exc:
        return [*problems, f"algorithm.name: {name} needs jax: {exc}"]
    if env.id not in mj.list_twins():
        return [*problems, f"env.id: {env.id} has no JAX twin; allowed values: {mj.list_twins()}"]
    twin = mj.make(env.id, **env.params)
    if getattr(algorithm, "augment", False) and not hasattr(twin, "random_symmetry"):
        problems.append(
            f"algorithm.augment: {env.id}'s twin has no symmetries to train on; allowed: false"
        )
    if getattr(algorithm, "heuristic_fraction", 0.0):
        from moon_agents.zoo import jax_heuristic, jax_heuristic_games

        if jax_heuristic(env.game_name(), twin) is None:
            problems.append(
                f"algorithm.heuristic_fraction: {env.id} has no heuristic on its twin; "
                f"allowed: 0 (games with one: {jax_heuristic_games()})"
            )
    if twin.num_players != 2:
        problems.append(
            f"env.params.num_players: the {name} trainer plays two-player games; got "
            f"{twin.num_players}; allowed: 2"
        )
    if getattr(algorithm, "opponent_net", None) is not None:
        from moon_agents.training.jax.network import opponent_net_problems

        problems += opponent_net_problems(algorithm.opponent_net, env.id, twin)
    if getattr(algorithm, "devices", "all") != "all":
        from moon_agents.training.jax.devices import device_count

        try:
            device_count(algorithm.devices)
        except ConfigError as exc:
            problems.append(str(exc))
    if hasattr(algorithm, "hidden"):  # a valid section: its network and memory fit
        from moon_agents.training.jax.budget import budget_problems

        problems += budget_problems(algorithm, twin)
    return problems


def _eval_problems(env: EnvConfig, specs: list[str]) -> list[str]:
    """``eval.opponents`` that the agent zoo refuses for ``env``'s game."""
    from moon_agents.zoo import make_agent

    problems = []
    for spec in specs:
        try:
            make_agent(spec, env.game_name(), seed=0)
        except Exception as exc:  # any refusal is a config error
            problems.append(f"eval.opponents: {spec!r}: {exc}")
    return problems


def unchecked_twin_lines(data: dict) -> list[str]:
    """:func:`twin_problems` for raw JAX config ``data`` whose other fields failed to
    validate (pydantic runs the model's check only once every field is valid), so that one
    error names every problem. The ``env``, ``algorithm`` and ``eval`` sections are
    validated alone (defaults where left out); an invalid ``algorithm`` section counts by
    its name alone and an invalid ``eval`` section with no opponents (their own errors are
    reported by the schema); nothing is reported when ``env`` is invalid."""
    from types import SimpleNamespace

    from pydantic import TypeAdapter, ValidationError

    try:
        env = EnvConfig.model_validate(data.get("env", {}))
    except ValidationError:
        return []
    raw = data.get("algorithm")
    try:
        algorithm = TypeAdapter(AlgorithmSection).validate_python(raw)
    except ValidationError:
        name = raw.get("name") if isinstance(raw, dict) else None
        if name not in ALGORITHM_NAMES:
            return []
        algorithm = SimpleNamespace(name=name)
    try:
        opponents = EvalConfig.model_validate(data.get("eval", {})).opponents
    except ValidationError:
        opponents = []
    return twin_problems(env, algorithm, opponents)
