"""The masked PPO policy module for RLlib's current API stack (``RLModule``).

:class:`MaskedPPOTorchRLModule` is RLlib's default PPO torch module (encoder, policy head,
value head, built by ``PPOCatalog`` from ``model_config``) over the ``"observations"`` part
of a moon-envs observation, with the logits of illegal actions pushed to the most negative
float, so that sampling, greedy play and the PPO loss only ever see legal actions. The
training back-end selects it for every moon-envs env (:func:`masked_module_spec`).

Observations are dicts ``{"observations": ..., "action_mask": ...}``, as produced by
:class:`moon_agents.training.rllib.env.MoonMultiAgentEnv` and as RLlib's action-masking examples
expect.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.framework import try_import_torch
from ray.rllib.utils.torch_utils import FLOAT_MIN

torch, _ = try_import_torch()


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """PPO actor-critic whose action logits are masked by ``obs["action_mask"]``."""

    def __init__(self, *args: Any, observation_space: gym.Space | None = None, **kwargs: Any):
        if not (
            isinstance(observation_space, gym.spaces.Dict)
            and {"observations", "action_mask"} <= set(observation_space.spaces)
        ):
            raise ValueError(
                "MaskedPPOTorchRLModule needs a Dict observation space with keys "
                f"'observations' and 'action_mask'; got {observation_space}"
            )
        self.observation_space_with_mask = observation_space
        super().__init__(*args, observation_space=observation_space["observations"], **kwargs)

    def setup(self) -> None:
        super().setup()  # the networks are built for the inner observation space
        self.observation_space = self.observation_space_with_mask

    # ---- forward passes --------------------------------------------------------------------
    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = _split(batch)
        return _masked(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = _split(batch)
        return _masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        _, inner = _split(batch)
        return super().compute_values(inner, embeddings)


def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(action mask, a shallow copy of ``batch`` whose OBS is the inner observation)."""
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict):
        return None, batch
    inner = dict(batch)
    inner[Columns.OBS] = obs["observations"]
    return obs["action_mask"], inner


def _masked(out: dict[str, Any], mask: Any) -> dict[str, Any]:
    if mask is not None:
        out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + torch.clamp(
            torch.log(mask), min=FLOAT_MIN
        )
    return out


def masked_module_spec(
    observation_space: gym.Space,
    action_space: gym.Space,
    net_arch: list[int],
    activation: str = "tanh",
    inference_only: bool = False,
) -> Any:
    """The ``RLModuleSpec`` of a :class:`MaskedPPOTorchRLModule` with an MLP ``net_arch``."""
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    return RLModuleSpec(
        module_class=MaskedPPOTorchRLModule,
        observation_space=observation_space,
        action_space=action_space,
        inference_only=inference_only,
        model_config=DefaultModelConfig(
            fcnet_hiddens=list(net_arch),
            fcnet_activation=activation,
            vf_share_layers=False,
        ),
    )
