"""Star Master rules, the course of a turn: set-up, roll, naming, flips, swaps, races, the end.

A part of :class:`~moon_envs.star_master.state.StarMasterState`, which combines this
class with the views; both build on
:class:`~moon_envs.star_master.position.StarMasterPosition`, where the fields it reads
and writes are documented.
"""

from __future__ import annotations

from array import array

import numpy as np

from moon_envs.core.state_io import fill
from moon_envs.star_master import memory as decay
from moon_envs.star_master.config import GOAL, STAR
from moon_envs.star_master.phases import (
    ABSTAIN,
    DRAW,
    END,
    FLIP,
    NAME,
    NOT_CHOSEN,
    RACE,
    ROLL,
    SEED,
    SETUP,
    SWAP,
)
from moon_envs.star_master.position import StarMasterPosition


class TurnFlow(StarMasterPosition):
    """The transitions of a turn, from the set-up's chance draws to the end of the game."""

    # ---- transitions ----------------------------------------------------------------------
    def _apply(self, a: int) -> None:
        ph = self.phase
        if ph == ROLL:
            self._roll(a)
        elif ph == FLIP:
            self._decide(self.mover, a)
            if a == self.game.actions.pass_:
                self._end_turn()
            else:
                self._flip(a)
        elif ph == RACE:
            self._choose_in_race(a)
        elif ph == SWAP:
            self._decide(self.mover, a)
            self._swap(self.found_slot, a - self.game.actions.swap0)
            self._end_turn()
        elif ph == NAME:
            self._decide(self.mover, a)
            self.target = a - self.game.actions.name0
            self.phase = FLIP
        elif ph == DRAW:
            self._race_flip(a)
        elif ph == SETUP:
            self._place(a)
        else:  # SEED
            self.seed = a
            self._start_turn()

    def _place(self, colour: int) -> None:
        self._layout[self.setup_index] = colour
        self.setup_index += 1
        k = self.game.k
        if self.setup_index < k:
            return
        # the cubes are shown face up once: every window map (and memory) shows the layout
        shown = array("q", self._layout)
        views = self._views
        remembers = self.game.remembers
        for base in range(0, len(views), 3 * k):
            views[base : base + k] = shown
            if remembers:
                views[base + 2 * k : base + 3 * k] = shown
        if self.game.decays:
            self.phase = SEED
        else:
            self._start_turn()

    def _start_turn(self) -> None:
        if self.turn >= self.game.turn_cap:
            self._end_at_cap()
            return
        self.phase = ROLL

    def _roll(self, outcome: int) -> None:
        self.turn += 1
        if self.game.decays:
            cfg = self.game.config
            forget = decay.forget_mask(
                self.seed, self.turn, self.game.seats, cfg.forget_prob, self.game.k
            )
            self.memory[forget] = -1
        self.white, self.black_star = divmod(outcome, 2)
        self.mover = self.roller
        if self.white == STAR:
            self.phase = NAME
        elif self.black_star:
            self.phase = RACE
            self.race_next = 0
        else:
            self.target = self.white
            self.phase = FLIP

    def _decide(self, seat: int, action: int) -> None:
        """``seat`` takes ``action``, a decision: its window of recent events starts afresh."""
        self.last_seat, self.last_action, self.last_phase = seat, action, self.phase
        base = 3 * self.game.k * seat  # the seat's window map, then its permutation
        self._views[base : base + 2 * self.game.k] = self.game.fresh_window
        self._in_window[2 * seat] = self._in_window[2 * seat + 1] = 0

    def _reveal(self, seat: int, slot: int, found: bool) -> int:
        colour = self._layout[slot]
        views = self._views
        k = self.game.k
        remembers = self.game.remembers
        for i in range(slot, len(views), 3 * k):  # every seat's window map (and memory)
            views[i] = colour
            if remembers:
                views[i + 2 * k] = colour
        flip = self._last_flip
        flip[0], flip[1], flip[2], flip[3] = seat, slot, colour, found
        window = self._in_window
        for i in range(0, len(window), 2):
            window[i] = 1
        return colour

    def _flip(self, slot: int) -> None:
        seat, target = self.mover, self.target
        found = self._layout[slot] == target
        self._reveal(seat, slot, found)
        if found:
            self._set_pawn(seat, target, 1)
            if self._check_goal(seat):
                return
            if self.game.config.children:
                self._end_turn()
            else:
                self.found_slot = slot
                self.phase = SWAP
            return
        if self.game.must_search:
            self._set_pawn(seat, target, 0)  # competition: a miss loses an owned colour
        self._end_turn()

    def _swap(self, s: int, t: int) -> None:
        lay, views = self._layout, self._views
        lay[s], lay[t] = lay[t], lay[s]
        for base in range(0, len(views), self.game.k):  # every row of every seat's views
            views[base + s], views[base + t] = views[base + t], views[base + s]

    def _choose_in_race(self, a: int) -> None:
        n = self.game.seats
        seat = (self.roller + self.race_next) % n
        self._decide(seat, a)
        choice = self._race_choice
        choice[seat] = ABSTAIN if a == self.game.actions.pass_ else a
        self.race_next += 1
        if self.race_next < n:
            return
        grabbers = self._grabbers()
        self._last_race[:] = choice
        window = self._in_window
        for i in range(1, len(window), 2):
            window[i] = 1
        if not grabbers:
            fill(choice, NOT_CHOSEN)
            self._end_turn()
        elif len(grabbers) == 1 or self.game.config.race_winner == "seat_order":
            self._race_flip(grabbers[0])
        else:
            self.phase = DRAW

    def _race_flip(self, winner: int) -> None:
        slot = self._race_choice[winner]
        fill(self._race_choice, NOT_CHOSEN)
        self.mover = winner
        found = self._layout[slot] == self.white
        colour = self._reveal(winner, slot, found)
        if found:
            self._set_pawn(winner, colour, 1)
            if self._check_goal(winner):
                return
            self.found_slot = slot
            self.phase = SWAP
        else:
            self._set_pawn(winner, colour, 0)  # a wrong grab loses that colour, if owned
            self._end_turn()

    def _check_goal(self, seat: int) -> bool:
        if self._held[seat] >= GOAL:
            self.winners_list = [seat]
            self.phase = END
            return True
        return False

    def _end_turn(self) -> None:
        self.roller = (self.roller + 1) % self.game.seats
        self.white, self.black_star, self.target, self.found_slot = -1, 0, -1, -1
        self._start_turn()

    def _end_at_cap(self) -> None:
        counts = self.pawns.sum(axis=1)
        best = int(counts.max())
        cfg = self.game.config
        # alone at the table (solitaire or not) only the goal wins: nobody to out-collect
        if cfg.num_players == 1 or cfg.turn_limit == "nobody" or best == 0:
            self.winners_list = []
        else:
            self.winners_list = np.flatnonzero(counts == best).tolist()
        self.phase = END
