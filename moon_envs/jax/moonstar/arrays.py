"""The Moonstar twin's position: one NamedTuple of fixed-shape int32/bool arrays.

The fields are the Python :class:`~moon_envs.moonstar.state.MoonstarState`'s, with the
same meaning and the same values (``-1`` for "none"), except that ``planets_to_place`` is
kept as ``planets_placed`` (how many of the round's planets, highest first, are placed)
and the derived caches of the engine (``board``, ``play_block``, ``moons_on_star``) are
computed from the pieces when needed.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

from moon_envs.jax.moonstar.tables import FIRST, MoonstarTables

Array = jax.Array


class MoonstarX(NamedTuple):
    """One Moonstar position (see the module docstring); scalars are int32."""

    phase: Array
    organizer: Array
    rules_idx: Array
    round_no: Array
    excluded: Array
    pending_excluded: Array
    sitting_out: Array
    red_star: Array
    moons_placed: Array
    planets_placed: Array
    high_bid: Array
    bidder: Array
    to_move: Array
    passes: Array
    bet_turn: Array
    moves_done: Array
    round_total: Array
    chain_star: Array
    chain_len: Array
    points: Array  # [n]
    planet_value: Array  # [12]
    landed: Array  # [12]
    moon_star: Array  # [M], -1 off the board
    moon_moved: Array  # bool [M]
    dice: Array  # [D], 0 absent
    die_used: Array  # bool [D]
    passed: Array  # bool [n]
    challengers: Array  # bool [n]
    bet_side: Array  # [n], -1 none
    bet_idx: Array  # [n]
    bet_stake: Array  # [n]


def blank_x(t: MoonstarTables) -> MoonstarX:
    """The position before the first organizer is known (phase ``first``)."""
    i32 = jnp.int32
    n, M, D = t.n, t.M, t.D
    return MoonstarX(
        phase=i32(FIRST),
        organizer=i32(0),
        rules_idx=i32(0),
        round_no=i32(0),
        excluded=i32(-1),
        pending_excluded=i32(-1),
        sitting_out=i32(-1),
        red_star=i32(-1),
        moons_placed=i32(0),
        planets_placed=i32(7),  # none to place before the first set-up
        high_bid=i32(0),
        bidder=i32(-1),
        to_move=i32(0),
        passes=i32(0),
        bet_turn=i32(-1),
        moves_done=i32(0),
        round_total=i32(0),
        chain_star=i32(-1),
        chain_len=i32(0),
        points=jnp.zeros(n, i32),
        planet_value=jnp.zeros(12, i32),
        landed=jnp.zeros(12, i32),
        moon_star=jnp.full(M, -1, i32),
        moon_moved=jnp.zeros(M, bool),
        dice=jnp.zeros(D, i32),
        die_used=jnp.zeros(D, bool),
        passed=jnp.zeros(n, bool),
        challengers=jnp.zeros(n, bool),
        bet_side=jnp.full(n, -1, i32),
        bet_idx=jnp.zeros(n, i32),
        bet_stake=jnp.zeros(n, i32),
    )


def select(pred: Array, on_true: MoonstarX, on_false: MoonstarX) -> MoonstarX:
    """``on_true`` where ``pred`` else ``on_false``, field by field."""
    return jax.tree.map(lambda a, b: jnp.where(pred, a, b), on_true, on_false)


def upd(x: MoonstarX, cond: Array, **fields: Array) -> MoonstarX:
    """``x`` with ``fields`` replaced where ``cond`` holds."""
    return x._replace(
        **{
            k: jnp.where(cond, v, getattr(x, k)).astype(getattr(x, k).dtype)
            for k, v in fields.items()
        }
    )
