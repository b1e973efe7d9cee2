"""rgb_array render of a Moon Harvesters position: the grid with column letters and row
numbers, harvesters as coloured pieces, each outlined (a dark gap between pieces and a
darker rim inside each, so same-colour pieces stay apart), craters, deposits, and on the
harvester just placed the number of deposits it covered (collected deposits leave the
board); a row per player (label ``P0`` in the player's colour, ``N DEPOSITS`` collected as
a bar and a number, the harvester kind and pieces placed; ``>`` whose turn it is), the
phase and whose turn it is, and the last move; a finished game's frame shows the result
under the board (:func:`moon_envs.core.draw.result_banner`)."""

from __future__ import annotations

import re

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
RIM = 3  # the darker rim inside each harvester
MIN_WIDTH = 360  # room for the player rows beside small grids


def render_rgb(state: HarvestersState, seat: int | None = None) -> np.ndarray:
    """The position as an ``H x W x 3`` uint8 image.

    ``seat`` (the env's ``render_seat``) changes nothing: the picture shows only what
    every seat knows.
    """
    g = state.game
    n = g.config.num_players
    width = max(2 * MARGIN + g.cols * CELL, MIN_WIDTH)
    height = MARGIN + g.rows * CELL + MARGIN // 2 + n * BAR + 3 * LINE + 8
    img = draw.canvas(height, width)
    piece = state.piece.reshape(g.rows, g.cols)
    letters = "ABCDEFGHIJKLMNOP"
    for c in range(g.cols):
        draw.label(img, 1, MARGIN + c * CELL + CELL // 2 - 3, letters[c], draw.GRID, 2)
    for r in range(g.rows):
        draw.label(img, MARGIN + r * CELL + CELL // 2 - 5, 1, str(r + 1), draw.GRID, 1)
        for c in range(g.cols):
            y0, x0 = MARGIN + r * CELL, MARGIN + c * CELL
            draw.frame(img, y0, x0, y0 + CELL + 1, x0 + CELL + 1, draw.GRID, 1)
    owners, crater, deposit = state.owner, state.crater, state.deposit
    for r in range(g.rows):  # harvesters over the grid: no grid line inside a piece
        for c in range(g.cols):
            owner = int(owners[r * g.cols + c])
            if owner >= 0:
                _piece_cell(img, piece, r, c, draw.PLAYER_COLORS[owner])
    for r in range(g.rows):
        for c in range(g.cols):
            cell = r * g.cols + c
            cy, cx = MARGIN + r * CELL + CELL / 2, MARGIN + c * CELL + CELL / 2
            if crater[cell]:
                draw.disc(img, cy, cx, CELL * 0.42, CRATER_RIM)
                draw.disc(img, cy, cx, CELL * 0.32, CRATER)
            if deposit[cell]:  # on a crater too, without craters_block_deposits
                draw.disc(img, cy, cx, CELL * 0.22, DEPOSIT)
    last = str(getattr(state, "last_action", ""))
    _collected_badge(img, state, piece, last)
    top = MARGIN + g.rows * CELL + MARGIN // 2
    notes = []
    for s in range(n):
        kind = f"KIND {g.kinds[int(state.kind_of[s])].name}" if state.kind_of[s] >= 0 else "-"
        unit = "DEPOSIT" if state.collected[s] == 1 else "DEPOSITS"
        notes.append(f"{unit} {kind} {int(state.placed[s])}/{g.config.pieces_per_kind} PLACED")
    current = state.current_player()
    values = [float(x) for x in state.collected]
    draw.player_rows(img, top, 4, width - 6, values, current, BAR, notes, g.config.num_deposits)
    y = top + n * BAR + 4
    status = draw.status_text(state)
    draw.caption_line(img, y, 6, width - 6, status if state.is_terminal() else
                      f"PHASE {state.phase}  {status}")  # fmt: skip
    draw.label_lines(img, y + LINE, 6, "LAST: " + (last or "new game"), width - 12, 2,
                     line_height=LINE)  # fmt: skip
    draw.result_banner(img, state, top, y + LINE - 2)  # over the player rows and status
    return img


def _piece_cell(img: np.ndarray, piece: np.ndarray, r: int, c: int, color: draw.Color) -> None:
    """One cell of a harvester: its colour, a dark gap where the piece ends (another piece
    or nothing is next to it) and a darker rim inside along those sides."""
    rows, cols = piece.shape
    p = piece[r, c]
    y0, x0 = MARGIN + r * CELL, MARGIN + c * CELL
    y1, x1 = y0 + CELL + 1, x0 + CELL + 1
    draw.rect(img, y0, x0, y1, x1, color)
    shade = tuple(v * 3 // 5 for v in color)
    ends = (
        r == 0 or piece[r - 1, c] != p,  # top
        r == rows - 1 or piece[r + 1, c] != p,  # bottom
        c == 0 or piece[r, c - 1] != p,  # left
        c == cols - 1 or piece[r, c + 1] != p,  # right
    )
    for depth, tone in ((3 + RIM, shade), (3, EDGE)):  # the rim, then the gap over it
        if ends[0]:
            draw.rect(img, y0, x0, y0 + depth, x1, tone)
        if ends[1]:
            draw.rect(img, y1 - depth, x0, y1, x1, tone)
        if ends[2]:
            draw.rect(img, y0, x0, y1, x0 + depth, tone)
        if ends[3]:
            draw.rect(img, y0, x1 - depth, y1, x1, tone)


def _collected_badge(img: np.ndarray, state: HarvestersState, piece: np.ndarray, last: str) -> None:
    """On the harvester just placed, a deposit marked with how many deposits it covered."""
    m = re.search(r" places .* \(\+(\d+)\)$", last)
    if not m or int(m.group(1)) == 0 or piece.max() < 0:
        return
    r, c = (int(v) for v in np.argwhere(piece == piece.max())[0])  # its top-left cell
    cy, cx = MARGIN + r * CELL + CELL / 2, MARGIN + c * CELL + CELL / 2
    draw.disc(img, cy, cx, CELL * 0.36, EDGE)
    draw.disc(img, cy, cx, CELL * 0.30, DEPOSIT)
    text = m.group(1)
    draw.label(img, int(cy) - 5, int(cx) - draw.label_width(text, 2) // 2, text, EDGE, 2)
