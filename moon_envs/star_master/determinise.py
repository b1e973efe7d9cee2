"""Determinisation of a Star Master position for one seat (``State.resample``)."""

from __future__ import annotations

from typing import TypeVar

import numpy as np

from moon_envs.star_master.config import DECAY_SEEDS
from moon_envs.star_master.phases import END, NOT_CHOSEN, RACE, SEED, SETUP
from moon_envs.star_master.position import StarMasterPosition

P = TypeVar("P", bound=StarMasterPosition)


def resample_state(state: P, player: int, rng: np.random.Generator) -> P:
    """A copy of ``state`` consistent with what ``player``'s observation shows.

    The colours of the slots that ``player`` neither remembers nor saw since its last
    decision are shuffled among themselves; every other seat's memory and window follow
    the new layout (they are always right where they know), and so does the record of
    the last flip when ``player``'s info no longer shows it; other seats' sealed race
    choices are redrawn uniformly (abstain or a slot); the forgetting seed is redrawn.
    Everything ``player`` is shown (observation, info, text view, mask) is unchanged.

    With ``memory="perfect"`` every slot is known, so the result equals a clone except,
    during a race, for the other seats' still-sealed choices.
    """
    new = state.clone()
    if state.phase == SETUP or state.phase == END:
        return new
    known = (state.win_map[player] >= 0) | (state.memory[player] >= 0)
    hidden = np.flatnonzero(~known)
    if hidden.size > 1:
        # canonical order first, so the redraw depends only on what the seat knows (which
        # colours are unaccounted for), never on where they truly lie
        new.layout[hidden] = rng.permutation(np.sort(state.layout[hidden]))
    for arr in (new.memory, new.win_map):
        arr[:] = np.where(arr >= 0, new.layout[None, :], -1)
    if state.last_flip[0] >= 0 and not state.in_window[player, 0]:
        # the seat no longer knows the last flip: its record follows the flipped cube's new
        # colour, so that the seats whose window still shows it stay consistent
        colour = int(state.last_flip[2])
        now = int(new.layout[np.flatnonzero(state.layout == colour)[0]])
        new.last_flip[2] = now
        new.last_flip[3] = int(state.last_flip[3] and now == colour)
    if state.phase == RACE:
        for q in range(state.game.num_players):
            if q != player and state.race_choice[q] != NOT_CHOSEN:
                new.race_choice[q] = rng.integers(-1, state.game.k)
    if state.game.config.memory == "decay" and state.phase != SEED:
        new.seed = int(rng.integers(DECAY_SEEDS))
    return new
