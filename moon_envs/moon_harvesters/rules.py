"""Moon Harvesters rules engine (nestorgames; rules: docs/rules.md).

Phases: ``auction`` (each player still in takes a harvester kind, leaving the auction, or
a crater), ``craters`` (holders place their craters, one per turn, in seat order),
``deposits`` (the first player's opening deposits, and each turn's deposits after a
placement) and ``place`` (place one harvester, collecting the deposits it covers).

Flat action layout (``K`` kinds, ``cells = rows * cols``, see :class:`HarvestersGame`):

====================================  ==================================================
``0 .. K-1``                          auction: take harvester kind ``k``
``K``                                 auction: take a crater
``crater_base + cell``                place a crater on ``cell``
``place_base + slot * cells + cell``  place a harvester in orientation ``slot`` (0..7)
                                      with its bounding box's top-left corner on ``cell``
``deposit_base + cell``               put a deposit on ``cell``
====================================  ==================================================

A player who cannot place a harvester (no piece left or no placement fits) passes
automatically; the game ends when nobody can place. Placements that stop fitting never
fit again (harvesters and craters are only ever added), so each state keeps a "still
fits" flag per placement, cleared through a precomputed cell -> placements index when a
cell is blocked; the placement mask is then a copy of the mover's block of flags.

The game (:class:`HarvestersGame`, its action ids and observation layout) is here; the
parameters are in ``config``, the position in ``state`` (fields, legal moves, results),
built from ``turns`` (the phases of play) and ``views`` (observation and text), with its
snapshot checks in ``snapshot``. The modules import one another top down, ``rules`` →
``state`` → ``turns``, ``views``, ``snapshot`` → ``protocols`` → ``config`` → ``shapes``,
with the phase names in ``constants``; the lower modules know the game and a position
only through the typing protocols of ``protocols``. This module re-exports the constants,
the config and :class:`~moon_envs.moon_harvesters.state.HarvestersState`.
"""

from __future__ import annotations

import array
from typing import Any

import numpy as np

from moon_envs.core.game import Game, GameSpec
from moon_envs.core.info_fields import Field
from moon_envs.moon_harvesters.config import (
    GRID_BY_PLAYERS,
    SHORT_DEPOSIT_RULES,
    TIE_RULES,
    HarvestersConfig,
)
from moon_envs.moon_harvesters.constants import (
    ALL_PHASES,
    AUCTION,
    COLUMN_LETTERS,
    CRATERS,
    DEPOSITS,
    OVER,
    PHASES,
    PLACE,
)
from moon_envs.moon_harvesters.shapes import (
    MAX_ORIENTATIONS,
    Footprints,
    Shape,
    build_footprints,
    parse_shapes,
)
from moon_envs.moon_harvesters.state import HarvestersState


