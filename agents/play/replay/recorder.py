"""Record a game step by step and write it as an animated GIF and/or an HTML replay."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from moon_envs.core.game import State


@dataclass
class Step:
    """One position of a replay: its picture, text view, scores and how it was reached."""

    frame: np.ndarray | None
    text: str
    caption: str
    scores: list[float]
    to_move: int
    board_svg: str | None = None
    """The same picture as ``frame``, as an SVG document (vector shapes and text)."""


def frame_of(env: Any, state: State) -> np.ndarray | None:
    """The env's ``rgb_array`` picture of ``state``, or ``None`` if the game has none."""
    renderer = type(env).rgb_renderer
    return None if renderer is None else renderer(state)


def snapshot(env: Any, state: State, caption: str) -> Step:
    """A :class:`Step` for ``state`` as a spectator sees it (the picture both as pixels,
    for GIFs, and as SVG, for HTML replays)."""
    from moon_envs.core.svg_record import picture_and_svg

    renderer = type(env).rgb_renderer
    frame, board = picture_and_svg(renderer, state) if renderer is not None else (None, None)
    return Step(
        frame=frame,
        text=state.to_string(None),
        caption=caption,
        scores=[float(x) for x in state.scores()],
        to_move=int(state.current_player()),
        board_svg=board,
    )


class Recorder:
    """Collects the steps of one game played in ``env``, then writes the files asked for.

    Args:
        env: the moon-envs AEC env the game is played in.
        gif: path of the animated GIF to write (needs Pillow), or ``None``.
        html: path of the self-contained HTML replay to write, or ``None``.
        title: the replay's title.
        gif_ms: each GIF frame's time in ms; ``None`` sizes it to the game
            (:func:`moon_agents.play.replay.gif.frame_ms`).
    """

    def __init__(
        self,
        env: Any,
        gif: str | None = None,
        html: str | None = None,
        title: str = "",
        gif_ms: int | None = None,
    ) -> None:
        if gif:
            from moon_agents.play.replay.gif import frame_ms, require_pillow

            require_pillow()  # fail before the game, not after it
            frame_ms(1, gif_ms)  # and refuse a bad frame time before it too
        self.gif_ms = gif_ms
        self.env = env
        self.gif = gif
        self.html = html
        self.title = title or env.metadata.get("name", "game")
        self.steps: list[Step] = []

    def start(self, state: State, caption: str = "start") -> None:
        self.steps = [snapshot(self.env, state, caption)]

    def add(self, state: State, caption: str) -> None:
        self.steps.append(snapshot(self.env, state, caption))

    def finish(self, player_names: list[str]) -> list[str]:
        """Write the files (making their folders as needed); returns their paths."""
        written = []
        for path in (self.gif, self.html):
            if path:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        if self.gif:
            from moon_agents.play.replay.gif import write_gif

            write_gif(self.steps, self.gif, self.gif_ms)
            written.append(str(Path(self.gif)))
        if self.html:
            from moon_agents.play.replay.html import write_html

            write_html(self.steps, self.html, self.title, player_names)
            written.append(str(Path(self.html)))
        return written
