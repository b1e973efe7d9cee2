"""The policy-value network of the JAX trainers: an equinox MLP with two heads.

``PolicyValueNet`` maps one observation (flattened) to action logits and a value in
``[-1, 1]`` (a tanh head): the value is the expected final reward of the seat whose
observation it is. The same layout is evaluated with numpy alone by
:class:`moon_agents.net_agent.NetAgent`, which plays the exported weights in the Python
env, so a trained network needs neither jax nor torch to play.

:func:`to_arrays` exports the parameters under stable names (``trunk.0.weight``,
``trunk.0.bias``, ..., ``policy.weight``, ``value.weight``, ...; weights are
``[out, in]``), :func:`from_arrays` rebuilds a network from them.
:func:`net_description` is the weight file's description of a config's network, and
:func:`initial_net` the network a trainer starts from: random, or the weights of the file
named in ``algorithm.init_from`` once its description matches the config's (a MaskablePPO
policy zip gives its actor, :mod:`moon_agents.training.jax.from_ppo`).
"""

from __future__ import annotations

import dataclasses
import json
import math
import re
from pathlib import Path
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from moon_agents.net_weights import ACTIVATIONS, array_shapes, load_net
from moon_agents.training.jax.from_ppo import is_ppo_policy, ppo_policy_arrays
from moon_envs.core.game import ConfigError

Array = jax.Array

_ACTIVATION = {"relu": jax.nn.relu, "tanh": jnp.tanh, "gelu": jax.nn.gelu, "silu": jax.nn.silu}
assert set(_ACTIVATION) == set(ACTIVATIONS)


class PolicyValueNet(eqx.Module):
    """An MLP trunk (``hidden`` sizes, ``activation``), a policy head (logits over the
    actions) and a tanh value head; call it on one flat float32 observation."""

    trunk: list[eqx.nn.Linear]
    policy: eqx.nn.Linear
    value: eqx.nn.Linear
    activation: str = eqx.field(static=True)

    def __init__(
        self, obs_size: int, num_actions: int, hidden: list[int], activation: str, key: Array
    ) -> None:
        keys = jax.random.split(key, len(hidden) + 2)
        sizes = [obs_size, *hidden]
        self.trunk = [
            eqx.nn.Linear(a, b, key=k) for a, b, k in zip(sizes[:-1], sizes[1:], keys[:-2])
        ]
        self.policy = eqx.nn.Linear(sizes[-1], num_actions, key=keys[-2])
        self.value = eqx.nn.Linear(sizes[-1], 1, key=keys[-1])
        self.activation = activation

    def features(self, obs: Array) -> Array:
        """The trunk's output for one flat observation (what both heads read)."""
        act = _ACTIVATION[self.activation]
        h = obs.reshape(-1).astype(jnp.float32)
        for layer in self.trunk:
            h = act(layer(h))
        return h

    def __call__(self, obs: Array) -> tuple[Array, Array]:
        h = self.features(obs)
        return self.policy(h), jnp.tanh(self.value(h)[0])


def batched(net: PolicyValueNet, obs: Array) -> tuple[Array, Array]:
    """``net`` over a batch of observations: logits ``[B, A]`` and values ``[B]``."""
    return jax.vmap(net)(obs)


def to_arrays(net: PolicyValueNet) -> dict[str, np.ndarray]:
    """The parameters as float32 numpy arrays under their stable names."""
    out: dict[str, np.ndarray] = {}
    for i, layer in enumerate(net.trunk):
        out[f"trunk.{i}.weight"] = np.asarray(layer.weight, np.float32)
        out[f"trunk.{i}.bias"] = np.asarray(layer.bias, np.float32)
    for head in ("policy", "value"):
        layer = getattr(net, head)
        out[f"{head}.weight"] = np.asarray(layer.weight, np.float32)
        out[f"{head}.bias"] = np.asarray(layer.bias, np.float32)
    return out


def from_arrays(
    arrays: dict[str, np.ndarray],
    obs_size: int,
    num_actions: int,
    hidden: list[int],
    activation: str,
) -> PolicyValueNet:
    """A network with the parameters ``arrays`` (as :func:`to_arrays` names them)."""
    expected = array_shapes(obs_size, num_actions, hidden)
    if {k: tuple(v.shape) for k, v in arrays.items()} != expected:
        raise ValueError("arrays do not match the architecture")
    net = PolicyValueNet(obs_size, num_actions, hidden, activation, jax.random.key(0))
    names = [f"trunk.{i}" for i in range(len(hidden))] + ["policy", "value"]

    def leaves(m: PolicyValueNet) -> list[Array]:
        layers = [*m.trunk, m.policy, m.value]
        return [x for layer in layers for x in (layer.weight, layer.bias)]

    values = [jnp.asarray(arrays[f"{n}.{part}"]) for n in names for part in ("weight", "bias")]
    return eqx.tree_at(leaves, net, values)


_MATCHED = (
    "env_id",
    "game_config",
    "observation_size",
    "num_actions",
    "hidden",
    "activation",
    "input_features",
)
"""Description fields that a network file must share with a config to start its run."""


