"""Vector (SVG) copies of the pictures drawn with :mod:`moon_envs.core.draw`.

Every picture of the collection is drawn with a handful of primitives (``canvas``,
``rect``, ``disc``, ``text`` / ``label``, ``dim``). Inside :func:`recording`, each primitive
also appends its SVG element to a list, so one render call gives both the ``rgb_array``
picture and a resolution-free copy of it (the HTML replays show the latter)::

    from moon_envs.core.svg_record import picture_and_svg
    rgb, svg = picture_and_svg(render_rgb, state)   # svg: a whole <svg> document

Text is recorded as SVG ``<text>`` (monospace, stretched to the pixel font's width), not
as the pixels of the bitmap font.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

_sink: list[str] | None = None
_muted = 0


@contextmanager
def recording() -> Iterator[list[str]]:
    """Collect the SVG elements of everything drawn inside the block (nested blocks
    collect for themselves)."""
    global _sink
    saved, _sink = _sink, []
    try:
        yield _sink
    finally:
        _sink = saved


def active() -> bool:
    """Whether a drawing primitive should record its element now."""
    return _sink is not None and not _muted


def emit(element: str) -> None:
    """Record ``element``; callers check :func:`active` first."""
    _sink.append(element)


@contextmanager
def muted() -> Iterator[None]:
    """Primitives drawn inside the block are not recorded (a text's pixels, say)."""
    global _muted
    _muted += 1
    try:
        yield
    finally:
        _muted -= 1


def colour(c: tuple[int, int, int]) -> str:
    r, g, b = (int(v) for v in c)
    return f"#{r:02x}{g:02x}{b:02x}"


def rect_element(y0: int, x0: int, y1: int, x1: int, c: tuple[int, int, int]) -> str:
    return f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" fill="{colour(c)}"/>'


def text_element(y: int, x: int, s: str, c: tuple[int, int, int], scale: int) -> str:
    """``s`` as the pixel font draws it: cap height ``5 * scale`` from ``y``, ``4 * scale``
    per character."""
    width = max(1, len(s) * 4 * scale - scale)
    return (
        f'<text x="{x}" y="{y + 5 * scale}" fill="{colour(c)}" font-family="monospace" '
        f'font-size="{7 * scale}" textLength="{width}" lengthAdjust="spacingAndGlyphs" '
        f'xml:space="preserve">{html.escape(s)}</text>'
    )


def svg_document(elements: list[str], width: int, height: int) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">' + "".join(elements) + "</svg>"
    )


def picture_and_svg(
    renderer: Callable[..., np.ndarray], state: Any, *args: Any
) -> tuple[np.ndarray, str]:
    """``renderer(state, *args)`` and the same picture as an SVG document."""
    with recording() as elements:
        picture = renderer(state, *args)
    return picture, svg_document(elements, picture.shape[1], picture.shape[0])
