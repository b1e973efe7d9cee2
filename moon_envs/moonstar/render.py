"""rgb_array render of a Moonstar position: the ring of twelve stars with planets (value
written inside, the red planet ringed in red), unmoved moons (grey) and moved moons (white)
around each star, the dice below (used dice dimmed), the high bid, and a score bar per
player (the player of the round marked)."""

from __future__ import annotations

import math

import numpy as np

from moon_envs.core import draw
from moon_envs.moonstar.rules import MoonstarState

SIZE = 360
RING = 130
STAR_R = 20
DIE = 26
BAR = 18


def render_rgb(state: MoonstarState) -> np.ndarray:
    """An ``H x W x 3`` uint8 image of ``state``."""
    g = state.game
    n = g.n
    height = SIZE + DIE + 16 + n * BAR + 16
    img = draw.canvas(height, SIZE)
    cy = cx = SIZE / 2
    for s in range(12):
        ang = -math.pi / 2 + 2 * math.pi * s / 12
        y, x = cy + RING * math.sin(ang), cx + RING * math.cos(ang)
        if s == state.red_star:
            draw.disc(img, y, x, STAR_R + 4, (220, 40, 40))
        value = int(state.planet_value[s])
        color = (90, 120, 200) if value else (45, 50, 80)
        draw.disc(img, y, x, STAR_R, color)
        label = str(value) if value else str(s)
        draw.text(img, int(y) - 5, int(x) - 4 * len(label), label, draw.INK, 2)
        # moons on this star, placed on a small arc outside the star
        k = 0
        for m in range(g.max_moons):
            if state.moon_star[m] != s:
                continue
            a2 = ang + (k - 1) * 0.16
            my, mx = (
                cy + (RING + STAR_R + 12) * math.sin(a2),
                cx + (RING + STAR_R + 12) * math.cos(a2),
            )
            mcol = (245, 245, 245) if state.moon_moved[m] else (150, 150, 160)
            draw.disc(img, my, mx, 5, mcol)
            k += 1
    if state.high_bid:
        draw.text(img, int(cy) - 20, int(cx) - 12, str(state.high_bid), draw.INK, 3)
    if state.phase == "play":
        draw.text(img, int(cy) + 10, int(cx) - 12, str(state.round_total), (120, 220, 120), 3)
    y0 = SIZE + 4
    for d in range(g.max_dice):
        face = int(state.dice[d])
        if face:
            x0 = 8 + d * (DIE + 6)
            draw.pips(img, y0, x0, DIE, face, (20, 20, 20))
            if state.die_used[d]:
                img[y0 : y0 + DIE, x0 : x0 + DIE] //= 3
    top = SIZE + DIE + 16
    scale = max(1, int(np.abs(state.points).max()), g.config.target)
    for s in range(n):
        y = top + s * BAR
        color = draw.PLAYER_COLORS[s % len(draw.PLAYER_COLORS)]
        if s == state.bidder:
            draw.rect(img, y + 3, 2, y + BAR - 3, 8, draw.INK)
        length = int((SIZE - 80) * max(0, int(state.points[s])) / scale)
        draw.rect(img, y + 4, 12, y + BAR - 4, 12 + max(2, length), color)
        draw.text(img, y + 4, SIZE - 60, str(int(state.points[s])), draw.INK, 2)
    return img
