"""The devices a JAX trainer spreads its batch over (``algorithm.devices``).

A trainer on ``N`` devices builds a :class:`jax.sharding.Mesh` with one axis, ``data``,
over the first ``N`` of :func:`jax.devices`. The batch dimension of the games in
progress and of every training batch is split over that axis
(``NamedSharding(mesh, P("data"))``); the parameters and the optimizer's state are
replicated (``P()``). ``jax.jit`` propagates these shardings through self-play and the
gradient step: each device plays and differentiates its share of the games, and the
losses, which are means over the global batch, make XLA average the gradients over the
devices (an all-reduce) before the replicated optimizer step.

The config's batch sizes are per device: on ``N`` devices the global batch is ``N``
times the config's (``games``, ``batch_size``; ``num_envs``), so a run plays ``N`` times
the games a step, and every global batch divides evenly over the devices. With one
device nothing is sharded: the trainer runs the single-device program, unchanged.
"""

from __future__ import annotations

from typing import Any

import jax
import numpy as np
from jax.experimental import multihost_utils
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

from moon_envs.core.game import ConfigError


def device_count(setting: int | str) -> int:
    """The number of devices ``algorithm.devices`` (``"all"`` or a count, which the
    config bounds by ``MAX_DEVICES``) names here; a count beyond the devices JAX sees is
    refused."""
    available = len(jax.devices())
    if setting == "all":
        return available
    if isinstance(setting, bool) or not isinstance(setting, int) or not 1 <= setting:
        raise ConfigError(f"algorithm.devices: {setting!r}; allowed: 'all' or 1..{available}")
    if setting > available:
        raise ConfigError(
            f"algorithm.devices: {setting} but JAX sees {available} device(s) here "
            f"({jax.default_backend()}); allowed: 'all' or 1..{available}"
        )
    return setting


class Devices:
    """The mesh of one run, and how its trees are placed on it."""

    def __init__(self, setting: int | str = "all") -> None:
        self.count = device_count(setting)
        self.mesh = None
        if self.count > 1:
            self.mesh = Mesh(np.array(jax.devices()[: self.count]), ("data",))

    @property
    def sharded(self) -> bool:
        return self.mesh is not None

    def _sharding(self, spec: P) -> NamedSharding:
        assert self.mesh is not None
        return NamedSharding(self.mesh, spec)

    def replicate(self, tree: Any) -> Any:
        """``tree`` (parameters, optimizer state, keys) copied onto every device."""
        if not self.sharded:
            return tree
        return jax.device_put(tree, self._sharding(P()))

    def split(self, tree: Any, axis: int = 0) -> Any:
        """``tree`` (host or device arrays) with dimension ``axis`` split over the devices;
        every process of a multi-host run passes the same global values."""
        if not self.sharded:
            return tree
        spec = P(*([None] * axis), "data")
        sharding = self._sharding(spec)

        def place(x: Any) -> Any:
            if isinstance(x, np.ndarray):
                return jax.make_array_from_callback(x.shape, sharding, lambda idx: x[idx])
            return jax.device_put(x, sharding)

        return jax.tree.map(place, tree)

    def constrain(self, tree: Any, axis: int = 0) -> Any:
        """Inside ``jit``: keep dimension ``axis`` of every leaf split over the devices."""
        if not self.sharded:
            return tree
        spec = P(*([None] * axis), "data")
        return jax.lax.with_sharding_constraint(tree, self._sharding(spec))

    def gather(self, tree: Any) -> Any:
        """``tree`` as numpy arrays on the host, whole (from every process of the run)."""
        if jax.process_count() == 1:
            return jax.device_get(tree)
        return jax.tree.map(
            lambda x: np.asarray(multihost_utils.process_allgather(x, tiled=True)), tree
        )

    def place_like(self, value: Any, like: Any) -> Any:
        """``value`` placed with the sharding of ``like`` (a leaf of a fresh trainer)."""
        if not self.sharded:
            return value
        return jax.device_put(value, like.sharding)
