"""A network trained on a JAX twin, playing in the Python env (agent spec ``az:PATH``).

:class:`NetAgent` loads a weight file written by the ``alphazero`` or ``jax_ppo``
trainer (:mod:`moon_agents.net_weights`) and acts from the seat's observation and action
mask, exactly as the network saw them in training (the twins' observations are the
Python engine's). It needs numpy alone: no jax, no torch.

* ``az:PATH``: the most probable legal action of the policy head (or a sample, with
  ``deterministic=False``).
* ``az:PATH,simulations=N``: a search of ``N`` simulations per move guided by the
  network (:mod:`moon_agents.search.puct`): priors from the policy head, leaf values
  from the value head, every simulation from a fresh determinisation of what the seat
  may know. Optional fields: ``c=1.25`` (exploration), ``seed`` comes from the caller.

The file records the env id and every game parameter it was trained with
(:meth:`NetAgent.env_params`): ``moon-envs play``/``eval``/``ladder`` and tournaments set
the parameters the user did not give as it needs them (:mod:`moon_agents.seating`). A game
built by hand with other parameters (or another game) is refused when the agent meets it,
with the ``--param`` values to pass; an observation of another shape is refused too.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.base import AgentView, EnvParams, legal_actions
from moon_agents.net_weights import load_net
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

SPEC_PREFIXES = ("az:", "jppo:")
"""Agent spec prefixes of network files (both load the same format)."""
SPEC_FIELDS = {"simulations": int, "c": float}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``az:PATH[,simulations=N][,c=X]`` -> ``(PATH, {field: value})``."""
    body = spec.partition(":")[2]
    fields: dict[str, Any] = {}
    while "," in body:
        head, _, tail = body.rpartition(",")
        key, eq, value = tail.partition("=")
        if eq and key.isidentifier() and key not in SPEC_FIELDS and not Path(body).exists():
            raise ConfigError(
                f"agent spec {quote(spec)}: unknown option {quote(key)}; allowed options: "
                f"{', '.join(SPEC_FIELDS)} (write az:PATH,simulations=N,c=X)"
            )
        if not eq or key not in SPEC_FIELDS:
            break
        try:
            fields[key] = SPEC_FIELDS[key](value)
        except ValueError:
            raise ConfigError(
                f"agent spec {quote(spec)}: {key}={quote(value)} is not a "
                f"{SPEC_FIELDS[key].__name__}"
            ) from None
        body = head
    if not body:
        raise ConfigError(f"agent spec {quote(spec)}: no weights file named; write az:PATH")
    if "simulations" in fields and not 1 <= fields["simulations"] <= 100_000:
        raise ConfigError(f"agent spec {quote(spec)}: simulations must be in 1..100000")
    if "c" in fields and not 0 < fields["c"] <= 100:
        raise ConfigError(f"agent spec {quote(spec)}: c must be in (0, 100]")
    return body, fields


