"""Moonstar rules, set-up of a round.

The first organizer, Game 12's menu, the planets, the moons and the roll of the dice.

A part of :class:`~moon_envs.moonstar.state.MoonstarState`, which combines one mixin
per phase; the fields it reads and writes are documented there.
"""

from __future__ import annotations

import numpy as np

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
        self.board[self.game.t_round + 6] = min(1.0, self.round_no / self.game.config.max_rounds)
        self.excluded = self.pending_excluded
        self.pending_excluded = -1
        self.rules_idx = 0
        if self.game.menu_size:
            self._set_phase("menu")
        else:
            self._begin_setup()

    def _begin_setup(self) -> None:
        r = self.rules
        self.planet_value[:] = 0
        self.planets_to_place = sorted(r.planets, reverse=True)
        self.red_star = -1
        self.moon_star[:] = -1
        self.moon_moved[:] = False
        self.moons_placed = 0
        self.dice[:] = 0
        self.die_used[:] = False
        self.high_bid, self.bidder, self.passes = 0, -1, 0
        self.passed[:] = False
        self.challengers[:] = False
        self.bet_side[:] = -1
        self.bet_idx[:] = 0
        self.bet_stake[:] = 0
        self.bet_turn = -1
        self.moves_done = 0
        self.round_total = 0
        self.chain_star, self.chain_len = -1, 0
        self.landed[:] = 0
        self.best_total = -1
        g = self.game
        b = self.board
        b[: g.stars_len] = 0.0
        b[g.t_high] = b[g.t_passes] = 0.0
        b[g.t_rules : g.t_rules + 10] = g.rule_features[self.rules_idx]
        if g.menu_size:
            b[g.t_menu : g.t_menu + g.menu_size] = 0.0
            b[g.t_menu + self.rules_idx] = 1.0
        b[g.t_round : g.t_round + 3] = 0.0
        b[g.t_round + 3] = (
            self.planets_to_place[0] / MAX_PLANET_VALUE if self.planets_to_place else 0.0
        )
        self.moons_on_star[:] = 0
        self._set_phase("planet" if self.planets_to_place else "moon")

    def _place_planet(self, star: int) -> None:
        self.planet_value[star] = self.planets_to_place.pop(0)
        self.board[star * 5] = self.planet_value[star] / MAX_PLANET_VALUE
        nxt = self.planets_to_place[0] / MAX_PLANET_VALUE if self.planets_to_place else 0.0
        self.board[self.game.t_round + 3] = nxt
        self.last_action = f"planet {self.planet_value[star]} on star {star}"
        if not self.planets_to_place:
            self._set_phase("moon")

    def _place_moon(self, star: int) -> None:
        m = self.moons_placed
        self.moon_star[m] = star
        self.moons_on_star[star] += 1
        b = self.board
        b[star * 5 + 2] += 1.0 / 15.0
        row = self.game.moon_base + 14 * m
        b[row + star] = 1.0
        b[row + 13] = 1.0
        b[self.game.t_round + 4] = (self.rules.num_moons - m - 1) / 15.0
        self.last_action = f"moon {self.moons_placed} on star {star}"
        self.moons_placed += 1
        if self.moons_placed == self.rules.num_moons:
            self._set_phase("roll")

    def _roll(self, outcome: int) -> None:
        nd = self.rules.num_dice
        faces = self.game.roll_faces[nd][outcome]
        self.dice[:nd] = faces
        self.last_action = "dice: " + " ".join(map(str, faces))
        g = self.game
        b = self.board
        b[g.dice_base : g.dice_base + g.max_dice] = self.dice / 6.0
        b[g.dice_base + g.max_dice : g.dice_base + g.max_dice + nd] = 1.0
        b[g.face_base : g.face_base + 6] = np.bincount(self.dice[:nd] - 1, minlength=6) / g.max_dice
        self._set_phase("auction")
        self.to_move = self._first_speaker()
        if self.eligible_bidders() == 0:  # everyone is barred: nobody can bid
            self._no_bid(forced=True)

    def _star_mask(self) -> np.ndarray:
        if self.phase == "planet":
            return (self.planet_value == 0).astype(np.int8)
        if self.phase == "moon":
            return self.moons_on_star < MAX_MOONS_PER_STAR
        return (self.planet_value > 0).astype(np.int8)  # favourite star
