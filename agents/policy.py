"""A trained MaskablePPO policy as an agent.

:class:`PolicyAgent` plays through ``act(view)`` like every other agent, so a checkpoint
can meet random, heuristic or other trained agents in ``moon-envs play`` and
``moon-envs eval`` (agent spec ``"ppo:PATH"``)::

    from moon_agents.policy import PolicyAgent
    agent = PolicyAgent.load("runs/jupiter_ppo_seed0/model.zip")

Loading never unpickles: checkpoints carry their architecture as JSON and their weights
are read with ``torch.load(..., weights_only=True)`` (see :mod:`moon_agents.checkpoint`).
``PolicyAgent.load(path, trusted=True)`` (agent spec ``"ppo-trusted:PATH"``) loads any
sb3 zip through sb3's own unpickling loader: trusted files only.

By default it is greedy: it picks the most probable *legal* action (illegal actions are
masked out of the policy's logits before the arg-max). With ``deterministic=False`` it
samples from the masked distribution with its own seeded generator.

**The env it was trained on.** A policy plays well only with the env parameters it was
trained with (Jupiter's ``line_features`` change its observation; Star Master's
``memory`` what it may know). :meth:`PolicyAgent.env_params` gives them, read at load time
from, in order:

* a JSON sidecar beside the zip, named after it with ``.json`` added
  (``agents/trained/jupiter.zip.json``): ``{"env_id": "jupiter_v0", "params":
  {"num_players": 2, "line_features": true}}`` and optionally ``"config"`` (what
  trained it, as text); see :func:`write_sidecar`;
* the run folder's ``config.yaml`` (its ``env.id`` and ``env.params``), for the
  ``model.zip`` and ``checkpoints/*.zip`` that ``moon-envs train`` writes.

Without either it plays any game it fits. ``moon-envs play``/``eval``/``ladder`` and
tournaments set those parameters as it needs them (:mod:`moon_agents.seating`); a game
built by hand without them is refused at ``reset``.

torch and sb3-contrib are imported only when a policy is loaded or copied (install them
with ``pip install "moon-envs[train]"``).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.base import AgentView, EnvParams, check_env_params, legal_actions
from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

SIDECAR_SUFFIX = ".json"
"""A policy zip's sidecar is its name plus this: ``model.zip`` -> ``model.zip.json``."""
SIDECAR_FIELDS = {"env_id", "params", "config"}
MAX_SIDECAR_BYTES = 1 << 16
RUN_CONFIG = "config.yaml"
"""The resolved config ``moon-envs train`` writes into a run folder."""


def sidecar_path(path: str | Path) -> Path:
    """Where the JSON sidecar of policy zip ``path`` lives."""
    p = Path(path)
    return p.with_name(p.name + SIDECAR_SUFFIX)


def write_sidecar(
    path: str | Path, env_id: str, params: dict[str, Any], config: str | None = None
) -> Path:
    """Write the sidecar of policy zip ``path``: the env it was trained on (checked by
    building it) and, optionally, what trained it."""
    import json

    import moon_envs

    moon_envs.make(env_id, **params).close()
    body: dict[str, Any] = {"env_id": env_id, "params": params}
    if config is not None:
        body["config"] = config
    out = sidecar_path(path)
    out.write_text(json.dumps(body, indent=2) + "\n")
    return out


