"""Text and rgb_array views of a Star Master position, and action names.

The spectator's view (``player=None``) shows the true layout; a seat's view shows only
what its observation holds (its memory and the recent events). No view shows a sealed
race choice before every seat has chosen: only how many have chosen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from moon_envs.core import draw
from moon_envs.star_master.config import (
    COLOUR_NAMES,
    NAME0,
    NUM_SLOTS,
    PASS,
    STAR,
    SWAP0,
)

if TYPE_CHECKING:
    from moon_envs.star_master.rules import StarMasterState

CUBE_COLOURS: list[draw.Color] = [
    (220, 50, 50),
    (250, 140, 30),
    (240, 220, 40),
    (60, 180, 80),
    (60, 210, 220),
    (50, 90, 230),
    (150, 70, 210),
    (250, 130, 190),
    (130, 80, 40),
]


def action_name(state: StarMasterState, a: int) -> str:
    """Name of action ``a`` in ``state``'s phase (``"flip slot 3"``, ``"grab slot 3"``...)."""
    from moon_envs.star_master.rules import RACE

    race = state.phase == RACE
    if 0 <= a < NUM_SLOTS:
        return f"{'grab' if race else 'flip'} slot {a}"
    if SWAP0 <= a < SWAP0 + NUM_SLOTS:
        return f"swap with slot {a - SWAP0}"
    if NAME0 <= a < NAME0 + len(COLOUR_NAMES):
        return f"name {COLOUR_NAMES[a - NAME0]}"
    if a == PASS:
        return "abstain" if race else "pass"
    raise ValueError(f"action {a} is out of range; allowed: 0..{PASS}")


def _colour(c: int) -> str:
    return COLOUR_NAMES[c] if c >= 0 else "?"


def text_view(state: StarMasterState, player: int | None) -> str:
    from moon_envs.star_master.rules import PHASE_NAMES, RACE

    n = state.game.num_players
    if player is None:
        title = "Star Master (spectator)"
        board = state.layout
    else:
        title = f"Star Master, as seen by player_{player}"
        board = np.where(state.memory[player] >= 0, state.memory[player], state.win_map[player])
    lines = [
        f"{title}: turn {state.turn}/{state.game.config.turn_cap}, roller player_{state.roller}"
    ]
    lines.append("slots: " + " ".join(f"{s}:{_colour(int(c))}" for s, c in enumerate(board)))
    if state.white >= 0:
        white = "star" if state.white == STAR else COLOUR_NAMES[state.white]
        lines.append(f"dice: white {white}, black {'star' if state.black_star else 'blank'}")
    lines.append(f"phase: {PHASE_NAMES[state.phase]}")
    if state.target >= 0:
        lines.append(f"sought colour: {COLOUR_NAMES[state.target]}")
    if state.phase == RACE:
        lines.append(f"race: {state.race_next} of {n} have chosen (sealed)")
    for p in range(n):
        held = [COLOUR_NAMES[c] for c in np.flatnonzero(state.pawns[p])]
        lines.append(f"player_{p}: {len(held)} colours {', '.join(held) or '-'}")
    if state.is_terminal():
        won = state.winners()
        lines.append("winner: " + (", ".join(f"player_{w}" for w in won) if won else "nobody"))
    return "\n".join(lines)


CELL, MARGIN, ROW = 72, 16, 24


def render_rgb(state: StarMasterState) -> np.ndarray:
    """The spectator's picture: the 3x3 board with the cubes' true colours (a white frame
    marks the slot being swapped), then one row of pawns per player."""
    n = state.game.num_players
    width = 2 * MARGIN + 3 * CELL
    height = 2 * MARGIN + 3 * CELL + n * ROW + MARGIN
    img = draw.canvas(height, width)
    for s in range(NUM_SLOTS):
        y0, x0 = MARGIN + (s // 3) * CELL, MARGIN + (s % 3) * CELL
        draw.frame(img, y0, x0, y0 + CELL, x0 + CELL, draw.GRID, 2)
        c = int(state.layout[s])
        if c >= 0:
            draw.rect(img, y0 + 10, x0 + 10, y0 + CELL - 10, x0 + CELL - 10, CUBE_COLOURS[c])
        if s == state.found_slot:
            draw.frame(img, y0 + 4, x0 + 4, y0 + CELL - 4, x0 + CELL - 4, draw.INK, 3)
    top = MARGIN + 3 * CELL + MARGIN
    for p in range(n):
        y = top + p * ROW
        draw.rect(img, y + 6, 4, y + ROW - 6, 10, draw.PLAYER_COLORS[p % len(draw.PLAYER_COLORS)])
        for c in np.flatnonzero(state.pawns[p]):
            draw.disc(img, y + ROW / 2, MARGIN + 12 + int(c) * 22, 8, CUBE_COLOURS[int(c)])
    return img
