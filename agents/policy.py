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

torch and sb3-contrib are imported only when a policy is loaded or copied (install them
with ``pip install "moon-envs[train]"``).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np

from moon_agents.base import AgentView, legal_actions
from moon_envs.core.game import ConfigError


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
        return cls(policy, name=name or f"ppo:{p.stem}", seed=seed, deterministic=deterministic)

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