class HarvestersGame(Game):
    """Moon Harvesters' immutable rules and precomputed placement tables.

    Attributes:
        rows, cols, num_cells: the grid; ``cell = row * cols + col``; ``cell_names``
            the name of each cell (``A1``, ...).
        kinds: the harvester :class:`~moon_envs.moon_harvesters.shapes.Shape` s, in order.
        fp: the :class:`~moon_envs.moon_harvesters.shapes.Footprints` tables.
        per_kind: placements per kind (``8 * cells``).
        crater_base, place_base, deposit_base: offsets of the action blocks.
    """

    config_class = HarvestersConfig
    state_class = HarvestersState

    def __init__(self, config: HarvestersConfig | None = None, **params: Any) -> None:
        super().__init__(config, **params)
        cfg = self.config
        self.rows, self.cols = cfg.grid
        self.num_cells = self.rows * self.cols
        self.kinds: tuple[Shape, ...] = parse_shapes(cfg.shape_specs, self.rows, self.cols)
        self.num_kinds = len(self.kinds)
        self.fp: Footprints = build_footprints(self.kinds, self.rows, self.cols)
        self.per_kind = self.fp.per_kind
        k, c = self.num_kinds, self.num_cells
        self.crater_base = k + 1
        self.place_base = self.crater_base + c
        self.deposit_base = self.place_base + self.per_kind
        self.deposit_prefix = bytes(self.deposit_base)  # the deposits mask's leading zeros
        n = cfg.num_players
        self.cell_names = tuple(self.cell_name(cell) for cell in range(c))
        self._seat_order = [(np.arange(n) + p) % n for p in range(n)]
        self._plane_buf = np.empty((n, c), dtype=bool)
        self._layout_observation()

    def _layout_observation(self) -> None:
        """Offsets of the observation fields (``off_*``), the divisors of its counts
        (``*_scale``) and, per observer, the permutation that turns the seat-0 (absolute)
        vector every state maintains into that observer's view."""
        cfg = self.config
        n, c, k = cfg.num_players, self.num_cells, self.num_kinds
        self.off_craters = n * c
        self.off_deposits = (n + 1) * c
        self.off_left = (n + 2) * c
        self.off_supply = self.off_left + n
        self.off_collected = self.off_supply + 1
        self.off_phase = self.off_collected + n
        self.off_kind = self.off_phase + len(PHASES)
        self.off_offer = self.off_kind + n * k
        self.off_pool = self.off_offer + k
        self.off_held = self.off_pool + 1
        self.off_due = self.off_held + n
        self.deposit_scale = max(1, cfg.num_deposits)  # supply and deposits collected
        self.due_scale = max(1, cfg.deposits_per_turn, cfg.first_deposits)
        self.obs_perm = []
        for order in self._seat_order:
            parts = [np.arange(c) + s * c for s in order]
            parts.append(np.arange(n * c, (n + 2) * c))
            parts.append(self.off_left + order)
            parts.append([self.off_supply])
            parts.append(self.off_collected + order)
            parts.append(self.off_phase + np.arange(len(PHASES)))
            parts.extend(self.off_kind + s * k + np.arange(k) for s in order)
            parts.append(self.off_offer + np.arange(k))
            parts.append([self.off_pool])
            parts.append(self.off_held + order)
            parts.append([self.off_due])
            perm = np.concatenate(parts).astype(np.intp)
            assert perm.shape == self.spec.observation_shape
            self.obs_perm.append(perm)
        self.phase_onehot = {  # Python arrays, written into the state's (see its feat)
            p: array.array("f", [float(i == j) for j in range(len(PHASES))])
            for i, p in enumerate(PHASES)
        }
        self.phase_onehot[OVER] = array.array("f", [0.0] * len(PHASES))
        self._eye_kind = np.eye(k + 1, dtype=np.float32)[:, :k]

    def info_fields(self) -> list[Field]:
        """The phase (its index in ``ALL_PHASES``) and the last action (the sentence as the
        action's id)."""
        return [Field(("phase",), codes=ALL_PHASES), Field(("last_action",), tracked=True)]

    def _make_spec(self) -> GameSpec:
        cfg = self.config
        rows, cols = cfg.grid
        cells = rows * cols
        k = len(cfg.shape_specs)
        n = cfg.num_players
        return GameSpec(
            name="moon_harvesters",
            num_players=n,
            num_actions=k + 1 + cells + MAX_ORIENTATIONS * cells + cells,
            observation_shape=(observation_length(n, k, cells),),
            max_game_length=n + 2 * cfg.num_craters + n * cfg.pieces_per_kind + cfg.num_deposits,
            has_chance=False,
            hidden_information=False,
            observation_low=0.0,
            observation_high=1.0,
        )

    # ---- action ids ---------------------------------------------------------------------------
    def kind_action(self, kind: int) -> int:
        return kind

    @property
    def crater_take_action(self) -> int:
        return self.num_kinds

    def crater_action(self, cell: int) -> int:
        return self.crater_base + cell

    def place_action(self, slot: int, cell: int) -> int:
        return self.place_base + slot * self.num_cells + cell

    def deposit_action(self, cell: int) -> int:
        return self.deposit_base + cell

    def placement_cells(self, kind: int, placement: int) -> np.ndarray:
        """Cells covered by placement ``slot * cells + anchor`` of ``kind``."""
        return self.fp.cells[kind][placement]

    def cell_name(self, cell: int) -> str:
        r, c = divmod(int(cell), self.cols)
        return f"{COLUMN_LETTERS[c]}{r + 1}"


def observation_length(n: int, k: int, cells: int) -> int:
    """Length of the observation vector (see the env's documentation page)."""
    return (n + 2) * cells + n + 1 + n + len(PHASES) + n * k + k + 1 + n + 1


__all__ = [
    "ALL_PHASES",
    "AUCTION",
    "COLUMN_LETTERS",
    "CRATERS",
    "DEPOSITS",
    "GRID_BY_PLAYERS",
    "OVER",
    "PHASES",
    "PLACE",
    "SHORT_DEPOSIT_RULES",
    "TIE_RULES",
    "HarvestersConfig",
    "HarvestersGame",
    "HarvestersState",
    "observation_length",
]
