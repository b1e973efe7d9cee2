"""Tiny numpy raster helpers for ``rgb_array`` renders (no Pillow or pygame needed).

All functions draw in place on an ``H x W x 3`` uint8 canvas and clip at its edges; inside
:func:`moon_envs.core.svg_record.recording` they also record SVG elements, so every
picture has a vector copy.
"""

from __future__ import annotations

import numpy as np

from moon_envs.core import svg_record

Color = tuple[int, int, int]

PLAYER_COLORS: list[Color] = [
    (220, 60, 60),  # red
    (240, 200, 40),  # yellow
    (60, 140, 230),  # blue
    (70, 190, 90),  # green
    (200, 90, 220),  # purple
    (250, 140, 40),  # orange
    (60, 210, 210),  # cyan
    (230, 230, 230),  # white
]
BACKGROUND: Color = (12, 14, 32)
GRID: Color = (70, 75, 110)
INK: Color = (235, 235, 245)

# 3x5 bitmap font: digits, a few letters and signs
_FONT = {
    "0": "111101101101111",
    "1": "010110010010111",
    "2": "111001111100111",
    "3": "111001111001111",
    "4": "101101111001001",
    "5": "111100111001111",
    "6": "111100111101111",
    "7": "111001010010010",
    "8": "111101111101111",
    "9": "111101111001111",
    "-": "000000111000000",
    "+": "000010111010000",
    "x": "000101010101000",
    " ": "000000000000000",
    ":": "000010000010000",
    "/": "001001010100100",
    ".": "000000000000010",
}


def canvas(height: int, width: int, color: Color = BACKGROUND) -> np.ndarray:
    img = np.empty((height, width, 3), dtype=np.uint8)
    img[:] = color
    if svg_record.active():
        svg_record.emit(svg_record.rect_element(0, 0, height, width, color))
    return img


def rect(img: np.ndarray, y0: int, x0: int, y1: int, x1: int, color: Color) -> None:
    """Fill the rectangle ``[y0, y1) x [x0, x1)``."""
    h, w = img.shape[:2]
    y0, y1, x0, x1 = max(0, y0), min(h, y1), max(0, x0), min(w, x1)
    img[y0:y1, x0:x1] = color
    if y0 < y1 and x0 < x1 and svg_record.active():
        svg_record.emit(svg_record.rect_element(y0, x0, y1, x1, color))


def dim(img: np.ndarray, y0: int, x0: int, y1: int, x1: int, factor: int = 3) -> None:
    """Darken the rectangle ``[y0, y1) x [x0, x1)`` to ``1 / factor`` of its brightness."""
    h, w = img.shape[:2]
    y0, y1, x0, x1 = max(0, y0), min(h, y1), max(0, x0), min(w, x1)
    img[y0:y1, x0:x1] //= factor
    if y0 < y1 and x0 < x1 and svg_record.active():
        svg_record.emit(
            f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" fill="#000" '
            f'fill-opacity="{1 - 1 / factor:.3f}"/>'
        )


def frame(img: np.ndarray, y0: int, x0: int, y1: int, x1: int, color: Color, t: int = 1) -> None:
    """Outline of the rectangle ``[y0, y1) x [x0, x1)`` with thickness ``t``."""
    rect(img, y0, x0, y0 + t, x1, color)
    rect(img, y1 - t, x0, y1, x1, color)
    rect(img, y0, x0, y1, x0 + t, color)
    rect(img, y0, x1 - t, y1, x1, color)


def disc(img: np.ndarray, cy: float, cx: float, r: float, color: Color) -> None:
    """Fill a disc of radius ``r`` centred on ``(cy, cx)``."""
    h, w = img.shape[:2]
    y0, y1 = int(max(0, cy - r)), int(min(h, cy + r + 1))
    x0, x1 = int(max(0, cx - r)), int(min(w, cx + r + 1))
    if y0 >= y1 or x0 >= x1:
        return
    yy, xx = np.ogrid[y0:y1, x0:x1]
    inside = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
    img[y0:y1, x0:x1][inside] = color
    if svg_record.active():
        svg_record.emit(
            f'<circle cx="{cx + 0.5:g}" cy="{cy + 0.5:g}" r="{r + 0.5:g}" '
            f'fill="{svg_record.colour(color)}"/>'
        )


def text(img: np.ndarray, y: int, x: int, s: str, color: Color = INK, scale: int = 2) -> None:
    """Draw ``s`` (digits and ``-+x:/.`` ) with the 3x5 font, top-left at ``(y, x)``."""
    _glyphs(img, y, x, s, color, scale, _FONT)


