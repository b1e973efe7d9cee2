"""The memory a training run would need, estimated from its config before anything runs.

Config validation (:mod:`moon_agents.training.schema`,
:mod:`moon_agents.training.jax.config`) adds up the large arrays a run allocates, each a
:class:`MemoryPart` sized by the fields that drive it, and refuses a config whose total
exceeds :func:`memory_limit`: :data:`MEMORY_FRACTION` of this machine's physical memory.
The error names the largest part's field, the estimate and its parts, e.g.::

    algorithm.replay_size: the run would need about 71.6 GiB (replay buffer: replay_size
    100000000 x 192 float32: 71.5 GiB); this machine allows 12.8 GiB (80% of its 16 GiB);
    lower replay_size

The estimate counts arrays, not the interpreter, the libraries or compiled code (a few
hundred MiB more), and on a GPU the device arrays are counted against host memory, not
the GPU's. This module holds the limit, the message and the estimates of the SB3 and
RLlib trainers; the JAX trainers' are in :mod:`moon_agents.training.jax.budget`.
"""

from __future__ import annotations

import itertools
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

MEMORY_FRACTION = 0.8
"""Share of the machine's physical memory a run may plan to use."""

FLOAT = 4
"""Bytes of one float32 (every trainer's observations, targets and weights)."""


@dataclass(frozen=True)
class MemoryPart:
    """One large allocation of a run: the config ``fields`` that size it (the first is
    named in the error), what it holds and its estimated ``nbytes``."""

    fields: tuple[str, ...]
    what: str
    nbytes: int


def physical_memory() -> int:
    """This machine's physical memory in bytes (0 where the OS does not say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return 0


def memory_limit() -> int:
    """The most memory a run may plan to use: :data:`MEMORY_FRACTION` of
    :func:`physical_memory` (0: unknown, nothing is refused)."""
    return int(MEMORY_FRACTION * physical_memory())


def human_bytes(n: float) -> str:
    """``n`` bytes as ``"1.5 GiB"``, ``"575 TiB"``."""
    units = ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB")
    power = min(int(math.log(max(n, 1), 1024)), len(units) - 1)
    value = n / 1024**power
    return f"{value:.3g} {units[power]}" if power else f"{int(n)} B"


def memory_problems(parts: Sequence[MemoryPart], section: str = "algorithm") -> list[str]:
    """One ``field: why`` line when ``parts`` add up to more than :func:`memory_limit`,
    naming the largest part's field, the estimate, its large parts and the fields to
    lower; empty when the run fits."""
    limit = memory_limit()
    total = sum(p.nbytes for p in parts)
    if not limit or total <= limit:
        return []
    big = sorted((p for p in parts if p.nbytes * 20 >= total), key=lambda p: -p.nbytes)
    shown = "; ".join(f"{p.what}: {human_bytes(p.nbytes)}" for p in big)
    lower = list(dict.fromkeys(f.rpartition(".")[2] for p in big for f in p.fields))
    return [
        f"{big[0].fields[0]}: the run would need about {human_bytes(total)} ({shown}); "
        f"this machine allows {human_bytes(limit)} ({MEMORY_FRACTION:.0%} of its "
        f"{human_bytes(physical_memory())}); lower {' or '.join(lower)}"
    ]


def mlp_parameters(inputs: int, hidden: Iterable[int], outputs: Iterable[int]) -> int:
    """Weights and biases of an MLP trunk of ``hidden`` sizes on ``inputs`` features with
    one linear head per entry of ``outputs``."""
    sizes = [inputs, *hidden]
    trunk = sum((a + 1) * b for a, b in itertools.pairwise(sizes))
    return trunk + sum((sizes[-1] + 1) * out for out in outputs)


def training_copies(parameters: int) -> int:
    """Bytes of a network being trained with Adam: weights, gradients, two moments."""
    return 4 * parameters * FLOAT


def sb3_parts(config: Any, spec: Any) -> list[MemoryPart]:
    """The large arrays of a MaskablePPO run (``config`` a valid
    :class:`~moon_agents.training.schema.ExperimentConfig`, ``spec`` its game's spec):
    the rollout buffer (observation, action mask and eight floats a step), the policy and
    value MLPs with their Adam state, and the frozen snapshots kept as opponents."""
    a = config.algorithm
    obs, actions = math.prod(spec.observation_shape), spec.num_actions
    steps = a.n_envs * a.n_steps
    per_step = obs + actions + 8
    params = mlp_parameters(obs, a.net_arch, [actions]) + mlp_parameters(obs, a.net_arch, [1])
    parts = [
        MemoryPart(
            ("algorithm.n_steps", "algorithm.n_envs"),
            f"rollout buffer: n_envs*n_steps {steps} x {per_step} float32",
            steps * per_step * FLOAT,
        ),
        MemoryPart(
            ("algorithm.net_arch",),
            f"network: {params:,} parameters with gradients and Adam state",
            training_copies(params),
        ),
        MemoryPart(
            ("algorithm.batch_size",),
            f"minibatch: batch_size {a.batch_size} x {per_step + 2 * sum(a.net_arch)} float32",
            a.batch_size * (per_step + 2 * sum(a.net_arch)) * FLOAT * 3,
        ),
    ]
    return parts + _snapshot_parts(config, params)


def rllib_parts(config: Any, spec: Any) -> list[MemoryPart]:
    """The large arrays of an RLlib PPO run: the train batch (observation, action mask and
    ten floats a step, held by the learner and its minibatch iterator), the learner's
    network and Adam state, one network per env runner and the kept snapshots."""
    a, ray = config.algorithm, config.ray
    obs, actions = math.prod(spec.observation_shape), spec.num_actions
    per_step = obs + actions + 10
    params = mlp_parameters(obs, a.net_arch, [actions]) + mlp_parameters(obs, a.net_arch, [1])
    runners = max(ray.num_env_runners, 1)
    parts = [
        MemoryPart(
            ("algorithm.train_batch_size",),
            f"train batch: train_batch_size {a.train_batch_size} x {per_step} float32, 3 copies",
            3 * a.train_batch_size * per_step * FLOAT,
        ),
        MemoryPart(
            ("algorithm.net_arch", "ray.num_env_runners"),
            f"networks: {params:,} parameters, trained, and in {runners} env runner(s)",
            training_copies(params) + runners * params * FLOAT,
        ),
    ]
    return parts + _snapshot_parts(config, params)


def _snapshot_parts(config: Any, params: int) -> list[MemoryPart]:
    """Snapshots of the learner held in memory: one per ``every_timesteps`` of the budget
    (the run keeps every one it makes; only the newest play), or ``max_in_pool`` for a
    wall-clock budget."""
    snaps = config.opponents.snapshots
    if not snaps.every_timesteps:
        return []
    total = config.budget.total_timesteps
    count = total // snaps.every_timesteps if total else snaps.max_in_pool
    return [
        MemoryPart(
            ("opponents.snapshots.every_timesteps",),
            f"snapshots: {count} x {params:,} parameters",
            count * params * FLOAT,
        )
    ]
