"""rgb_array render of a Moon Harvesters position: the grid with column letters and row
numbers, harvesters as coloured pieces outlined along their edges, craters, deposits, a
row per player (label ``P0`` in the player's colour, deposits collected as a bar and a
number, kind and pieces placed; ``>`` whose turn it is), the phase and the last move."""

from __future__ import annotations

import numpy as np

from moon_envs.core import draw
from moon_envs.moon_harvesters.rules import HarvestersState

CELL = 28
MARGIN = 12
BAR = 22
LINE = 18
CRATER = (110, 110, 120)
CRATER_RIM = (60, 60, 70)
DEPOSIT = (150, 240, 255)
EDGE = (10, 10, 20)


def render_rgb(state: HarvestersState) -> np.ndarray:
    """The position as an ``H x W x 3`` uint8 image."""
    g = state.game
    n = g.config.num_players
    width = 2 * MARGIN + g.cols * CELL
    height = MARGIN + g.rows * CELL + MARGIN // 2 + n * BAR + 2 * LINE + 8
    img = draw.canvas(height, width)
    piece = state.piece.reshape(g.rows, g.cols)
    letters = "ABCDEFGHIJKLMNOP"
    for c in range(g.cols):
        draw.label(img, 1, MARGIN + c * CELL + CELL // 2 - 3, letters[c], draw.GRID, 2)
    for r in range(g.rows):
        draw.label(img, MARGIN + r * CELL + CELL // 2 - 5, 1, str(r + 1), draw.GRID, 1)
        for c in range(g.cols):
            cell = r * g.cols + c
            y0, x0 = MARGIN + r * CELL, MARGIN + c * CELL
            draw.frame(img, y0, x0, y0 + CELL + 1, x0 + CELL + 1, draw.GRID, 1)
            if state.owner[cell] >= 0:
                color = draw.PLAYER_COLORS[int(state.owner[cell])]
                draw.rect(img, y0 + 1, x0 + 1, y0 + CELL, x0 + CELL, color)
                p = piece[r, c]
                # thick dark edge where the neighbour is not the same harvester
                if r == 0 or piece[r - 1, c] != p:
                    draw.rect(img, y0, x0, y0 + 3, x0 + CELL + 1, EDGE)
                if r == g.rows - 1 or piece[r + 1, c] != p:
                    draw.rect(img, y0 + CELL - 2, x0, y0 + CELL + 1, x0 + CELL + 1, EDGE)
                if c == 0 or piece[r, c - 1] != p:
                    draw.rect(img, y0, x0, y0 + CELL + 1, x0 + 3, EDGE)
                if c == g.cols - 1 or piece[r, c + 1] != p:
                    draw.rect(img, y0, x0 + CELL - 2, y0 + CELL + 1, x0 + CELL + 1, EDGE)
            if state.crater[cell]:
                draw.disc(img, y0 + CELL / 2, x0 + CELL / 2, CELL * 0.42, CRATER_RIM)
                draw.disc(img, y0 + CELL / 2, x0 + CELL / 2, CELL * 0.32, CRATER)
            if state.deposit[cell]:  # on a crater too, without craters_block_deposits
                draw.disc(img, y0 + CELL / 2, x0 + CELL / 2, CELL * 0.22, DEPOSIT)
    top = MARGIN + g.rows * CELL + MARGIN // 2
    notes = []
    for s in range(n):
        kind = g.kinds[int(state.kind_of[s])].name if state.kind_of[s] >= 0 else "-"
        notes.append(f"{kind} {int(state.placed[s])}/{g.config.pieces_per_kind}")
    current = state.current_player()
    values = [float(x) for x in state.collected]
    draw.player_rows(img, top, 4, width - 6, values, current, BAR, notes, g.config.num_deposits)
    y = top + n * BAR + 4
    draw.caption_line(img, y, 6, width - 6, f"PHASE {state.phase}")
    last = str(getattr(state, "last_action", ""))
    draw.caption_line(img, y + LINE, 6, width - 6, "LAST: " + (last or "new game"))
    return img
