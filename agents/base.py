"""The Agent protocol: every baseline, search and trained agent plays through ``act(view)``.

``view`` is a :class:`moon_envs.core.view.AgentView`: the acting seat's observation, its
int8 action mask, the seat, the game (spec and config) and ``sample_state(rng)``, a
determinised copy of the position for agents that search. Any agent can meet any other
in a tournament, on any game it supports.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from moon_envs.core.view import AgentView

__all__ = ["Agent", "AgentView", "legal_actions"]


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(view) -> action``; ``name`` is used in tables and plots."""

    name: str

    def act(self, view: AgentView) -> int:
        """Return a legal action (``view.action_mask[action] == 1``)."""
        ...


def legal_actions(view: AgentView) -> np.ndarray:
    """Indices of the legal actions in ``view`` (never empty for the agent to move)."""
    legal = np.flatnonzero(view.action_mask)
    if legal.size == 0:
        raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
    return legal
