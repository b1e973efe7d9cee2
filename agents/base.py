"""The Agent protocol: every baseline, search and trained agent plays through ``act(view)``.

``view`` is a :class:`moon_envs.core.view.AgentView`: the acting seat's observation, its
int8 action mask, the seat, the game (spec and config) and ``sample_state(rng)``, a
determinised copy of the position for agents that search. Any agent can meet any other
in a tournament, on any game it supports.

An agent that keeps state across one game (a memory player, a search tree reused between
moves) also defines ``reset(game, seat)``: tournaments, the trainer's opponent pool and
the CLI call it at the start of every game, before the agent's first ``act``, through
:func:`start_game`. Agents without ``reset`` are left as they are. One agent object
playing several seats of the same game gets one ``reset`` call per seat, so such an
agent keeps its memory per seat.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from moon_envs.core.view import AgentView

__all__ = ["Agent", "AgentView", "legal_actions", "start_game"]


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(view) -> action``; ``name`` is used in tables and plots."""

    name: str

    def act(self, view: AgentView) -> int:
        """Return a legal action (``view.action_mask[action] == 1``)."""
        ...


def start_game(agent: object, game: object, seat: int) -> None:
    """Tell ``agent`` a new game starts with it in ``seat`` (calls its optional
    ``reset(game, seat)``; agents without one are untouched)."""
    reset = getattr(agent, "reset", None)
    if callable(reset):
        reset(game, seat)


def legal_actions(view: AgentView) -> np.ndarray:
    """Indices of the legal actions in ``view`` (never empty for the agent to move)."""
    legal = np.flatnonzero(view.action_mask)
    if legal.size == 0:
        raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
    return legal
