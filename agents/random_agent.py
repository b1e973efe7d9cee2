"""Uniformly random legal play, with the agent's own seeded generator."""

from __future__ import annotations

import numpy as np

from moon_agents.base import AgentView, legal_actions


class RandomAgent:
    """Picks uniformly among the legal actions; ``seed`` makes it reproducible."""

    def __init__(self, seed: int | None = None, name: str = "random") -> None:
        self.name = name
        self.rng = np.random.default_rng(seed)

    def act(self, view: AgentView) -> int:
        legal = legal_actions(view)
        return int(legal[self.rng.integers(legal.size)])

    def __repr__(self) -> str:
        return f"RandomAgent(name={self.name!r})"
