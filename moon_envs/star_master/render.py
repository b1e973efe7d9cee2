"""rgb_array picture of a Star Master position.

Top: the turn and the roller. Left: the board, three slots a row (3x3 with the default 9
colours, 2 or 3 rows with fewer), slots numbered, each cube in its colour
(``?`` on a grey cube where the viewer does not know it); a white frame marks the last
flipped cube while it is shown, a gold one the found cube to swap. Right: the white die
(its colour, or ``*`` for the star), the black die (``*`` star or blank), the sought
colour, the phase and, in a race, how many have chosen (never what). Below: a row per
player (``>`` whose turn it is, label ``P0`` in the player's colour, a bar and the number
of colours held, then a disc for each colour held and, right after a race, what each
seat grabbed), whose turn it is, and the last move.

``render_rgb(state)`` is the spectator's picture (the env's ``rgb_array``: the true
layout); ``render_rgb(state, seat)`` shows only what ``seat`` is shown, like
``state.to_string(seat)``.
"""

from __future__ import annotations

import numpy as np

from moon_envs.core import draw
from moon_envs.star_master.config import COLOUR_NAMES, GOAL, STAR
from moon_envs.star_master.phases import NAME, PHASE_NAMES, RACE
from moon_envs.star_master.position import StarMasterPosition
from moon_envs.star_master.text import last_move_text, seat_board

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
UNKNOWN: draw.Color = (95, 95, 110)
GOLD: draw.Color = (250, 200, 60)
DIM: draw.Color = (150, 150, 170)

WIDTH = 560  # wide enough for a 64-character caption above a GIF frame
MARGIN = 12
TOP = 28  # below the title line
CELL = 84
PANEL = MARGIN + 3 * CELL + 16  # left edge of the dice panel
DIE = 40
ROW = 22
SPLIT = 260  # player rows: label, bar and count to the left, colour discs to the right
LINE = 18


