"""moon-envs: PettingZoo AEC environments with action masks for five space-themed board games.

Quick start::

    import moon_envs
    env = moon_envs.make("jupiter_v0", num_players=2)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        mask = obs["action_mask"]
        action = None if termination or truncation else int(mask.nonzero()[0][0])
        env.step(action)
"""

from moon_envs.core.errors import CallOrderError
from moon_envs.core.game import CHANCE, TERMINAL, ConfigError, IllegalActionError
from moon_envs.core.opponents import register_agent_factory
from moon_envs.registry import get_entry, list_envs, make, make_single_agent, valid_params

__version__ = "0.2.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "CallOrderError",
    "ConfigError",
    "IllegalActionError",
    "__version__",
    "get_entry",
    "list_envs",
    "make",
    "make_single_agent",
    "register_agent_factory",
    "valid_params",
]
