"""Moonstar rules, play by the high bidder.

The situation handed to the solver, the move part of the mask, and each move's score.

A part of :class:`~moon_envs.moonstar.state.MoonstarState`, which combines one mixin
per phase; the fields it reads and writes are documented there.
"""

from __future__ import annotations

import math

import numpy as np

from moon_envs.moonstar import solver
from moon_envs.moonstar.constants import (
    direction_name,
)
from moon_envs.moonstar.layout import MoonstarLayout
from moon_envs.moonstar.variants import (
    NUM_STARS,
)


class PlayPhase:
    """Play by the high bidder: solver situation, move mask, move scores."""

    game: MoonstarLayout

    def situation(self, choose_red: bool | None = None) -> solver.Situation:
        """The current play situation for :mod:`moon_envs.moonstar.solver` (unmoved moons and
        free dice; moon and die indices of a plan index these lists, see ``situation_index``)."""
        moons, dice = self.situation_index()
        r = self.rules
        if choose_red is None:
            choose_red = r.favourite_star and self.red_star < 0
        stars, faces = self.moon_star.tolist(), self.dice.tolist()
        return solver.Situation(
            moon_stars=tuple(stars[m] for m in moons),
            dice=tuple(faces[d] for d in dice),
            star_values=tuple(self.planet_value.tolist()),
            scoring=r.scoring,
            movement=r.movement,
            red_star=self.red_star if self.red_star >= 0 else None,
            choose_red=choose_red,
            max_moves=r.num_moves - self.moves_done,
            landed=tuple(self.landed.tolist()),
            chain_star=self.chain_star,
            chain_len=self.chain_len,
            chain_members=self.game.config.chain_members,
        )

    def situation_index(self) -> tuple[list[int], list[int]]:
        """(moon ids, die ids) of the unmoved moons on the board and the free dice."""
        stars, moved = self.moon_star.tolist(), self.moon_moved.tolist()
        faces, used = self.dice.tolist(), self.die_used.tolist()
        moons = [m for m, s in enumerate(stars) if s >= 0 and not moved[m]]
        dice = [d for d, f in enumerate(faces) if f and not used[d]]
        return moons, dice

    def _begin_play(self) -> None:
        self._set_phase("play")
        self.play_block = self.build_play_block()

    def build_play_block(self) -> np.ndarray:
        """The move part of the mask as an (moons, dice, directions) int8 block, from scratch
        (kept up to date move by move in ``play_block``): every unmoved moon with the first
        free die of each face (equal dice are interchangeable) in each allowed direction."""
        g = self.game
        block = np.zeros((g.max_moons, g.max_dice, g.num_dirs), dtype=np.int8)
        firsts: dict[int, int] = {}
        used = self.die_used.tolist()
        for d, face in enumerate(self.dice.tolist()):
            if face and not used[d] and face not in firsts:
                firsts[face] = d
        moons = np.flatnonzero((self.moon_star >= 0) & ~self.moon_moved)
        nd = solver.num_directions(self.rules.movement)
        block[moons[:, None], list(firsts.values()), :nd] = 1
        return block

    def _remove_broken_chain(self, moving: int) -> None:
        """Game 8: a moon landing off the chain's star breaks it, and every moon moved
        before it leaves the board (observation, text and pictures alike)."""
        g = self.game
        b = self.board
        for m in np.flatnonzero(self.moon_moved & (self.moon_star >= 0)).tolist():
            if m == moving:
                continue
            s = int(self.moon_star[m])
            self.moon_star[m] = -1
            self.landed[s] -= 1
            b[s * 5 + 3] -= 1.0 / 15.0
            row = g.moon_base + 14 * m
            b[row : row + 14] = 0.0

    def _move(self, action: int) -> None:
        g = self.game
        m, d, k = g.decode_move(action)
        face = int(self.dice[d])
        s0 = int(self.moon_star[m])
        t = (s0 + solver.displacement(face, k, self.rules.movement)) % NUM_STARS
        self.moon_star[m] = t
        b = self.board
        b[s0 * 5 + 2] -= 1.0 / 15.0
        b[t * 5 + 3] += 1.0 / 15.0
        row = g.moon_base + 14 * m
        b[row + s0] = 0.0
        b[row + t] = 1.0
        b[row + 12] = 1.0
        b[g.dice_base + g.max_dice + d] = 0.0
        b[g.face_base + face - 1] -= 1.0 / g.max_dice
        self.moon_moved[m] = True
        self.die_used[d] = True
        self.landed[t] += 1
        blk = self.play_block
        if d + 1 < g.max_dice and self.dice[d + 1] == face:  # the next die of this face
            blk[:, d + 1] = blk[:, d]  # is offered to the same moons
        blk[:, d] = 0
        blk[m] = 0
        r = self.rules
        if r.scoring == "planets":
            gained = int(self.planet_value[t]) or 1
            if t == self.red_star:
                gained *= 2
        elif r.scoring == "squares":
            gained = 2 * int(self.landed[t]) - 1
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
                gained += int(np.count_nonzero((self.moon_star == t) & ~self.moon_moved))
        self.round_total += gained
        self.moves_done += 1
        b[g.t_round] = math.tanh(self.round_total / 50.0)
        b[g.t_round + 1] = self.moves_done / 15.0
        way = direction_name(k, r.movement)
        self.last_action = f"moon {m} with die {d} (face {face}) {way} to star {t} (+{gained})"
        if self.moves_done == r.num_moves:
            self._settle()
