"""``rgb_array`` render of a Moonwakers position (the spectator's view by default).

From the top: the round, the pile and discard sizes; the face-up COMBINATION cards (name,
one bar per atom of cost coloured by element, points); the table slots (terrain element
colour, biome and element, the explored face when the viewer knows it, a disc in the
colour of the character under it); then a row per player as in every moon-envs frame
(``>`` whose turn it is, label ``P0`` in the player's colour, a bar of combination points
towards the target, the points and a note: ability, SCAN / PROTECTION, MAP / EXPLORE,
claim) with that player's mapped cards and hand cards drawn small below it (a hand card
the viewer has not seen is dark); the phase and the last move. ``render_rgb(state, p)``
draws what seat ``p`` may know instead (sealed choices as ``?``).
"""

from __future__ import annotations

import numpy as np

from moon_envs.core import draw
from moon_envs.moonwakers.cards import ELEMENTS
from moon_envs.moonwakers.text import OPTIONS, last_step

ELEMENT_COLORS = [
    (110, 110, 110),  # C
    (120, 200, 255),  # H
    (80, 90, 220),  # N
    (230, 70, 70),  # O
    (240, 160, 40),  # P
    (230, 220, 60),  # S
]
SHORT = {
    "accident": "ACCIDENT",
    "infrared_storm": "IR STORM",
    "ionic_storm": "ION STORM",
    "labo": "LABO",
    "cryogen": "CRYOGEN",
    "defective_shelter": "DEFECT",
    "scan": "SCAN",
    "shelter": "SHELTER",
    "shield": "SHIELD",
}
WIDTH = 560
SLOT = 78
ROW = 22
BAND = 48
LINE = 18
DARK = (40, 42, 60)
MUTED = (150, 150, 170)


def explored_label(state, card: int) -> str:
    kind = state.cards.kind_name(card)
    if kind != "elements":
        return SHORT[kind]
    gives = state.cards.gives[card]
    return "".join(f"{ELEMENTS[e]}{gives[e] if gives[e] > 1 else ''}" for e in range(6) if gives[e])


def _sees(state, card: int, viewer: int | None) -> bool:
    return viewer is None or bool(state.known[card] >> viewer & 1)


def render_rgb(state, viewer: int | None = None) -> np.ndarray:
    """An ``H x W x 3`` uint8 image of ``state`` as ``viewer`` (``None``: a spectator) sees it."""
    n = state.n
    height = 232 + n * BAND + 3 * LINE + 8
    img = draw.canvas(height, WIDTH)
    who = "SPECTATOR" if viewer is None else f"VIEW P{viewer}"
    draw.label(img, 6, 8, f"ROUND {state.round}  {who}", draw.INK)
    under = f"+{len(state.pile_under)}" if state.pile_under else ""
    draw.label(img, 6, 300, f"PILE {len(state.pile)}{under}  DISCARD {len(state.discard)}", MUTED)
    _combos(img, state, 26)
    _table(img, state, viewer, 104)
    top = 226
    _seats(img, state, viewer, top)
    y = top + n * BAND + 4
    draw.caption_line(img, y, 6, WIDTH - 6, draw.status_text(state))
    draw.caption_line(img, y + LINE, 6, WIDTH - 6, f"PHASE {state.phase()}")
    last = last_step(state, viewer) if state.last[2] else "new game"
    draw.caption_line(img, y + 2 * LINE, 6, WIDTH - 6, "LAST: " + last)
    draw.result_banner(img, state, top, y + LINE - 2)  # over the player rows and status
    return img


def _combos(img: np.ndarray, state, top: int) -> None:
    cards = state.cards
    for k, combo in enumerate(state.combo_up):
        x0 = 8 + k * 182
        draw.frame(img, top, x0, top + 70, x0 + 174, draw.GRID)
        if combo < 0:
            draw.label(img, top + 30, x0 + 60, "EMPTY", DARK)
            continue
        draw.label(img, top + 6, x0 + 6, cards.combo_names[combo], draw.INK, 2, max_width=130)
        draw.label(img, top + 6, x0 + 148, str(cards.points_of[combo]), (250, 200, 60))
        x = x0 + 6
        for e, count in enumerate(cards.cost_of[combo]):
            for _ in range(count):
                draw.rect(img, top + 24, x, top + 44, x + 10, ELEMENT_COLORS[e])
                x += 12
        cost = " ".join(f"{ELEMENTS[e]}{v}" for e, v in enumerate(cards.cost_of[combo]) if v)
        draw.label(img, top + 52, x0 + 6, cost, MUTED, 2, max_width=160)


