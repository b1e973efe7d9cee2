"""Batched JAX twins of the five moon-envs games, with pgx's API (``pip install 'moon-envs[jax]'``).

A twin plays exactly the same game as the Python engine of the same id and parameters:
the same action ids, observations, chance outcome ids and rewards, checked step by step
against it. Every function is pure and runs under ``jax.jit`` and ``jax.vmap``, on the CPU
or unchanged on a GPU::

    import jax
    import moon_envs.jax as mj

    env = mj.make("jupiter_v0", num_players=2)
    keys = jax.random.split(jax.random.PRNGKey(0), 1024)
    state = jax.jit(jax.vmap(env.init))(keys)
    state.current_player, state.observation, state.legal_action_mask
    state = jax.jit(jax.vmap(env.step))(state, actions, keys)

Twins: Jupiter, Star Master, Moon Harvesters, Moonstar (Games 1-12) and Moonwakers SEED
(whose twin plays the full game but is slow: its task queue runs as a loop of passes). See
``docs/jax.md`` for the API, the explicit chance layer and an mctx example.
``auto_reset(env.step, env.init)`` restarts finished games (``pgx.experimental.auto_reset``);
the shipped networks as JAX functions are in :mod:`moon_agents.jax_baseline`.
"""

from __future__ import annotations

import importlib
from typing import Any

try:
    import jax  # noqa: F401
except ImportError as err:  # pragma: no cover - exercised in a venv without jax
    raise ImportError(
        "moon_envs.jax needs JAX: pip install 'moon-envs[jax]' (the Python environments, "
        "moon_envs.make, work without it)"
    ) from err

from moon_envs.core.aec import ENV_PARAMS
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote
from moon_envs.jax.autoreset import auto_reset
from moon_envs.jax.env import JaxEnv, check_env_params
from moon_envs.jax.state import State
from moon_envs.registry import list_envs as all_env_ids
from moon_envs.registry import make as make_python_env

# environment id -> "module:class" of its twin
_TWINS: dict[str, str] = {
    "jupiter_v0": "moon_envs.jax.jupiter:JupiterTwin",
    "star_master_v0": "moon_envs.jax.star_master:StarMasterTwin",
    "moon_harvesters_v0": "moon_envs.jax.moon_harvesters:MoonHarvestersTwin",
    "moonstar_v1": "moon_envs.jax.moonstar:MoonstarTwin",
    "moonwakers_v1": "moon_envs.jax.moonwakers:MoonwakersTwin",
}


def list_twins() -> list[str]:
    """The environment ids that have a JAX twin, sorted."""
    return sorted(_TWINS)


def list_envs() -> list[str]:
    """The ids :func:`make` accepts, sorted: those with a JAX twin, as :func:`list_twins`
    (like ``pgx.available_envs()``). Every Python environment's id is in
    :func:`moon_envs.list_envs`."""
    return list_twins()


def make(env_id: str, **params: Any) -> JaxEnv:
    """The JAX twin of ``env_id`` with ``params``: the same ids and parameters as
    :func:`moon_envs.make`, except that ``render_mode`` and ``render_seat`` must be unset
    and ``illegal_action`` is ``"penalize"``. A parameter value a twin cannot express is
    a :class:`~moon_envs.ConfigError` naming it."""
    if env_id not in _TWINS:
        raise ConfigError(
            f"unknown environment id {quote(env_id)}; ids with a JAX twin: {list_twins()} "
            f"(all ids: {all_env_ids()})"
        )
    env_params = {k: params.pop(k) for k in list(params) if k in ENV_PARAMS}
    reward_mode = check_env_params(env_id, env_params)
    game = make_python_env(env_id, **params).game  # the registry names unknown parameters
    module, cls = _TWINS[env_id].split(":")
    twin_class = getattr(importlib.import_module(module), cls)
    return twin_class(env_id, game, reward_mode)


__all__ = ["JaxEnv", "State", "auto_reset", "list_envs", "list_twins", "make"]
