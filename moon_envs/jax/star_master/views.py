"""Star Master's twin, what each seat sees: whose move, the legal mask and the observation.

The observation is laid out exactly as the Python engine's
:meth:`~moon_envs.star_master.views.Views._observation` (offsets of
:class:`~moon_envs.star_master.observation.ObservationLayout`): the seat's window map,
window permutation and memory (one-hot per slot), the pawns from the seat on, the dice,
the phase, the sought colour, the found slot, the *match* of the sought colour, the
roller relative to the seat and ``turn / turn cap``.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.core.game import CHANCE, TERMINAL
from moon_envs.jax.star_master.tables import (
    END,
    FLIP,
    NAME,
    RACE,
    STAR,
    SWAP,
    SMx,
    Tables,
)
from moon_envs.jax.star_master.rules import pick

Array = jax.Array


def player(t: Tables, x: SMx) -> Array:
    """The seat to move, ``CHANCE`` (set-up, seed, roll, draw) or ``TERMINAL``."""
    ph = x.phase
    racer = (x.roller + x.race_next) % t.n
    seat = jnp.where(ph == RACE, racer, x.mover)
    other = jnp.where(ph == END, TERMINAL, CHANCE)
    return jnp.where((ph >= NAME) & (ph <= RACE), seat, other).astype(jnp.int32)


def legal_mask(t: Tables, x: SMx) -> Array:
    """Bool ``[3k + 1]`` at a player node: flip (or grab) / pass in a flip or a race, the
    swaps away from the found slot, the names of the colours the mover lacks."""
    k = t.k
    ph = x.phase
    ids = jnp.arange(t.num)
    flip_like = (ph == FLIP) | (ph == RACE)
    mine = pick(x.pawns, x.mover)
    own_target = jnp.any(mine & (jnp.arange(k) == x.target))
    may_pass = (ph == RACE) | ((x.white != STAR) & own_target)
    if t.must_search:
        may_pass = ph == RACE
    flips = flip_like & (ids < k)
    passes = flip_like & (ids == t.pass_) & may_pass
    swaps = (ph == SWAP) & (ids >= k) & (ids < 2 * k) & (ids - k != x.found)
    lacks = ~mine
    names = (ph == NAME) & (ids >= 2 * k) & (ids < 3 * k) & jnp.pad(lacks, (2 * k, 1))
    return flips | passes | swaps | names


def observe(t: Tables, x: SMx, p: Array) -> Array:
    """Seat ``p``'s observation (float32, the Python engine's layout and values).

    Each block is a broadcast compare against a static range, concatenated in the
    layout's order, which XLA fuses into one vectorised pass (a gather of the entries,
    as a plan of indices, does not vectorise across a batch)."""
    n, k = t.n, t.k
    win, mem = pick(x.win, p), pick(x.mem, p)
    sought = jnp.where(x.target >= 0, x.target, x.white)
    match = (x.layout == sought) & ((win >= 0) | (mem >= 0)) & (sought >= 0) & (sought < k)
    seats = jnp.arange(n)
    rotate = seats[None, :] == (p + seats[:, None]) % n  # row i: seat p + i
    pawns = jnp.any(rotate[:, :, None] & x.pawns[None], axis=1)
    rolled = x.white >= 0
    channels, slots = jnp.arange(k + 1), jnp.arange(k)

    def hot(value: Array, values: Array) -> Array:
        return (jnp.expand_dims(value, -1) == values).ravel()

    blocks = [
        hot(win + 1, channels),
        hot(pick(x.perm, p), slots),
        hot(mem + 1, channels),
        pawns.ravel(),
        hot(jnp.where(rolled, jnp.minimum(x.white, k), -1), channels),
        (rolled & (x.black == 1))[None],
        hot(x.phase - NAME, jnp.arange(4)),  # name, flip, swap, race: 0..3
        hot(x.target, slots),
        hot(x.found, slots),
        match,
        hot((x.roller - p) % n, seats),
    ]
    turn = x.turn.astype(jnp.float32) / jnp.float32(t.turn_cap)
    return jnp.concatenate([b.astype(jnp.float32) for b in blocks] + [turn[None]])
