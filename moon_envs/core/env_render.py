"""Rendering of a moon-envs AEC env: ``render()`` for the whole table or for one seat.

:class:`EnvRender` is a mixin of :class:`~moon_envs.core.aec.MoonAECEnv`. ``render_mode``
is PettingZoo's (``"ansi"``: the text view as a string, ``"human"``: printed,
``"rgb_array"``: an ``HxWx3`` uint8 picture). ``render_seat`` picks whose view is drawn:

* ``None`` (default): the spectator's view, everything on the table (in hidden-information
  games that includes what no seat knows: a replay's or a referee's view);
* a seat (``0`` or ``"player_0"``): only what that seat may know, the text of
  ``State.to_string(seat)`` and the picture of ``rgb_renderer(state, seat)``: the view to
  show a person playing that seat, or to record a game as one seat saw it. In
  perfect-information games both views are the same.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from moon_envs.core.errors import ConfigError
from moon_envs.core.snapshot import quote


def seat_of(field: str, value: Any, possible_agents: list[str]) -> int | None:
    """The seat index named by ``value`` (``None``, an int seat or an agent name); a
    :class:`ConfigError` naming ``field`` and the allowed values otherwise."""
    if value is None:
        return None
    n = len(possible_agents)
    if isinstance(value, str) and value in possible_agents:
        return possible_agents.index(value)
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and 0 <= value < n:
        return int(value)
    raise ConfigError(
        f"{field}={quote(value)} is not allowed; allowed values: None, a seat 0..{n - 1} "
        f"or an agent name {possible_agents}"
    )


class EnvRender:
    """``render()`` of a moon-envs AEC env (module docstring)."""

    render_seat: int | None = None
    """The seat whose view ``render()`` draws; ``None``: the spectator's."""

    def render(self) -> str | np.ndarray | None:
        """The current position in ``render_mode``, as ``render_seat`` sees it."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode."
            )
            return None
        self._require_reset("render")
        seat = self.render_seat
        if self.render_mode == "rgb_array":
            renderer = type(self).rgb_renderer
            if renderer is None:
                raise NotImplementedError(f"{self.metadata['name']} has no rgb_array renderer")
            return renderer(self.game_state) if seat is None else renderer(self.game_state, seat)
        text = self.game_state.to_string(seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text
