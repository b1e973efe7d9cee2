"""Animated GIF of a recorded game (Pillow, the ``render`` extra)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from moon_envs.core import draw

CAPTION = 22


def require_pillow() -> Any:
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(
            'writing a GIF needs Pillow: pip install "moon-envs[render]" (or pip install pillow)'
        ) from None
    return Image


def captioned(frame: np.ndarray, caption: str) -> np.ndarray:
    """``frame`` with a strip above it holding ``caption`` (letters, digits, signs)."""
    h, w = frame.shape[:2]
    out = draw.canvas(h + CAPTION, w)
    out[CAPTION:] = frame
    draw.label(out, 5, 4, caption, draw.INK, 2, max_width=w - 8)
    return out


def write_gif(steps: Sequence[Any], path: str, ms_per_step: int = 700) -> None:
    """Write the steps' frames (with their captions) as an animated GIF at ``path``."""
    image = require_pillow()
    # numbered captions keep every step a frame of its own (equal frames would merge)
    frames = [
        captioned(s.frame, f"{i}. {s.caption}") for i, s in enumerate(steps) if s.frame is not None
    ]
    if not frames:
        raise ValueError("this game has no rgb_array picture to put in a GIF")
    pics = [image.fromarray(f) for f in frames]
    durations = [ms_per_step] * (len(pics) - 1) + [ms_per_step * 4]  # linger on the end
    pics[0].save(
        path, save_all=True, append_images=pics[1:], duration=durations, loop=0, optimize=False
    )
