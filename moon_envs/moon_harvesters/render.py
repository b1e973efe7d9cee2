"""rgb_array render of a Moon Harvesters position: the grid, harvesters as coloured
pieces outlined along their edges, craters, deposits, and a score bar per player."""

from __future__ import annotations

import numpy as np

from moon_envs.core import draw
from moon_envs.moon_harvesters.rules import HarvestersState

CELL = 28
MARGIN = 12
BAR = 24
CRATER = (110, 110, 120)
CRATER_RIM = (60, 60, 70)
DEPOSIT = (150, 240, 255)
EDGE = (10, 10, 20)


def render_rgb(state: HarvestersState) -> np.ndarray:
    """The position as an ``H x W x 3`` uint8 image."""
    g = state.game
    n = g.config.num_players
    width = 2 * MARGIN + g.cols * CELL
    height = 2 * MARGIN + g.rows * CELL + n * BAR + MARGIN
    img = draw.canvas(height, width)
    piece = state.piece.reshape(g.rows, g.cols)
    for r in range(g.rows):
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
    top = MARGIN + g.rows * CELL + MARGIN
    total = max(1, g.config.num_deposits)
    for s in range(n):
        y = top + s * BAR
        color = draw.PLAYER_COLORS[s]
        if state.current_player() == s:
            draw.rect(img, y + 4, MARGIN - 9, y + BAR - 4, MARGIN - 4, draw.INK)
        length = int((width - 2 * MARGIN - 90) * int(state.collected[s]) / total)
        draw.rect(img, y + 5, MARGIN, y + BAR - 5, MARGIN + max(2, length), color)
        label = f"{int(state.collected[s])} {int(state.placed[s])}/{g.config.pieces_per_kind}"
        draw.text(img, y + 7, width - MARGIN - 84, label, draw.INK, 2)
    return img