class NetAgent:
    """Plays a trained policy-value network (see the module docstring)."""

    def __init__(
        self,
        arrays: dict[str, np.ndarray],
        description: dict[str, Any],
        name: str = "az",
        seed: int | None = None,
        deterministic: bool = True,
        simulations: int = 0,
        c: float = 1.25,
        source: str = "network",
    ) -> None:
        self.description = description
        self.name = name
        self.deterministic = deterministic
        self.simulations = simulations
        self.c = c
        self.source = source
        self.rng = np.random.default_rng(seed)
        hidden = description["hidden"]
        self._layers = [
            (arrays[f"trunk.{i}.weight"].T.copy(), arrays[f"trunk.{i}.bias"])
            for i in range(len(hidden))
        ]
        self._policy = (arrays["policy.weight"].T.copy(), arrays["policy.bias"])
        self._value = (arrays["value.weight"].T.copy(), arrays["value.bias"])
        self._activation = description["activation"]
        self._checked: set[int] = set()
        self._features: list[str] = list(description.get("input_features", []))
        self._game: Any = None  # the game last met: the features' observation offsets

    @classmethod
    def load(
        cls, path: str | Path, name: str | None = None, seed: int | None = None, **fields: Any
    ) -> NetAgent:
        """The agent of weight file ``path`` (see :func:`moon_agents.net_weights.load_net`)."""
        arrays, description = load_net(path)
        return cls(
            arrays,
            description,
            name=name or f"az:{Path(path).stem}",
            seed=seed,
            source=str(path),
            **fields,
        )

    @classmethod
    def from_spec(cls, spec: str, seed: int | None = None, name: str | None = None) -> NetAgent:
        """The agent of an ``az:PATH[,simulations=N,c=X]`` spec."""
        path, fields = parse_spec(spec)
        return cls.load(path, name=name or spec, seed=seed, **fields)

    # ---- the network ---------------------------------------------------------------------
    def evaluate(
        self, observation: np.ndarray, action_mask: np.ndarray | None = None
    ) -> tuple[np.ndarray, float]:
        """Logits over every action and the value for one observation (and its action
        mask, which a network with ``input_features`` reads too, after the agent has met
        the game)."""
        h = np.asarray(observation, np.float32).reshape(-1)
        if h.shape[0] != self.description["observation_size"]:
            raise ConfigError(
                f"{self.name}: observation of {h.shape[0]} values; the network was trained "
                f"on {self.description['observation_size']} ({self._trained_on()})"
            )
        if self._features:
            if action_mask is None or self._game is None:
                raise ConfigError(
                    f"{self.name}: the network reads {self._features} after the observation; "
                    "call evaluate(observation, action_mask) once the agent has met the game"
                )
            from moon_agents.input_features import network_input

            h = network_input(self._features, self._game, h, np.asarray(action_mask))
        for w, b in self._layers:
            h = _ACT[self._activation](h @ w + b)
        logits = h @ self._policy[0] + self._policy[1]
        value = float(np.tanh(h @ self._value[0] + self._value[1])[0])
        return logits.astype(np.float64), value

    # ---- the agent protocol --------------------------------------------------------------
    def env_params(self) -> EnvParams:
        """The env id and every game parameter the network was trained with."""
        return EnvParams(self.description["env_id"], dict(self.description["game_config"]))

    def reset(self, game: Any, seat: int) -> None:
        """Refuse a game other than the one the network was trained on."""
        self._check_game(game)

    def act(self, view: AgentView) -> int:
        self._check_game(view.game)
        legal = legal_actions(view)
        if self.simulations:
            from moon_agents.search.puct import puct_search

            return puct_search(self, view, self.simulations, self.c, self.rng)
        logits, _ = self.evaluate(view.observation, view.action_mask)
        if logits.shape[0] != view.action_mask.shape[0]:
            raise ConfigError(
                f"{self.name}: {logits.shape[0]} actions; the game has {view.action_mask.shape[0]}"
            )
        masked = np.full_like(logits, -np.inf)
        masked[legal] = logits[legal]
        if self.deterministic:
            return int(np.argmax(masked))
        p = np.exp(masked - masked.max())
        return int(self.rng.choice(p.size, p=p / p.sum()))

    def _check_game(self, game: Any) -> None:
        if id(game) in self._checked:
            self._game = game
            return
        d = self.description
        if game.spec.name != d["game"]:
            raise ConfigError(
                f"{self.name}: trained on {d['env_id']} ({d['game']}); it cannot play "
                f"{game.spec.name}"
            )
        config = json.loads(json.dumps(dataclasses.asdict(game.config)))
        wrong = {k: v for k, v in d["game_config"].items() if config.get(k, v) != v}
        if wrong:
            have = ", ".join(f"{k}={config.get(k)!r}" for k in wrong)
            flags = " ".join(f"--param {k}={_flag(v)}" for k, v in wrong.items())
            raise ConfigError(
                f"{self.name}: trained on {d['env_id']} with {self._trained_on(wrong)}, but this "
                f"game has {have}; pass {flags} (Python: moon_envs.make({d['env_id']!r}, "
                f"{', '.join(f'{k}={v!r}' for k, v in wrong.items())}))"
            )
        self._checked.add(id(game))
        self._game = game

    def _trained_on(self, keys: dict | None = None) -> str:
        cfg = self.description["game_config"]
        return ", ".join(f"{k}={cfg[k]!r}" for k in (keys or cfg))

    def __repr__(self) -> str:
        search = f", simulations={self.simulations}" if self.simulations else ""
        return f"NetAgent(name={self.name!r}, {self.description['algorithm']}{search})"


def _flag(value: Any) -> str:
    return json.dumps(value).replace(" ", "") if not isinstance(value, str) else value


def _gelu(x: np.ndarray) -> np.ndarray:
    """jax.nn.gelu's default (tanh) approximation."""
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


_ACT = {
    "relu": lambda x: np.maximum(x, 0.0),
    "tanh": np.tanh,
    "gelu": _gelu,
    "silu": lambda x: x / (1.0 + np.exp(-x)),
}
