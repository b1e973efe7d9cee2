"""Search guided by a policy-value network, in the Python engine (``az:PATH,simulations=N``).

:func:`puct_search` runs AlphaZero's PUCT selection over the project's Game / State
protocol, for a :class:`~moon_agents.net_agent.NetAgent`:

* every simulation starts from a fresh determinisation ``view.sample_state(rng)``, so
  the search reads only what the seat may know (as :mod:`moon_agents.search.mcts`);
* at a player node the action maximises ``Q + c * P * sqrt(N) / (1 + n)``, with ``P``
  the network's prior over the actions legal there and ``Q`` the mean value for the
  seat to move (unvisited actions count ``Q = 0``); chance outcomes are drawn with their
  probabilities, each outcome its own child;
* a new leaf is valued by the network's value head from the view of its seat to move
  (the other seat gets the opposite value in a two-player game, ``-v / (n - 1)`` with
  more seats); a finished game by its ``"win"`` returns;
* the move played is the root's most visited action (ties: the higher prior).

With a seeded generator the same view gives the same move.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from moon_agents.search.tree import cumulative, sample
from moon_envs.core.game import CHANCE, TERMINAL, State
from moon_envs.core.view import AgentView


class _Node:
    """A player node: its seat, priors by action, visits and value sums by action."""

    __slots__ = ("children", "player", "prior", "total", "value", "visits")

    def __init__(self, player: int, prior: dict[int, float]) -> None:
        self.player = player
        self.prior = prior
        self.children: dict[int, Any] = {}
        self.visits: dict[int, int] = {}
        self.value: dict[int, float] = {}
        self.total = 0

    def select(self, legal: list[int], c: float) -> int:
        root_n = math.sqrt(self.total + 1)
        best, best_u = legal[0], -math.inf
        for a in legal:
            n = self.visits.get(a, 0)
            q = self.value[a] / n if n else 0.0
            u = q + c * self.prior.get(a, 0.0) * root_n / (1 + n)
            if u > best_u:
                best, best_u = a, u
        return best


def puct_search(agent: Any, view: AgentView, simulations: int, c: float, rng: Any) -> int:
    """The move ``agent``'s network-guided search picks for ``view`` (module docstring)."""
    py_rng = _PyRandom(rng)
    root: _Node | None = None
    for _ in range(simulations):
        state = view.sample_state(rng)
        if root is None:
            root, _ = _expand(agent, state)
        _simulate(agent, root, state, c, py_rng)
    legal = np.flatnonzero(view.action_mask).tolist()
    assert root is not None
    return int(max(legal, key=lambda a: (root.visits.get(a, 0), root.prior.get(a, 0.0), -a)))


def _simulate(agent: Any, root: _Node, state: State, c: float, rng: Any) -> None:
    path: list[tuple[_Node, int]] = []
    node: Any = root
    while True:
        legal = state.legal_actions_mask().nonzero()[0].tolist()
        action = node.select(legal, c)
        path.append((node, action))
        state.apply_action(action)
        while state.current_player() == CHANCE:
            ids, cum = cumulative(state.chance_outcomes())
            outcome = sample(ids, cum, rng)
            state.apply_chance_outcome(outcome)
            action = (action, outcome)  # type: ignore[assignment]
        child = node.children.get(action)
        if state.current_player() == TERMINAL:
            values = state.returns("win").tolist()
            break
        if child is None:
            child, values = _expand(agent, state)
            node.children[action] = child
            break
        node = child
    for node, action in path:
        node.total += 1
        node.visits[action] = node.visits.get(action, 0) + 1
        node.value[action] = node.value.get(action, 0.0) + values[node.player]


def _expand(agent: Any, state: State) -> tuple[_Node, list[float]]:
    """A new node for ``state`` (a seat to move) and the values of every seat there."""
    player = state.current_player()
    mask = state.legal_actions_mask()
    logits, v = agent.evaluate(state.observation(player), mask)
    legal = mask.nonzero()[0]
    z = logits[legal] - logits[legal].max()
    p = np.exp(z)
    p /= p.sum()
    n = state.game.spec.num_players
    values = [v if seat == player else -v / max(n - 1, 1) for seat in range(n)]
    return _Node(player, dict(zip(legal.tolist(), p.tolist()))), values


class _PyRandom:
    """The ``random()`` a chance draw needs, from a numpy generator."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def random(self) -> float:
        return float(self.rng.random())
