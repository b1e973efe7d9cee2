"""Jupiter's position: the state's fields, legal moves, moves, turn order, results, observation.

:class:`JupiterState` holds the rules of play; its text (move names, the board) comes
from the ``text`` mixin and its snapshot checks from ``snapshot``. The game
(:mod:`moon_envs.jupiter.rules`) imports this module, not the reverse: a position reads
its game's tables through :class:`~moon_envs.jupiter.protocols.JupiterTables`.
"""

from __future__ import annotations

import math
import struct
from array import array

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL, ConfigError, State
from moon_envs.core.snapshot import quote
from moon_envs.core.state_io import ArrayField, new_array
from moon_envs.jupiter.config import (
    _MOVE,
    _OVER,
    _ROLLED,
    _ROLLING,
    _START,
    EMPTY,
    LINE_FEATURES,
    NUM_FACES,
    PROBE,
)
from moon_envs.jupiter.protocols import JupiterTables
from moon_envs.jupiter.snapshot import validate_state
from moon_envs.jupiter.text import TextViews


INT8, FLOAT32 = np.dtype(np.int8), np.dtype(np.float32)


class JupiterState(TextViews, State):
    """A Jupiter position. Fields (all public, read-only for users):

    ``cell[c]`` what lies on cell c: 0 empty, 1..6 a die with that face, ``PROBE + s`` a probe
    of seat s (``owner`` and ``die`` give the same as per-cell arrays);
    ``probes_left[seat]``; ``dice_left``; ``points[seat]`` (integer scores);
    ``player`` the seat to move; ``stage``; ``rolled`` the die waiting to be placed (0: none).

    ``cell``, ``probes_left`` and ``points`` read as numpy arrays (int8, int16, int64) and
    are kept as Python arrays (``_cell``, ...), which the rules read and write entry by
    entry far faster (see :class:`~moon_envs.core.state_io.ArrayField`).
    """

    game: JupiterTables
    cell = ArrayField("int8")
    probes_left = ArrayField("int16")
    points = ArrayField("int64")

    def __init__(self, game: JupiterTables) -> None:
        super().__init__(game)
        cfg = game.config
        n = cfg.num_players
        self._cell = array("b", bytes(game.num_cells))
        self.empty_cells = game.num_cells
        self._probes_left = array("h", [cfg.num_probes] * n)
        self.dice_left = cfg.num_dice
        self._points = array("q", bytes(8 * n))
        self.player = 0
        self.rolled = 0
        self.stage = _START if cfg.random_first_player else _MOVE
        self.last_action: tuple = ()  # (kind, seat, value, cell) of the last event, for text

    def clone(self) -> JupiterState:
        """An independent copy, field by field (the same result as the generic
        :meth:`State.clone`, several times faster: search clones constantly). The core's
        score records (``_scores_before``, ``_last_win_delta``) are only ever replaced,
        never written into, so the copy shares them."""
        new = object.__new__(type(self))
        d = dict(self.__dict__)  # a plain dict: see State.clone
        d["_cell"] = self._cell.__copy__()  # (an array's cheapest copy: no slice to build)
        d["_probes_left"] = self._probes_left.__copy__()
        d["_points"] = self._points.__copy__()
        new.__dict__ = d
        return new

    def _validate(self) -> None:
        validate_state(self)

    def check_held_info(self, info: dict, field: str) -> None:
        """Jupiter gives no infos, so an env never holds one."""
        keys = quote(sorted(map(str, info)))
        raise ConfigError(f"{field} must be empty (Jupiter gives no infos), got keys {keys}")

    @property
    def owner(self) -> np.ndarray:
        """Seat of the probe on each cell, -1 where there is none."""
        return self.game.code_owner[self.cell]

    @property
    def die(self) -> np.ndarray:
        """Face of the die on each cell, 0 where there is none."""
        return np.where((self.cell >= 1) & (self.cell <= NUM_FACES), self.cell, 0).astype(np.int8)

    def place(self, cell: int, seat: int | None = None, face: int | None = None) -> None:
        """Put a probe of ``seat`` or a die ``face`` on ``cell`` without scoring (for
        building positions by hand, e.g. in tests)."""
        if (seat is None) == (face is None):
            raise ValueError("give exactly one of seat or face")
        if self._cell[cell] == EMPTY:
            self.empty_cells -= 1
        self._cell[cell] = PROBE + seat if seat is not None else face

    # ---- protocol hooks ------------------------------------------------------------------
    def _current_player(self) -> int:
        stage = self.stage
        if stage == _MOVE or stage == _ROLLED:
            return self.player
        if stage == _OVER:
            return TERMINAL
        return CHANCE

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.stage == _START:  # (the game's lists, shared: never written)
            return self.game.first_player_outcomes
        return self.game.face_outcomes  # outcome f = pips f + 1

    def _is_chance_outcome(self, outcome: int) -> bool:
        if self.stage == _START:
            return 0 <= outcome < self.game.config.num_players
        return 0 <= outcome < NUM_FACES

    def _legal_mask(self) -> np.ndarray:
        # built as bytes (one per action), then wrapped: cheaper than numpy on 33 entries
        g = self.game
        empty = self._cell.tobytes().translate(g.empty_table)  # 1 per empty cell, else 0
        if self.stage == _ROLLED:  # put the die: on any empty cell
            mask = g.no_cells + empty + b"\0"
        else:  # place a probe on any empty cell if one is left; take a die if one is left
            probes = empty if self._probes_left[self.player] > 0 else g.no_cells
            mask = probes + g.no_cells + (b"\1" if self.dice_left > 0 else b"\0")
        return new_array(mask, INT8)

    def _is_legal(self, action: int) -> bool:
        c = self.game.num_cells
        if self.stage == _ROLLED:
            return c <= action < 2 * c and self._cell[action - c] == EMPTY
        if 0 <= action < c:
            return self._probes_left[self.player] > 0 and self._cell[action] == EMPTY
        return action == 2 * c and self.dice_left > 0

    def _apply(self, action: int) -> None:
        g = self.game
        stage = self.stage
        if stage == _START:
            self.player = action
            self.stage = _MOVE
            self.last_action = ("start", action, 0, -1)
            return
        if stage == _ROLLING:
            self.rolled = action + 1
            self.stage = _ROLLED
            self.last_action = ("roll", self.player, self.rolled, -1)
            return
        c = g.num_cells
        p = self.player
        if action == 2 * c:  # roll
            self.dice_left -= 1
            self.stage = _ROLLING
            self.last_action = ("take", p, 0, -1)
            return
        # the codes on the cells in line (same row or column) with the chosen cell
        in_line = g.line_codes[action % c](self._cell)
        points = self._points
        if action < c:  # place a probe: it scores every die in line
            cell = action
            gain = sum(map(g.code_value_list.__getitem__, in_line))
            self._cell[cell] = PROBE + p
            self._probes_left[p] -= 1
            points[p] += gain
            self.last_action = ("probe", p, gain, cell)
        else:  # place the rolled die: it scores for every probe in line
            cell = action - c
            value = g.face_value_list[self.rolled]
            self._cell[cell] = self.rolled
            for code in in_line:
                if code >= PROBE:
                    points[code - PROBE] += value
            self.last_action = ("die", p, self.rolled, cell)
            self.rolled = 0
        if g.config.black_moons:  # a score never goes below 0
            for seat, x in enumerate(points):
                if x < 0:
                    points[seat] = 0
        self._next_turn()

    def _next_turn(self) -> None:
        g = self.game
        n = g.config.num_players
        self.stage = _MOVE
        self.empty_cells -= 1
        if self.empty_cells == 0:
            self.stage = _OVER
            return
        if self.dice_left > 0:
            self.player = (self.player + 1) % n
            return
        if g.config.stuck_player == "end":
            q = (self.player + 1) % n
            if self._probes_left[q] > 0:
                self.player = q
            else:
                self.stage = _OVER  # the player due to move can do nothing
            return
        for k in range(1, n + 1):
            q = (self.player + k) % n
            if self._probes_left[q] > 0:
                self.player = q
                return
        self.stage = _OVER  # nobody holds a probe and no die is left

    def _scores(self) -> array:
        return self._points

    def _winners(self) -> list[int]:
        points = self._points.tolist()
        best = max(points)
        winners = [s for s, p in enumerate(points) if p == best]
        if len(winners) > 1 and self.game.config.ties == "none":
            return []
        return winners

    def _observation(self, player: int) -> np.ndarray:
        # assembled as float32 bytes (each cell's one-hot row from a table, then the scalar
        # tail), then wrapped: far cheaper than numpy's small-array operations
        g = self.game
        cfg = g.config
        n = cfg.num_players
        pts = self._points.tolist()
        left = self._probes_left.tolist()
        order = g.seat_orders[player]
        tail = [left[q] / cfg.num_probes for q in order]
        tail.append(self.dice_left / cfg.num_dice)
        tail += [0.0] * NUM_FACES
        if self.rolled:
            tail[n + self.rolled] = 1.0
        tail += [math.tanh(pts[q] / 50.0) for q in order]
        tail.append(math.tanh((pts[player] - max([pts[q] for q in order[1:]])) / 20.0))
        tail.append(float(cfg.black_moons))
        tail.append(float(cfg.expanding_universe))
        data = b"".join(map(g.onehot_rows[player].__getitem__, self._cell.tobytes()))
        data += struct.pack(g.tail_format, *tail)
        if cfg.line_features:
            data += self._line_features(player).tobytes()
        return new_array(data, FLOAT32)

    def _line_features(self, player: int) -> np.ndarray:
        """Per cell: a probe's gain there now / 36, my probes and the others' probes in its
        row and column / their numbers (``line_features``), cell-major."""
        g = self.game
        cfg = g.config
        lines = g.line_counts
        gain = lines @ g.code_value[self.cell]
        owner = self.owner
        mine = lines @ (owner == player).astype(np.int64)
        others = lines @ ((owner >= 0) & (owner != player)).astype(np.int64)
        feats = np.empty((g.num_cells, LINE_FEATURES), dtype=np.float32)
        feats[:, 0] = np.clip(gain / 36.0, -1.0, 1.0)
        feats[:, 1] = mine / cfg.num_probes
        feats[:, 2] = others / (cfg.num_probes * (cfg.num_players - 1))
        return feats.reshape(-1)
