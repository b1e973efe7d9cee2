"""The search tree of :mod:`moon_agents.search.mcts`: one node per action sequence.

A node is created for the position reached after an action (or a chance outcome) and
remembers, once, what can be done there: the legal actions at a player node, the
outcomes and their cumulative probabilities at a chance node. Each node keeps the
visit count and the total reward *of the seat that chose the move leading to it*, which
is all UCT needs: the player to move at a node compares its children by its own value.
"""

from __future__ import annotations

import bisect
import math
import random
from typing import Any

from moon_envs.core.game import CHANCE, TERMINAL, State


class Node:
    """One node: who moves, what is untried, children by action, visits and reward."""

    __slots__ = ("actions", "children", "cum_probs", "player", "total", "untried", "visits")

    def __init__(self, state: State, rng: random.Random) -> None:
        self.player: int = state.current_player()
        self.children: dict[int, Node] = {}
        self.visits: int = 0
        self.total: float = 0.0  # reward of the seat that moved into this node
        self.cum_probs: list[float] = []
        self.actions: list[int] = []
        self.untried: list[int] = []
        if self.player >= 0:
            self.actions = legal_actions(state)
            self.untried = list(self.actions)
            rng.shuffle(self.untried)  # expansion order: seeded, not biased to low ids
        elif self.player == CHANCE:
            self.actions, self.cum_probs = cumulative(state.chance_outcomes())

    def select(self, c: float, available: Any = None, scale: float = 1.0) -> tuple[int, Node]:
        """The UCT choice among the children (restricted to ``available`` actions if given),
        their mean values divided by ``scale``."""
        log_n = math.log(self.visits) if self.visits > 1 else 0.0
        best_a, best_child, best_u = -1, None, -math.inf
        for a, child in self.children.items():
            if available is not None and a not in available:
                continue
            n = child.visits
            u = child.total / (n * scale) + c * math.sqrt(log_n / n)
            if u > best_u:
                best_a, best_child, best_u = a, child, u
        return best_a, best_child  # type: ignore[return-value]

    def sample_outcome(self, rng: random.Random) -> int:
        """A chance outcome drawn with its probability."""
        return sample(self.actions, self.cum_probs, rng)

    def is_terminal(self) -> bool:
        return self.player == TERMINAL


def legal_actions(state: State) -> list[int]:
    """The legal actions of the player to move, as a Python list."""
    return state.legal_actions_mask().nonzero()[0].tolist()


def cumulative(outcomes: list[tuple[int, float]]) -> tuple[list[int], list[float]]:
    """Outcome ids and their running probability totals (normalised to end at 1)."""
    ids, cum, acc = [], [], 0.0
    for o, p in outcomes:
        acc += p
        ids.append(int(o))
        cum.append(acc)
    return ids, [x / acc for x in cum]


def sample(ids: list[int], cum: list[float], rng: random.Random) -> int:
    """Draw from ``ids`` with the probabilities behind the running totals ``cum``: the
    first outcome whose running total exceeds a uniform draw."""
    i = bisect.bisect_right(cum, rng.random())
    return ids[i] if i < len(ids) else ids[-1]
