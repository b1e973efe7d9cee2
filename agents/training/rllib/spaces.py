"""The observation and action spaces RLlib sees for a moon-envs game.

One place for them, shared by :class:`~moon_agents.training.rllib.env.MoonMultiAgentEnv`
and by :func:`~moon_agents.training.rllib.agent.build_module` (which needs the spaces of a
saved model's env without building a multi-agent env and its league).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np


def rllib_spaces(aec: Any) -> tuple[gym.spaces.Dict, gym.spaces.Discrete]:
    """RLlib's action-masking observation space and the flat action space of ``aec``.

    The observation is ``{"observations": Box(float32), "action_mask": Box(float32 0/1)}``,
    RLlib's convention for masked actions.
    """
    num_actions = aec.game.spec.num_actions
    inner = aec.observation_space("player_0")["observation"]
    observation_space = gym.spaces.Dict(
        {
            "observations": gym.spaces.Box(
                inner.low, inner.high, shape=inner.shape, dtype=np.float32
            ),
            "action_mask": gym.spaces.Box(0.0, 1.0, (num_actions,), np.float32),
        }
    )
    return observation_space, gym.spaces.Discrete(num_actions)


def spaces_for(env_id: str, params: dict[str, Any]) -> tuple[gym.spaces.Dict, gym.spaces.Discrete]:
    """:func:`rllib_spaces` of the env ``env_id`` built with ``params``."""
    from moon_envs import make

    return rllib_spaces(make(env_id, **params))
