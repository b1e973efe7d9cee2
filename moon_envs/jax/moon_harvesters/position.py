"""The position of the Moon Harvesters twin: :class:`HarvestersX`, the Python
``HarvestersState``'s fields as small fixed-shape arrays.

Each cell's owner, crater and deposit share one int8 code, and the integer fields
(four per-seat vectors and six counters) one int32 vector, ``ints``; all are read back by
name through properties. Under ``vmap`` every leaf of a state costs its own kernels each
step (the select of an illegal action, the select of a finished lane's restart), so
one leaf for several fields is several times cheaper than one each.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

Array = jax.Array

_SEAT_FIELDS = ("kind_of", "craters_held", "placed", "collected")
_COUNTERS = ("crater_pool", "supply", "phase", "player", "due", "passes")
INT_FIELDS = _SEAT_FIELDS + _COUNTERS


def _seats(ints: Array) -> int:
    return (ints.shape[-1] - len(_COUNTERS)) // len(_SEAT_FIELDS)


def _seat_field(i: int) -> property:
    def get(self: HarvestersX) -> Array:
        n = _seats(self.ints)
        return self.ints[..., i * n : (i + 1) * n]

    return property(get, doc=f"int32 ``[..., n]``: ``{_SEAT_FIELDS[i]}`` (see the class).")


def _counter(i: int) -> property:
    def get(self: HarvestersX) -> Array:
        return self.ints[..., len(_SEAT_FIELDS) * _seats(self.ints) + i]

    return property(get, doc=f"int32: ``{_COUNTERS[i]}`` (see the class).")


class HarvestersX(NamedTuple):
    """One Moon Harvesters position (the Python ``HarvestersState``'s fields).

    Leaves:
        cells: int8 ``[cells]``, each cell's owner, crater and deposit in one code
            (:meth:`pack_cells`; read back by the properties ``owner``, ``crater`` and
            ``deposit``).
        piece: int16 ``[cells]``, the number of the harvester covering the cell
            (harvesters are numbered 0, 1, ... in placement order), or -1.
        on_offer: bool ``[kinds]``, the kinds nobody took yet.
        ints: int32 ``[4 * n + 6]``, the integer fields below end to end, in this order.
        free: uint32 ``[kinds * 8 * rows]``, the engine's "still fits" flags as row words
            (:func:`~moon_envs.jax.moon_harvesters.board.free_anchors` of the board),
            flattened: :func:`~moon_envs.jax.moon_harvesters.board.by_kind` gives them back
            as ``[kinds, 8, rows]``. A flat vector is several times cheaper to copy and
            select under ``vmap`` on the CPU, where XLA's loops over a 12-word last axis
            barely vectorise.

    Integer fields (properties over ``ints``; build or change them with :meth:`of` and
    :meth:`with_ints`):
        kind_of: ``[n]``, the kind each seat took (-1: still in the auction).
        craters_held: ``[n]``, craters taken and not yet placed.
        placed: ``[n]``, harvesters placed.
        collected: ``[n]``, deposits collected (the scores).
        crater_pool: craters left in the auction.
        supply: deposits left in the supply.
        phase: ``AUCTION``, ``CRATERS``, ``PLACE``, ``DEPOSITS`` or ``OVER``.
        player: the seat to move (the last mover once the game is over).
        due: deposits still to place this turn (the engine's ``deposits_due``).
        passes: automatic passes so far (a seat that could not place).
    """

    cells: Array
    piece: Array
    on_offer: Array
    ints: Array
    free: Array

    @property
    def owner(self) -> Array:
        """int8 ``[..., cells]``: the seat whose harvester covers the cell, or -1."""
        return (self.cells & np.int8(7)) - np.int8(1)

    @property
    def crater(self) -> Array:
        """bool ``[..., cells]``: a crater is on the cell."""
        return (self.cells & np.int8(8)) != 0

    @property
    def deposit(self) -> Array:
        """bool ``[..., cells]``: a deposit is on the cell."""
        return (self.cells & np.int8(16)) != 0

    @staticmethod
    def pack_cells(owner: Array, crater: Array, deposit: Array) -> Array:
        """int8 ``[cells]``: ``owner + 1`` in bits 0-2, the crater in bit 3, the deposit in
        bit 4."""
        return (
            (jnp.asarray(owner, jnp.int8) + np.int8(1))
            | (jnp.asarray(crater, jnp.int8) << np.int8(3))
            | (jnp.asarray(deposit, jnp.int8) << np.int8(4))
        )

    kind_of = _seat_field(0)
    craters_held = _seat_field(1)
    placed = _seat_field(2)
    collected = _seat_field(3)
    crater_pool = _counter(0)
    supply = _counter(1)
    phase = _counter(2)
    player = _counter(3)
    due = _counter(4)
    passes = _counter(5)

    @staticmethod
    def pack_ints(**fields: Array) -> Array:
        """int32 ``[4 * n + 6]``: the ten integer fields (every one by name, unbatched)
        end to end."""
        if set(fields) != set(INT_FIELDS):
            raise ValueError(f"integer fields: expected {INT_FIELDS}, got {sorted(fields)}")
        parts = [jnp.asarray(fields[name], jnp.int32).reshape(-1) for name in INT_FIELDS]
        return jnp.concatenate(parts)

    @classmethod
    def of(cls, **fields: Array) -> HarvestersX:
        """A position from every field by name (the array leaves and the integer fields)."""
        ints = {name: fields.pop(name) for name in INT_FIELDS if name in fields}
        board = [fields.pop(name) for name in ("owner", "crater", "deposit")]
        return cls(**fields, cells=cls.pack_cells(*board), ints=cls.pack_ints(**ints))

    def with_ints(self, **changed: Array) -> HarvestersX:
        """This position with some integer fields replaced (unbatched)."""
        fields = {name: changed.pop(name, getattr(self, name)) for name in INT_FIELDS}
        if changed:
            raise ValueError(f"integer fields: expected some of {INT_FIELDS}, got {changed}")
        return self._replace(ints=self.pack_ints(**fields))
