"""rgb_array render of a Moonstar position: the ring of twelve numbered stars, each with
its planet's value beside it (gold; the red planet ringed in red) and its moon count
(``x2``) by its moons (grey unmoved, white moved); the high bid and the round total in
the middle, the dice below (used dice dimmed, each die's index under it, as moves name
them: ``die 4 (face 2)``), a row per player (label ``P0`` in the player's colour, points,
``BID`` beside the bidder, ``>`` whose turn it is, ``OUT`` for an excluded seat), the
phase and whose turn it is, the last move over two lines, and a legend of the ring's
marks (:func:`legend`); a finished game's frame shows the result under the ring and dice
(:func:`moon_envs.core.draw.result_banner`)."""

from __future__ import annotations

import math

import numpy as np

from moon_envs.core import draw
from moon_envs.moonstar.rules import MoonstarState

SIZE = 400
RING = 128
STAR_R = 18
DIE = 26
INDEX = 14  # the dice's index labels under them
ROW = 20
LINE = 18
GOLD = (250, 200, 60)
STAR_BLUE = (90, 120, 200)
EMPTY_STAR = (45, 50, 80)
RED_RING = (220, 40, 40)
MOON_GREY, MOON_WHITE = (150, 150, 160), (245, 245, 245)
COUNT_GREY = (190, 190, 200)
DIM = (150, 150, 170)
LEGEND_LINES = 2


def _star_xy(star: int, radius: float) -> tuple[float, float]:
    ang = -math.pi / 2 + 2 * math.pi * star / 12
    return SIZE / 2 + radius * math.sin(ang), SIZE / 2 + radius * math.cos(ang)


def _centered(
    img: np.ndarray, y: float, x: float, s: str, color: draw.Color, scale: int = 2
) -> None:
    """``s`` centred on ``(y, x)``."""
    top = int(y) - 5 * scale // 2
    draw.label(img, top, int(x) - draw.label_width(s, scale) // 2, s, color, scale)


def render_rgb(state: MoonstarState, seat: int | None = None) -> np.ndarray:
    """An ``H x W x 3`` uint8 image of ``state``.

    ``seat`` (the env's ``render_seat``) changes nothing: the picture shows only what
    every seat knows.
    """
    g = state.game
    n = g.n
    height = SIZE + DIE + INDEX + 12 + n * ROW + (3 + LEGEND_LINES) * LINE + 10
    img = draw.canvas(height, SIZE)
    counts = np.zeros(12, dtype=int)
    for m in range(g.max_moons):
        if state.moon_star[m] >= 0:
            counts[int(state.moon_star[m])] += 1
    for s in range(12):
        y, x = _star_xy(s, RING)
        if s == state.red_star:
            draw.disc(img, y, x, STAR_R + 4, RED_RING)
        value = int(state.planet_value[s])
        draw.disc(img, y, x, STAR_R, STAR_BLUE if value else EMPTY_STAR)
        _centered(img, y, x, str(s), draw.INK)
        if value:
            py, px = _star_xy(s, RING - STAR_R - 18)
            _centered(img, py, px, str(value), GOLD)
        ang = -math.pi / 2 + 2 * math.pi * s / 12
        k = 0
        for m in range(g.max_moons):
            if state.moon_star[m] != s:
                continue
            a2 = ang + (k - 1) * 0.13
            my = SIZE / 2 + (RING + STAR_R + 10) * math.sin(a2)
            mx = SIZE / 2 + (RING + STAR_R + 10) * math.cos(a2)
            draw.disc(img, my, mx, 5, MOON_WHITE if state.moon_moved[m] else MOON_GREY)
            k += 1
        if counts[s]:
            cy, cx = _star_xy(s, RING + STAR_R + 30)
            _centered(img, cy, cx, f"x{counts[s]}", COUNT_GREY)
    mid = SIZE / 2
    if state.high_bid:
        _centered(img, mid - 22, mid, f"BID {state.high_bid}", draw.INK)
    if state.phase == "play":
        _centered(img, mid, mid, f"TOTAL {state.round_total}", (120, 220, 120))
    _centered(img, mid + 22, mid, f"ROUND {state.round_no}", DIM)
    y0 = SIZE + 4
    for d in range(g.max_dice):
        face = int(state.dice[d])
        if face:
            x0 = 8 + d * (DIE + 6)
            draw.pips(img, y0, x0, DIE, face, (20, 20, 20))
            if state.die_used[d]:
                draw.dim(img, y0, x0, y0 + DIE, x0 + DIE)
            _centered(img, y0 + DIE + 8, x0 + DIE / 2, str(d), DIM)
    top = SIZE + DIE + INDEX + 12
    notes = []
    for s in range(n):
        note = f"BID {state.high_bid}" if s == state.bidder and state.high_bid else ""
        if s == state.excluded:
            note = (note + " OUT").strip()
        notes.append(note)
    current = state.current_player()
    draw.player_rows(
        img, top, 4, SIZE - 6, [float(p) for p in state.points], current, ROW, notes,
        scale_to=g.config.target,
    )  # fmt: skip
    y = top + n * ROW + 4
    status = draw.status_text(state)
    draw.caption_line(img, y, 6, SIZE - 6, status if state.is_terminal() else
                      f"PHASE {state.phase}  {status}")  # fmt: skip
    last = "LAST: " + str(getattr(state, "last_action", ""))
    draw.label_lines(img, y + LINE, 6, last, SIZE - 12, 2, line_height=LINE)
    legend(img, y + 3 * LINE + 4)
    draw.result_banner(img, state, top, y + LINE - 2)  # over the player rows and status
    return img


def legend(img: np.ndarray, top: int) -> None:
    """Two lines from ``top`` naming the ring's marks, each beside a sample drawn as on the
    ring: the star (its number), a planet's value (gold), the red planet's ring, an
    unmoved and a moved moon, the moon count and a die's index."""
    r = 6  # the samples' radius
    y = top + 5
    draw.disc(img, y, 12, r, STAR_BLUE)
    _centered(img, y, 12, "7", draw.INK, 1)
    draw.label(img, top, 22, "STAR", draw.INK)
    draw.label(img, top, 68, "5", GOLD)
    draw.label(img, top, 80, "PLANET VALUE", draw.INK)
    draw.disc(img, y, 196, r + 2, RED_RING)
    draw.disc(img, y, 196, r, STAR_BLUE)
    draw.label(img, top, 208, "RED PLANET", draw.INK)
    y, top = y + LINE, top + LINE
    draw.disc(img, y, 12, 5, MOON_GREY)
    draw.label(img, top, 22, "MOON", draw.INK)
    draw.disc(img, y, 68, 5, MOON_WHITE)
    draw.label(img, top, 78, "MOVED", draw.INK)
    draw.label(img, top, 128, "X2", COUNT_GREY)
    draw.label(img, top, 148, "MOONS", draw.INK)
    draw.label(img, top, 200, "0", DIM)
    draw.label(img, top, 212, "DIE INDEX", draw.INK)