def _table(img: np.ndarray, state, viewer: int | None, top: int) -> None:
    cards = state.cards
    draw.label(img, top, 8, "TABLE", MUTED)
    slots = state.n + 1
    width = min(136, (WIDTH - 16) // slots)
    for k in range(slots):
        c = state.table[k]
        x0 = 8 + k * width
        y0 = top + 14
        x1 = x0 + width - 6
        draw.frame(img, y0, x0, y0 + 100, x1, draw.GRID)
        draw.label(img, y0 + 4, x0 + 4, str(k), MUTED)
        if c < 0:
            continue
        color = ELEMENT_COLORS[cards.element_of[c]]
        draw.rect(img, y0 + 4, x0 + 18, y0 + 32, x1 - 4, color)
        draw.label(img, y0 + 13, (x0 + x1) // 2 + 4, ELEMENTS[cards.element_of[c]], (10, 10, 20))
        biome = cards.terrain_biome[c]
        draw.label(img, y0 + 38, x0 + 4, biome, draw.INK, 1, max_width=width - 12)
        if _sees(state, c, viewer):
            public = state.known[c] == state.all_seats
            draw.label(
                img, y0 + 50, x0 + 4, explored_label(state, c),
                draw.INK if public else (160, 220, 160), 2, max_width=width - 12,
            )  # fmt: skip
        else:
            draw.label(img, y0 + 50, x0 + 4, "??", MUTED)
        seat = state.occupant[k]
        if seat >= 0:
            cx = (x0 + x1) / 2
            draw.disc(img, y0 + 80, cx, 12, draw.PLAYER_COLORS[seat])
            draw.label(img, y0 + 75, int(cx) - 7, f"P{seat}", (10, 10, 20))


def _note(state, x: int, viewer: int | None) -> str:
    parts = [state.ability(x).upper() or "-"]
    if state.frozen[x]:
        parts.append("FROZEN")
    opt = state.option[x]
    if opt >= 0:
        hidden = not state.options_public and viewer is not None and viewer != x
        parts.append("?" if hidden else OPTIONS[opt][:4])
    if state.reveal_choice[x] >= 0:
        parts.append(("MAP", "EXPL")[state.reveal_choice[x]])
    claim = state.claims[x]
    if claim >= -1:
        hidden = not state.claims_public and viewer is not None and viewer != x
        parts.append("CLAIM ?" if hidden else "PASS" if claim < 0 else f"CLAIM {claim}")
    return " ".join(parts)


def _seats(img: np.ndarray, state, viewer: int | None, top: int) -> None:
    cards = state.cards
    current = state.current_player()
    target = state.target
    for x in range(state.n):
        y = top + x * BAND
        color = draw.PLAYER_COLORS[x % len(draw.PLAYER_COLORS)]
        if x == current:
            draw.label(img, y + 5, 4, ">", draw.INK)
        draw.label(img, y + 5, 14, f"P{x}", color)
        tail = f"{state.points(x)}/{target} {_note(state, x, viewer)}"
        tail_w = min(330, draw.label_width(tail))
        x1 = WIDTH - 8 - tail_w - 8
        length = int((x1 - 40) * min(1.0, state.points(x) / target))
        draw.rect(img, y + 4, 40, y + 16, 40 + max(2, length), color)
        draw.label(img, y + 5, WIDTH - 8 - tail_w, tail, draw.INK, 2, max_width=330)
        draw.label(img, y + 23, 40, "MAP", MUTED, 1)
        for i, c in enumerate(state.mapped[x][:36]):
            x0 = 64 + i * 13
            draw.rect(img, y + 21, x0, y + 31, x0 + 11, ELEMENT_COLORS[cards.element_of[c]])
        draw.label(img, y + 36, 40, "HAND", MUTED, 1)
        for i, c in enumerate(state.hand[x][:36]):
            x0 = 64 + i * 13
            if not _sees(state, c, viewer):
                draw.rect(img, y + 33, x0, y + 44, x0 + 11, DARK)
                draw.label(img, y + 36, x0 + 4, "?", MUTED, 1)
                continue
            kind = cards.kind_name(c)
            if kind == "elements":
                gives = cards.gives[c]
                k = 0
                for e in range(6):
                    for _ in range(gives[e]):
                        draw.rect(
                            img, y + 33 + 4 * k, x0, y + 36 + 4 * k, x0 + 11, ELEMENT_COLORS[e]
                        )
                        k += 1
            else:
                draw.rect(img, y + 33, x0, y + 44, x0 + 11, (200, 200, 210))
                draw.label(img, y + 36, x0 + 4, SHORT[kind][0], (10, 10, 20), 1)
