"""The greedy Moon Harvesters baseline on the JAX twin, batched and jittable.

:class:`GreedyOnTwin` plays :class:`~moon_agents.heuristics.moon_harvesters.HarvestersGreedyAgent`'s
rule on a twin state (``moon_envs.jax.make("moon_harvesters_v0", ...)``): in every
position it draws uniformly among exactly the actions that
:func:`~moon_agents.heuristics.moon_harvesters.best_actions` ranks first. The ``jax_ppo``
trainer uses it as a fixed opponent (``algorithm.heuristic_fraction``), so that self-play
keeps meeting the baseline it has to beat.

The placement counts come from the twin's "still fits" words: each kind's placements are
unpacked to flags and multiplied by a static ``placement x cell`` cover matrix, so that
``reach[cell, kind]`` (still-fitting placements of the kind covering the cell) is one
small matrix product.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.jax.moon_harvesters import board
from moon_envs.jax.moon_harvesters.tables import AUCTION, CRATERS, DEPOSITS, PLACE

Array = jax.Array

_NEG = np.float32(-1e9)


class GreedyOnTwin:
    """The greedy rule as ``action(state, key) -> int32`` on one (unbatched) twin state.

    Args:
        twin: a Moon Harvesters twin (any parameters the twin supports).
    """

    def __init__(self, twin: Any) -> None:
        game = twin.game
        t = twin.tables
        self.t = t
        fp = game.fp
        cover = np.zeros((t.kinds, fp.per_kind, t.cells), np.float32)
        for kind in range(t.kinds):
            exists = fp.in_bounds[kind * fp.per_kind : (kind + 1) * fp.per_kind]
            rows = np.flatnonzero(exists)
            cover[kind, rows[:, None], fp.cells[kind][rows]] = 1.0
        self.cover = cover
        # auction rank: most orientations first, then the lowest kind id
        orientations = np.array([len(k.orientations) for k in game.kinds], np.float32)
        self.auction_rank = orientations * (t.kinds + 1) + (t.kinds - np.arange(t.kinds))

    def _reach(self, x: Any) -> Array:
        """float ``[cells, kinds]``: still-fitting placements of each kind covering each cell."""
        per_kind = board.anchors(self.t, x.board)
        fits = jax.vmap(lambda words: board.unpack_placements(self.t, words))(per_kind)
        return jnp.einsum("kp,kpc->ck", fits.astype(jnp.float32), self.cover)

    def scores(self, x: Any) -> tuple[Array, Array]:
        """``(primary, secondary)`` float ``[num_actions]``: the rule ranks legal actions by
        ``primary``, then ``secondary`` among those tied."""
        t = self.t
        n = t.n
        p = x.player
        seats = jnp.arange(n)
        reach = self._reach(x)
        kind_ids = jnp.arange(t.kinds)
        own_kind = jnp.sum(jnp.where(seats == p, x.kind_of, 0))
        own_pick = (kind_ids == own_kind) & (own_kind >= 0)
        opp_seat = (seats != p) & (x.kind_of >= 0) & (x.placed < t.pieces)
        opp_pick = jnp.any((x.kind_of[:, None] == kind_ids[None, :]) & opp_seat[:, None], axis=0)
        own_reach = reach @ own_pick.astype(jnp.float32)
        opp_reach = reach @ opp_pick.astype(jnp.float32)

        zeros_auction = jnp.zeros(t.kinds + 1, jnp.float32)
        auction = jnp.concatenate([jnp.asarray(self.auction_rank), jnp.full(1, -1.0)])
        own_cover = jnp.einsum("k,kpc->pc", own_pick.astype(jnp.float32), self.cover)
        gains = own_cover @ board.unpack_rows(t, x.board[t.n + 1]).astype(jnp.float32)
        closed = own_cover @ (opp_reach - own_reach)
        phase = x.phase
        primary = jnp.concatenate(
            [
                jnp.where(phase == AUCTION, auction, 0.0),
                jnp.where(phase == CRATERS, opp_reach - own_reach, 0.0),
                jnp.where(phase == PLACE, gains, 0.0),
                jnp.where(phase == DEPOSITS, -opp_reach, 0.0),
            ]
        )
        secondary = jnp.concatenate(
            [
                zeros_auction,
                jnp.zeros(t.cells, jnp.float32),
                jnp.where(phase == PLACE, closed, 0.0),
                jnp.where(phase == DEPOSITS, own_reach, 0.0),
            ]
        )
        return primary, secondary

    def choices(self, state: Any) -> Array:
        """bool ``[num_actions]``: the legal actions the rule ranks first."""
        legal = state.legal_action_mask
        primary, secondary = self.scores(state._x)
        top = legal & (primary == jnp.max(jnp.where(legal, primary, _NEG)))
        return top & (secondary == jnp.max(jnp.where(top, secondary, _NEG)))

    def logits(self, state: Any) -> Array:
        """float ``[num_actions]``: 0 on :meth:`choices`, a large negative value elsewhere
        (sampling from them is the agent's uniform draw among its tied choices)."""
        return jnp.where(self.choices(state), 0.0, _NEG)

    def action(self, state: Any, key: Array) -> Array:
        """One of :meth:`choices`, uniformly at random."""
        return jax.random.categorical(key, self.logits(state)).astype(jnp.int32)