def read_sidecar(path: str | Path) -> EnvParams:
    """The env id and parameters in sidecar ``path``, checked: a JSON object of at most
    64 KiB with ``env_id`` (a registered id) and ``params`` (parameters that env accepts),
    and optionally ``config`` (text); every problem names the file and the field."""
    import moon_envs
    from moon_agents.weights_files import parse_json
    from moon_envs.core.checks import read_file_capped

    where = str(path)
    raw = read_file_capped(path, MAX_SIDECAR_BYTES, "policy sidecar", "a JSON file")
    data = parse_json(raw, where)
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must hold a JSON object with env_id and params")
    unknown = sorted(set(data) - SIDECAR_FIELDS)
    missing = sorted({"env_id", "params"} - set(data))
    if unknown or missing:
        raise ConfigError(
            f"{where}: unknown field(s) {quote(unknown, 200)} / missing field(s) {missing}; "
            f"allowed fields: {sorted(SIDECAR_FIELDS)} (env_id and params required)"
        )
    env_id, params = data["env_id"], data["params"]
    if env_id not in moon_envs.list_envs():
        raise ConfigError(
            f"{where}: env_id={quote(env_id)} is not allowed; allowed: {moon_envs.list_envs()}"
        )
    if not isinstance(params, dict):
        raise ConfigError(f"{where}: params must be a JSON object, got {quote(params)}")
    if not isinstance(data.get("config", ""), str):
        raise ConfigError(f"{where}: config must be a string, got {quote(data['config'])}")
    try:
        moon_envs.make(env_id, **params).close()
    except (ConfigError, TypeError) as exc:
        text = str(exc)
        raise ConfigError(
            f"{where}: params: {text if len(text) <= 300 else text[:297] + '...'}"
        ) from None
    return EnvParams(env_id, params)


def run_config_env(path: Path) -> EnvParams | None:
    """``env.id`` and ``env.params`` of the ``config.yaml`` of the run folder a trainer's
    ``model.zip`` or ``checkpoints/*.zip`` is in; None where there is none or it is not
    a moon-envs training config."""
    if path.name == "model.zip":
        config = path.parent / RUN_CONFIG
    elif path.parent.name == "checkpoints":
        config = path.parent.parent / RUN_CONFIG
    else:
        return None
    if not config.is_file():
        return None
    try:
        import moon_envs
        from moon_agents.training.strict_yaml import read_yaml

        data = read_yaml(config)
    except (ImportError, ConfigError):
        return None
    env = data.get("env") if isinstance(data, dict) else None
    if not isinstance(env, dict) or env.get("id") not in moon_envs.list_envs():
        return None
    params = env.get("params") or {}
    if not isinstance(params, dict) or not all(isinstance(k, str) for k in params):
        return None
    return EnvParams(env["id"], params)


def trained_env(path: str | Path) -> EnvParams | None:
    """The env policy zip ``path`` was trained on: its sidecar, else its run folder's
    ``config.yaml``, else None (see the module docstring)."""
    p = Path(path)
    side = sidecar_path(p)
    if side.exists():
        return read_sidecar(side)
    return run_config_env(p)


