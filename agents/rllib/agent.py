"""A policy trained by the RLlib back-end as an agent (agent spec ``"rllib:PATH"``).

The trainer writes the learner's weights as a plain directory (no pickle)::

    <run>/model/model.json         env id, game parameters, network shape
    <run>/model/module_state.pt    the inference weights (a torch state dict)

:meth:`RllibAgent.load` rebuilds the :class:`~agents.rllib.module.MaskedPPOTorchRLModule`
from ``model.json`` and reads the weights with ``torch.load(weights_only=True)``, so a
checkpoint a user hands over is never unpickled. The agent plays greedily (arg-max over
legal actions) or, with ``deterministic=False``, samples from the masked distribution.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import AgentView, legal_actions
from moon_envs.core.game import ConfigError

MODEL_JSON = "model.json"
STATE_FILE = "module_state.pt"


def build_module(meta: dict[str, Any]) -> Any:
    """An inference-only masked PPO module for the env and network named by ``meta``."""
    from agents.rllib.env import MoonMultiAgentEnv
    from agents.rllib.module import masked_module_spec

    env = MoonMultiAgentEnv({"env_id": meta["env_id"], "params": meta.get("params", {})})
    spec = masked_module_spec(
        env.single_observation_space,
        env.single_action_space,
        meta["net_arch"],
        meta.get("activation", "tanh"),
        inference_only=True,
    )
    return spec.module_class(
        observation_space=spec.observation_space,
        action_space=spec.action_space,
        inference_only=True,
        model_config=dataclasses.asdict(spec.model_config),
    )


def save_module(module: Any, path: Path, meta: dict[str, Any]) -> Path:
    """Write ``module``'s inference weights and ``meta`` to the directory ``path``."""
    import torch

    path.mkdir(parents=True, exist_ok=True)
    reference = build_module(meta).state_dict()
    state = {k: v.detach().cpu().clone() for k, v in module.state_dict().items() if k in reference}
    missing = sorted(set(reference) - set(state))
    if missing:
        raise ConfigError(f"the module lacks the inference weights {missing}")
    torch.save(state, path / STATE_FILE)
    (path / MODEL_JSON).write_text(json.dumps(meta, indent=2))
    return path


class RllibAgent:
    """Acts with a trained masked PPO module on the view's observation and mask."""

    def __init__(
        self,
        module: Any,
        meta: dict[str, Any],
        name: str = "rllib",
        seed: int | None = None,
        deterministic: bool = True,
    ) -> None:
        self.module = module
        self.meta = meta
        self.name = name
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    @classmethod
    def load(
        cls, path: str | Path, name: str | None = None, seed: int | None = None, **kwargs: Any
    ) -> RllibAgent:
        """Load ``<path>/model.json`` + ``module_state.pt`` (``path`` may be a run folder)."""
        from agents.rllib import require_ray

        p = Path(path)
        if (p / "model" / MODEL_JSON).is_file():
            p = p / "model"
        if not (p / MODEL_JSON).is_file() or not (p / STATE_FILE).is_file():
            raise ConfigError(
                f"{str(path)!r} is not an RLlib model directory (needs {MODEL_JSON} and "
                f"{STATE_FILE}; agent spec 'rllib:PATH', e.g. rllib:runs/<run>/model)"
            )
        require_ray()
        import torch

        meta = json.loads((p / MODEL_JSON).read_text())
        module = build_module(meta)
        module.load_state_dict(torch.load(p / STATE_FILE, weights_only=True))
        module.eval()
        return cls(module, meta, name=name or f"rllib:{p.parent.name}", seed=seed, **kwargs)

    @classmethod
    def from_state(cls, state_dict: dict[str, Any], meta: dict[str, Any], **kwargs: Any):
        """An agent from in-memory weights (used for evaluations during training)."""
        module = build_module(meta)
        module.load_state_dict(state_dict, strict=False)
        module.eval()
        return cls(module, meta, **kwargs)

    def masked_logits(self, view: AgentView) -> np.ndarray:
        import torch
        from ray.rllib.core.columns import Columns

        legal_actions(view)
        obs = np.asarray(view.observation, dtype=np.float32)
        mask = np.asarray(view.action_mask, dtype=np.float32)
        expected = self.module.observation_space["observations"].shape
        if obs.shape != expected or mask.shape != (self.module.action_space.n,):
            raise ConfigError(
                f"{self.name}: observation {obs.shape} / {mask.shape[0]} actions do not match "
                f"the module's {expected} / {self.module.action_space.n}; was it trained on "
                "another game or player count?"
            )
        batch = {
            Columns.OBS: {
                "observations": torch.from_numpy(obs)[None],
                "action_mask": torch.from_numpy(mask)[None],
            }
        }
        with torch.no_grad():
            out = self.module.forward_inference(batch)
        logits = out[Columns.ACTION_DIST_INPUTS][0].numpy().astype(np.float64)
        return np.where(mask > 0, logits, -np.inf)

    def act(self, view: AgentView) -> int:
        logits = self.masked_logits(view)
        if self.deterministic:
            return int(np.argmax(logits))
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(self.rng.choice(p.size, p=p))

    def __repr__(self) -> str:
        return f"RllibAgent(name={self.name!r})"
