"""rgb_array render of a Jupiter position: the grid with column letters and row numbers,
probes as coloured discs, dice faces, a row per player (label ``P0`` in the player's
colour, score bar, points; ``>`` marks whose turn it is), whose turn it is and the last
move (over two lines when long); a finished game's frame shows the result under the board
(:func:`moon_envs.core.draw.result_banner`)."""

from __future__ import annotations

import numpy as np

from moon_envs.core import draw
from moon_envs.jupiter.rules import JupiterState

CELL = 64
MARGIN = 20
ROW = 24
LINE = 18


def last_move(state: JupiterState) -> str:
    if not state.last_action:
        return "new game"
    return state.describe_event(state.last_action)


def render_rgb(state: JupiterState, seat: int | None = None) -> np.ndarray:
    """The position as an ``H x W x 3`` uint8 image.

    ``seat`` (the env's ``render_seat``) changes nothing: the picture shows only what
    every seat knows.
    """
    g = state.game
    n = g.config.num_players
    width = max(2 * MARGIN + g.cols * CELL, 300)
    height = MARGIN + g.rows * CELL + MARGIN // 2 + n * ROW + 3 * LINE + 8
    img = draw.canvas(height, width)
    for c in range(g.cols):
        draw.label(img, 4, MARGIN + c * CELL + CELL // 2 - 3, "ABCDEFGHIJKL"[c], draw.GRID, 2)
    for r in range(g.rows):
        draw.label(img, MARGIN + r * CELL + CELL // 2 - 5, 3, str(r + 1), draw.GRID, 2)
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
    top = MARGIN + g.rows * CELL + MARGIN // 2
    current = state.current_player()
    draw.player_rows(img, top, 4, width - 6, [float(p) for p in state.points], current, ROW)
    y = top + n * ROW + 4
    draw.caption_line(img, y, 6, width - 6, draw.status_text(state))
    draw.label_lines(img, y + LINE, 6, "LAST: " + last_move(state), width - 12, 2, line_height=LINE)
    draw.result_banner(img, state, top, y + LINE - 2)  # over the player rows and status
    return img
