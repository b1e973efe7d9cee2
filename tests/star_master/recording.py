"""An agent that records the calls the game loop makes to it (for the CLI tests)."""

from __future__ import annotations

import numpy as np

CALLS: list[tuple] = []


class RecordingAgent:
    """Plays the first legal action; records ``reset(game, seat)`` and ``act`` calls."""

    def __init__(self, seed: int | None = None, name: str = "recorder") -> None:
        self.name = name

    def reset(self, game, seat: int) -> None:
        CALLS.append(("reset", id(self), game.spec.name, seat))

    def act(self, view) -> int:
        CALLS.append(("act", id(self), view.game.spec.name, view.seat))
        return int(np.flatnonzero(view.action_mask)[0])
