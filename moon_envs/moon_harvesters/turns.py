"""Moon Harvesters rules, the phases of play: auction, craters, deposits, placements, turns.

A part of :class:`~moon_envs.moon_harvesters.state.HarvestersState`, which combines this
mixin with the views; the fields it reads and writes are documented there.
"""

from __future__ import annotations

from moon_envs.moon_harvesters.constants import CRATERS, DEPOSITS, OVER, PLACE
from moon_envs.moon_harvesters.protocols import HarvestersTables


class TurnPhases:
    """The phases of play: auction, craters, deposits, placements and the turn order.

    The rules work on the fields' Python arrays (``_owner``, ``_feat``, ...: see
    :class:`~moon_envs.moon_harvesters.state.HarvestersState`), entry by entry, and keep
    the free-cells caches (``_c_free``, ``_c_open``) up to date.
    """

    game: HarvestersTables

    # ---- phases ------------------------------------------------------------------------------
    def _auction(self, action: int) -> None:
        g = self.game
        p = self.player
        if action < g.num_kinds:
            self._kind_of[p] = action
            self._on_offer[action] = False
            self._feat[g.off_kind + p * g.num_kinds + action] = 1.0
            self._feat[g.off_offer + action] = 0.0
            self.last_action = f"player_{p} takes harvester kind {g.kinds[action].name}"
        else:
            self.crater_pool -= 1
            self._craters_held[p] += 1
            self._feat_craters(p)
            self.last_action = f"player_{p} takes a crater"
        n = g.config.num_players
        for step in range(1, n + 1):
            q = (p + step) % n
            if self._kind_of[q] < 0:
                self.player = q
                return
        self._start_craters(start=0)

    def _start_craters(self, start: int) -> None:
        n = self.game.config.num_players
        for step in range(n):
            q = (start + step) % n
            if self._craters_held[q] > 0:
                self.phase = CRATERS
                self.player = q
                return
        self._start_first_deposits()

    def _put_crater(self, cell: int) -> None:
        g = self.game
        cfg = g.config
        p = self.player
        self._crater[cell] = True
        self._craters_held[p] -= 1
        self._feat_craters(p)
        self._feat[g.off_craters + cell] = 1.0
        if cfg.craters_block:  # no placement covering the crater fits any more
            self.fits[g.fp.cover[cell]] = False
        if cfg.craters_block_deposits:  # nor may a deposit go there
            self._c_free[cell] = 0
            self._c_open -= 1
        self.last_action = f"player_{p} puts a crater on {g.cell_names[cell]}"
        self._start_craters(start=(p + 1) % cfg.num_players)

    def _feat_craters(self, p: int) -> None:
        g = self.game
        total = max(1, g.config.num_craters)
        self._feat[g.off_pool] = self.crater_pool / total
        self._feat[g.off_held + p] = self._craters_held[p] / total

    def _start_first_deposits(self) -> None:
        self.player = 0
        self._start_deposits(self.game.config.first_deposits)

    def _start_deposits(self, count: int) -> None:
        # free cells: the open ones without a deposit (deposits only lie on open cells)
        room = min(self.supply, self._c_open - self._deposit.tobytes().count(1))
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
        g = self.game
        self._deposit[cell] = True
        self._c_free[cell] = 0
        self.supply -= 1
        self._feat[g.off_deposits + cell] = 1.0
        self.deposits_due -= 1
        self.last_action = f"player_{self.player} puts a deposit on {g.cell_names[cell]}"
        if self.deposits_due > 0:  # the count was capped by the supply and free cells
            return
        self.deposits_due = 0
        self._next_turn()

    def _place(self, action: int) -> None:
        g = self.game
        cfg = g.config
        p = self.player
        k = self._kind_of[p]
        placement = action - g.place_base
        flat = k * g.per_kind + placement  # the placement's index in the tables and in fits
        cells = g.fp.foot[flat]
        deposit, owner, piece, feat, free = (
            self._deposit,
            self._owner,
            self._piece,
            self._feat,
            self._c_free,
        )
        number = sum(self._placed)  # harvesters are numbered in placement order
        plane = p * g.num_cells  # the seat's harvesters plane of the observation
        gain = 0
        for cell in cells:
            if deposit[cell]:  # collected
                gain += 1
                deposit[cell] = False
                feat[g.off_deposits + cell] = 0.0
            owner[cell] = p
            piece[cell] = number
            feat[plane + cell] = 1.0
            free[cell] = 0
        closed = len(cells)  # the open cells it covers: all but craters that block deposits
        if cfg.craters_block_deposits and not cfg.craters_block:
            closed -= sum(self._crater[cell] for cell in cells)
        self._c_open -= closed
        self._placed[p] += 1
        if gain:
            self._collected[p] += gain
            feat[g.off_collected + p] = self._collected[p] / g.deposit_scale
        self.fits[g.fp.clash[flat]] = False  # nothing overlapping it fits any more
        feat[g.off_left + p] = 1.0 - self._placed[p] / cfg.pieces_per_kind
        slot, anchor = divmod(placement, g.num_cells)
        self.last_action = (
            f"player_{p} places {g.kinds[k].name}/{slot} at {g.cell_names[anchor]} (+{gain})"
        )
        self._start_deposits(cfg.deposits_per_turn)

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
