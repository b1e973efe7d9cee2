"""Star Master's twin, chance: the outcome probabilities and the sampling of the chance
events that start a game or follow an action.

Outcome ids are the Python engine's: a colour at set-up, a seed ``0..1023`` (decay
mode), a dice roll ``2 * white + black`` (``0..19``), a race winner's seat. A turn's
chance is known in advance: after a player action at most a race draw and then a roll;
at the start of a game the set-up's draws, the seed (decay mode) and the first roll.
:func:`start` (pgx's ``init``) and :func:`resolve` (after an action) apply exactly those,
each under its condition, without a loop; :func:`set_up` loops over set-up draws still
pending (only from the explicit layer's initial state). Each outcome is drawn from one
uniform word (inverse CDF) rather than a Gumbel vector.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.jax.star_master import rules
from moon_envs.jax.star_master.tables import DRAW, ROLL, SEED, SETUP, SMx, Tables, initial_x

Array = jax.Array


def chance_probs(t: Tables, x: SMx) -> Array:
    """float32 ``[num_outcomes]`` at a chance node: the colours left at set-up, the
    uniform seed, the dice table, or the grabbers (seat ids) of a race draw."""
    size = t.num_outcomes
    ph = x.phase
    ids = jnp.arange(size)
    placed = jnp.any(x.layout[None, :] == ids[:, None], axis=1)
    left = (ids < t.k) & ~placed
    setup = left / jnp.maximum(jnp.sum(left), 1)
    grab = jnp.pad(x.race_choice >= 0, (0, size - t.n))
    draw = grab / jnp.maximum(jnp.sum(grab), 1)
    roll = jnp.pad(jnp.asarray(t.roll_probs), (0, size - t.roll_probs.size))
    seed = jnp.full((size,), 1.0 / size)
    out = jnp.where(ph == SETUP, setup, jnp.where(ph == DRAW, draw, 0.0))
    out = jnp.where(ph == ROLL, roll, jnp.where(ph == SEED, seed, out))
    return out.astype(jnp.float32)


def _uniform(word: Array) -> Array:
    """A float32 in ``[0, 1)`` from the top 24 bits of a uint32."""
    return (word >> 8).astype(jnp.float32) * jnp.float32(2.0**-24)


def _roll_from(t: Tables, word: Array) -> Array:
    """A dice outcome from a uint32, by the inverse of the table's CDF."""
    cdf = np.cumsum(t.roll_probs.astype(np.float64))
    cdf[np.flatnonzero(t.roll_probs > 0)[-1] :] = 2.0  # the last face catches rounding
    return jnp.sum(_uniform(word) >= jnp.asarray(cdf, jnp.float32), dtype=jnp.int32)


def _nth(flags: Array, r: Array) -> Array:
    """The index of the ``r``-th (from 0) true entry of ``flags``."""
    rank = jnp.cumsum(flags.astype(jnp.int32)) - 1
    return jnp.sum(jnp.where(flags & (rank == r), jnp.arange(flags.shape[0]), 0))


def _among(flags: Array, word: Array) -> Array:
    """A uniform draw among the true entries of ``flags`` (at least one), from a uint32."""
    count = jnp.sum(flags, dtype=jnp.int32)
    r = jnp.minimum((_uniform(word) * count).astype(jnp.int32), count - 1)
    return _nth(flags, r)


def set_up(t: Tables, x: SMx, key: Array) -> SMx:
    """The set-up's pending chance drawn with ``key``: the cubes still to place (each a
    uniform draw among the colours left) and the seed (decay mode); nothing elsewhere."""

    def pending(carry: tuple[SMx, Array]) -> Array:
        return (carry[0].phase == SETUP) | (carry[0].phase == SEED)

    def one(carry: tuple[SMx, Array]) -> tuple[SMx, Array]:
        x, key = carry
        key, sub = jax.random.split(key)
        words = jax.random.bits(sub, (2,), jnp.uint32)
        colours = jnp.arange(t.k)
        left = ~jnp.any(x.layout[None, :] == colours[:, None], axis=1)
        is_seed = x.phase == SEED
        x = rules.place(t, x, _among(left, words[0]), x.phase == SETUP)
        return x._replace(
            seed=jnp.where(is_seed, (words[1] >> 22).astype(jnp.int32), x.seed),
            phase=jnp.where(is_seed, ROLL, x.phase),
        ), key

    return jax.lax.while_loop(pending, one, (x, key))[0]


def resolve(t: Tables, x: SMx, key: Array) -> SMx:
    """The chance events a player action can cause, drawn with ``key``: a race draw among
    several grabbers, then the next turn's roll (each only where it is pending)."""
    words = jax.random.bits(key, (2,), jnp.uint32)
    is_draw = x.phase == DRAW
    x = rules.draw(t, x, _among(x.race_choice >= 0, words[0]), is_draw)
    return rules.roll(t, x, _roll_from(t, words[1]), x.phase == ROLL)


def start(t: Tables, key: Array) -> SMx:
    """A new game, its set-up chance resolved with ``key``: a uniform layout (the
    distribution of the set-up's draws, each cube a uniform draw among the colours left:
    here the ranks of ``k`` random words, ties broken by slot), the seed (decay mode),
    the first roll."""
    k = t.k
    words = jax.random.bits(key, (k + 2,), jnp.uint32)
    keys, slots = words[:k], jnp.arange(k)
    before = (keys[None, :] < keys[:, None]) | (
        (keys[None, :] == keys[:, None]) & (slots[None, :] < slots[:, None])
    )
    layout = jnp.sum(before, axis=1, dtype=jnp.int32)
    x = initial_x(t)
    x = x._replace(layout=jnp.where(slots == k - 1, -1, layout), setup_index=jnp.int32(k - 1))
    true = jnp.bool_(True)
    x = rules.place(t, x, layout[k - 1], true)
    if t.decays:
        x = x._replace(seed=(words[k] >> 22).astype(jnp.int32), phase=jnp.int32(ROLL))
    return rules.roll(t, x, _roll_from(t, words[k + 1]), true)
