"""Moon Harvesters' position: the state's fields, copies, legal moves and results.

:class:`HarvestersState` combines the phases of play (``turns``: auction, craters,
deposits, placements) with the views (``views``: observation, move names, text board).
This module holds the fields, the cached mask, the protocol hooks and the results; the
snapshot checks are in ``snapshot``. The game (:mod:`moon_envs.moon_harvesters.rules`)
imports this module, not the reverse: a position reads its game's tables through
:class:`~moon_envs.moon_harvesters.protocols.HarvestersTables`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from moon_envs.core.game import TERMINAL, Game, State
from moon_envs.moon_harvesters.constants import AUCTION, CRATERS, DEPOSITS, OVER, PHASES, PLACE
from moon_envs.moon_harvesters.protocols import HarvestersTables
from moon_envs.moon_harvesters.snapshot import validate_state
from moon_envs.moon_harvesters.turns import TurnPhases
from moon_envs.moon_harvesters.views import Views


class HarvestersState(TurnPhases, Views, State):
    """A Moon Harvesters position. Fields (read-only for users):

    ``owner[cell]`` seat of the harvester there or -1; ``piece[cell]`` index of that
    harvester (in placement order) or -1; ``crater[cell]``, ``deposit[cell]`` booleans;
    ``fits`` the "still fits" flag of every placement (``kind * per_kind + placement``,
    plus a spare ``False`` entry); ``kind_of[seat]`` the kind a seat took (-1: still in
    the auction); ``on_offer[kind]``; ``crater_pool`` craters left in the auction;
    ``craters_held[seat]`` craters taken and not yet placed; ``placed[seat]`` harvesters
    placed; ``collected[seat]`` deposits collected (the score); ``supply`` deposits left;
    ``phase``; ``player`` the seat to move; ``deposits_due`` deposits still to place this
    turn; ``passes`` automatic passes so far; ``feat`` the observation of seat 0, kept up
    to date by every action (other seats' views are a reordering of it).
    """

    game: HarvestersTables

    def __init__(self, game: HarvestersTables) -> None:
        super().__init__(game)
        cfg = game.config
        n, c = cfg.num_players, game.num_cells
        self.owner = np.full(c, -1, dtype=np.int8)
        self.piece = np.full(c, -1, dtype=np.int16)
        self.crater = np.zeros(c, dtype=bool)
        self.deposit = np.zeros(c, dtype=bool)
        self.fits = game.fp.in_bounds.copy()
        self.kind_of = np.full(n, -1, dtype=np.int8)
        self.on_offer = np.ones(game.num_kinds, dtype=bool)
        self.crater_pool = cfg.num_craters
        self.craters_held = np.zeros(n, dtype=np.int16)
        self.placed = np.zeros(n, dtype=np.int16)
        self.collected = np.zeros(n, dtype=np.int64)
        self.supply = cfg.num_deposits
        self.phase = AUCTION
        self.player = 0
        self.deposits_due = 0
        self.passes = 0
        self.last_action = ""
        self.feat = self._build_observation(0)
        self._c_mask: np.ndarray | None = None

    # ---- copy / serialise (caches are not part of the position) -------------------------------
    def clone(self) -> HarvestersState:
        """An independent copy: every array is copied except the cached mask, which is
        never written in place (``_legal_mask`` hands out copies), so it is shared."""
        new = object.__new__(type(self))
        d = self.__dict__.copy()
        for k, v in d.items():
            if type(v) is np.ndarray and k != "_c_mask":
                d[k] = v.copy()
        new.__dict__ = d
        return new

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["state"] = {k: v for k, v in data["state"].items() if not k.startswith("_c_")}
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], game: Game | None = None) -> HarvestersState:
        new = super().from_dict(data, game)
        new._c_mask = None
        return new  # type: ignore[return-value]

    def _validate(self) -> None:
        validate_state(self)

    # ---- protocol hooks ----------------------------------------------------------------------
    def _current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.player

    def _legal_mask(self) -> np.ndarray:
        mask = self._c_mask
        if mask is None:
            mask = self._c_mask = self._build_mask()
        return mask.copy()

    def _build_mask(self) -> np.ndarray:
        g = self.game
        mask = np.zeros(g.spec.num_actions, dtype=np.int8)
        phase = self.phase
        if phase == PLACE:
            k = int(self.kind_of[self.player]) * g.per_kind
            mask[g.place_base : g.deposit_base] = self.fits[k : k + g.per_kind]
        elif phase == DEPOSITS:
            mask[g.deposit_base :] = self.free_cells()
        elif phase == AUCTION:
            mask[: g.num_kinds] = self.on_offer
            mask[g.num_kinds] = self.crater_pool > 0
        elif phase == CRATERS:
            mask[g.crater_base : g.place_base] = ~self.crater
        return mask

    def _is_legal(self, action: int) -> bool:
        g = self.game
        phase = self.phase
        if phase == PLACE:
            if not g.place_base <= action < g.deposit_base:
                return False
            k = int(self.kind_of[self.player])
            return bool(self.fits[k * g.per_kind + action - g.place_base])
        if phase == DEPOSITS:
            if not g.deposit_base <= action < g.spec.num_actions:
                return False
            cell = action - g.deposit_base
            if self.owner[cell] >= 0 or self.deposit[cell]:
                return False
            return not (self.crater[cell] and g.config.craters_block_deposits)
        if phase == AUCTION:
            if 0 <= action < g.num_kinds:
                return bool(self.on_offer[action])
            return action == g.num_kinds and self.crater_pool > 0
        if phase == CRATERS:
            return (
                g.crater_base <= action < g.place_base and not self.crater[action - g.crater_base]
            )
        return False

    def free_cells(self) -> np.ndarray:
        """Cells where a deposit may go: no harvester, no deposit and, with
        ``craters_block_deposits``, no crater."""
        if self.game.config.craters_block_deposits:
            return ~(self.crater | self.deposit | (self.owner >= 0))
        return ~(self.deposit | (self.owner >= 0))

    def can_place(self, seat: int) -> bool:
        """Whether ``seat`` has a harvester left and some placement of its kind fits."""
        k = int(self.kind_of[seat])
        if k < 0 or self.placed[seat] >= self.game.config.pieces_per_kind:
            return False
        per = self.game.per_kind
        return bool(self.fits[k * per : (k + 1) * per].any())

    def _apply(self, action: int) -> None:
        self._c_mask = None
        phase = self.phase
        if phase == PLACE:
            self._place(action)
        elif phase == DEPOSITS:
            self._put_deposit(action - self.game.deposit_base)
        elif phase == AUCTION:
            self._auction(action)
        else:
            self._put_crater(action - self.game.crater_base)
        g = self.game
        cfg = g.config
        feat = self.feat
        feat[g.off_phase : g.off_phase + len(PHASES)] = g.phase_onehot[self.phase]
        feat[g.off_supply] = self.supply / max(1, cfg.num_deposits)
        feat[g.off_due] = self.deposits_due / max(1, cfg.deposits_per_turn, cfg.first_deposits)

    # ---- results -----------------------------------------------------------------------------
    def _scores(self) -> np.ndarray:
        return self.collected.astype(np.float64)

    def _winners(self) -> list[int]:
        """Most deposits; ties go to fewer harvesters placed; a remaining tie is shared
        (``ties="shared"``) or leaves no winner (``ties="none"``)."""
        best = self.collected.max()
        tied = np.flatnonzero(self.collected == best)
        fewest = self.placed[tied].min()
        winners = [int(s) for s in tied if self.placed[s] == fewest]
        if len(winners) > 1 and self.game.config.ties == "none":
            return []
        return winners

    def info(self) -> dict[str, Any]:
        return {"phase": self.phase, "last_action": self.last_action}
