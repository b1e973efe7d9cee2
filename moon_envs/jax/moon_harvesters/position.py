"""The position of the Moon Harvesters twin: :class:`HarvestersX`, the Python
``HarvestersState``'s fields as small fixed-shape arrays.

The board is row words (bit ``c`` of a row's ``uint32`` is column ``c``): one row set per
seat's harvesters, one for the craters, one for the deposits. The integer fields (four
per-seat vectors and six counters) share one int32 vector, ``ints``, read back by name
through properties. Under ``vmap`` every leaf of a state costs its own kernels each step
(the select of an illegal action, the select of a finished lane's restart), so one small
leaf for several fields is several times cheaper than one each; and a step that works on
a dozen words per plane instead of a hundred cells does a tenth of the work.
"""

from __future__ import annotations

from typing import NamedTuple

import jax
import jax.numpy as jnp

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
        board: uint32 ``[n + 2, rows]``, row words: row set ``s < n`` holds seat ``s``'s
            harvesters, row set ``n`` the craters, ``n + 1`` the deposits
            (:func:`~moon_envs.jax.moon_harvesters.board.pack_board` builds it from cells,
            :func:`~moon_envs.jax.moon_harvesters.board.board_cells` reads them back, and
            :func:`~moon_envs.jax.moon_harvesters.board.anchors` gives the engine's "still
            fits" flags as words).
        piece: int16 ``[cells]``, the number of the harvester covering the cell
            (harvesters are numbered 0, 1, ... in placement order), or -1.
        on_offer: bool ``[kinds]``, the kinds nobody took yet.
        ints: int32 ``[4 * n + 6]``, the integer fields below end to end, in this order.

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

    board: Array
    piece: Array
    on_offer: Array
    ints: Array

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
        return cls(**fields, ints=cls.pack_ints(**ints))

    def with_ints(self, **changed: Array) -> HarvestersX:
        """This position with some integer fields replaced (unbatched)."""
        fields = {name: changed.pop(name, getattr(self, name)) for name in INT_FIELDS}
        if changed:
            raise ValueError(f"integer fields: expected some of {INT_FIELDS}, got {changed}")
        return self._replace(ints=self.pack_ints(**fields))
