"""Moonstar rules, play by the high bidder.

The situation handed to the solver, the move part of the mask, and each move's score.

A part of :class:`~moon_envs.moonstar.state.MoonstarState`, which combines one mixin
per phase; the fields it reads and writes are documented there.
"""

from __future__ import annotations

import math
from array import array

import numpy as np

from moon_envs.core.state_io import fill
from moon_envs.moonstar import solver
from moon_envs.moonstar.constants import (
    MOON_SHARE,
    direction_name,
)
from moon_envs.moonstar.layout import MoonstarLayout
from moon_envs.moonstar.variants import (
    NUM_STARS,
    RoundRules,
)


class PlayPhase:
    """Play by the high bidder: solver situation, move mask, move scores."""

    game: MoonstarLayout

    def situation(self, choose_red: bool | None = None) -> solver.Situation:
        """The current play situation for :mod:`moon_envs.moonstar.solver` (unmoved moons and
        free dice; moon and die indices of a plan index these lists, see ``situation_index``)."""
        stars, faces = self._moon_star.tolist(), self._dice.tolist()
        moons, dice = self.situation_index()
        r = self.rules
        if choose_red is None:
            choose_red = r.favourite_star and self.red_star < 0
        return solver.Situation(
            moon_stars=tuple([stars[m] for m in moons]),
            dice=tuple([faces[d] for d in dice]),
            star_values=tuple(self._planet_value.tolist()),
            scoring=r.scoring,
            movement=r.movement,
            red_star=self.red_star if self.red_star >= 0 else None,
            choose_red=choose_red,
            max_moves=r.num_moves - self.moves_done,
            landed=tuple(self._landed.tolist()),
            chain_star=self.chain_star,
            chain_len=self.chain_len,
            chain_members=self.game.config.chain_members,
        )

    def _auction_end_situation(
        self, rules: RoundRules, stars: list[int], faces: list[int], planets: list[int]
    ) -> solver.Situation:
        """:meth:`situation` as the auction of a round under ``rules`` left it, from the
        moons' stars, the dice and the planets then: every moon on the board and every
        rolled die still to play, no move made, no red planet yet (to be chosen)."""
        return solver.Situation(
            moon_stars=tuple([s for s in stars if s >= 0]),
            dice=tuple([f for f in faces if f]),
            star_values=tuple(planets),
            scoring=rules.scoring,
            movement=rules.movement,
            red_star=None,
            choose_red=rules.favourite_star,
            max_moves=rules.num_moves,
            landed=(0,) * NUM_STARS,
            chain_star=-1,
            chain_len=0,
            chain_members=self.game.config.chain_members,
        )

    def situation_index(self) -> tuple[list[int], list[int]]:
        """(moon ids, die ids) of the unmoved moons on the board and the free dice."""
        stars, moved = self._moon_star.tolist(), self._moon_moved.tolist()
        faces, used = self._dice.tolist(), self._die_used.tolist()
        moons = [m for m, s in enumerate(stars) if s >= 0 and not moved[m]]
        dice = [d for d, f in enumerate(faces) if f and not used[d]]
        return moons, dice

    def _begin_play(self) -> None:
        self._set_phase("play")
        self._play_block = self._play_block_array()

    def build_play_block(self) -> np.ndarray:
        """The move part of the mask as an (moons, dice, directions) int8 block, from scratch
        (kept up to date move by move in ``play_block``): every unmoved moon with the first
        free die of each face (equal dice are interchangeable) in each allowed direction."""
        g = self.game
        block = self._play_block_array()
        return np.ndarray((g.max_moons, g.max_dice, g.num_dirs), np.int8, block).copy()

    def _play_block_array(self) -> array:
        """:meth:`build_play_block` as the flat Python array ``play_block`` is kept in."""
        g = self.game
        moons, dice = self.situation_index()
        firsts: dict[int, int] = {}  # the first free die of each face
        faces = self._dice.tolist()
        for d in dice:
            firsts.setdefault(faces[d], d)
        nd = solver.num_directions(self.rules.movement)
        per_moon = g.max_dice * g.num_dirs
        row = bytearray(per_moon)  # an unmoved moon's entries
        for d in firsts.values():
            row[d * g.num_dirs : d * g.num_dirs + nd] = b"\1" * nd
        block = bytearray(g.max_moons * per_moon)
        for m in moons:
            block[m * per_moon : (m + 1) * per_moon] = row
        return array("b", block)

    def _remove_broken_chain(self, moving: int) -> None:
        """Game 8: a moon landing off the chain's star breaks it, and every moon moved
        before it leaves the board (observation, text and pictures alike)."""
        g = self.game
        b = self._board
        stars, moved = self._moon_star.tolist(), self._moon_moved.tolist()
        for m, s in enumerate(stars):
            if s < 0 or not moved[m] or m == moving:
                continue
            self._moon_star[m] = -1
            self._landed[s] -= 1
            b[s * 5 + 3] -= MOON_SHARE
            row = g.moon_base + 14 * m
            fill(b, 0.0, row, row + 14)

    def _move(self, action: int) -> None:
        g = self.game
        m, d, k = g.decode_move(action)
        face = self._dice[d]
        s0 = self._moon_star[m]
        r = self.rules
        t = (s0 + solver.displacement(face, k, r.movement)) % NUM_STARS
        self._moon_star[m] = t
        b = self._board
        b[s0 * 5 + 2] -= MOON_SHARE
        b[t * 5 + 3] += MOON_SHARE
        row = g.moon_base + 14 * m
        b[row + s0] = 0.0
        b[row + t] = 1.0
        b[row + 12] = 1.0
        b[g.dice_base + g.max_dice + d] = 0.0
        b[g.face_base + face - 1] -= g.die_share
        self._moon_moved[m] = True
        self._die_used[d] = True
        self._landed[t] += 1
        # the move part of the mask (play_block, flat: moon-major, then die, then
        # direction): this die and this moon are spent, and the next die of the same face,
        # if any, is offered to the moons this one was offered to
        blk = self._play_block
        dirs = g.num_dirs
        per_moon = g.max_dice * dirs  # entries from one moon to the next
        next_same = d + 1 < g.max_dice and self._dice[d + 1] == face
        for col in range(d * dirs, (d + 1) * dirs):
            if next_same:
                blk[col + dirs :: per_moon] = blk[col::per_moon]
            blk[col::per_moon] = g.no_moons
        blk[m * per_moon : (m + 1) * per_moon] = g.no_moves
        if r.scoring == "planets":
            gained = self._planet_value[t] or 1
            if t == self.red_star:
                gained *= 2
        elif r.scoring == "squares":
            gained = 2 * self._landed[t] - 1
        else:
            if self.chain_star >= 0:
                b[self.chain_star * 5 + 4] = 0.0
                if t != self.chain_star:
                    self._remove_broken_chain(m)
            self.chain_len = self.chain_len + 1 if t == self.chain_star else 1
            self.chain_star = t
            b[t * 5 + 4] = 1.0
            b[g.t_round + 2] = self.chain_len / 15.0
            gained = self.chain_len
            if g.config.chain_members == "all":  # the unmoved moons standing there count too
                moved = self._moon_moved
                gained += sum(1 for x, s in enumerate(self._moon_star) if s == t and not moved[x])
        self.round_total += gained
        self.moves_done += 1
        b[g.t_round] = math.tanh(self.round_total / 50.0)
        b[g.t_round + 1] = self.moves_done / 15.0
        way = direction_name(k, r.movement)
        self.last_action = f"moon {m} with die {d} (face {face}) {way} to star {t} (+{gained})"
        if self.moves_done == r.num_moves:
            self._settle()
