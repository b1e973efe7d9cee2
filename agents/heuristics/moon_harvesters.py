"""A greedy Moon Harvesters baseline.

:class:`HarvestersGreedyAgent` plays every phase by a fixed, stated rule; all counts come
from the state's "still fits" flags (``HarvestersState.fits``) through the precomputed
cell -> placements index, so one decision costs a few array operations.

* **Auction**: take the offered kind with the most distinct orientations (the most
  flexible one; ties: the first in ``shapes`` order); never a crater.
* **Craters**: the cell covered by the most still-fitting opponent placements minus own
  placements (it closes the most of theirs and the fewest of ours).
* **Harvester**: among the legal placements, those collecting the most deposits now; ties
  are broken by the largest ``closed opponent placements - closed own placements``, where
  a placement "closes" for a kind the sum, over the cells it covers, of the kind's
  still-fitting placements covering that cell (so it keeps its own future placements
  open and closes the opponents'); remaining ties at random.
* **Deposits**: the free cell the opponents can reach least (fewest still-fitting
  opponent placements covering it), then the one its own kind reaches most, then random:
  new deposits go where the next players cannot collect them and it can.
"""

from __future__ import annotations

import numpy as np

from moon_agents.base import AgentView, legal_actions
from moon_envs.moon_harvesters.rules import AUCTION, CRATERS, DEPOSITS, HarvestersState


def reach_counts(state: HarvestersState) -> np.ndarray:
    """``(cells, kinds)`` int array: still-fitting placements of each kind covering each cell."""
    g = state.game
    fp = g.fp
    live = state.fits[fp.cover]
    out = np.empty((g.num_cells, g.num_kinds), dtype=np.int64)
    for k in range(g.num_kinds):
        out[:, k] = (live & (fp.cover_kind == k)).sum(axis=1)
    return out


class HarvestersGreedyAgent:
    """Greedy deposits-now player with open/closed-placement tie-breaks (module docstring).

    Args:
        seed: seeds the generator that breaks the last ties.
        name: label in tables.
    """

    def __init__(self, seed: int | None = None, name: str = "greedy") -> None:
        self.name = name
        self.rng = np.random.default_rng(seed)

    def act(self, view: AgentView) -> int:
        state = view.sample_state(self.rng)
        if not isinstance(state, HarvestersState):
            raise TypeError("HarvestersGreedyAgent plays Moon Harvesters only")
        best = best_actions(state, legal_actions(view), view.seat)
        if state.phase == AUCTION:  # one choice, and no draw (the seeded games stay alike)
            return int(best[0])
        return int(best[self.rng.integers(best.size)])

    def __repr__(self) -> str:
        return f"HarvestersGreedyAgent(name={self.name!r})"


def best_actions(state: HarvestersState, legal: np.ndarray, seat: int) -> np.ndarray:
    """The legal actions the greedy rule (module docstring) ranks first for ``seat``: one
    in the auction, possibly several tied elsewhere (the agent draws one at random)."""
    g = state.game
    if state.phase == AUCTION:
        kinds = [a for a in legal if a < g.num_kinds]
        if kinds:
            return np.array([max(kinds, key=lambda k: (len(g.kinds[k].orientations), -k))])
        return np.asarray(legal[:1])
    own = int(state.kind_of[seat])
    opps = opponent_kinds(state, seat)
    reach = reach_counts(state)
    own_reach = reach[:, own] if own >= 0 else np.zeros(g.num_cells, dtype=np.int64)
    opp_reach = reach[:, opps].sum(axis=1) if opps else np.zeros(g.num_cells, dtype=np.int64)
    if state.phase == CRATERS:
        cells = legal - g.crater_base
        return _top(legal, (opp_reach - own_reach)[cells])
    if state.phase == DEPOSITS:
        cells = legal - g.deposit_base
        big = int(own_reach.max()) + 1
        return _top(legal, -opp_reach[cells] * big + own_reach[cells])
    placements = legal - g.place_base
    foot = g.fp.cells[own][placements]
    gains = state.deposit[foot].sum(axis=1)
    top = gains == gains.max()
    foot = foot[top]
    closed = opp_reach[foot].sum(axis=1) - own_reach[foot].sum(axis=1)
    return _top(legal[top], closed)


def opponent_kinds(state: HarvestersState, seat: int) -> list[int]:
    """The kinds of the other seats that still have harvesters to place."""
    pieces = state.game.config.pieces_per_kind
    return [
        int(state.kind_of[s])
        for s in range(state.game.config.num_players)
        if s != seat and state.kind_of[s] >= 0 and state.placed[s] < pieces
    ]


def _top(actions: np.ndarray, scores: np.ndarray) -> np.ndarray:
    return actions[np.flatnonzero(scores == scores.max())]
