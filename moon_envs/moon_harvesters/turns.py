"""Moon Harvesters rules, the phases of play: auction, craters, deposits, placements, turns.

A part of :class:`~moon_envs.moon_harvesters.state.HarvestersState`, which combines this
mixin with the views; the fields it reads and writes are documented there.
"""

from __future__ import annotations

import numpy as np

from moon_envs.moon_harvesters.constants import CRATERS, DEPOSITS, OVER, PLACE
from moon_envs.moon_harvesters.protocols import HarvestersTables


class TurnPhases:
    """The phases of play: auction, craters, deposits, placements and the turn order."""

    game: HarvestersTables

    # ---- phases ------------------------------------------------------------------------------
    def _auction(self, action: int) -> None:
        g = self.game
        p = self.player
        if action < g.num_kinds:
            self.kind_of[p] = action
            self.on_offer[action] = False
            self.feat[g.off_kind + p * g.num_kinds + action] = 1.0
            self.feat[g.off_offer + action] = 0.0
            self.last_action = f"player_{p} takes harvester kind {g.kinds[action].name}"
        else:
            self.crater_pool -= 1
            self.craters_held[p] += 1
            self._feat_craters(p)
            self.last_action = f"player_{p} takes a crater"
        n = g.config.num_players
        for step in range(1, n + 1):
            q = (p + step) % n
            if self.kind_of[q] < 0:
                self.player = q
                return
        self._start_craters(start=0)

    def _start_craters(self, start: int) -> None:
        n = self.game.config.num_players
        for step in range(n):
            q = (start + step) % n
            if self.craters_held[q] > 0:
                self.phase = CRATERS
                self.player = q
                return
        self._start_first_deposits()

    def _put_crater(self, cell: int) -> None:
        g = self.game
        p = self.player
        self.crater[cell] = True
        self.craters_held[p] -= 1
        self._feat_craters(p)
        self.feat[g.config.num_players * g.num_cells + cell] = 1.0
        if g.config.craters_block:
            self._block(np.array([cell]))
        self.last_action = f"player_{p} puts a crater on {g.cell_name(cell)}"
        self._start_craters(start=(p + 1) % g.config.num_players)

    def _feat_craters(self, p: int) -> None:
        g = self.game
        total = max(1, g.config.num_craters)
        self.feat[g.off_pool] = self.crater_pool / total
        self.feat[g.off_held + p] = self.craters_held[p] / total

    def _start_first_deposits(self) -> None:
        self.player = 0
        self._start_deposits(self.game.config.first_deposits)

    def _start_deposits(self, count: int) -> None:
        room = min(self.supply, int(np.count_nonzero(self.free_cells())))
        if self.game.config.deposits_when_short == "fewer":
            due = min(count, room)
        else:
            due = count if count <= room else 0
        if due > 0:
            self.phase = DEPOSITS
            self.deposits_due = due
        else:
            self.deposits_due = 0
            self._next_turn()

    def _put_deposit(self, cell: int) -> None:
        p = self.player
        self.deposit[cell] = True
        self.supply -= 1
        g = self.game
        self.feat[(g.config.num_players + 1) * g.num_cells + cell] = 1.0
        self.deposits_due -= 1
        self.last_action = f"player_{p} puts a deposit on {self.game.cell_name(cell)}"
        if self.deposits_due > 0:  # the count was capped by the supply and free cells
            return
        self.deposits_due = 0
        self._next_turn()

    def _place(self, action: int) -> None:
        g = self.game
        p = self.player
        k = int(self.kind_of[p])
        placement = action - g.place_base
        cells = g.fp.cells[k][placement]
        gain = int(np.count_nonzero(self.deposit[cells]))
        self.deposit[cells] = False
        self.owner[cells] = p
        self.piece[cells] = sum(self.placed.tolist())
        self.placed[p] += 1
        self.collected[p] += gain
        self._block(cells)
        cfg = g.config
        feat = self.feat
        feat[p * g.num_cells + cells] = 1.0
        feat[(cfg.num_players + 1) * g.num_cells + cells] = 0.0
        feat[g.off_left + p] = 1.0 - self.placed[p] / cfg.pieces_per_kind
        feat[g.off_collected + p] = self.collected[p] / max(1, cfg.num_deposits)
        slot, anchor = divmod(placement, g.num_cells)
        self.last_action = (
            f"player_{p} places {g.kinds[k].name}/{slot} at {g.cell_name(anchor)} (+{gain})"
        )
        self._start_deposits(g.config.deposits_per_turn)

    def _block(self, cells: np.ndarray) -> None:
        """Clear the "still fits" flag of every placement covering ``cells``."""
        self.fits[self.game.fp.cover[cells]] = False

    def _next_turn(self) -> None:
        """Hand the turn to the next seat that can place; passes are automatic."""
        n = self.game.config.num_players
        p = self.player
        self.phase = PLACE
        for step in range(1, n + 1):
            q = (p + step) % n
            if self.can_place(q):
                self.player = q
                return
            self.passes += 1
        self.phase = OVER