def board_rows(state: StarMasterPosition) -> int:
    """Rows of the board: three slots a row (3 with 9 colours, 2 with 6)."""
    return -(-state.game.k // 3)


def _board(img: np.ndarray, state: StarMasterPosition, seat: int | None) -> None:
    board = seat_board(state, seat)
    flip_shown = seat is None or bool(state.in_window[seat, 0])
    # where the last flipped cube is now: it may have been swapped since
    flipped = -1
    if flip_shown and state.last_flip[0] >= 0:
        flipped = int(np.flatnonzero(state.layout == state.last_flip[2])[0])
    for s in range(state.game.k):
        y0, x0 = TOP + (s // 3) * CELL, MARGIN + (s % 3) * CELL
        draw.frame(img, y0, x0, y0 + CELL, x0 + CELL, draw.GRID, 2)
        c = int(board[s])
        colour = CUBE_COLOURS[c] if c >= 0 else UNKNOWN
        draw.rect(img, y0 + 15, x0 + 15, y0 + CELL - 15, x0 + CELL - 15, colour)
        if c < 0:
            draw.label(img, y0 + CELL // 2 - 7, x0 + CELL // 2 - 4, "?", draw.INK, 3)
        if s == flipped:
            draw.frame(img, y0 + 11, x0 + 11, y0 + CELL - 11, x0 + CELL - 11, draw.INK, 3)
        if s == state.found_slot:
            draw.frame(img, y0 + 11, x0 + 11, y0 + CELL - 11, x0 + CELL - 11, GOLD, 3)
        draw.label(img, y0 + 4, x0 + 4, str(s), DIM, 2)


def _panel(img: np.ndarray, state: StarMasterPosition) -> None:
    x, y = PANEL, TOP
    draw.label(img, y, x, "WHITE", DIM, 2)
    if not state.game.config.children:
        draw.label(img, y, x + DIE + 24, "BLACK", DIM, 2)
    y += 14
    if state.white >= 0:
        if state.white == STAR:
            draw.rect(img, y, x, y + DIE, x + DIE, (245, 245, 245))
            draw.label(img, y + 10, x + 11, "*", (20, 20, 30), 4)
        else:
            draw.rect(img, y, x, y + DIE, x + DIE, (245, 245, 245))
            draw.rect(img, y + 5, x + 5, y + DIE - 5, x + DIE - 5, CUBE_COLOURS[state.white])
        if not state.game.config.children:
            bx = x + DIE + 24
            draw.rect(img, y, bx, y + DIE, bx + DIE, (25, 25, 30))
            draw.frame(img, y, bx, y + DIE, bx + DIE, DIM, 1)
            if state.black_star:
                draw.label(img, y + 10, bx + 11, "*", GOLD, 4)
    else:
        draw.frame(img, y, x, y + DIE, x + DIE, draw.GRID, 1)
    y += DIE + 10
    if state.target >= 0:
        draw.label(img, y, x, "SEEK", DIM, 2)
        draw.rect(img, y - 1, x + 40, y + 11, x + 52, CUBE_COLOURS[state.target])
        draw.label(img, y, x + 58, COLOUR_NAMES[state.target], draw.INK, 2)
    elif state.phase == RACE and 0 <= state.white < state.game.k:
        draw.label(img, y, x, "RACE", GOLD, 2)
        draw.rect(img, y - 1, x + 40, y + 11, x + 52, CUBE_COLOURS[state.white])
        draw.label(img, y, x + 58, COLOUR_NAMES[state.white], draw.INK, 2)
    elif state.phase == NAME:
        draw.label(img, y, x, "NAME A COLOUR", GOLD, 2)
    y += LINE
    draw.label(img, y, x, f"PHASE {PHASE_NAMES[state.phase]}", draw.INK, 2)
    y += LINE
    if state.phase == RACE:
        n = state.game.num_players
        draw.label(img, y, x, f"{state.race_next}/{n} CHOSE, SEALED", DIM, 2)
        y += LINE
    cap = state.game.config.turn_cap
    draw.label(img, y, x, f"GOAL {GOAL} COLOURS", DIM, 2)
    draw.label(img, y + LINE, x, f"CAP {cap} TURNS", DIM, 2)


def _revealed_race(state: StarMasterPosition, seat: int | None) -> list[int] | None:
    """Every seat's choice in the race just over, when the viewer is shown it."""
    shown = seat is None or bool(state.in_window[seat, 1])
    if state.last_phase != RACE or state.phase == RACE or not shown:
        return None
    return state.last_race.tolist()


def _players(img: np.ndarray, state: StarMasterPosition, top: int, seat: int | None) -> None:
    n = state.game.num_players
    race = _revealed_race(state, seat)
    held = [float(h) for h in state.held]
    notes = ["COLOURS"] * n
    draw.player_rows(img, top, 4, SPLIT, held, state.current_player(), ROW, notes, GOAL)
    for p in range(n):
        y = top + p * ROW + ROW / 2
        for k, c in enumerate(np.flatnonzero(state.pawns[p])):
            draw.disc(img, y, SPLIT + 16 + k * 24, 8, CUBE_COLOURS[int(c)])
        if race is not None:  # the race just revealed: each seat's choice
            note = f"GRAB {race[p]}" if race[p] >= 0 else "ABSTAIN"
            x = WIDTH - 6 - draw.label_width(note, 2)
            draw.label(img, int(y) - 5, x, note, GOLD if race[p] >= 0 else DIM, 2)


def _status(state: StarMasterPosition) -> str:
    """``P1 TO MOVE``, ``DICE`` at a chance node, or the shared end-of-game wording."""
    if state.is_terminal() or state.current_player() >= 0:
        return draw.status_text(state)
    return "DICE"


def render_rgb(state: StarMasterPosition, seat: int | None = None) -> np.ndarray:
    """The picture as an ``H x W x 3`` uint8 array: the spectator's (``seat=None``, the
    true layout) or ``seat``'s (only what it is shown)."""
    n = state.game.num_players
    rows = board_rows(state)
    board_bottom = TOP + rows * CELL
    top = board_bottom + 10
    height = top + n * ROW + 2 * LINE + 10
    img = draw.canvas(height, WIDTH)
    who = "SPECTATOR" if seat is None else f"AS SEEN BY P{seat}"
    title = f"TURN {state.turn}/{state.game.config.turn_cap}  ROLLER P{state.roller}  {who}"
    draw.caption_line(img, 8, MARGIN, WIDTH - MARGIN, title)
    _board(img, state, seat)
    _panel(img, state)
    _players(img, state, top, seat)
    y = top + n * ROW + 4
    draw.caption_line(img, y, 6, WIDTH - 6, _status(state))
    draw.caption_line(img, y + LINE, 6, WIDTH - 6, "LAST: " + last_move_text(state, seat))
    draw.result_banner(img, state, top, y + LINE - 2)  # over the player rows and status
    return img
