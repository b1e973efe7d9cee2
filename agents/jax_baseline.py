"""The shipped trained networks as JAX functions, like ``pgx.make_baseline_model``.

``baseline(env_id)`` reads the network file of the game's shipped ``trained`` agent
(``agents/trained/<game>.npz``, checked by :func:`moon_agents.net_weights.load_net`;
``baseline(env_id, "trained:game=6")`` a variant's, see :mod:`moon_agents.zoo`) and
returns a :class:`BaselineModel`: a pure, jittable function from observations of the JAX
twin to ``(logits, value)``, the same numbers as :meth:`moon_agents.net_agent.NetAgent.evaluate`::

    import jax
    from moon_agents.jax_baseline import baseline

    model = baseline("jupiter_v0")
    env = model.make_env()                   # the twin with the parameters it was trained on
    state = jax.vmap(env.init)(jax.random.split(jax.random.PRNGKey(0), 8))
    logits, value = jax.jit(model)(state.observation)   # f32[8, num_actions], f32[8]

The logits are raw, over every action id, as pgx's baselines: mask illegal actions
yourself (``jnp.where(state.legal_action_mask, logits, -jnp.inf)``). The value is in
``-1..1``, from the view of the seat whose observation it is.

A network that reads fixed features after the observation (its description's
``input_features``, :mod:`moon_agents.input_features`: Moonstar's ``landing_values``)
also needs the position's legal action mask: ``model(state.observation,
state.legal_action_mask)``.

This lives in ``moon_agents`` rather than ``moon_envs.jax``: the network files and their
checked reader belong to the agents, and ``moon_envs`` never imports ``moon_agents``.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import jax
import jax.numpy as jnp

from moon_agents.net_weights import load_net
from moon_agents.net_weights import TRAINED_DIR
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

Array = jax.Array

_ACTIVATIONS = {
    "relu": jax.nn.relu,
    "tanh": jnp.tanh,
    "gelu": lambda x: jax.nn.gelu(x, approximate=True),
    "silu": jax.nn.silu,
}


def list_baselines() -> list[str]:
    """The environment ids with a shipped network (``agents/trained/<game>.npz``), sorted."""
    import moon_envs.jax as mj

    return sorted(e for e in mj.list_twins() if (TRAINED_DIR / f"{_game(e)}.npz").is_file())


def baseline(env_id: str, agent: str = "trained") -> BaselineModel:
    """The shipped network of ``env_id``'s ``agent`` as a :class:`BaselineModel`:
    ``"trained"``, or a variant's network, ``"trained:KEY=N"`` (Moonstar's
    ``baseline("moonstar_v1", "trained:game=6")``, whose ``make_env()`` is Game 6). An id
    or agent without one is a :class:`~moon_envs.ConfigError` listing those there are."""
    from moon_agents.shipped import trained_model, trained_variants

    have = list_baselines()
    if env_id not in have:
        raise ConfigError(
            f"env_id={quote(env_id)} has no shipped network; ids with one: {have}"
        )
    variants = trained_variants(_game(env_id))
    if agent != "trained" and agent not in variants:
        raise ConfigError(
            f"agent={quote(agent)} has no shipped network for {env_id}; allowed: "
            f"{['trained', *variants]}"
        )
    path = trained_model(_game(env_id), agent)
    arrays, description = load_net(path, expect={"env_id": env_id})
    return BaselineModel.from_arrays(arrays, description)


@dataclasses.dataclass(frozen=True, eq=False)
class BaselineModel:
    """A trained policy-value network as a pure JAX function (see the module docstring).

    Call it on ``observation`` of shape ``[..., observation_size]`` (one observation or a
    batch; any leading axes): it returns ``logits`` ``[..., num_actions]`` (raw, illegal
    actions included) and ``value`` ``[...]`` in ``-1..1``.

    Attributes:
        env_id: the twin it was trained on.
        game_config: the game parameters it was trained with (:meth:`make_env` uses them).
        description: the weight file's whole description.
    """

    env_id: str
    game_config: dict[str, Any]
    description: dict[str, Any]
    layers: tuple[tuple[Array, Array], ...]
    policy: tuple[Array, Array]
    value: tuple[Array, Array]
    game: Any = None
    """The Python game of :attr:`env_id` (its observation offsets), for input features."""

    @classmethod
    def from_arrays(cls, arrays: dict[str, Any], description: dict[str, Any]) -> BaselineModel:
        """The model of the arrays and description :func:`load_net` returned."""

        def dense(name: str) -> tuple[Array, Array]:  # weights are stored [out, in]
            return jnp.asarray(arrays[f"{name}.weight"].T), jnp.asarray(arrays[f"{name}.bias"])

        return cls(
            env_id=description["env_id"],
            game_config=dict(description["game_config"]),
            description=description,
            layers=tuple(dense(f"trunk.{i}") for i in range(len(description["hidden"]))),
            policy=dense("policy"),
            value=dense("value"),
            game=_feature_game(description),
        )

    def make_env(self) -> Any:
        """The JAX twin of :attr:`env_id` with the parameters the network was trained with."""
        import moon_envs.jax as mj

        return mj.make(self.env_id, **self.game_config)

    def __call__(
        self, observation: Array, legal_action_mask: Array | None = None
    ) -> tuple[Array, Array]:
        size = self.description["observation_size"]
        x = jnp.asarray(observation, jnp.float32)
        if x.ndim == 0 or x.shape[-1] != size:
            raise ConfigError(
                f"observation of shape {tuple(x.shape)}; the {self.env_id} network reads "
                f"[..., {size}] (the twin made by make_env(): {self._config_text()})"
            )
        features = self.description.get("input_features", [])
        if features:
            actions = self.description["num_actions"]
            if legal_action_mask is None or jnp.shape(legal_action_mask) != (
                *x.shape[:-1],
                actions,
            ):
                raise ConfigError(
                    f"the {self.env_id} network reads {features} after the observation: "
                    f"pass legal_action_mask of shape {(*x.shape[:-1], actions)} "
                    f"(model(state.observation, state.legal_action_mask))"
                )
            from moon_agents.input_features import network_input

            x = network_input(features, self.game, x, legal_action_mask, xp=jnp)
        activation = _ACTIVATIONS[self.description["activation"]]
        for w, b in self.layers:
            x = activation(_dot(x, w) + b)
        logits = _dot(x, self.policy[0]) + self.policy[1]
        value = jnp.tanh(_dot(x, self.value[0]) + self.value[1])[..., 0]
        return logits, value

    def _config_text(self) -> str:
        return ", ".join(f"{k}={v!r}" for k, v in sorted(self.game_config.items()))

    def __repr__(self) -> str:
        pairs = (*self.layers, self.policy, self.value)
        params = sum(math.prod(a.shape) for pair in pairs for a in pair)
        hidden = self.description["hidden"]
        return f"BaselineModel({self.env_id}, hidden={hidden}, {params:,} parameters)"


def _feature_game(description: dict[str, Any]) -> Any:
    """The Python game whose observation offsets the input features read (None without
    input features)."""
    if not description.get("input_features"):
        return None
    import moon_envs

    return moon_envs.make(description["env_id"], **description["game_config"]).game


def _dot(x: Array, w: Array) -> Array:
    """``x @ w`` in full float32 (no TF32 on a GPU), to match the numpy agent."""
    return jnp.matmul(x, w, precision=jax.lax.Precision.HIGHEST)


def _game(env_id: str) -> str:
    """The game name (``GameSpec.name``, the shipped file's stem) of a twin's id."""
    return env_id.rsplit("_v", 1)[0]
