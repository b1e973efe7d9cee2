"""The constants and the static description shared by every moon-envs game.

:data:`CHANCE` and :data:`TERMINAL` are the two values of ``State.current_player()``
that are not seats; :class:`GameSpec` holds a game's sizes, bounds and flags, which
generic code (the AEC adapter, agents, tests) reads instead of knowing the game.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CHANCE: int = -1
"""``current_player()`` value at a chance node."""
TERMINAL: int = -2
"""``current_player()`` value once the game is over."""

REWARD_MODES = ("win", "score")


@dataclass(frozen=True)
class GameSpec:
    """Static facts about a game, for generic code (spaces, tests, agents).

    Attributes:
        name: short game name, e.g. ``"jupiter"``.
        num_players: seats, ``0 .. num_players - 1``.
        num_actions: size of the one flat ``Discrete`` action space (all phases).
        observation_shape: shape of :meth:`State.observation`.
        max_game_length: upper bound on the number of *player* actions in one game.
        min_utility, max_utility: bounds of :meth:`State.returns` in ``"win"`` mode.
        has_chance: whether the game has chance nodes.
        hidden_information: whether players see different things.
        max_chance_outcomes: size of the chance-outcome space (0 without chance).
        observation_low, observation_high: bounds of every observation entry.
        state_shape: shape of :meth:`State.global_state` (the full-information state
            behind PettingZoo's ``env.state()``); ``None`` means the default layout,
            ``(prod(observation_shape) + num_players + 1,)``.
    """

    name: str
    num_players: int
    num_actions: int
    observation_shape: tuple[int, ...]
    max_game_length: int
    min_utility: float = -1.0
    max_utility: float = 1.0
    has_chance: bool = False
    hidden_information: bool = False
    max_chance_outcomes: int = 0
    observation_low: float = 0.0
    observation_high: float = 1.0
    state_shape: tuple[int, ...] | None = None

    @property
    def global_state_shape(self) -> tuple[int, ...]:
        """Shape of :meth:`State.global_state` (``state_shape`` or the default layout)."""
        if self.state_shape is not None:
            return tuple(self.state_shape)
        return (int(np.prod(self.observation_shape)) + self.num_players + 1,)
