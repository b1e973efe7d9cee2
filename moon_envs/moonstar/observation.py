"""Moonstar rules, what a seat observes.

The seat-independent board kept up to date move by move, the seat's own part, and the
full-information global state.

A part of :class:`~moon_envs.moonstar.state.MoonstarState`, which combines one mixin
per phase; the fields it reads and writes are documented there.
"""

from __future__ import annotations

import math
from array import array

import numpy as np

from moon_envs.core.game import TERMINAL
from moon_envs.core.state_io import new_array
from moon_envs.moonstar import solver
from moon_envs.moonstar.constants import (
    OPTIMUM_FEATURES,
    OPTIMUM_PHASES,
    PHASE_INDEX,
)
from moon_envs.moonstar.layout import MoonstarLayout
from moon_envs.moonstar.variants import (
    MAX_BID,
    MAX_PLANET_VALUE,
    NUM_STARS,
)


FLOAT32 = np.dtype(np.float32)


class Observations:
    """What a seat observes, and the global state."""

    game: MoonstarLayout

    def bets_visible(self, player: int, seat: int) -> bool:
        """Whether ``player`` may see ``seat``'s side bet (sealed until all have bet)."""
        return seat == player or self.phase != "bets"

    def board_features(self) -> np.ndarray:
        """The seat-independent part of the observation, computed from scratch (the state
        keeps it up to date incrementally in ``board``)."""
        g = self.game
        M, D = g.max_moons, g.max_dice
        out = np.zeros(g.board_len, dtype=np.float32)
        on = self.moon_star >= 0
        unmoved = on & ~self.moon_moved
        st = out[: NUM_STARS * 5].reshape(NUM_STARS, 5)
        st[:, 0] = self.planet_value / MAX_PLANET_VALUE
        if self.red_star >= 0:
            st[self.red_star, 1] = 1.0
        st[:, 2] = np.bincount(self.moon_star[unmoved], minlength=NUM_STARS) / 15.0
        st[:, 3] = self.landed / 15.0
        if self.phase == "play" and self.chain_star >= 0:
            st[self.chain_star, 4] = 1.0
        mo = out[g.moon_base : g.dice_base].reshape(M, 14)
        idx = np.flatnonzero(on)
        mo[idx, self.moon_star[idx]] = 1.0
        mo[:, 12] = self.moon_moved & on
        mo[:, 13] = on
        free = (self.dice > 0) & ~self.die_used
        if self.phase != "roll":
            out[g.dice_base : g.dice_base + D] = self.dice / 6.0
            out[g.dice_base + D : g.dice_base + 2 * D] = free
            if free.any():
                out[g.face_base : g.face_base + 6] = (
                    np.bincount(self.dice[free] - 1, minlength=6) / D
                )
        out[g.t_high] = self.high_bid / MAX_BID
        out[g.t_passes] = self.passes / g.n
        out[g.t_phase + PHASE_INDEX[self.phase]] = 1.0
        out[g.t_rules : g.t_rules + 10] = g.rule_features[self.rules_idx]
        if g.menu_size and self.phase != "menu":
            out[g.t_menu + self.rules_idx] = 1.0
        r = self.rules
        i = g.t_round
        out[i] = math.tanh(self.round_total / 50.0)
        out[i + 1] = self.moves_done / 15.0
        out[i + 2] = self.chain_len / 15.0
        if self.planets_to_place:
            out[i + 3] = self.planets_to_place[0] / MAX_PLANET_VALUE
        if self.phase == "planet" or self.phase == "moon":
            out[i + 4] = (r.num_moons - self.moons_placed) / 15.0
        out[i + 5] = math.tanh(g.config.target / 200.0)
        out[i + 6] = min(1.0, self.round_no / g.config.max_rounds)
        return out

    def _score_features(self, player: int) -> array:
        """``tanh(score / 100)`` per seat (me first) and ``tanh(lead / 50)``, float32,
        memoised."""
        cache = self.game._score_cache
        key = (self._points.tobytes(), player)
        v = cache.get(key)
        if v is None:
            n = self.game.n
            pts = self._points.tolist()
            v = array("f", bytes(4 * (n + 1)))
            best_other = max(pts[s] for s in range(n) if s != player)
            for s in range(n):
                v[(s - player) % n] = math.tanh(pts[s] / 100.0)
            v[n] = math.tanh((pts[player] - best_other) / 50.0)
            if len(cache) > 4096:  # bounded: memory stays flat over any number of games
                cache.clear()
            cache[key] = v
        return v

    def _observation(self, player: int) -> np.ndarray:
        # the seat's part is built in a Python array, then the board and it are wrapped:
        # far cheaper than numpy's small-array operations
        g = self.game
        n = g.n
        out = g.zero_seat_part[:]  # the seat's part, after the board
        if self.bidder >= 0:
            out[(self.bidder - player) % n] = 1.0
            if self.rules.challenges:
                ch = self._challengers
                for k in range(n):
                    out[n + k] = ch[(player + k) % n]
        if self.excluded >= 0:
            out[2 * n + (self.excluded - player) % n] = 1.0
        if self.sitting_out >= 0:
            out[2 * n + (self.sitting_out - player) % n] = 1.0
        out[3 * n + (self.organizer - player) % n] = 1.0
        cp = self.to_act
        if cp >= 0:
            out[4 * n + (cp - player) % n] = 1.0
        i = 5 * n
        if g.any_bets and (self.phase == "bets" or self.phase == "play"):
            sealed = self.phase == "bets"
            side, idx = self._bet_side, self._bet_idx
            for s in range(n):
                if side[s] >= 0 and (not sealed or s == player):
                    k = (s - player) % n
                    out[i + k] = 1.0 - side[s]
                    out[i + n + k] = float(side[s])
                    out[i + 2 * n + k] = idx[s] / max(1, g.num_stakes - 1)
        i += 3 * n
        out[i : i + n + 1] = self._score_features(player)
        if g.passed_len:
            passed = self._passed
            for k in range(n):
                out[i + n + 1 + k] = passed[(player + k) % n]
        if g.config.round_optimum and self.phase in OPTIMUM_PHASES:
            best = solver.solve(self.situation(), with_plan=False).total
            out[-OPTIMUM_FEATURES:] = array("f", (min(1.0, best / MAX_BID), 1.0))
        return new_array(self._board.tobytes() + out.tobytes(), FLOAT32)

    def _global_state(self) -> np.ndarray:
        """Seat 0's observation with every sealed side bet shown, then who is to move."""
        g = self.game
        n = g.n
        obs = self._observation(0)
        if g.any_bets and self.phase == "bets":
            i = g.board_len + 5 * n
            for s in range(n):
                if self.bet_side[s] >= 0:
                    obs[i + s] = 1.0 - self.bet_side[s]
                    obs[i + n + s] = float(self.bet_side[s])
                    obs[i + 2 * n + s] = self.bet_idx[s] / max(1, g.num_stakes - 1)
        out = np.zeros(g.spec.global_state_shape, dtype=np.float32)
        out[: obs.shape[0]] = obs
        player = self._current_player()
        if player >= 0:
            out[obs.shape[0] + player] = 1.0
        elif player == TERMINAL:
            out[obs.shape[0] + n] = 1.0
        return out
