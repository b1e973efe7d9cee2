"""One move of the player of the round: a moon, a die, a direction, and what it scores.

Planets (Games 1-6, 9): the landing star's planet value (1 without a planet), twice on
Game 6's red star. Squares (Game 7): the ``c``-th moon landing on a star scores
``2c - 1`` (so a star scores ``c**2``). Chains (Game 8): landing on the star of the moon
moved just before continues the chain and scores its new length; landing elsewhere
starts a chain worth 1 and every moon moved before leaves the board; with
``chain_members="all"`` the unmoved moons standing on the landing star count too.

"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.moonstar.arrays import MoonstarX, upd
from moon_envs.jax.moonstar.rules import per_round
from moon_envs.jax.moonstar.tables import MoonstarTables

Array = jax.Array
i32 = jnp.int32


def decode(t: MoonstarTables, a: Array) -> tuple[Array, Array, Array]:
    """(moon, die, direction) of move action ``a``."""
    x = jnp.clip(a - t.a_move, 0, t.M * t.D * t.K - 1)
    md, k = jnp.divmod(x, t.K)
    m, d = jnp.divmod(md, t.D)
    return m, d, k


def displacement(t: MoonstarTables, x: MoonstarX, face: Array, k: Array) -> Array:
    """Signed stars moved by ``face`` in direction ``k`` under the round's movement."""
    back = -(face // 2)
    if (t.movement == 2).any():
        back = jnp.where(per_round(t, t.movement, x) == 2, -2 * face, back)
    return jnp.where(k == 0, face, jnp.where(k == 1, -face, jnp.where(k == 2, 2 * face, back)))


def move(t: MoonstarTables, x: MoonstarX, a: Array, on: Array) -> MoonstarX:
    """Where ``on``: apply move ``a`` (see the module docstring)."""

    m, d, k = decode(t, a)
    moon_ix, stars = jnp.arange(t.M), jnp.arange(12)
    is_m = moon_ix == m
    is_d = jnp.arange(t.D) == d
    face = jnp.sum(jnp.where(is_d, x.dice, 0))
    s0 = jnp.sum(jnp.where(is_m, x.moon_star, 0))
    dest = (s0 + displacement(t, x, face, k)) % 12
    at_dest = stars == dest
    moon_star = jnp.where(is_m, dest, x.moon_star)
    moon_moved = x.moon_moved | is_m
    landed = x.landed + at_dest
    scoring = per_round(t, t.scoring, x)
    gained = jnp.int32(0)
    chain_star, chain_len = x.chain_star, x.chain_len
    if t.uses["planets"]:
        value = jnp.maximum(jnp.sum(jnp.where(at_dest, x.planet_value, 0)), 1)
        value = jnp.where(dest == x.red_star, 2 * value, value)
        gained = jnp.where(scoring == 0, value, gained)
    if t.uses["squares"]:
        gained = jnp.where(scoring == 1, 2 * jnp.sum(jnp.where(at_dest, landed, 0)) - 1, gained)
    if t.uses["chains"]:
        chains = scoring == 2
        broken = chains & (x.chain_star >= 0) & (dest != x.chain_star)
        gone = broken & moon_moved & (moon_star >= 0) & ~is_m
        off = jnp.sum(gone[:, None] & (moon_star[:, None] == stars[None, :]), axis=0)
        landed = landed - off
        moon_star = jnp.where(gone, -1, moon_star)
        length = jnp.where(dest == x.chain_star, x.chain_len + 1, 1)
        chain_value = length
        if t.cfg.chain_members == "all":
            chain_value = chain_value + jnp.sum((moon_star == dest) & ~moon_moved)
        gained = jnp.where(chains, chain_value, gained)
        chain_star = jnp.where(chains, dest, chain_star)
        chain_len = jnp.where(chains, length, chain_len)
    return upd(
        x,
        on,
        moon_star=moon_star,
        moon_moved=moon_moved,
        die_used=x.die_used | is_d,
        landed=landed,
        chain_star=chain_star,
        chain_len=chain_len,
        round_total=x.round_total + gained,
        moves_done=x.moves_done + 1,
    )
