"""Static tables of the Moon Harvesters twin, built once per parameter set with numpy.

Placement legality is computed on *row bitboards*: a grid row is one ``uint32`` whose bit
``c`` is column ``c``. The blocked cells (harvesters, and craters with ``craters_block``)
become ``rows + tail`` words, where every bit at or beyond ``cols`` is set and the
``tail`` extra rows are all ones, so that a placement reaching off the grid is blocked
like one covering a harvester. An orientation with cells ``(dr, dc)`` then fits with its
bounding box's top-left corner at ``(r, c)`` exactly when bit ``c`` of
``OR over cells of (blocked[r + dr] >> dc)`` is clear: a few shifts and ORs per cell of
the orientation give every anchor of every orientation of every kind at once. Unpacking
the mover's eight orientation words, bit by bit, gives the placement block of the legal
mask in the Python engine's layout (``slot * cells + row * cols + col``).

Columns fit: ``cols <= 16`` and ``dc < cols``, so ``c + dc <= 30`` stays inside 32 bits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from moon_envs.moon_harvesters.constants import PHASES
from moon_envs.moon_harvesters.rules import HarvestersGame
from moon_envs.moon_harvesters.shapes import MAX_ORIENTATIONS

# phases as small integers: the Python engine's phase strings, in the observation's
# one-hot order (``PHASES``), then ``OVER`` (an all-zero one-hot)
AUCTION, CRATERS, PLACE, DEPOSITS, OVER = 0, 1, 2, 3, 4
assert PHASES == ("auction", "craters", "place", "deposits")


@dataclass(frozen=True)
class HarvesterTables:
    """Everything the twin reads of the config, as static Python values and numpy arrays.

    Attributes:
        n, kinds, rows, cols, cells: players, harvester kinds, grid size (``cells =
            rows * cols``, ``cell = row * cols + col``).
        crater_base, place_base, deposit_base, num_actions: the action blocks' offsets.
        orientations: per kind, per used slot, the ``(dr, dc)`` cells of the orientation.
        tail: the all-ones rows appended below the grid (the largest ``dr`` of any kind).
        col_mask: the ``cols`` low bits set; ``high_bits``: every other bit of a word.
        shape_rows: uint32 ``[kinds, 8, tail + 1]``: each orientation as row words, bit
            ``dc`` of row ``dr`` set for each of its cells (an unused slot: all zero).
        pieces, num_deposits, num_craters, deposits_per_turn, first_deposits: the config.
        craters_block, craters_block_deposits: the two crater house rules.
        fewer: ``deposits_when_short == "fewer"``; ``shared_ties``: ``ties == "shared"``.
        supply_scale, crater_scale, due_scale: the observation's divisors.
    """

    n: int
    kinds: int
    rows: int
    cols: int
    cells: int
    crater_base: int
    place_base: int
    deposit_base: int
    num_actions: int
    orientations: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    tail: int
    col_mask: int
    high_bits: int
    shape_rows: np.ndarray
    pieces: int
    num_deposits: int
    num_craters: int
    deposits_per_turn: int
    first_deposits: int
    craters_block: bool
    craters_block_deposits: bool
    fewer: bool
    shared_ties: bool
    supply_scale: float
    crater_scale: float
    due_scale: float


def build_tables(game: HarvestersGame) -> HarvesterTables:
    """The :class:`HarvesterTables` of ``game`` (the Python engine's game object)."""
    cfg = game.config
    rows, cols = game.rows, game.cols
    k = game.num_kinds
    orients = tuple(tuple(tuple(o) for o in shape.orientations) for shape in game.kinds)
    tail = max(dr for per_kind in orients for cells in per_kind for dr, _ in cells)
    shape_rows = np.zeros((k, MAX_ORIENTATIONS, tail + 1), np.uint32)
    for kind, per_kind in enumerate(orients):
        for slot, cells in enumerate(per_kind):
            for dr, dc in cells:
                shape_rows[kind, slot, dr] |= np.uint32(1 << dc)
    col_mask = (1 << cols) - 1
    return HarvesterTables(
        n=cfg.num_players,
        kinds=k,
        rows=rows,
        cols=cols,
        cells=game.num_cells,
        crater_base=game.crater_base,
        place_base=game.place_base,
        deposit_base=game.deposit_base,
        num_actions=game.spec.num_actions,
        orientations=orients,
        tail=tail,
        col_mask=col_mask,
        high_bits=0xFFFFFFFF & ~col_mask,
        shape_rows=shape_rows,
        pieces=cfg.pieces_per_kind,
        num_deposits=cfg.num_deposits,
        num_craters=cfg.num_craters,
        deposits_per_turn=cfg.deposits_per_turn,
        first_deposits=cfg.first_deposits,
        craters_block=cfg.craters_block,
        craters_block_deposits=cfg.craters_block_deposits,
        fewer=cfg.deposits_when_short == "fewer",
        shared_ties=cfg.ties == "shared",
        supply_scale=float(max(1, cfg.num_deposits)),
        crater_scale=float(max(1, cfg.num_craters)),
        due_scale=float(max(1, cfg.deposits_per_turn, cfg.first_deposits)),
    )
