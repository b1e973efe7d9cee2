"""Moonstar rules, set-up of a round.

The first organizer, Game 12's menu, the planets, the moons and the roll of the dice.

A part of :class:`~moon_envs.moonstar.state.MoonstarState`, which combines one mixin
per phase; the fields it reads and writes are documented there.
"""

from __future__ import annotations

import operator
from array import array

import numpy as np

from moon_envs.core.state_io import fill
from moon_envs.moonstar.constants import MOON_SHARE
from moon_envs.moonstar.layout import MoonstarLayout
from moon_envs.moonstar.variants import (
    MAX_MOONS_PER_STAR,
    MAX_PLANET_VALUE,
)


class SetupPhase:
    """Set-up of a round: first organizer, menu, planets, moons, roll."""

    game: MoonstarLayout

    # ---- round flow --------------------------------------------------------------------
    def _start_round(self, sitting_out: int = -1) -> None:
        self.round_no += 1
        self.sitting_out = sitting_out
        self._board[self.game.t_round + 6] = min(1.0, self.round_no / self.game.config.max_rounds)
        self.excluded = self.pending_excluded
        self.pending_excluded = -1
        self.rules_idx = 0
        if self.game.menu_size:
            self._set_phase("menu")
        else:
            self._begin_setup()

    def _begin_setup(self) -> None:
        r = self.rules
        fill(self._planet_value, 0)
        self.planets_to_place = sorted(r.planets, reverse=True)
        self.red_star = -1
        fill(self._moon_star, -1)
        fill(self._moon_moved, False)
        self.moons_placed = 0
        fill(self._dice, 0)
        fill(self._die_used, False)
        self.high_bid, self.bidder, self.passes = 0, -1, 0
        fill(self._passed, False)
        fill(self._challengers, False)
        fill(self._bet_side, -1)
        fill(self._bet_idx, 0)
        fill(self._bet_stake, 0)
        self.bet_turn = -1
        self.moves_done = 0
        self.round_total = 0
        self.chain_star, self.chain_len = -1, 0
        fill(self._landed, 0)
        self.best_total = -1
        g = self.game
        b = self._board
        fill(b, 0.0, 0, g.stars_len)
        b[g.t_high] = b[g.t_passes] = 0.0
        b[g.t_rules : g.t_rules + 10] = g.rule_feature_arrays[self.rules_idx]
        if g.menu_size:
            fill(b, 0.0, g.t_menu, g.t_menu + g.menu_size)
            b[g.t_menu + self.rules_idx] = 1.0
        fill(b, 0.0, g.t_round, g.t_round + 3)
        b[g.t_round + 3] = (
            self.planets_to_place[0] / MAX_PLANET_VALUE if self.planets_to_place else 0.0
        )
        fill(self._moons_on_star, 0)
        self._set_phase("planet" if self.planets_to_place else "moon")

    def _place_planet(self, star: int) -> None:
        value = self._planet_value[star] = self.planets_to_place.pop(0)
        self._board[star * 5] = value / MAX_PLANET_VALUE
        nxt = self.planets_to_place[0] / MAX_PLANET_VALUE if self.planets_to_place else 0.0
        self._board[self.game.t_round + 3] = nxt
        self.last_action = f"planet {value} on star {star}"
        if not self.planets_to_place:
            self._set_phase("moon")

    def _place_moon(self, star: int) -> None:
        m = self.moons_placed
        self._moon_star[m] = star
        self._moons_on_star[star] += 1
        b = self._board
        b[star * 5 + 2] += MOON_SHARE
        row = self.game.moon_base + 14 * m
        b[row + star] = 1.0
        b[row + 13] = 1.0
        num_moons = self.rules.num_moons
        b[self.game.t_round + 4] = (num_moons - m - 1) / 15.0
        self.last_action = f"moon {m} on star {star}"
        self.moons_placed = m + 1
        if m + 1 == num_moons:
            self._set_phase("roll")

    def _roll(self, outcome: int) -> None:
        nd = self.rules.num_dice
        faces = self.game.roll_faces[nd][outcome]
        self._dice[:nd] = array("b", faces)
        self.last_action = "dice: " + " ".join(map(str, faces))
        g = self.game
        b = self._board
        for d, face in enumerate(self._dice):
            b[g.dice_base + d] = face / 6.0
        fill(b, 1.0, g.dice_base + g.max_dice, g.dice_base + g.max_dice + nd)
        for f in range(6):
            b[g.face_base + f] = faces.count(f + 1) / g.max_dice
        self._set_phase("auction")
        self.to_move = self._first_speaker()
        if self.eligible_bidders() == 0:  # everyone is barred: nobody can bid
            self._no_bid(forced=True)

    def _star_mask_bytes(self) -> bytes:
        """The stars the organizer may choose (one byte each, 1: allowed): free of planets
        (planets), holding fewer than three moons (moons), holding a planet (favourite)."""
        if self.phase == "planet":
            return bytes(map(operator.not_, self._planet_value))
        if self.phase == "moon":
            return self._moons_on_star.tobytes().translate(_ROOM_FOR_A_MOON)
        return bytes(map(bool, self._planet_value))  # favourite star

    def _star_mask(self) -> np.ndarray:
        """:meth:`_star_mask_bytes` as an int8 array."""
        return np.frombuffer(self._star_mask_bytes(), dtype=np.int8).copy()


# a star's moon count (a byte) -> 1 while it holds fewer than MAX_MOONS_PER_STAR moons
_ROOM_FOR_A_MOON = bytes(int(k < MAX_MOONS_PER_STAR) for k in range(256))
