"""What Moon Harvesters' position modules need of the game and of a position, as typing
protocols.

The modules below the game (``state``, ``turns``, ``views``, ``snapshot``) type the game as
:class:`HarvestersTables` and a position as :class:`HarvestersPosition` rather than
import :class:`~moon_envs.moon_harvesters.rules.HarvestersGame` or
:class:`~moon_envs.moon_harvesters.state.HarvestersState` (which provide them) from the
modules above; the order of the modules is given in :mod:`moon_envs.moon_harvesters.rules`.
"""

from __future__ import annotations

import array
from typing import Protocol

import numpy as np

from moon_envs.core.game import GameSpec
from moon_envs.moon_harvesters.config import HarvestersConfig
from moon_envs.moon_harvesters.shapes import Footprints, Shape


class HarvestersTables(Protocol):
    """The game as a position reads it: the config and spec, the grid, the placement tables,
    the action offsets and the observation layout that
    :class:`~moon_envs.moon_harvesters.rules.HarvestersGame` builds (documented there)."""

    config: HarvestersConfig
    spec: GameSpec
    rows: int
    cols: int
    num_cells: int
    cell_names: tuple[str, ...]
    kinds: tuple[Shape, ...]
    num_kinds: int
    fp: Footprints
    per_kind: int
    crater_base: int
    place_base: int
    deposit_base: int
    deposit_prefix: bytes
    off_craters: int
    off_deposits: int
    off_left: int
    off_supply: int
    off_collected: int
    off_phase: int
    off_kind: int
    off_offer: int
    off_pool: int
    off_held: int
    off_due: int
    deposit_scale: int
    due_scale: int
    obs_perm: list[np.ndarray]
    phase_onehot: dict[str, array.array]
    _seat_order: list[np.ndarray]
    _plane_buf: np.ndarray
    _eye_kind: np.ndarray

    def cell_name(self, cell: int) -> str: ...


class HarvestersPosition(Protocol):
    """The fields and helpers of a position that the snapshot checks read (documented on
    :class:`~moon_envs.moon_harvesters.state.HarvestersState`)."""

    game: HarvestersTables
    owner: np.ndarray
    piece: np.ndarray
    crater: np.ndarray
    deposit: np.ndarray
    fits: np.ndarray
    kind_of: np.ndarray
    on_offer: np.ndarray
    crater_pool: int
    craters_held: np.ndarray
    placed: np.ndarray
    collected: np.ndarray
    supply: int
    phase: str
    player: int
    deposits_due: int
    passes: int
    last_action: str
    feat: np.ndarray
    move_number: int

    def can_place(self, seat: int) -> bool: ...

    def free_cells(self) -> np.ndarray: ...

    def _build_observation(self, player: int) -> np.ndarray: ...
