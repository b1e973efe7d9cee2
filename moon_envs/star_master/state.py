"""Star Master's state: :class:`StarMasterState`, the position the game plays.

It combines the course of a turn (``turns``) with the views (``views``: observations,
infos, move names, text); both build on ``position`` (the fields, whose move, legal
moves and results). To these it adds the determinisation (``determinise``) and the
snapshot check (``validate``). The game (``rules``) sits above it, every helper below.
"""

from __future__ import annotations

import numpy as np

from moon_envs.star_master.determinise import resample_state
from moon_envs.star_master.turns import TurnFlow
from moon_envs.star_master.validate import validate_state
from moon_envs.star_master.views import Views


class StarMasterState(TurnFlow, Views):
    """One Star Master position; its fields are documented in
    :class:`~moon_envs.star_master.position.StarMasterPosition`."""

    # ---- determinisation and snapshots ----------------------------------------------------
    def resample(self, player: int, rng: np.random.Generator) -> StarMasterState:
        """A position consistent with everything ``player`` is shown (observation, info,
        text view): the colours of the slots it neither remembers nor saw since its last
        decision are shuffled among themselves (other seats' memories and windows follow
        the new layout), other seats' sealed race choices are redrawn, and the forgetting
        seed is redrawn. With ``memory="perfect"`` it equals a clone, except that during
        a race the other seats' still-sealed choices are redrawn (see
        :func:`~moon_envs.star_master.determinise.resample_state`)."""
        return resample_state(self, player, rng)

    def _validate(self) -> None:
        validate_state(self)