def _glyphs(
    img: np.ndarray, y: int, x: int, s: str, color: Color, scale: int, font: dict[str, str]
) -> None:
    """``s`` in the 3x5 pixel ``font`` (unknown characters left blank); recorded as one
    SVG text, not as its pixels."""
    if svg_record.active():
        shown = "".join(ch if ch in font else " " for ch in s)
        if shown.strip():
            svg_record.emit(svg_record.text_element(y, x, shown, color, scale))
    with svg_record.muted():
        for i, ch in enumerate(s):
            bits = font.get(ch)
            if bits is None:
                continue
            for k, b in enumerate(bits):
                if b == "1":
                    r, c = divmod(k, 3)
                    yy = y + r * scale
                    xx = x + (i * 4 + c) * scale
                    rect(img, yy, xx, yy + scale, xx + scale, color)


def pips(img: np.ndarray, y0: int, x0: int, size: int, value: int, color: Color) -> None:
    """A die face showing ``value`` (1..6) in the square at ``(y0, x0)``."""
    rect(img, y0, x0, y0 + size, x0 + size, (245, 245, 245))
    spots = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (0, 2), (2, 0), (2, 2)],
        5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
        6: [(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)],
    }
    step = size / 4
    for r, c in spots.get(int(value), []):
        disc(img, y0 + step * (r + 1), x0 + step * (c + 1), max(1.5, size / 12), color)


# 3x5 capitals and more signs for labels (``label`` upper-cases its text)
_LETTERS = {
    "A": "010101111101101",
    "B": "110101110101110",
    "C": "011100100100011",
    "D": "110101101101110",
    "E": "111100110100111",
    "F": "111100110100100",
    "G": "011100101101011",
    "H": "101101111101101",
    "I": "111010010010111",
    "J": "001001001101010",
    "K": "101101110101101",
    "L": "100100100100111",
    "M": "101111111101101",
    "N": "110101101101101",
    "O": "010101101101010",
    "P": "110101110100100",
    "Q": "010101101110011",
    "R": "110101110101101",
    "S": "011100010001110",
    "T": "111010010010010",
    "U": "101101101101111",
    "V": "101101101101010",
    "W": "101101111111101",
    "X": "101101010101101",
    "Y": "101101010010010",
    "Z": "111001010100111",
    "(": "010100100100010",
    ")": "010001001001010",
    "_": "000000000000111",
    ",": "000000000010100",
    ">": "100010001010100",
    "<": "001010100010001",
    "=": "000111000111000",
    "!": "010010010000010",
    "?": "110001010000010",
    "*": "000101010101000",
    "#": "101111101111101",
    "'": "010010000000000",
    "[": "110100100100110",
    "]": "011001001001011",
}
_LABEL_FONT = {**_FONT, **_LETTERS}


def label_width(s: str, scale: int = 2) -> int:
    """Width in pixels of ``label(..., s, scale=scale)``."""
    return max(0, len(s) * 4 * scale - scale)


