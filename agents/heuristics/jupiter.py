"""GreedyAgent for Jupiter: the best immediate score difference.

Policy (one ply, no look-ahead beyond the die about to be rolled):

* the *value* of a move is my score change minus the mean score change of my opponents
  (both after the black-moons clamp at 0, when that variant is on);
* placing a probe on a cell: its value is exact (the dice in its row and column);
* placing the rolled die on a cell: exact (every probe in its row and column scores);
* rolling: the expected value, over the six faces, of the best placement of that face;
* ties are broken uniformly at random with the agent's own seeded generator.

It beats random play clearly and is the second rung of the Jupiter ladder
(random < greedy < trained policy).
"""

from __future__ import annotations

import numpy as np

from moon_agents.base import AgentView, legal_actions
from moon_envs.jupiter.rules import NUM_FACES, JupiterGame, JupiterState


class GreedyAgent:
    """Maximises (own score gain − mean opponent gain) of the next move; see module doc."""

    def __init__(self, seed: int | None = None, name: str = "greedy") -> None:
        self.name = name
        self.rng = np.random.default_rng(seed)

    def act(self, view: AgentView) -> int:
        if not isinstance(view.game, JupiterGame):
            raise TypeError(f"GreedyAgent plays Jupiter only, not {view.game.spec.name}")
        state: JupiterState = view.sample_state(self.rng)
        values = self.action_values(state, view.seat)
        legal = legal_actions(view)
        v = values[legal]
        best = legal[np.flatnonzero(v >= v.max() - 1e-9)]
        return int(best[self.rng.integers(best.size)])

    @staticmethod
    def action_values(state: JupiterState, seat: int) -> np.ndarray:
        """Value (score-difference gain) of every action id for ``seat`` in ``state``."""
        g = state.game
        n = g.config.num_players
        c = g.num_cells
        lines = g.line_counts
        empty = state.cell == 0
        values = np.full(2 * c + 1, -np.inf)

        # probe on each cell: my gain = signed pips in its lines
        gain = lines @ g.code_value[state.cell]
        mine = _clamped(state.points[seat], gain) if g.config.black_moons else gain
        values[:c] = np.where(empty, mine, -np.inf)

        # a die of each face on each cell: gain per player = probes in line * value
        owners = np.zeros((c, n), dtype=np.int64)
        owner = state.owner
        placed = owner >= 0
        owners[np.flatnonzero(placed), owner[placed]] = 1
        counts = lines @ owners  # (cells, players)

        def die_values(face: int) -> np.ndarray:
            delta = counts * g.face_value[face]
            if g.config.black_moons:
                delta = _clamped(state.points[None, :], delta)
            others = (delta.sum(axis=1) - delta[:, seat]) / (n - 1)
            return np.where(empty, delta[:, seat] - others, -np.inf)

        if state.rolled:
            values[c : 2 * c] = die_values(state.rolled)
        elif state.dice_left > 0 and empty.any():
            values[2 * c] = np.mean([die_values(f).max() for f in range(1, NUM_FACES + 1)])
        return values


def _clamped(points: np.ndarray, delta: np.ndarray) -> np.ndarray:
    """Score change after the black-moons clamp at 0."""
    return np.maximum(points + delta, 0) - points
