"""UCT Monte Carlo tree search over the Game / State protocol, for every game.

:class:`MCTSAgent` plays any number of players (each seat maximises its own reward),
handles chance nodes by drawing outcomes with their probabilities, and handles hidden
information by *information-set* search: every iteration starts from a fresh
determinisation ``view.sample_state(rng)``, so the agent never reads the true position,
only what its seat may know (single-observer IS-MCTS, Cowling et al. 2012). For a
perfect-information game the determinisation is a plain copy, and the search is UCT.

One iteration:

1. **Select** from the root by UCT: at a player node, the child maximising
   ``mean reward of the player to move + c * sqrt(ln N / n)``; at a chance node, an
   outcome drawn with its probability.
2. **Expand** one untried action (a seeded random one; with a rollout agent, the move
   that agent would make is expanded first), or a chance outcome not seen yet. Plain
   UCT tries every move once before any twice; with progressive ``widening`` a node
   visited N times has at most ``ceil(N ** widening)`` children, so that games with
   hundreds of moves a turn search a few moves deeply instead of each once.
3. **Roll out** to the end, uniformly at random or with a rollout agent (which acts on
   ``AgentView.of(state, seat)``); with a ``horizon``, only that many player moves (or to
   the end, if sooner), every rollout then valued by the seats' score gains since the
   searched position, centred on their mean; UCT divides these values by the largest
   gain seen in the search, so that ``c`` keeps its meaning whatever the scores.
4. **Back up** the reward vector: every node adds the reward of the seat that chose
   the move leading to it.

The move played is the root's most visited action (ties: higher mean, then lower id).
A node stores its legal actions once; with hidden information the legal actions are
read again from each determinisation and UCT picks only among those available.

The budget is ``simulations`` iterations and/or ``seconds`` per move; with a fixed seed
and a simulation budget the same views give the same moves.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from moon_agents.search.spec import MCTSConfig
from moon_agents.search.tree import Node, cumulative, legal_actions, sample
from moon_envs.core.game import CHANCE, TERMINAL, State
from moon_envs.core.view import AgentView


@dataclass
class SearchStats:
    """What the last search did: iterations, wall time, and per root action
    ``(visits, mean reward of the acting seat)``."""

    simulations: int = 0
    seconds: float = 0.0
    root: dict[int, tuple[int, float]] = field(default_factory=dict)


class MCTSAgent:
    """UCT / IS-MCTS agent (see the module docstring).

    Args:
        seed: seeds the agent's generator (same seed and views, same moves).
        name: shown in tables.
        config: an :class:`MCTSConfig`, or its fields as keyword parameters.
        rollout_agent: an agent used for rollouts instead of uniform random play
            (overrides ``config.rollout``; :mod:`moon_agents.zoo` builds it from that name).
    """

    def __init__(
        self,
        seed: int | None = None,
        name: str = "mcts",
        config: MCTSConfig | None = None,
        rollout_agent: Any = None,
        **params: Any,
    ) -> None:
        self.config = config if config is not None else MCTSConfig(**params)
        self.name = name
        self.rollout_agent = rollout_agent
        self._np = np.random.default_rng(seed)
        self.last = SearchStats()

    def act(self, view: AgentView) -> int:
        """Search from ``view`` (through ``view.sample_state`` only) and return a legal action."""
        legal = np.flatnonzero(view.action_mask).tolist()
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action: it is not its turn")
        rng = random.Random(int(self._np.integers(2**63)))
        if len(legal) == 1:
            self.last = SearchStats()
            return int(legal[0])
        root = self.search(view, rng)
        return best_action(root, legal)

    # ---- search --------------------------------------------------------------------------
    def search(self, view: AgentView, rng: random.Random) -> Node:
        """Run the budgeted search from ``view`` and return the root node."""
        cfg = self.config
        hidden = view.game.spec.hidden_information
        limit = cfg.simulations if cfg.simulations is not None else float("inf")
        start = time.perf_counter()
        deadline = start + cfg.seconds if cfg.seconds is not None else None
        root: Node | None = None
        done = 0
        self._scale = 0.0  # the largest score gain seen (horizon rollouts)
        while done < limit:
            state = view.sample_state(self._np)
            if root is None:
                root = self._new_node(state, rng)
            self._iterate(root, state, rng, hidden)
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        assert root is not None
        self.last = SearchStats(
            done,
            time.perf_counter() - start,
            {a: (c.visits, c.total / c.visits) for a, c in root.children.items() if c.visits},
        )
        return root

    def _iterate(self, root: Node, state: State, rng: random.Random, hidden: bool) -> None:
        c = self.config.c
        base = state.scores() if self.config.horizon is not None else None
        node = root
        path: list[tuple[Node, int]] = []  # (node, seat whose move led there)
        while True:
            player = node.player if not hidden else state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                if hidden:
                    ids, cum = cumulative(state.chance_outcomes())
                    action = sample(ids, cum, rng)
                else:
                    action = node.sample_outcome(rng)
                state.apply_chance_outcome(action)
            else:
                action = self._choose(node, state, rng, c, hidden)
                state.apply_action(action)
            child = node.children.get(action)
            if child is None:
                child = node.children[action] = self._new_node(state, rng)
                path.append((child, player))
                break
            path.append((child, player))
            node = child
        reward = self._rollout(state, rng)
        if base is not None:  # score gains since the searched position, centred
            gains = state.scores() - base
            reward = (gains - gains.mean()).tolist()
            self._scale = max(self._scale, max(abs(r) for r in reward))
        root.visits += 1
        for n, seat in path:
            n.visits += 1
            if seat >= 0:
                n.total += reward[seat]

    def _new_node(self, state: State, rng: random.Random) -> Node:
        """A node for ``state``; with a rollout agent, its move there is expanded first."""
        node = Node(state, rng)
        if self.rollout_agent is not None and len(node.untried) > 1:
            first = self._rollout_move(state, node.player)
            node.untried.remove(first)
            node.untried.append(first)  # untried actions are popped from the end
        return node

    def _rollout_move(self, state: State, player: int) -> int:
        return int(self.rollout_agent.act(AgentView.of(state, player)))

    def _widens(self, node: Node, children: int) -> bool:
        """Whether ``node`` may get one more child: always in plain UCT; with progressive
        widening while it has fewer than ``ceil(visits ** widening)`` (and at least one)."""
        w = self.config.widening
        return w is None or children < max(1, math.ceil(node.visits**w))

    def _choose(self, node: Node, state: State, rng: random.Random, c: float, hidden: bool) -> int:
        if not hidden:
            if node.untried and self._widens(node, len(node.children)):
                return node.untried.pop()
            return node.select(c, None, self._value_scale())[0]
        available = legal_actions(state)
        untried = [a for a in available if a not in node.children]
        tried = len(available) - len(untried)
        if untried and (tried == 0 or self._widens(node, tried)):
            if self.rollout_agent is not None and len(untried) > 1:
                first = self._rollout_move(state, state.current_player())
                if first in untried:
                    return first
            return untried[int(rng.random() * len(untried))]
        return node.select(c, set(available), self._value_scale())[0]

    def _value_scale(self) -> float:
        """What node values are divided by in UCT: 1 for rewards of at most 1; with a
        horizon, the largest score gain seen in this search (so the exploration constant
        keeps its meaning whatever the game's scores)."""
        if self.config.horizon is None or self._scale <= 0:
            return 1.0
        return self._scale

    def _rollout(self, state: State, rng: random.Random) -> list[float]:
        agent = self.rollout_agent
        horizon = self.config.horizon
        moves = 0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                break
            if horizon is not None and player >= 0:
                if moves >= horizon:
                    return []  # valued by the caller, from the scores
                moves += 1
            if player == CHANCE:
                ids, cum = cumulative(state.chance_outcomes())
                state.apply_chance_outcome(sample(ids, cum, rng))
            elif agent is not None:
                state.apply_action(int(agent.act(AgentView.of(state, player))))
            else:
                legal = state.legal_actions_mask().nonzero()[0]
                state.apply_action(int(legal[int(rng.random() * legal.shape[0])]))
        if horizon is not None:
            return []  # valued by the caller, from the scores
        return terminal_reward(state, self.config.reward)


def best_action(root: Node, legal: list[int]) -> int:
    """The most visited of the ``legal`` root actions (ties: higher mean, then lower id)."""

    def key(a: int) -> tuple[int, float, int]:
        child = root.children.get(a)
        if child is None or child.visits == 0:
            return (0, -float("inf"), -a)
        return (child.visits, child.total / child.visits, -a)

    return int(max(legal, key=key))


def terminal_reward(state: State, mode: str) -> list[float]:
    """Reward per seat at the end: ``returns("win")``, or :func:`score_reward`."""
    if mode == "win":
        return state.returns("win").tolist()
    return score_reward(state)


def score_reward(state: State) -> list[float]:
    """The scores centred on their mean and divided by their spread (all zero when every
    score is equal): the value of a finished game under ``reward=score``."""
    s = state.scores()
    spread = float(s.max() - s.min())
    if spread == 0:
        return [0.0] * s.shape[0]
    return ((s - s.mean()) / spread).tolist()
