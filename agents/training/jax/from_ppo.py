"""A MaskablePPO policy as the starting network of a JAX run (``algorithm.init_from``).

A policy zip written by ``moon-envs train`` (:mod:`moon_agents.checkpoint`: a
``moon_envs_policy.json`` description and tensor-only weights) holds separate actor and
critic MLPs. The actor, its ``mlp_extractor.policy_net`` layers and ``action_net``, has
the layout of :class:`~moon_agents.training.jax.network.PolicyValueNet`'s trunk and
policy head when the config's ``hidden`` and ``activation`` equal the policy's
``net_arch`` (its ``pi`` part) and ``activation``, so the network starts by playing the
policy's moves. The critic is left out: it estimates the SB3 run's rewards, not the JAX
trainer's, and the network has one trunk. The value head starts at zero (a value of 0
everywhere) and learns from the run.

The policy's env, from its sidecar or its run folder (:func:`moon_agents.policy.trained_env`),
must build the same twin configuration as the run's ``env``; ``reward_mode`` does not
count, as it changes the rewards and not the game. Loading needs torch and sb3-contrib
(``pip install "moon-envs[train]"``) and never unpickles.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from moon_envs.core.game import ConfigError

POLICY_SUFFIX = ".zip"
"""``algorithm.init_from`` files with this suffix are read as MaskablePPO policies."""


def is_ppo_policy(path: str | Path) -> bool:
    """Whether ``init_from`` names a MaskablePPO policy zip rather than a network file."""
    return Path(path).suffix == POLICY_SUFFIX


def ppo_policy_arrays(path: str | Path, wanted: dict[str, Any], twin: Any) -> dict[str, np.ndarray]:
    """The actor of the policy zip ``path`` as network arrays (``trunk.I.*``,
    ``policy.*``, a zero ``value.*``) for the network ``wanted`` describes
    (:func:`~moon_agents.training.jax.network.net_description`) on ``twin``.

    Raises :class:`ConfigError` naming ``algorithm.init_from`` and the field when the
    policy was trained on another env or has another shape."""
    where = f"algorithm.init_from: {str(path)!r}"
    from moon_agents.checkpoint import read_description

    try:  # the description first: a policy of another shape is refused before it is built
        meta = read_description(path)
    except ConfigError as exc:
        raise ConfigError(f"algorithm.init_from: {exc}") from None
    arch = meta["net_arch"]
    actor = list(arch["pi"]) if isinstance(arch, dict) else list(arch)
    found = {
        "observation_size": int(np.prod(meta["observation_shape"])),
        "num_actions": int(meta["num_actions"]),
        "hidden": actor,
        "activation": meta["activation"],
    }
    for field, value in found.items():
        if value != wanted[field]:
            raise ConfigError(
                f"{where} is a MaskablePPO policy with {field}={value!r} (net_arch "
                f"{arch!r}), this config has {field}={wanted[field]!r}; allowed: a policy "
                f"whose actor matches algorithm.hidden and activation on this env"
            )
    _check_env(path, where, wanted, twin)
    try:
        from moon_agents.checkpoint import load_policy
    except ImportError as exc:  # pragma: no cover - the train extra is missing
        raise ConfigError(
            f"{where} is a MaskablePPO policy, which needs torch and sb3-contrib ({exc}); "
            'install them with: pip install "moon-envs[train]"'
        ) from None
    try:
        policy = load_policy(path)
    except ConfigError as exc:
        raise ConfigError(f"algorithm.init_from: {exc}") from None
    state = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in policy.state_dict().items()}
    arrays: dict[str, np.ndarray] = {}
    for i in range(len(actor)):  # torch's Sequential puts each activation between layers
        arrays[f"trunk.{i}.weight"] = state[f"mlp_extractor.policy_net.{2 * i}.weight"]
        arrays[f"trunk.{i}.bias"] = state[f"mlp_extractor.policy_net.{2 * i}.bias"]
    arrays["policy.weight"] = state["action_net.weight"]
    arrays["policy.bias"] = state["action_net.bias"]
    arrays["value.weight"] = np.zeros((1, actor[-1]), np.float32)
    arrays["value.bias"] = np.zeros((1,), np.float32)
    return arrays


def _check_env(path: str | Path, where: str, wanted: dict[str, Any], twin: Any) -> None:
    import dataclasses

    import moon_envs.jax as mj
    from moon_agents.policy import trained_env

    trained = trained_env(path)
    if trained is None:
        raise ConfigError(
            f"{where} says nothing of the env it was trained on (no sidecar "
            f"{Path(path).name}.json and no run folder config.yaml); allowed: a policy "
            f"trained on env_id={wanted['env_id']!r} with these parameters"
        )
    params = {k: v for k, v in trained.params.items() if k != "reward_mode"}
    ok = trained.env_id == wanted["env_id"]
    if ok:
        theirs = mj.make(trained.env_id, **params).config
        ok = dataclasses.asdict(theirs) == dataclasses.asdict(twin.config)
    if not ok:
        raise ConfigError(
            f"{where} was trained on {trained.env_id} with params {trained.params!r}, this "
            f"config's env is {wanted['env_id']} with game_config {wanted['game_config']!r}; "
            f"allowed: a policy trained on the same env and parameters"
        )
