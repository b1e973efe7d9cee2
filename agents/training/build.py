"""What a training run is built from: seeds, the vectorised envs with their opponents, the model.

:func:`seed_everything` seeds every generator, :func:`build_vec_env` makes the
``DummyVecEnv`` of single-agent envs whose other seats are played by the opponent pool,
and :func:`build_model` makes the MaskablePPO learner; :func:`moon_agents.training.train.train` runs
them.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.training.schema import ExperimentConfig


def seed_everything(seed: int, torch_threads: int) -> None:
    """Seed Python, numpy and torch; fix torch's thread count (reproducible CPU runs)."""
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(torch_threads)


# ---- environments and opponents -----------------------------------------------------------


def build_vec_env(config: ExperimentConfig, game: str) -> tuple[Any, list[list[Any]]]:
    """The DummyVecEnv of ``n_envs`` single-agent envs and each env's fixed opponents."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from moon_envs.core.wrappers import SingleAgentEnv
    from moon_envs.registry import make_single_agent

    fixed = [
        pool_agents(config, game, config.opponents.pool, i, stage=0)
        for i in range(config.algorithm.n_envs)
    ]

    def factory(i: int):
        def _make() -> SingleAgentEnv:
            return make_single_agent(
                config.env.id,
                opponents=fixed[i],
                margin_shaping=config.env.margin_shaping,
                **config.env.params,
            )

        return _make

    vec = DummyVecEnv([factory(i) for i in range(config.algorithm.n_envs)])
    return vec, fixed


def pool_agents(
    config: ExperimentConfig, game: str, pool: list[str], env_index: int, stage: int
) -> list[Any]:
    """Env ``env_index``'s own seeded instances of a fixed pool (``stage`` 0 is
    ``opponents.pool``, stage ``k`` the ``k``-th step of ``opponents.schedule``)."""
    from moon_agents.zoo import make_agent

    base = config.seed * 7919 + 1000 * (env_index + 1) + 100_000 * stage
    return [make_agent(spec, game, seed=base + j, name=spec) for j, spec in enumerate(pool)]


def build_model(config: ExperimentConfig, vec_env: Any, tb_dir: Path | None) -> Any:
    """A fresh MaskablePPO for ``config.algorithm`` (seeded, logging to ``tb_dir``)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger, configure

    a = config.algorithm
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[a.activation]
    device = a.device
    if device == "cuda" and not torch.cuda.is_available():
        import warnings

        warnings.warn(
            "algorithm.device is 'cuda' but torch sees no GPU; training on the CPU "
            "(summary.json records the device used)",
            RuntimeWarning,
            stacklevel=2,
        )
        device = "cpu"
    model = MaskablePPO(
        "MlpPolicy",
        vec_env,
        learning_rate=a.learning_rate,
        n_steps=a.n_steps,
        batch_size=a.batch_size,
        n_epochs=a.n_epochs,
        gamma=a.gamma,
        gae_lambda=a.gae_lambda,
        clip_range=a.clip_range,
        ent_coef=a.ent_coef,
        vf_coef=a.vf_coef,
        max_grad_norm=a.max_grad_norm,
        target_kl=a.target_kl,
        normalize_advantage=a.normalize_advantage,
        policy_kwargs={"net_arch": list(a.net_arch), "activation_fn": activation},
        seed=config.seed,
        device=device,
        verbose=0,
    )
    # without TensorBoard, a logger with no outputs: sb3's configure(None, ...) would make
    # an empty folder under the system's temporary directory on every run
    if tb_dir is None:
        model.set_logger(Logger(folder=None, output_formats=[]))
    else:
        model.set_logger(configure(str(tb_dir), ["tensorboard"]))
    return model
