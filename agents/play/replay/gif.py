"""Animated GIF of a recorded game (Pillow, the ``render`` extra)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from moon_envs.core import draw

LINE = 16  # caption line height (3x5 capitals at scale 2, with a gap)
MAX_LINES = 3


def require_pillow() -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(
            'writing a GIF needs Pillow: pip install "moon-envs[render]" (or pip install pillow)'
        ) from None
    return Image


def caption_lines(caption: str, width: int) -> int:
    """How many lines ``caption`` takes above a frame ``width`` pixels wide (at most 3)."""
    return min(MAX_LINES, len(draw.wrap_label(caption, width - 10)))


def captioned(frame: np.ndarray, caption: str, lines: int | None = None) -> np.ndarray:
    """``frame`` with a strip above it holding ``caption`` (letters, digits, signs) wrapped
    over ``lines`` lines (default: as many as it needs, at most 3)."""
    h, w = frame.shape[:2]
    lines = lines or caption_lines(caption, w)
    strip = lines * LINE + 6
    out = draw.canvas(h + strip, w)
    out[strip:] = frame
    draw.label_lines(out, 5, 5, caption, w - 10, lines, draw.INK, 2, line_height=LINE)
    return out


MS_RANGE = (20, 10_000)  # browsers show faster frames at 100 ms; GIF counts in 10 ms
GAME_SECONDS = 45  # the default frame time plays a whole game in about this long
DEFAULT_MS = (150, 700)  # ... within these bounds


def frame_ms(frames: int, ms_per_step: int | None = None) -> int:
    """The time each frame shows: ``ms_per_step`` when given (checked against
    :data:`MS_RANGE`), else sized to the game, 700 ms a frame for a short game down to
    150 ms for a long one (a 400-step Moonwakers game plays in 60 s, not 4.7 minutes)."""
    if ms_per_step is not None:
        lo, hi = MS_RANGE
        if isinstance(ms_per_step, bool) or not isinstance(ms_per_step, int):
            raise ValueError(f"gif frame time: {ms_per_step!r} is not a whole number of ms")
        if not lo <= ms_per_step <= hi:
            raise ValueError(f"gif frame time: {ms_per_step} ms; allowed: {lo}..{hi}")
        return ms_per_step
    lo, hi = DEFAULT_MS
    return int(min(hi, max(lo, round(GAME_SECONDS * 1000 / max(frames, 1), -1))))


def write_gif(steps: Sequence[Any], path: str, ms_per_step: int | None = None) -> None:
    """Write the steps' frames (with their captions) as an animated GIF at ``path``, each
    frame shown :func:`frame_ms` long (the last four times as long)."""
    image = require_pillow()
    # numbered captions keep every step a frame of its own (equal frames would merge)
    shown = [(f"{i}. {s.caption}", s.frame) for i, s in enumerate(steps) if s.frame is not None]
    # one strip height for the whole GIF: the most lines any caption needs
    lines = max((caption_lines(c, f.shape[1]) for c, f in shown), default=1)
    frames = [captioned(f, c, lines) for c, f in shown]
    if not frames:
        raise ValueError("this game has no rgb_array picture to put in a GIF")
    pics = [image.fromarray(f) for f in frames]
    ms = frame_ms(len(pics), ms_per_step)
    durations = [ms] * (len(pics) - 1) + [ms * 4]  # linger on the end
    pics[0].save(
        path, save_all=True, append_images=pics[1:], duration=durations, loop=0, optimize=False
    )
