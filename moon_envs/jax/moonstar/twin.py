"""The JAX twin of Moonstar, Games 1-12 (``moonstar_v1``): the hooks of
:class:`~moon_envs.jax.env.JaxEnv` over :class:`~moon_envs.jax.moonstar.arrays.MoonstarX`.

Every parameter of :class:`~moon_envs.moonstar.variants.MoonstarConfig` and every player
count is supported; each parameter set is its own compile (the config is static). The
chance outcomes are the engine's: the first organizer (a seat), a random set-up star,
the roll (the sorted multisets of faces, likeliest first: drawn die by die and ranked back
to their id, the same distribution as :meth:`chance_probs`), the next speaker under
``auction_order="random"``. Game 11's sealed side bets are the only hidden information:
:meth:`MoonstarTwin._resample_x` redraws the others' bets as the engine's ``resample``.
With ``round_optimum=True`` the observation carries the round's exact optimum, computed
by :mod:`moon_envs.jax.moonstar.optimum`.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.env import JaxEnv
from moon_envs.jax.moonstar import fast
from moon_envs.jax.moonstar import optimum as opt
from moon_envs.jax.moonstar import rules
from moon_envs.jax.moonstar.arrays import MoonstarX, blank_x, materialized
from moon_envs.jax.moonstar.observe import observe
from moon_envs.jax.moonstar.rules import per_round
from moon_envs.jax.moonstar.tables import BETS, MoonstarTables
from moon_envs.jax.moonstar.transitions import advance, start_first_round
from moon_envs.jax.state import State
from moon_envs.moonstar.rules import MoonstarGame

Array = jax.Array


class MoonstarTwin(JaxEnv):
    """Moonstar (Games 1-12) with pgx's API; see the module docstring."""

    game_class = MoonstarGame

    def __init__(self, env_id, game, reward_mode="win") -> None:
        super().__init__(env_id, game, reward_mode)
        self.tables = MoonstarTables(game)
        if self.config.round_optimum:
            opt.check_supported(self.tables)
        self._init_table: fast.InitTable | bool | None = False  # False: not built yet

    # ---- fast path (the generic init's results: see moonstar.fast) ---------------------
    def init(self, key: Array) -> State:
        """A new game with its set-up chance resolved with ``key``: read from a table of
        the few possible positions, the same as the generic ``init``."""
        if self._init_table is False:
            self._init_table = fast.InitTable.build(self)
        if self._init_table is None:
            return super().init(key)
        return self._init_table.init(self, key)

    # ---- hooks -----------------------------------------------------------------------------
    def _initial_x(self) -> MoonstarX:
        t = self.tables
        x = blank_x(t)
        first = self.config.first_organizer
        if first != "roll":
            x = start_first_round(t, x._replace(organizer=jnp.int32(first)))
        return x

    def _player(self, x: MoonstarX) -> Array:
        return rules.player(self.tables, x)

    def _legal_mask(self, x: MoonstarX) -> Array:
        return rules.legal_mask(self.tables, x)

    def _apply_action_x(self, x: MoonstarX, action: Array) -> MoonstarX:
        return materialized(advance(self.tables, x, action, chance=False))

    def _apply_chance_x(self, x: MoonstarX, outcome: Array) -> MoonstarX:
        return advance(self.tables, x, outcome, chance=True)

    def _chance_probs(self, x: MoonstarX) -> Array:
        return rules.chance_probs(self.tables, x)

    def _sample_chance(self, x: MoonstarX, key: Array) -> Array:
        return rules.sample_chance(self.tables, x, key)

    def _observe(self, x: MoonstarX, player: Array) -> Array:
        t = self.tables
        best = opt.features(t, x) if self.config.round_optimum else None
        return observe(t, x, player, best)

    def _scores(self, x: MoonstarX) -> Array:
        return rules.scores(x)

    def _winners(self, x: MoonstarX) -> Array:
        return rules.winners(self.tables, x)

    def _resample_x(self, x: MoonstarX, player: Array, key: Array) -> MoonstarX:
        """The others' sealed side bets redrawn (only while bets are being placed): a seat
        that has bet gets a uniform side ("made" only for a bidder under
        ``bidder_bets="made_only"``), then a uniform stake index of that side."""
        t = self.tables
        if not t.any_bets:
            return x
        n, F = t.n, t.num_stakes
        k_side, k_idx = jax.random.split(key)
        seats = jnp.arange(n)
        made_only = (seats == x.bidder) & (self.config.bidder_bets == "made_only")
        side = jnp.where(made_only, 0, jax.random.randint(k_side, (n,), 0, 2))
        u = jax.random.uniform(k_idx, (n,))
        size = jnp.where(side == 0, F, F - 1)
        idx = jnp.minimum((u * size).astype(jnp.int32), size - 1) + side
        pts = jnp.clip(x.points, 0, t.stake_top)
        stake = jnp.asarray(t.stakes)[idx, pts]
        redraw = (x.phase == BETS) & (seats != player) & (x.bet_side >= 0)
        if t.R > 1:
            redraw = redraw & per_round(t, t.side_bets, x)
        return x._replace(
            bet_side=jnp.where(redraw, side, x.bet_side),
            bet_idx=jnp.where(redraw, idx, x.bet_idx),
            bet_stake=jnp.where(redraw, stake, x.bet_stake),
        )