def label(
    img: np.ndarray,
    y: int,
    x: int,
    s: str,
    color: Color = INK,
    scale: int = 2,
    max_width: int | None = None,
) -> None:
    """Draw ``s`` in 3x5 capitals, digits and signs, top-left at ``(y, x)``; lower case is
    drawn as upper case, unknown characters as blanks. With ``max_width`` the text is cut
    to fit, ending in ``..``."""
    s = s.upper()
    if max_width is not None and label_width(s, scale) > max_width:
        keep = max(0, (max_width + scale) // (4 * scale) - 2)
        s = s[:keep] + ".."
    _glyphs(img, y, x, s, color, scale, _LABEL_FONT)


def player_rows(
    img: np.ndarray,
    top: int,
    left: int,
    right: int,
    values: list[float],
    current: int,
    row: int = 20,
    notes: list[str] | None = None,
    scale_to: float | None = None,
) -> None:
    """One row per seat from ``top``: a marker when the seat is ``current`` (to move), its
    label ``P0`` in its colour, a bar proportional to its value, the value and an optional
    note (e.g. ``BID 40``), all between ``left`` and ``right``."""
    best = max([1.0, float(scale_to or 0), *(abs(float(v)) for v in values)])
    for s, v in enumerate(values):
        y = top + s * row
        color = PLAYER_COLORS[s % len(PLAYER_COLORS)]
        if s == current:
            label(img, y + row // 2 - 5, left, ">", INK, 2)
        label(img, y + row // 2 - 5, left + 10, f"P{s}", color, 2)
        note = (notes or [""] * len(values))[s]
        tail = f"{v:g} {note}".strip()
        tail_w = label_width(tail, 2)
        x0, x1 = left + 34, right - tail_w - 8
        length = int((x1 - x0) * max(0.0, float(v)) / best)
        rect(img, y + 4, x0, y + row - 4, x0 + max(2, length), color)
        label(img, y + row // 2 - 5, right - tail_w, tail, INK, 2)


def caption_line(img: np.ndarray, y: int, left: int, right: int, s: str) -> None:
    """A line of text from ``left`` (cut to end before ``right``), e.g. the last move."""
    label(img, y, left, s, INK, 2, max_width=right - left)


def wrap_label(s: str, max_width: int, scale: int = 2) -> list[str]:
    """``s`` broken at spaces into lines that each fit ``max_width`` pixels with
    :func:`label` (a word wider than a line is left whole: ``label`` cuts it)."""
    lines: list[str] = []
    for word in s.split():
        if lines and label_width(f"{lines[-1]} {word}", scale) <= max_width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def label_lines(
    img: np.ndarray,
    y: int,
    x: int,
    s: str,
    max_width: int,
    max_lines: int = 2,
    color: Color = INK,
    scale: int = 2,
    line_height: int | None = None,
) -> int:
    """``s`` wrapped over at most ``max_lines`` lines of ``max_width`` pixels from ``(y, x)``,
    the last line cut with ``..`` if the text goes on; returns the lines drawn."""
    step = line_height or 8 * scale
    lines = wrap_label(s, max_width, scale)
    if len(lines) > max_lines:
        rest = " ".join(lines[max_lines - 1 :])
        lines = [*lines[: max_lines - 1], rest]
    for i, line in enumerate(lines):
        label(img, y + i * step, x, line, color, scale, max_width=max_width)
    return len(lines)


def winners_text(winners: list[int]) -> str:
    """``P1 WINS``, ``P0 AND P2 SHARE THE WIN`` or ``NO WINNER``."""
    if not winners:
        return "NO WINNER"
    if len(winners) == 1:
        return f"P{winners[0]} WINS"
    return " AND ".join(f"P{w}" for w in winners) + " SHARE THE WIN"


def status_text(state) -> str:
    """Whose turn it is (``P1 TO MOVE``, ``CHANCE``) or, at the end, the result
    (``GAME OVER: P1 WINS``) of a ``moon_envs`` state."""
    if state.is_terminal():
        return "GAME OVER: " + winners_text([int(w) for w in state.winners()])
    current = int(state.current_player())
    return f"P{current} TO MOVE" if current >= 0 else "CHANCE"


def result_banner(
    img: np.ndarray, state, top: int | None = None, bottom: int | None = None, scale: int = 2
) -> bool:
    """On a finished game, a framed banner: ``GAME OVER``, the winners (in the winner's
    colour) and every seat's score (each in its colour). Draws nothing and returns False
    while the game goes on.

    It fills rows ``top`` to ``bottom`` (its text centred in them), or more when it needs
    more, downwards: a game's picture gives the rows under its board that the banner sums
    up (its player rows and status line), so the final board and last move stay in
    sight. Without ``top`` it is centred in the image."""
    if not state.is_terminal():
        return False
    h, w = img.shape[:2]
    winners = [int(x) for x in state.winners()]
    scores = [f"P{s} {float(v):g}" for s, v in enumerate(state.scores())]
    line = 8 * scale
    inner = w - 8 - 4 * scale
    gap = "   "
    score_lines: list[list[str]] = [[]]  # the seats' scores, as many per line as fit
    for part in scores:
        if score_lines[-1] and label_width(gap.join([*score_lines[-1], part]), scale) > inner:
            score_lines.append([])
        score_lines[-1].append(part)
    score_lines = score_lines[:3]
    rows = 2 + len(score_lines)
    height = rows * line + 3 * scale + 4
    y0 = max(0, h // 2 - height // 2) if top is None else top
    y1 = max(y0 + height, bottom or 0)
    x0, x1 = 2, w - 2  # the whole width of the player rows and status lines under it
    edge = PLAYER_COLORS[winners[0] % len(PLAYER_COLORS)] if len(winners) == 1 else INK
    rect(img, y0, x0, y1, x1, BACKGROUND)
    frame(img, y0, x0, y1, x1, edge, max(2, scale))
    left = x0 + 2 * scale + 2

    def centred(y: int, text: str, color: Color) -> None:
        width = min(label_width(text, scale), inner)
        label(img, y, max(left, (x0 + x1 - width) // 2), text, color, scale, max_width=inner)

    y = y0 + (y1 - y0 - height) // 2 + 2 * scale + 2
    centred(y, "GAME OVER", INK)
    centred(y + line, winners_text(winners), edge)
    for k, parts in enumerate(score_lines):  # each seat's score in its colour
        x = max(left, (x0 + x1 - label_width(gap.join(parts), scale)) // 2)
        for part in parts:
            seat = int(part.split()[0][1:])
            color = PLAYER_COLORS[seat % len(PLAYER_COLORS)]
            label(img, y + (2 + k) * line, x, part, color, scale)
            x += label_width(part + gap, scale) + scale
    return True
