"""``rgb_array`` render of a Moonwakers position (the spectator's view).

Top row: the face-up COMBINATION cards (one bar per atom of cost, coloured by element).
Middle row: the table cards (terrain element colour; a disc in the occupant's colour).
Bottom: one band per seat: mapped cards, hand cards and combination points.
"""

from __future__ import annotations

import numpy as np

from moon_envs.core import draw

ELEMENT_COLORS = [
    (90, 90, 90),
    (120, 200, 255),
    (80, 90, 220),
    (230, 70, 70),
    (240, 160, 40),
    (230, 220, 60),
]


def render_rgb(state) -> np.ndarray:
    cards = state.cards
    n = state.n
    img = draw.canvas(120 + 40 * n, 420)
    for k, combo in enumerate(state.combo_up):
        x0 = 10 + k * 130
        draw.frame(img, 8, x0, 48, x0 + 120, draw.INK)
        if combo < 0:
            continue
        x = x0 + 6
        for e, count in enumerate(cards.combo_cost[combo]):
            for _ in range(int(count)):
                draw.rect(img, 14, x, 30, x + 8, ELEMENT_COLORS[e])
                x += 10
        draw.text(img, 34, x0 + 6, str(int(cards.combo_points[combo])))
    for k, c in enumerate(state.table):
        x0 = 10 + k * 58
        draw.frame(img, 60, x0, 108, x0 + 50, draw.GRID)
        if c < 0:
            continue
        draw.rect(img, 62, x0 + 2, 106, x0 + 48, ELEMENT_COLORS[int(cards.terrain_element[c])])
        if state.occupant[k] >= 0:
            draw.disc(img, 84, x0 + 25, 10, draw.PLAYER_COLORS[state.occupant[k]])
    for x in range(n):
        y = 118 + 40 * x
        draw.rect(img, y, 4, y + 34, 10, draw.PLAYER_COLORS[x])
        for i, c in enumerate(state.mapped[x][:20]):
            draw.rect(
                img,
                y,
                16 + i * 9,
                y + 14,
                23 + i * 9,
                ELEMENT_COLORS[int(cards.terrain_element[c])],
            )
        for i, c in enumerate(state.hand[x][:20]):
            draw.rect(img, y + 18, 16 + i * 9, y + 32, 23 + i * 9, draw.INK)
        draw.text(img, y + 10, 380, str(state.points(x)))
    return img
