"""The round's exact best total inside ``jit``, for ``round_optimum=True`` observations.

From the roll until play begins (phases auction, favourite star, side bets) the engine
appends ``(min(1, best / 70), 1)`` to every observation, ``best`` being the exact optimum of
:func:`moon_envs.moonstar.solver.solve` for the round's moons and dice.

Independent scoring (planets: Games 1-6, 9 and their mixes): each moon scores on its own,
its weight with a die of face ``f`` being the best landing value over the allowed
directions; every landing scores at least 1, so ``best = moves + max sum of (weight - 1)``
over matchings of at most ``moves`` (moon, die) pairs. Equal dice are interchangeable, so
a dynamic programme over the moons whose state is how many dice of each face are used
(at most ``prod(count_f + 1)`` states, 486 for eleven dice) finds it exactly, with fixed
shapes. Game 6, before the red planet is placed: the best over the stars holding a planet.

Squares and chains (Games 7-8) are convex in the moons landing on each star, so the moons
interact and no bounded fixed-shape search is exact for them: ``round_optimum=True`` with
those scorings raises :class:`~moon_envs.core.game.ConfigError`.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.jax.moonstar.arrays import MoonstarX
from moon_envs.jax.moonstar.rules import per_round
from moon_envs.jax.moonstar.tables import AUCTION, BETS, FAVOURITE, MoonstarTables

Array = jax.Array
NEG = -(10**6)


def check_supported(t: MoonstarTables) -> None:
    """Raise ConfigError when a round uses squares or chains scoring."""
    if t.uses["squares"] or t.uses["chains"]:
        raise ConfigError(
            "round_optimum=True is not available in the JAX twin of moonstar_v1 with "
            "scoring='squares' or 'chains' (Games 7-8, also as dealer_menu entries): their "
            "exact optimum needs a search over interacting moons that has no fixed-shape form "
            "under jit. Allowed: round_optimum=False, or planet scoring only"
        )


def _max_states(D: int) -> int:
    """Most dice-usage states of any roll of at most D dice: max prod(count_f + 1)."""
    best = 1
    for faces in combinations_with_replacement(range(6), D):
        counts = np.bincount(np.array(faces, int), minlength=6)
        best = max(best, int(np.prod(counts + 1)))
    return best


_STATES: dict[int, int] = {}


def best_total(t: MoonstarTables, x: MoonstarX) -> Array:
    """int32: the best total of the round's moons and dice (independent scoring)."""
    if t.D not in _STATES:
        _STATES[t.D] = _max_states(t.D)
    S = _STATES[t.D]
    free = (x.dice > 0) & ~x.die_used
    faces = jnp.arange(1, 7)
    count = jnp.sum(free[:, None] & (x.dice[:, None] == faces[None, :]), axis=0)  # [6]
    radix = count + 1
    stride = jnp.concatenate([jnp.ones(1, jnp.int32), jnp.cumprod(radix)[:-1]]).astype(jnp.int32)
    size = jnp.prod(radix)
    idx = jnp.arange(S)
    used = (idx[:, None] // stride[None, :]) % radix[None, :]  # [S, 6]
    valid = idx < size
    live = (x.moon_star >= 0) & ~x.moon_moved
    moves = per_round(t, t.num_moves, x) - x.moves_done
    moves = jnp.minimum(moves, jnp.minimum(jnp.sum(live), jnp.sum(count)))
    movement = per_round(t, t.movement, x)
    disp = jnp.asarray(t.displacement)[movement, 1:, :]  # [6 faces, 4 dirs]
    dirs = jnp.arange(4) < per_round(t, t.num_dirs, x)
    land = (x.moon_star[:, None, None] + disp[None]) % 12  # [M, 6, 4]

    def solve(red: Array) -> Array:
        vals = jnp.maximum(x.planet_value, 1)
        vals = jnp.where(jnp.arange(12) == red, 2 * vals, vals)
        w = jnp.max(jnp.where(dirs[None, None, :], vals[land], 0), axis=2)  # [M, 6]
        excess = jnp.where(live[:, None], w - 1, 0)

        def add_moon(dp, ex):
            prev = dp[jnp.clip(idx[:, None] - stride[None, :], 0, S - 1)]  # [S, 6]
            take = jnp.where(used >= 1, prev + ex[None, :], NEG)
            return jnp.maximum(dp, jnp.max(take, axis=1)), None

        dp0 = jnp.where(idx == 0, 0, NEG)
        dp, _ = jax.lax.scan(add_moon, dp0, excess)
        ok = valid & (jnp.sum(used, axis=1) <= moves)
        return moves + jnp.max(jnp.where(ok, dp, NEG))

    fixed = solve(x.red_star)
    if not t.uses["favourite"]:
        return fixed
    choose = per_round(t, t.favourite, x) & (x.red_star < 0)
    per_star = jax.vmap(solve)(jnp.arange(12))
    chosen = jnp.max(jnp.where(x.planet_value > 0, per_star, NEG))
    return jnp.where(choose & (x.planet_value > 0).any(), chosen, fixed)


def features(t: MoonstarTables, x: MoonstarX) -> Array:
    """float32 [2]: ``(min(1, best / 70), 1)`` from the roll until play, else zeros."""
    shown = (x.phase == AUCTION) | (x.phase == FAVOURITE) | (x.phase == BETS)
    best = jnp.minimum(1.0, best_total(t, x) / 70.0)
    return jnp.where(shown, jnp.stack([best, 1.0]), 0.0).astype(jnp.float32)