class PolicyAgent:
    """Acts with a MaskablePPO actor-critic policy on the view's observation and mask.

    Args:
        policy: an ``sb3_contrib`` ``MaskableActorCriticPolicy`` (e.g. ``model.policy``).
            It is used as given; :meth:`from_model` makes a frozen copy instead.
        name: the agent's name in tables and plots.
        seed: seeds the generator used when ``deterministic`` is False.
        deterministic: arg-max over legal actions (True) or sample from the masked
            distribution (False).
    """

    def __init__(
        self,
        policy: Any,
        name: str = "ppo",
        seed: int | None = None,
        deterministic: bool = True,
    ) -> None:
        self.policy = policy
        self.name = name
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)
        self.trained_with: EnvParams | None = None  # set by load (see env_params)
        space = getattr(policy, "observation_space", None)
        self._obs_shape = tuple(space.shape) if space is not None else None

    # ---- construction ------------------------------------------------------------------------
    @classmethod
    def load(
        cls,
        path: str | Path,
        name: str | None = None,
        seed: int | None = None,
        deterministic: bool = True,
        trusted: bool = False,
    ) -> PolicyAgent:
        """Load a MaskablePPO checkpoint (``.zip`` written by the trainer or
        :func:`moon_agents.checkpoint.save_checkpoint`) without unpickling anything: the
        architecture comes from the checkpoint's JSON entry, the weights from
        ``torch.load(..., weights_only=True)``; other files are refused with
        :class:`ConfigError`.

        ``trusted=True`` (agent spec ``ppo-trusted:PATH``) loads any sb3 ``model.save``
        zip with sb3 itself, which unpickles code stored in the file: trusted files only.

        The env it was trained on is read from the sidecar or the run folder (module
        docstring), never from the zip's pickled data.
        """
        from moon_agents.checkpoint import checkpoint_path, load_policy

        p = checkpoint_path(path)
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ConfigError(
                "loading a 'ppo:' agent needs sb3-contrib and torch; "
                'install them with: pip install "moon-envs[train]"'
            ) from exc
        if trusted:
            policy = MaskablePPO.load(str(p), device="cpu").policy
        else:
            policy = load_policy(p)
        agent = cls(policy, name=name or f"ppo:{p.stem}", seed=seed, deterministic=deterministic)
        agent.trained_with = trained_env(p)
        return agent

    @classmethod
    def from_model(
        cls, model: Any, name: str = "snapshot", seed: int | None = None, deterministic: bool = True
    ) -> PolicyAgent:
        """A frozen copy of ``model``'s current policy: later training does not change it."""
        import torch

        live = model.policy
        with torch.random.fork_rng(devices=[]):  # building a policy must not move torch's RNG
            policy = type(live)(**live._get_constructor_parameters())
        policy.load_state_dict(copy.deepcopy(live.state_dict()))
        policy.to("cpu")
        policy.set_training_mode(False)
        for param in policy.parameters():
            param.requires_grad_(False)
        return cls(policy, name=name, seed=seed, deterministic=deterministic)

    # ---- the agent protocol ----------------------------------------------------------------
    def env_params(self) -> EnvParams | None:
        """The env id and parameters it was trained with, where its files say (else None)."""
        return self.trained_with

    def reset(self, game: Any, seat: int) -> None:
        """Refuse a game without the parameters it was trained with."""
        check_env_params(self.name, self.trained_with, game)

    # ---- acting ----------------------------------------------------------------------------
    def action_probabilities(self, view: AgentView) -> np.ndarray:
        """The policy's distribution over actions with illegal actions masked to 0."""
        logits = self._masked_logits(view)
        z = logits - logits.max()
        p = np.exp(z)
        return p / p.sum()

    def act(self, view: AgentView) -> int:
        """The arg-max legal action (or a sample when ``deterministic`` is False)."""
        if self.deterministic:
            return int(np.argmax(self._masked_logits(view)))
        p = self.action_probabilities(view)
        return int(self.rng.choice(p.size, p=p))

    def _masked_logits(self, view: AgentView) -> np.ndarray:
        import torch
        from stable_baselines3.common.policies import BasePolicy

        legal_actions(view)  # raises if the seat has nothing to do
        obs = np.asarray(view.observation, dtype=np.float32)
        if self._obs_shape is not None and obs.shape != self._obs_shape:
            raise ConfigError(
                f"{self.name}: observation shape {obs.shape} does not match the policy's "
                f"{self._obs_shape}; was it trained on another game or player count?"
            )
        policy = self.policy
        with torch.no_grad():
            x = torch.as_tensor(obs).unsqueeze(0)
            features = BasePolicy.extract_features(policy, x, policy.pi_features_extractor)
            latent_pi = policy.mlp_extractor.forward_actor(features)
            logits = policy.action_net(latent_pi)[0].numpy().astype(np.float64)
        mask = np.asarray(view.action_mask, dtype=bool)
        if logits.shape[0] != mask.shape[0]:
            raise ConfigError(
                f"{self.name}: the policy has {logits.shape[0]} actions but the game has "
                f"{mask.shape[0]}"
            )
        return np.where(mask, logits, -np.inf)

    def __repr__(self) -> str:
        mode = "greedy" if self.deterministic else "sampling"
        return f"PolicyAgent(name={self.name!r}, {mode})"
