"""Jupiter rules engine (Reiner Knizia, Spielbox 1993; rules: docs/rules.md).

Board: 4 rows × 4/5/6 columns for 2/3/4 players (6 columns with ``expanding_universe``).
Cells are numbered row-major: ``cell = row * cols + col``.

Actions (one flat space of ``2 * cells + 1``):

* ``0 .. cells-1``            place one of your probes on ``cell``;
* ``cells .. 2*cells-1``      put the die you just rolled on ``cell - cells``;
* ``2*cells``                 take a die and roll it (then a chance node draws 1..6).

A player with no probes must roll; with no dice left must place; with neither is skipped
or ends the game (``stuck_player`` [HOUSE]). The game ends when every cell is occupied or
(expanding universe) when every probe and die has been used. Ties are shared or leave no
winner (``ties`` [HOUSE]).

The game (:class:`JupiterGame`, its tables and action ids) is here; the constants and
parameters are in ``config``, the position in ``state``, its text in ``text``, its
snapshot checks in ``snapshot``. The modules import one another top down, ``rules`` →
``state`` → ``text``, ``snapshot`` → ``protocols`` → ``config``; the lower modules know
the game and a position only through the typing protocols of ``protocols``. This module
re-exports the constants, the config and :class:`~moon_envs.jupiter.state.JupiterState`.
"""

from __future__ import annotations

import operator

import numpy as np

from moon_envs.core.game import Game, GameSpec
from moon_envs.jupiter.config import (
    COLS_BY_PLAYERS,
    EMPTY,
    FULL_COLS,
    LINE_FEATURES,
    NUM_FACES,
    PROBE,
    ROWS,
    STAGES,
    STUCK_PLAYER_RULES,
    TIE_RULES,
    JupiterConfig,
)
from moon_envs.jupiter.state import JupiterState


class JupiterGame(Game):
    """Jupiter's immutable rules; see :class:`JupiterConfig` for the parameters."""

    config_class = JupiterConfig
    state_class = JupiterState

    def __init__(self, config: JupiterConfig | None = None, **params) -> None:
        super().__init__(config, **params)
        cfg = self.config
        self.rows = ROWS
        self.cols = FULL_COLS if cfg.expanding_universe else COLS_BY_PLAYERS[cfg.num_players]
        self.num_cells = self.rows * self.cols
        rr, cc = np.divmod(np.arange(self.num_cells), self.cols)
        same_line = (rr[:, None] == rr[None, :]) | (cc[:, None] == cc[None, :])
        np.fill_diagonal(same_line, False)
        self.lines = same_line  # lines[c, d]: cells c and d share a row or a column
        self.line_counts = same_line.astype(np.int64)  # the same as 0/1, for sums by matmul
        self.line_cells = [np.flatnonzero(row) for row in same_line]
        # line_codes[c](cell.tobytes()): the codes on the cells of c's row and column, as a
        # tuple (every line has at least 6 cells, so itemgetter always returns a tuple)
        self.line_codes = [operator.itemgetter(*row.tolist()) for row in self.line_cells]
        n = cfg.num_players
        # Cell codes (State.cell): 0 empty, 1..6 a die with that face, PROBE + s a probe of seat s.
        codes = PROBE + n
        signed = np.zeros(codes, dtype=np.int64)
        signed[1 : NUM_FACES + 1] = np.arange(1, NUM_FACES + 1)
        if cfg.black_moons:
            signed[3], signed[4] = -3, -4
        self.face_value = signed[: NUM_FACES + 1]  # signed value of faces 0..6 (0 = no die)
        self.face_value_list = self.face_value.tolist()
        self.code_value = signed  # signed die value of each cell code (0 for probes, empty)
        self.code_value_list = signed.tolist()
        self.code_owner = np.full(codes, -1, dtype=np.int8)
        self.code_owner[PROBE:] = np.arange(n)
        # observation channel of each code, per observer: probes rotated so "me" is 0
        self.num_channels = n + NUM_FACES + 1  # probe per seat, die face one-hot, empty
        lut = np.empty((n, codes), dtype=np.int64)
        for p in range(n):
            lut[p, EMPTY] = n + NUM_FACES
            lut[p, 1 : NUM_FACES + 1] = n + np.arange(NUM_FACES)
            lut[p, PROBE:] = (np.arange(n) - p) % n
        # onehot_rows[p][code]: the float32 bytes of observer p's one-hot row of a cell
        # holding code (the observation's board is these rows, cell by cell)
        onehot = np.eye(self.num_channels, dtype=np.float32)
        self.onehot_rows = [[onehot[k].tobytes() for k in lut[p]] for p in range(n)]
        # struct format of the observation's scalar tail, float32 (its length: _make_spec)
        self.tail_format = f"={n + 1 + NUM_FACES + n + 1 + 2}f"
        self.seat_orders = [[(p + i) % n for i in range(n)] for p in range(n)]  # me first
        # the legal mask's parts as bytes: empty_table turns cell codes into 1 (empty) or 0
        self.empty_table = bytes([1] + [0] * 255)
        self.no_cells = bytes(self.num_cells)
        self.first_player_outcomes = [(s, 1.0 / n) for s in range(n)]
        self.face_outcomes = [(f, 1.0 / NUM_FACES) for f in range(NUM_FACES)]  # f -> pips f+1
        self.obs_len = self.spec.observation_shape[0]

    def _make_spec(self) -> GameSpec:
        cfg = self.config
        cols = FULL_COLS if cfg.expanding_universe else COLS_BY_PLAYERS[cfg.num_players]
        cells = ROWS * cols
        n = cfg.num_players
        obs_len = cells * (n + NUM_FACES + 1) + n + 1 + NUM_FACES + n + 1 + 2
        if cfg.line_features:
            obs_len += LINE_FEATURES * cells
        return GameSpec(
            name="jupiter",
            num_players=n,
            num_actions=2 * cells + 1,
            observation_shape=(obs_len,),
            max_game_length=n * cfg.num_probes + 2 * cfg.num_dice,
            has_chance=True,
            hidden_information=False,
            max_chance_outcomes=max(NUM_FACES, n),
            observation_low=-1.0,
            observation_high=1.0,
        )

    # action ids
    @property
    def roll_action(self) -> int:
        return 2 * self.num_cells

    def probe_action(self, cell: int) -> int:
        return cell

    def die_action(self, cell: int) -> int:
        return self.num_cells + cell

    def cell_name(self, cell: int) -> str:
        r, c = divmod(cell, self.cols)
        return f"{'ABCDEF'[c]}{r + 1}"


__all__ = [
    "COLS_BY_PLAYERS",
    "EMPTY",
    "FULL_COLS",
    "NUM_FACES",
    "PROBE",
    "ROWS",
    "STAGES",
    "STUCK_PLAYER_RULES",
    "TIE_RULES",
    "JupiterConfig",
    "JupiterGame",
    "JupiterState",
]