def net_description(config: Any, twin: Any) -> dict[str, Any]:
    """The weight-file description (``moon_agents.net_weights``) of ``config``'s network
    on ``twin``, without the ``training`` facts."""
    a = config.algorithm
    description = {
        "algorithm": a.name,
        "env_id": config.env.id,
        "game": twin.spec.name,
        "game_config": json.loads(json.dumps(dataclasses.asdict(twin.config))),
        "observation_size": int(math.prod(twin.observation_shape)),
        "num_actions": int(twin.num_actions),
        "hidden": list(a.hidden),
        "activation": a.activation,
    }
    features = list(getattr(a, "input_features", []))
    if features:  # fixed features after the observation (moon_agents.input_features)
        import moon_envs

        from moon_agents.input_features import features_size

        game = moon_envs.make(config.env.id, **config.env.params).game
        description["input_features"] = features
        description["input_size"] = description["observation_size"] + features_size(
            features, game
        )
    return description


def initial_net(config: Any, twin: Any, key: Array) -> PolicyValueNet:
    """The network a run starts from: random from ``key``, or the weights of the file
    ``config.algorithm.init_from`` (a network file, or a MaskablePPO policy zip whose
    actor becomes the trunk and policy head: :mod:`~moon_agents.training.jax.from_ppo`),
    refused with a :class:`ConfigError` naming the field
    when the file was written for another env, other parameters or another architecture."""
    a = config.algorithm
    wanted = net_description(config, twin)
    if a.init_from is None:
        return PolicyValueNet(
            wanted["observation_size"], wanted["num_actions"], list(a.hidden), a.activation, key
        )
    if is_ppo_policy(a.init_from):
        arrays = ppo_policy_arrays(a.init_from, wanted, twin)
    else:
        arrays = _network_file_arrays(a.init_from, wanted)
    return from_arrays(
        arrays, wanted["observation_size"], wanted["num_actions"], list(a.hidden), a.activation
    )


_SAME_GAME = ("env_id", "game_config", "observation_size", "num_actions")
"""Description fields that a frozen opponent's file must share with the twin."""


def opponent_net_problems(path: str, env_id: str, twin: Any) -> list[str]:
    """Why network file ``path`` cannot be ``algorithm.opponent_net`` on ``twin`` (one
    line each), or no lines: it must load and be written for the same env and parameters
    (its architecture may differ from the learner's)."""
    try:
        _, found = load_net(path)
    except ConfigError as exc:
        return [f"algorithm.opponent_net: {exc}"]
    wanted = {
        "env_id": env_id,
        "game_config": json.loads(json.dumps(dataclasses.asdict(twin.config))),
        "observation_size": int(math.prod(twin.observation_shape)),
        "num_actions": int(twin.num_actions),
    }
    return [
        f"algorithm.opponent_net: {path!r} has {field}={found.get(field)!r}, this config "
        f"has {field}={wanted[field]!r}; allowed: a network file written for the same "
        f"{', '.join(_SAME_GAME)}"
        for field in _SAME_GAME
        if found.get(field) != wanted[field]
    ]


class FeatureInputNet(eqx.Module):
    """A network that reads fixed input features after the observation
    (:mod:`moon_agents.input_features`); call it on one observation and its legal mask."""

    net: PolicyValueNet
    features: tuple[str, ...] = eqx.field(static=True)
    game: Any = eqx.field(static=True)

    def __call__(self, obs: Array, mask: Array) -> tuple[Array, Array]:
        from moon_agents.input_features import network_input

        x = network_input(self.features, self.game, obs.reshape(-1), mask, xp=jnp)
        return self.net(x)


def opponent_network(path: str) -> PolicyValueNet | FeatureInputNet:
    """The network of file ``path`` with its own architecture (a frozen opponent); one
    that reads input features comes wrapped in a :class:`FeatureInputNet`."""
    arrays, found = load_net(path)
    net = from_arrays(
        arrays,
        int(found.get("input_size", found["observation_size"])),
        int(found["num_actions"]),
        list(found["hidden"]),
        found["activation"],
    )
    features = found.get("input_features")
    if not features:
        return net
    import moon_envs

    game = moon_envs.make(found["env_id"], **found["game_config"]).game
    return FeatureInputNet(net, tuple(features), game)


def _network_file_arrays(path: str, wanted: dict[str, Any]) -> dict[str, np.ndarray]:
    """The arrays of network file ``path``, once its description matches ``wanted``."""
    try:
        arrays, found = load_net(path)
    except ConfigError as exc:
        chain = re.search(r"(?:^|/)runs/(\w+?)_seed(\d+)/[^/]+$", path)
        hint = ""
        if chain and not Path(path).exists():  # a config chain whose earlier run is missing
            name, seed = chain.groups()
            hint = (
                f"; it is what a run of the config named {name!r} (seed {seed}) writes: "
                f"train that first, e.g. `moon-envs train configs/{name}.yaml`"
            )
        raise ConfigError(f"algorithm.init_from: {exc}{hint}") from None
    for field in _MATCHED:
        if found.get(field) != wanted.get(field):
            raise ConfigError(
                f"algorithm.init_from: {path!r} has {field}={found.get(field)!r}, "
                f"this config has {field}={wanted.get(field)!r}; allowed: a network file "
                f"written for the same {', '.join(_MATCHED)}"
            )
    return arrays
