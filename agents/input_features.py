"""Fixed input features a network may read after the observation (``input_features``).

A network file's description may name input features (``"input_features":
["landing_values"]``); the network then reads the observation followed by those
features, ``input_size`` values in all. Each feature is a fixed function of the seat's
observation and action mask, so it uses nothing the seat may not know, and it computes
the same numbers in the Python env (numpy) and on the JAX twin (``jax.numpy``):

* ``landing_values`` (Moonstar): each move action's landing points / 10, 0 where the move
  is not legal (:func:`moon_envs.moonstar.landing.landing_values`): the rules' one-move
  lookahead. Without it a small MLP does not learn which move scores what (a face is one
  number, a star a one-hot, the landing a sum modulo 12 then a look-up).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

INPUT_FEATURES = {"landing_values": "moonstar"}
"""Every input feature, with the game (``GameSpec.name``) it is defined for."""


def check_features(names: Any, game_name: str, where: str) -> list[str]:
    """``names`` as a list, once every name is a known feature of ``game_name``."""
    if not isinstance(names, list) or len(names) != len(set(map(str, names))):
        raise ConfigError(f"{where}: input_features must be a list of distinct names")
    for name in names:
        allowed = [f for f, g in INPUT_FEATURES.items() if g == game_name]
        if name not in allowed:
            raise ConfigError(
                f"{where}: input_features holds {quote(name)}; allowed for {game_name}: "
                f"{allowed}"
            )
    return list(names)


def features_size(names: Sequence[str], game: Any) -> int:
    """How many values ``names`` add after ``game``'s observation."""
    from moon_envs.moonstar.landing import num_landing_values

    return sum(num_landing_values(game) for name in names if name == "landing_values")


def network_input(
    names: Sequence[str], game: Any, observation: Any, action_mask: Any, xp: Any = np
) -> Any:
    """The observation followed by the features ``names`` (``[..., input_size]``)."""
    if not names:
        return xp.asarray(observation, dtype=xp.float32)
    from moon_envs.moonstar.landing import landing_values

    parts = [xp.asarray(observation, dtype=xp.float32)]
    for name in names:
        if name == "landing_values":
            parts.append(landing_values(game, observation, action_mask, xp=xp))
    return xp.concatenate(parts, axis=-1)
