"""Star Master rules, the views of a position: observations, infos, move names, text.

What each seat may know: the observation and the full-information state (built by
:mod:`moon_envs.star_master.observation`), the public facts of ``info`` and the seat's own
``info_for``, the names of the moves (a race choice stays sealed to the other seats) and
the text views (:mod:`moon_envs.star_master.text`).

A part of :class:`~moon_envs.star_master.state.StarMasterState`, which combines this
mixin with the course of a turn; the fields it reads are documented there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moon_envs.star_master import observation as obs
from moon_envs.star_master.phases import NOT_CHOSEN, RACE

if TYPE_CHECKING:
    from moon_envs.star_master.rules import StarMasterGame


class Views:
    """Observations, infos, move names and text views of a position."""

    game: StarMasterGame

    # ---- views ----------------------------------------------------------------------------
    def _observation(self, player: int) -> np.ndarray:
        return obs.encode(self, player)

    def _global_state(self) -> np.ndarray:
        return obs.encode_global(self)

    def info(self) -> dict:
        """The spectator's public facts: turn, roller, dice, the last flip and the last
        race's revealed choices (only once every seat has chosen). A seat's info in the env
        is :meth:`info_for`, which shows those two events only while they lie in the seat's
        window."""
        return self._info(self.last_flip[0] >= 0, self.last_race[0] != NOT_CHOSEN)

    def info_for(self, player: int) -> dict:
        """Seat ``player``'s info: as :meth:`info`, but ``last_flip`` and ``last_race`` are
        ``None`` once ``player`` has decided since they happened, exactly as its window of
        recent events forgets them (in every ``memory`` mode)."""
        window = self.in_window[player]
        return self._info(window[0], window[1])

    def _info(self, flip: object, race: object) -> dict:
        last_flip = None
        if flip:  # in a window only once a flip happened
            seat, slot, colour, found = self.last_flip.tolist()
            last_flip = {"seat": seat, "slot": slot, "colour": colour, "found": bool(found)}
        return {
            "turn": self.turn,
            "roller": self.roller,
            "white": self.white,
            "black_star": self.black_star,
            "last_flip": last_flip,
            "last_race": self.last_race.tolist() if race else None,
        }

    def action_to_string(self, action: int) -> str:
        from moon_envs.star_master.text import action_name

        return action_name(self, int(action))

    def action_to_public_string(self, action: int, observer: int) -> str:
        """A race choice is sealed: other seats only learn that a choice was made."""
        seat = self._current_player()
        if self.phase == RACE and observer != seat:
            return f"player_{seat} makes a sealed race choice"
        return self.action_to_string(action)

    def to_string(self, player: int | None = None) -> str:
        from moon_envs.star_master.text import text_view

        if player is not None and not 0 <= player < self.game.spec.num_players:
            raise ValueError(f"player must be in 0..{self.game.spec.num_players - 1}, got {player}")
        return text_view(self, player)

    def __str__(self) -> str:
        return self.to_string(None)
