"""What Jupiter's position modules need of the game and of a position, as typing protocols.

The modules below the game (``state``, ``text``, ``snapshot``) type the game as
:class:`JupiterTables` and a position as :class:`JupiterPosition` rather than import
:class:`~moon_envs.jupiter.rules.JupiterGame` or
:class:`~moon_envs.jupiter.state.JupiterState` (which provide them) from the modules
above; the order of the modules is given in :mod:`moon_envs.jupiter.rules`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

from moon_envs.jupiter.config import JupiterConfig


class JupiterTables(Protocol):
    """The game as a position reads it: the config, the board's size and the lookup tables
    :class:`~moon_envs.jupiter.rules.JupiterGame` builds (documented there)."""

    config: JupiterConfig
    rows: int
    cols: int
    num_cells: int
    line_counts: np.ndarray
    line_cells: list[np.ndarray]
    line_codes: list[Callable[[bytes], tuple[int, ...]]]
    face_value: np.ndarray
    face_value_list: list[int]
    code_value: np.ndarray
    code_value_list: list[int]
    code_owner: np.ndarray
    num_channels: int
    onehot_rows: list[list[bytes]]
    tail_format: str
    seat_orders: list[list[int]]
    empty_table: bytes
    no_cells: bytes
    first_player_outcomes: list[tuple[int, float]]
    face_outcomes: list[tuple[int, float]]
    obs_len: int

    def cell_name(self, cell: int) -> str: ...


class JupiterPosition(Protocol):
    """The fields of a position that the snapshot checks read (documented on
    :class:`~moon_envs.jupiter.state.JupiterState`)."""

    game: JupiterTables
    cell: np.ndarray
    empty_cells: int
    probes_left: np.ndarray
    dice_left: int
    points: np.ndarray
    player: int
    rolled: int
    stage: str
    move_number: int
    last_action: tuple
