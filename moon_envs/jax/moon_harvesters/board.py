"""Placement geometry of the Moon Harvesters twin: where each kind's harvesters still fit.

The Python engine keeps a "still fits" flag per placement and clears, through a
cell -> placements index, those covering each newly blocked cell. The twin recomputes
the same answer from scratch on row bitboards instead (see
:mod:`moon_envs.jax.moon_harvesters.tables`): a handful of integer operations per
orientation cell, with no scatter and no per-placement loop, so that it vectorises well.

Every function takes the :class:`~moon_envs.jax.moon_harvesters.tables.HarvesterTables`
``t`` (static) and unbatched arrays; all are pure and fixed-shape.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.jax.moon_harvesters.tables import HarvesterTables
from moon_envs.moon_harvesters.shapes import MAX_ORIENTATIONS

Array = jax.Array

_ALL = np.uint32(0xFFFFFFFF)


def blocked_words(t: HarvesterTables, owner: Array, crater: Array) -> Array:
    """uint32 ``[rows + tail]``: the blocked cells as row words (harvesters, and craters
    with ``craters_block``), every bit at or beyond ``cols`` set, then ``tail`` all-ones
    rows."""
    blocked = owner >= 0
    if t.craters_block:
        blocked = blocked | crater
    bits = blocked.reshape(t.rows, t.cols).astype(jnp.uint32)
    bits = bits << jnp.arange(t.cols, dtype=jnp.uint32)
    words = jnp.sum(bits, axis=1, dtype=jnp.uint32) | np.uint32(t.high_bits)
    tail = np.full(t.tail, _ALL, np.uint32)
    return jnp.concatenate([words, tail])


def free_anchors(t: HarvesterTables, words: Array) -> Array:
    """uint32 ``[kinds, 8, rows]``: bit ``c`` of entry ``[k, s, r]`` is set exactly when
    kind ``k``'s orientation slot ``s`` fits with its top-left corner on ``(r, c)``
    (inside the grid, covering no blocked cell); ``words`` from :func:`blocked_words`.

    Only static slices, shifts and ORs (unrolled over the orientations' cells, each
    distinct ``(dr, dc)`` shift computed once), which XLA fuses into one loop: a gather
    here would cost far more than the arithmetic."""
    shifted: dict[tuple[int, int], Array] = {}
    never = jnp.zeros((t.rows,), jnp.uint32)  # an unused slot: no anchor fits
    out = []
    for per_kind in t.orientations:
        slots = []
        for cells in per_kind:
            taken = None
            for dr, dc in cells:
                if (dr, dc) not in shifted:
                    shifted[dr, dc] = words[dr : dr + t.rows] >> np.uint32(dc)
                taken = shifted[dr, dc] if taken is None else taken | shifted[dr, dc]
            slots.append(~taken & np.uint32(t.col_mask))
        slots += [never] * (MAX_ORIENTATIONS - len(slots))
        out.append(jnp.stack(slots))
    return jnp.stack(out)


def empty_board_words(t: HarvesterTables, in_bounds: np.ndarray) -> np.ndarray:
    """uint32 ``[kinds, 8, rows]``: :func:`free_anchors` of the empty board, packed in
    numpy from the Python engine's ``Footprints.in_bounds`` (a static constant)."""
    return pack_fits(t, in_bounds)


def pack_fits(t: HarvesterTables, fits: np.ndarray) -> np.ndarray:
    """uint32 ``[kinds, 8, rows]``: the Python engine's "still fits" flags (``fits``, or
    ``Footprints.in_bounds`` for the empty board: ``kind * 8 * cells + slot * cells +
    cell``, then a spare entry) packed into row words, in numpy."""
    per_kind = MAX_ORIENTATIONS * t.cells
    exists = fits[: t.kinds * per_kind].reshape(t.kinds, MAX_ORIENTATIONS, t.rows, t.cols)
    weights = np.uint32(1) << np.arange(t.cols, dtype=np.uint32)
    return (exists.astype(np.uint32) * weights).sum(axis=-1, dtype=np.uint32)


def by_kind(t: HarvesterTables, free: Array) -> Array:
    """uint32 ``[..., kinds, 8, rows]``: a position's flat ``free`` words (``[...,
    kinds * 8 * rows]``, as the twin stores them), per kind and orientation slot."""
    return free.reshape((*free.shape[:-1], t.kinds, MAX_ORIENTATIONS, t.rows))


def kind_words(t: HarvesterTables, free: Array, kind: Array) -> Array:
    """uint32 ``[8, rows]``: ``free[kind]`` (``kind`` clipped into range), as a chain of
    selects over static slices: under ``vmap`` a gather, or a masked max over the kinds
    (a reduction XLA's CPU backend does not vectorise), cost several times more."""
    words = free[0]
    for k in range(1, t.kinds):
        words = jnp.where(kind >= k, free[k], words)
    return words


def unpack_placements(t: HarvesterTables, free: Array) -> Array:
    """bool ``[8 * cells]``: the bits of one kind's ``free`` words (``[8, rows]``) in the
    placement block's order, ``slot * cells + row * cols + col``."""
    bits = (free[..., None] >> jnp.arange(t.cols, dtype=jnp.uint32)) & np.uint32(1)
    return bits.astype(jnp.bool_).reshape(MAX_ORIENTATIONS * t.cells)


def kinds_that_fit(free: Array) -> Array:
    """bool ``[kinds]``: some placement of the kind still fits."""
    return jnp.any(free != 0, axis=(1, 2))


def covered_cells(t: HarvesterTables, kind: Array, placement: Array) -> Array:
    """bool ``[cells]``: the cells covered by ``placement`` (``slot * cells + anchor``)
    of ``kind``; both are clipped into range (the caller masks the result).

    On row words too: the orientation's rows (``t.shape_rows``, picked by a masked max,
    no gather) are moved down to the anchor's row and shifted left by its column, then
    unpacked. A kind or slot out of range covers nothing."""
    placement = jnp.clip(placement, 0, MAX_ORIENTATIONS * t.cells - 1)
    slot, anchor = placement // t.cells, placement % t.cells
    row, col = anchor // t.cols, anchor % t.cols
    height = t.shape_rows.shape[2]
    pick = (np.arange(t.kinds)[:, None, None] == kind) & (
        np.arange(MAX_ORIENTATIONS)[None, :, None] == slot
    )
    shape = jnp.max(jnp.where(pick, t.shape_rows, np.uint32(0)), axis=(0, 1))  # [height]
    lands = (np.arange(t.rows)[:, None] - row) == np.arange(height)[None, :]
    words = jnp.max(jnp.where(lands, shape[None, :], np.uint32(0)), axis=1)
    return unpack_rows(t, words << col.astype(jnp.uint32))


def unpack_rows(t: HarvesterTables, words: Array) -> Array:
    """bool ``[cells]``: the first ``cols`` bits of each of the ``rows`` words."""
    bits = (words[:, None] >> jnp.arange(t.cols, dtype=jnp.uint32)) & np.uint32(1)
    return bits.astype(jnp.bool_).reshape(t.cells)
