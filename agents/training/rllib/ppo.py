"""A ready RLlib ``PPOConfig`` for any moon-envs game: masked modules and self-play mapping.

RLlib's default PPO module cannot read the masked dict observations of
:class:`~moon_agents.training.rllib.env.MoonMultiAgentEnv` (``{"observations", "action_mask"}``), so
a bare ``PPOConfig().environment("jupiter_v0")`` fails to build. :func:`masked_ppo_config` returns a
``PPOConfig`` with the env registered and selected, one masked module per module id
(:class:`~moon_agents.training.rllib.module.MaskedPPOTorchRLModule`), every seat mapped to its
module (``player_k`` -> ``"learner"``, ``player_k@snapshot_j`` -> ``"snapshot_j"``) and only the
learner trained. Add what you like (``.env_runners(...)``, ``.training(...)``) and build::

    from moon_agents.training.rllib.ppo import masked_ppo_config

    algo = masked_ppo_config("jupiter_v0", {"params": {"num_players": 2}}).build_algo()
    algo.train()

``moon-envs train`` with ``algorithm: rllib-ppo`` builds its algorithm from this too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def masked_ppo_config(
    env_id: str,
    env_config: dict[str, Any] | None = None,
    net_arch: Sequence[int] = (64, 64),
    activation: str = "tanh",
) -> Any:
    """An RLlib ``PPOConfig`` for ``env_id`` with masked modules and the self-play mapping.

    Args:
        env_id: a moon-envs id (``moon_envs.list_envs()``).
        env_config: the env's config (``params``, ``league``, ``modules``, ``seed``; see
            :class:`~moon_agents.training.rllib.env.MoonMultiAgentEnv`); every module the league may
            name (``env_config["modules"]``) gets a masked module too, not trained.
        net_arch: hidden layer sizes of the policy and value MLPs.
        activation: ``"tanh"`` or ``"relu"``.
    """
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec

    from moon_agents.training.rllib.env import LEARNER, MoonMultiAgentEnv, register_envs
    from moon_agents.training.rllib.league import policy_mapping_fn
    from moon_agents.training.rllib.module import masked_module_spec

    register_envs()
    env_config = dict(env_config or {})
    probe = MoonMultiAgentEnv({**env_config, "env_id": env_id})
    modules = [LEARNER, *probe.modules]
    specs = {
        mid: masked_module_spec(
            probe.single_observation_space, probe.single_action_space, list(net_arch), activation
        )
        for mid in modules
    }
    return (
        PPOConfig()
        .framework("torch")
        .environment(env=env_id, env_config=env_config)
        .multi_agent(
            policies=set(specs),
            policy_mapping_fn=policy_mapping_fn,
            policies_to_train=[LEARNER],
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
    )
