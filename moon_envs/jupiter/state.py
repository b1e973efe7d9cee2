"""Jupiter's position: the state's fields, legal moves, moves, turn order, results, observation.

:class:`JupiterState` holds the rules of play; its text (move names, the board) comes
from the ``text`` mixin and its snapshot checks from ``snapshot``. The game
(:mod:`moon_envs.jupiter.rules`) imports this module, not the reverse: a position reads
its game's tables through :class:`~moon_envs.jupiter.protocols.JupiterTables`.
"""

from __future__ import annotations

import math

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL, ConfigError, State
from moon_envs.core.snapshot import quote
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


class JupiterState(TextViews, State):
    """A Jupiter position. Fields (all public, read-only for users):

    ``cell[c]`` what lies on cell c: 0 empty, 1..6 a die with that face, ``PROBE + s`` a probe
    of seat s (``owner`` and ``die`` give the same as per-cell arrays);
    ``probes_left[seat]``; ``dice_left``; ``points[seat]`` (integer scores);
    ``player`` the seat to move; ``stage``; ``rolled`` the die waiting to be placed (0: none).
    """

    game: JupiterTables

    def __init__(self, game: JupiterTables) -> None:
        super().__init__(game)
        cfg = game.config
        n = cfg.num_players
        self.cell = np.zeros(game.num_cells, dtype=np.int8)
        self.empty_cells = game.num_cells
        self.probes_left = np.full(n, cfg.num_probes, dtype=np.int16)
        self.dice_left = cfg.num_dice
        self.points = np.zeros(n, dtype=np.int64)
        self.player = 0
        self.rolled = 0
        self.stage = _START if cfg.random_first_player else _MOVE
        self.last_action: tuple = ()  # (kind, seat, value, cell) of the last event, for text

    def clone(self) -> JupiterState:
        """An independent copy, field by field (the same result as the generic
        :meth:`State.clone`, several times faster: search clones constantly)."""
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        d["cell"] = self.cell.copy()
        d["probes_left"] = self.probes_left.copy()
        d["points"] = self.points.copy()
        for key in ("_scores_before", "_last_win_delta"):
            value = d.get(key)
            if value is not None:
                d[key] = value.copy()
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
        if self.cell[cell] == EMPTY:
            self.empty_cells -= 1
        self.cell[cell] = PROBE + seat if seat is not None else face

    # ---- protocol hooks ------------------------------------------------------------------
    def _current_player(self) -> int:
        stage = self.stage
        if stage == _MOVE or stage == _ROLLED:
            return self.player
        if stage == _OVER:
            return TERMINAL
        return CHANCE

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.stage == _START:
            return list(self.game.first_player_outcomes)
        return list(self.game.face_outcomes)  # outcome f = pips f + 1

    def _legal_mask(self) -> np.ndarray:
        g = self.game
        c = g.num_cells
        mask = np.zeros(2 * c + 1, dtype=np.int8)
        empty = self.cell == EMPTY
        if self.stage == _ROLLED:
            mask[c : 2 * c] = empty
        else:
            if self.probes_left[self.player] > 0:
                mask[:c] = empty
            if self.dice_left > 0:
                mask[2 * c] = 1
        return mask

    def _is_legal(self, action: int) -> bool:
        c = self.game.num_cells
        if self.stage == _ROLLED:
            return c <= action < 2 * c and self.cell[action - c] == EMPTY
        if 0 <= action < c:
            return self.probes_left[self.player] > 0 and self.cell[action] == EMPTY
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
        if action < c:  # place a probe
            cell = action
            value = g.code_value_list
            gain = sum([value[x] for x in self.cell[g.line_cells[cell]].tolist()])
            self.cell[cell] = PROBE + p
            self.probes_left[p] -= 1
            self.points[p] += gain
            self.last_action = ("probe", p, gain, cell)
        else:  # place the rolled die
            cell = action - c
            value = int(g.face_value[self.rolled])
            self.cell[cell] = self.rolled
            points = self.points
            for code in self.cell[g.line_cells[cell]].tolist():
                if code >= PROBE:
                    points[code - PROBE] += value
            self.last_action = ("die", p, self.rolled, cell)
            self.rolled = 0
        if g.config.black_moons:
            np.maximum(self.points, 0, out=self.points)
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
            if self.probes_left[q] > 0:
                self.player = q
            else:
                self.stage = _OVER  # the player due to move can do nothing
            return
        for k in range(1, n + 1):
            q = (self.player + k) % n
            if self.probes_left[q] > 0:
                self.player = q
                return
        self.stage = _OVER  # nobody holds a probe and no die is left

    def _scores(self) -> np.ndarray:
        return self.points

    def _winners(self) -> list[int]:
        best = self.points.max()
        winners = np.flatnonzero(self.points == best).tolist()
        if len(winners) > 1 and self.game.config.ties == "none":
            return []
        return winners

    def _observation(self, player: int) -> np.ndarray:
        g = self.game
        cfg = g.config
        n = cfg.num_players
        out = np.zeros(g.obs_len, dtype=np.float32)
        cells = g.num_cells
        out[g.onehot_index[player].take(g.cell_offset + self.cell)] = 1.0
        k = cells * g.num_channels
        pts = self.points.tolist()
        left = self.probes_left.tolist()
        order = [(player + i) % n for i in range(n)]
        tail = [left[q] / cfg.num_probes for q in order]
        tail.append(self.dice_left / cfg.num_dice)
        tail += [0.0] * NUM_FACES
        if self.rolled:
            tail[n + self.rolled] = 1.0
        tail += [math.tanh(pts[q] / 50.0) for q in order]
        tail.append(math.tanh((pts[player] - max(pts[q] for q in order[1:])) / 20.0))
        tail.append(float(cfg.black_moons))
        tail.append(float(cfg.expanding_universe))
        out[k : k + len(tail)] = tail
        if cfg.line_features:
            out[k + len(tail) :] = self._line_features(player)
        return out

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
