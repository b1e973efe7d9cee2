"""Moon Harvesters' position: the state's fields, copies, legal moves and results.

:class:`HarvestersState` combines the phases of play (``turns``: auction, craters,
deposits, placements) with the views (``views``: observation, move names, text board).
This module holds the fields, the caches, the protocol hooks and the results; the
snapshot checks are in ``snapshot``. The game (:mod:`moon_envs.moon_harvesters.rules`)
imports this module, not the reverse: a position reads its game's tables through
:class:`~moon_envs.moon_harvesters.protocols.HarvestersTables`.
"""

from __future__ import annotations

import array
from typing import Any

import numpy as np

from moon_envs.core.game import TERMINAL, State
from moon_envs.core.state_io import ArrayField, new_array
from moon_envs.moon_harvesters.constants import AUCTION, CRATERS, DEPOSITS, OVER, PHASES, PLACE
from moon_envs.moon_harvesters.protocols import HarvestersTables
from moon_envs.moon_harvesters.snapshot import validate_state
from moon_envs.moon_harvesters.turns import TurnPhases
from moon_envs.moon_harvesters.views import Views

INT8 = np.dtype(np.int8)


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

    Every array field but ``fits`` is an :class:`~moon_envs.core.state_io.ArrayField`:
    kept as a Python array under ``_<name>`` (the rules read and write its entries, which
    costs far less than numpy's) and read as a numpy array viewing it. ``fits``, long and
    changed many entries at a time, stays a numpy array.

    Caches (not part of the position: ``_c_`` names, left out of snapshots and rebuilt
    from the fields by :meth:`validate`): ``_c_free`` a bytearray, 1 on each cell where a
    deposit may go (no harvester, no deposit and, with ``craters_block_deposits``, no
    crater; cells only ever close, so each action updates it), the deposits phase's mask;
    ``_c_open`` the number of cells with no harvester (nor, with
    ``craters_block_deposits``, a crater): a turn's room for deposits is this less the
    deposits on the board.
    """

    game: HarvestersTables
    owner = ArrayField("int8")
    piece = ArrayField("int16")
    crater = ArrayField("bool")
    deposit = ArrayField("bool")
    kind_of = ArrayField("int8")
    on_offer = ArrayField("bool")
    craters_held = ArrayField("int16")
    placed = ArrayField("int16")
    collected = ArrayField("int64")
    feat = ArrayField("float32")

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
        self._c_free = bytearray(b"\x01") * c  # every cell is free
        self._c_open = c

    def _refresh_caches(self) -> None:
        """Rebuild the caches from the fields (see the class docstring)."""
        cfg = self.game.config
        self._c_free = bytearray(self.free_cells().tobytes())
        blocked = (self.owner >= 0) | (self.crater if cfg.craters_block_deposits else False)
        self._c_open = self.game.num_cells - int(np.count_nonzero(blocked))

    # ---- copy / serialise (caches are not part of the position) -------------------------------
    def clone(self) -> HarvestersState:
        """An independent copy: a copy of every array (Python or numpy) and of the free
        cells; every other field is immutable (numbers, strings, tuples)."""
        new = object.__new__(type(self))
        d = dict(self.__dict__)  # a new plain dict (see the core's State.clone)
        d["_owner"] = self._owner.__copy__()
        d["_piece"] = self._piece.__copy__()
        d["_crater"] = self._crater.__copy__()
        d["_deposit"] = self._deposit.__copy__()
        d["fits"] = self.fits.copy()
        d["_kind_of"] = self._kind_of.__copy__()
        d["_on_offer"] = self._on_offer.__copy__()
        d["_craters_held"] = self._craters_held.__copy__()
        d["_placed"] = self._placed.__copy__()
        d["_collected"] = self._collected.__copy__()
        d["_feat"] = self._feat.__copy__()
        d["_c_free"] = self._c_free.copy()
        for k in ("_scores_record", "_last_win_delta"):  # the core's, arrays at times
            if type(d[k]) is np.ndarray:
                d[k] = d[k].copy()
        new.__dict__ = d
        return new

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["state"] = {k: v for k, v in data["state"].items() if not k.startswith("_c_")}
        return data

    def _validate(self) -> None:
        validate_state(self)
        self._refresh_caches()  # the fields were set from outside (a snapshot)

    # ---- protocol hooks ----------------------------------------------------------------------
    def _current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.player

    def _legal_mask(self) -> np.ndarray:
        if self.phase == DEPOSITS:  # the free cells, after the other actions' zeros
            return new_array(self.game.deposit_prefix + self._c_free, INT8)
        return self._build_mask()

    def _build_mask(self) -> np.ndarray:
        """The mask from the fields (``_legal_mask`` reads the deposits phase's from the
        free-cells cache)."""
        g = self.game
        mask = np.zeros(g.spec.num_actions, dtype=np.int8)
        phase = self.phase
        if phase == PLACE:
            k = self._kind_of[self.player] * g.per_kind
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
            k = self._kind_of[self.player]
            return bool(self.fits[k * g.per_kind + action - g.place_base])
        if phase == DEPOSITS:
            return (
                g.deposit_base <= action < g.spec.num_actions
                and self._c_free[action - g.deposit_base] == 1
            )
        if phase == AUCTION:
            if 0 <= action < g.num_kinds:
                return self._on_offer[action] == 1
            return action == g.num_kinds and self.crater_pool > 0
        if phase == CRATERS:
            if not g.crater_base <= action < g.place_base:
                return False
            return not self._crater[action - g.crater_base]
        return False

    def free_cells(self) -> np.ndarray:
        """Cells where a deposit may go: no harvester, no deposit and, with
        ``craters_block_deposits``, no crater."""
        if self.game.config.craters_block_deposits:
            return ~(self.crater | self.deposit | (self.owner >= 0))
        return ~(self.deposit | (self.owner >= 0))

    def can_place(self, seat: int) -> bool:
        """Whether ``seat`` has a harvester left and some placement of its kind fits."""
        k = self._kind_of[seat]
        if k < 0 or self._placed[seat] >= self.game.config.pieces_per_kind:
            return False
        per = self.game.per_kind
        return np.count_nonzero(self.fits[k * per : (k + 1) * per]) > 0

    def _apply(self, action: int) -> None:
        g = self.game
        phase = self.phase
        if phase == PLACE:
            self._place(action)
        elif phase == DEPOSITS:
            self._put_deposit(action - g.deposit_base)
        elif phase == AUCTION:
            self._auction(action)
        else:
            self._put_crater(action - g.crater_base)
        feat = self._feat
        if self.phase != phase:
            feat[g.off_phase : g.off_phase + len(PHASES)] = g.phase_onehot[self.phase]
        feat[g.off_supply] = self.supply / g.deposit_scale
        feat[g.off_due] = self.deposits_due / g.due_scale

    # ---- results -----------------------------------------------------------------------------
    def _scores(self) -> array.array:
        return self._collected  # the live array: the core copies what it keeps

    def _winners(self) -> list[int]:
        """Most deposits; ties go to fewer harvesters placed; a remaining tie is shared
        (``ties="shared"``) or leaves no winner (``ties="none"``)."""
        collected, placed = self._collected, self._placed
        best = max(collected)
        tied = [s for s, c in enumerate(collected) if c == best]
        fewest = min(placed[s] for s in tied)
        winners = [s for s in tied if placed[s] == fewest]
        if len(winners) > 1 and self.game.config.ties == "none":
            return []
        return winners

    def info(self) -> dict[str, Any]:
        return {"phase": self.phase, "last_action": self.last_action}
