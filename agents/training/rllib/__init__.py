"""Ray RLlib back-end: multi-agent envs, a masked PPO module, self-play leagues, training.

Everything here needs the ``rllib`` extra (``pip install "moon-envs[rllib]"``); the rest of
the package never imports ray. :func:`require_ray` raises a
:class:`~moon_envs.core.game.ConfigError` naming the extra when ray is missing.
"""

from __future__ import annotations

from moon_envs.core.game import ConfigError

INSTALL_HINT = 'the RLlib back-end needs ray[rllib]: pip install "moon-envs[rllib]"'


def require_ray() -> None:
    """Import ray and RLlib or raise a :class:`ConfigError` naming the ``rllib`` extra."""
    try:
        import ray
        import ray.rllib  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        raise ConfigError(f"{INSTALL_HINT} ({exc})") from None
