"""Placement geometry of the Moon Harvesters twin: where each kind's harvesters still fit.

The Python engine keeps a "still fits" flag per placement and clears, through a
cell -> placements index, those covering each newly blocked cell. The twin recomputes
the same answer from scratch on row bitboards instead (see
:mod:`moon_envs.jax.moon_harvesters.tables`): a handful of integer operations per
orientation cell, with no scatter and no per-placement loop, so that it vectorises well.
The board itself is stored as those words (one row set per seat's harvesters, one for the
craters, one for the deposits), so a step never packs cells into words.

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


def blocked_words(t: HarvesterTables, words: Array) -> Array:
    """uint32 ``[rows + tail]``: the blocked cells of a board (``words``, as
    :class:`~moon_envs.jax.moon_harvesters.position.HarvestersX` stores it: harvesters,
    and craters with ``craters_block``) as row words, every bit at or beyond ``cols`` set,
    then ``tail`` all-ones rows."""
    blocked = owned_words(t, words)
    if t.craters_block:
        blocked = blocked | words[t.n]
    tail = np.full(t.tail, _ALL, np.uint32)
    return jnp.concatenate([blocked | np.uint32(t.high_bits), tail])


def owned_words(t: HarvesterTables, words: Array) -> Array:
    """uint32 ``[rows]``: the cells some harvester covers."""
    owned = words[0]
    for seat in range(1, t.n):
        owned = owned | words[seat]
    return owned


def deposit_room(t: HarvesterTables, words: Array) -> Array:
    """uint32 ``[rows]``: where a deposit may go (no harvester, no deposit and, with
    ``craters_block_deposits``, no crater); the engine's ``free_cells()``."""
    taken = owned_words(t, words) | words[t.n + 1]
    if t.craters_block_deposits:
        taken = taken | words[t.n]
    return ~taken & np.uint32(t.col_mask)


def count_bits(words: Array) -> Array:
    """int32: the set bits of ``words``, all together."""
    return jnp.sum(jax.lax.population_count(words), dtype=jnp.int32)


def cell_words(t: HarvesterTables, cell: Array) -> Array:
    """uint32 ``[rows]``: the one cell ``cell`` as row words (nothing when out of range)."""
    inside = (cell >= 0) & (cell < t.cells)
    row, col = cell // t.cols, cell % t.cols
    hit = (np.arange(t.rows) == row) & inside
    return jnp.where(hit, np.uint32(1) << col.astype(jnp.uint32), np.uint32(0))


def pack_rows(t: HarvesterTables, bits: Array) -> Array:
    """uint32 ``[..., rows]``: ``bits`` (bool ``[..., cells]``) as row words."""
    grid = jnp.asarray(bits).reshape((*bits.shape[:-1], t.rows, t.cols)).astype(jnp.uint32)
    weights = np.uint32(1) << np.arange(t.cols, dtype=np.uint32)
    return jnp.sum(grid * weights, axis=-1, dtype=jnp.uint32)


def pack_board(t: HarvesterTables, owner: Array, crater: Array, deposit: Array) -> Array:
    """uint32 ``[n + 2, rows]``: a board from its cells (``owner`` int ``[cells]``, -1 for
    none; ``crater`` and ``deposit`` bool ``[cells]``), as
    :class:`~moon_envs.jax.moon_harvesters.position.HarvestersX` stores it."""
    owner = jnp.asarray(owner)
    seats = owner[None, :] == jnp.arange(t.n)[:, None]
    holes = [jnp.asarray(crater, bool)[None], jnp.asarray(deposit, bool)[None]]
    planes = jnp.concatenate([seats, *holes])
    return pack_rows(t, planes)


def board_cells(t: HarvesterTables, words: Array) -> tuple[Array, Array, Array]:
    """``(owner, crater, deposit)`` of a board: int8 ``[cells]`` (-1 for none) and two bool
    ``[cells]``; the inverse of :func:`pack_board`."""
    planes = unpack_rows(t, words)
    seat_ids = jnp.arange(t.n, dtype=jnp.int8)[:, None]
    owner = jnp.max(jnp.where(planes[: t.n], seat_ids, np.int8(-1)), axis=0)
    return owner, planes[t.n], planes[t.n + 1]


def anchors(t: HarvesterTables, words: Array) -> Array:
    """uint32 ``[kinds, 8, rows]``: :func:`free_anchors` of a stored board."""
    return free_anchors(t, blocked_words(t, words))


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


def covered_words(t: HarvesterTables, kind: Array, placement: Array) -> Array:
    """uint32 ``[rows]``: the cells covered by ``placement`` (``slot * cells + anchor``)
    of ``kind``, as row words; both are clipped into range (the caller masks the result).

    The orientation's rows (``t.shape_rows``, picked by a masked max, no gather) are moved
    down to the anchor's row and shifted left by its column. A kind or slot out of range
    covers nothing."""
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
    return words << col.astype(jnp.uint32)


def covered_cells(t: HarvesterTables, kind: Array, placement: Array) -> Array:
    """bool ``[cells]``: :func:`covered_words` unpacked."""
    return unpack_rows(t, covered_words(t, kind, placement))


def unpack_rows(t: HarvesterTables, words: Array) -> Array:
    """bool ``[..., cells]``: the first ``cols`` bits of each of the ``rows`` words
    (``words``: uint32 ``[..., rows]``)."""
    bits = (words[..., None] >> jnp.arange(t.cols, dtype=jnp.uint32)) & np.uint32(1)
    return bits.astype(jnp.bool_).reshape((*words.shape[:-1], t.cells))
