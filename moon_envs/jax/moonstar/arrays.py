"""The Moonstar twin's position: one NamedTuple of fixed-shape int32/bool arrays.

The fields are the Python :class:`~moon_envs.moonstar.state.MoonstarState`'s, with the
same meaning and the same values (``-1`` for "none"), except that ``planets_to_place`` is
kept as ``planets_placed`` (how many of the round's planets, highest first, are placed)
and the derived caches of the engine (``board``, ``play_block``, ``moons_on_star``) are
computed from the pieces when needed.

The nineteen scalar fields (:data:`SCALARS`) live in one int32 vector, ``scalars``, read
by name as properties (``x.phase`` is ``x.scalars[..., 0]``) and written by name with
``x._replace(phase=...)`` or :func:`upd`: a position is 13 arrays, not 31, so selecting
between two positions (every step does it several times) is 13 ``where``\\ s.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

from moon_envs.jax.moonstar.tables import FIRST, MoonstarTables

Array = jax.Array

SCALARS = (
    "phase",
    "organizer",
    "rules_idx",
    "round_no",
    "excluded",
    "pending_excluded",
    "sitting_out",
    "red_star",
    "moons_placed",
    "planets_placed",
    "high_bid",
    "bidder",
    "to_move",
    "passes",
    "bet_turn",
    "moves_done",
    "round_total",
    "chain_star",
    "chain_len",
)
_INDEX = {name: i for i, name in enumerate(SCALARS)}


class _Arrays(NamedTuple):
    scalars: Array  # int32 [len(SCALARS)], see SCALARS
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


class MoonstarX(_Arrays):
    """One Moonstar position (see the module docstring); the scalars are int32."""

    __slots__ = ()

    def _replace(self, **fields: Array) -> MoonstarX:
        """A copy with ``fields`` (array fields or scalar names) replaced."""
        scalars = {k: fields.pop(k) for k in list(fields) if k in _INDEX}
        x = super()._replace(**fields)
        if not scalars:
            return x
        s = x.scalars
        parts = [
            jnp.broadcast_to(jnp.asarray(scalars.get(name, s[..., i]), s.dtype), s.shape[:-1])
            for i, name in enumerate(SCALARS)
        ]
        return super(MoonstarX, x)._replace(scalars=jnp.stack(parts, axis=-1))


def _scalar(i: int) -> property:
    return property(lambda x: x.scalars[..., i], doc=f"int32: ``scalars[..., {i}]``.")


for _name, _i in _INDEX.items():
    setattr(MoonstarX, _name, _scalar(_i))


def blank_x(t: MoonstarTables) -> MoonstarX:
    """The position before the first organizer is known (phase ``first``)."""
    i32 = jnp.int32
    n, M, D = t.n, t.M, t.D
    values = dict.fromkeys(SCALARS, 0)
    values.update(
        phase=FIRST,
        excluded=-1,
        pending_excluded=-1,
        sitting_out=-1,
        red_star=-1,
        planets_placed=7,  # none to place before the first set-up
        bidder=-1,
        bet_turn=-1,
        chain_star=-1,
    )
    return MoonstarX(
        scalars=jnp.array([values[name] for name in SCALARS], i32),
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
    """``x`` with ``fields`` (array fields or scalar names) replaced where ``cond`` holds
    (the scalars in one ``where``)."""
    arrays = {
        k: jnp.where(cond, v, getattr(x, k)).astype(getattr(x, k).dtype)
        for k, v in fields.items()
        if k not in _INDEX
    }
    scalars = {k: v for k, v in fields.items() if k in _INDEX}
    if scalars:
        new = x._replace(**scalars).scalars
        arrays["scalars"] = jnp.where(cond, new, x.scalars)
    return super(MoonstarX, x)._replace(**arrays)


def materialized(x):
    """``x`` itself, behind :func:`jax.lax.optimization_barrier`: computed once, in
    memory, before its readers. Without it XLA may fuse a computation into each of its
    readers (or a reduction into each element that reads it) and do it again in each."""
    return jax.lax.optimization_barrier(x)
