"""rgb_array render of a Jupiter position: the grid, probes as coloured discs, dice faces,
and a score bar per player."""

from __future__ import annotations

import numpy as np

from moon_envs.core import draw
from moon_envs.jupiter.rules import JupiterState

CELL = 64
MARGIN = 16
BAR = 28


def render_rgb(state: JupiterState) -> np.ndarray:
    g = state.game
    n = g.config.num_players
    width = 2 * MARGIN + g.cols * CELL
    height = 2 * MARGIN + g.rows * CELL + n * BAR + MARGIN
    img = draw.canvas(height, width)
    for r in range(g.rows):
        for c in range(g.cols):
            cell = r * g.cols + c
            y0, x0 = MARGIN + r * CELL, MARGIN + c * CELL
            draw.frame(img, y0, x0, y0 + CELL, x0 + CELL, draw.GRID, 2)
            if state.owner[cell] >= 0:
                color = draw.PLAYER_COLORS[int(state.owner[cell])]
                draw.disc(img, y0 + CELL / 2, x0 + CELL / 2, CELL * 0.32, color)
            elif state.die[cell]:
                pad = CELL // 6
                ink = (200, 30, 30) if g.face_value[state.die[cell]] < 0 else (20, 20, 20)
                draw.pips(img, y0 + pad, x0 + pad, CELL - 2 * pad, int(state.die[cell]), ink)
    top = MARGIN + g.rows * CELL + MARGIN
    best = max(1, int(state.points.max()))
    for s in range(n):
        y = top + s * BAR
        color = draw.PLAYER_COLORS[s]
        if state.current_player() == s:
            draw.rect(img, y + 4, MARGIN - 10, y + BAR - 4, MARGIN - 4, draw.INK)
        length = int((width - 2 * MARGIN - 60) * max(0, int(state.points[s])) / best)
        draw.rect(img, y + 6, MARGIN, y + BAR - 6, MARGIN + max(2, length), color)
        draw.text(img, y + 9, width - MARGIN - 48, str(int(state.points[s])), draw.INK, 2)
    return img
