"""Star Master's position as data: its fields, whose move, legal moves and results.

:class:`StarMasterPosition` is the base of
:class:`~moon_envs.star_master.state.StarMasterState`; the course of a turn (``turns``),
the views (``views``, ``text``), the snapshot check (``validate``) and the
determinisation (``determinise``) all build on it, below the state and the game. It
knows its game only through :class:`StarMasterGameLike`: the config and the tables that
:class:`~moon_envs.star_master.rules.StarMasterGame` builds once per config (the masks
of :class:`ActionMasks` among them).
"""

from __future__ import annotations

from array import array
from typing import Protocol

import numpy as np

from moon_envs.core.game import CHANCE, TERMINAL, GameSpec, State
from moon_envs.core.state_io import ArrayField
from moon_envs.star_master.config import STAR, ActionIds, StarMasterConfig
from moon_envs.star_master.observation import ObservationLayout
from moon_envs.star_master.phases import DRAW, END, FLIP, NAME, NOT_CHOSEN, RACE, ROLL, SETUP, SWAP


class ActionMasks:
    """Precomputed legal-action masks (``ids``: the action ids of the colour count), kept
    read-only: a mask handed out is a copy."""

    def __init__(self, ids: ActionIds) -> None:
        self.ids = ids
        k = ids.k
        self.flip = _mask(ids, range(ids.flip0, ids.flip0 + k))
        self.flip_or_pass = _mask(ids, [*range(ids.flip0, ids.flip0 + k), ids.pass_])
        self.swap = [_mask(ids, [ids.swap0 + t for t in range(k) if t != s]) for s in range(k)]
        self._names: dict[bytes, np.ndarray] = {}  # see names

    def names(self, pawns: bytes) -> np.ndarray:
        """The naming mask of a seat whose row of pawns (one byte per colour) is ``pawns``:
        the colours it lacks (at most ``2 ** k`` rows, each mask built once)."""
        mask = self._names.get(pawns)
        if mask is None:
            name0 = self.ids.name0
            mask = self._names[pawns] = _mask(
                self.ids, [name0 + c for c, held in enumerate(pawns) if not held]
            )
        return mask


def _mask(ids: ActionIds, actions) -> np.ndarray:
    m = np.zeros(ids.num, dtype=np.int8)
    m[list(actions)] = 1
    m.flags.writeable = False
    return m


class StarMasterGameLike(Protocol):
    """What a Star Master position reads of its game (``StarMasterGame`` provides it)."""

    spec: GameSpec
    config: StarMasterConfig
    k: int  # colours, cubes and slots
    actions: ActionIds
    layout: ObservationLayout
    masks: ActionMasks
    dice_outcomes: list[tuple[int, float]]
    seed_outcomes: list[tuple[int, float]]
    orders: list[list[int]]  # per roller: the seats from the roller on
    fresh_window: array  # a seat's window map and permutation after its decision, flat
    turn_cap: int
    seats: int  # the number of players, read on the hot path
    must_search: bool
    remembers: bool
    decays: bool

    @property
    def num_players(self) -> int: ...


class StarMasterPosition(State):
    """One Star Master position (every field is part of snapshots; see ``validate``).

    There are ``k = num_colours`` colours, cubes and slots (9 by default); slots hold
    colours: ``layout[s]`` is the colour of the cube on slot ``s`` (-1 while set-up is
    placing it). Per seat ``p``: ``pawns[p, c]`` (0 or 1), ``memory[p, s]`` (the
    remembered colour, -1 unknown; always -1 with ``memory="none"``), ``win_map[p, s]``
    (colour shown at ``s`` by a public event since ``p``'s last decision, -1 none) and
    ``win_perm[p, s]`` (the slot where the cube now on ``s`` stood at ``p``'s last decision)
    and ``in_window[p]`` (1 where the last flip, resp. the last race's reveal, happened
    since ``p``'s last decision). ``last_seat``, ``last_action`` and ``last_phase`` record
    the last decision (for the pictures and narration; a race choice stays sealed there
    too until every seat has chosen).

    The array fields read as numpy arrays and are kept as flat Python arrays (``_layout``,
    ``_views``, ...; see :class:`~moon_envs.core.state_io.ArrayField`), which the rules
    read and write entry by entry: ``_pawns[p * k + c]``, ``_views[(3 * p + row) * k + s]``
    (rows: window map, window permutation, memory), ``_in_window[2 * p + event]``.
    """

    game: StarMasterGameLike
    layout = ArrayField("int8")
    race_choice = ArrayField("int8")
    pawns = ArrayField("int8", shape=lambda g: (g.seats, g.k))
    held = ArrayField("float64")  # colours held per seat: the game score, as the core reads it
    views = ArrayField("int64", shape=lambda g: (g.seats, 3, g.k))
    last_flip = ArrayField("int8")
    last_race = ArrayField("int8")
    in_window = ArrayField("int8", shape=lambda g: (g.seats, 2))

    def __init__(self, game: StarMasterGameLike) -> None:
        super().__init__(game)
        n, k = game.num_players, game.k
        self.phase = SETUP
        self.layout = np.full(k, -1, dtype=np.int8)
        self.setup_index = 0
        self.seed = -1
        self.turn = 0  # turns started
        self.roller = 0
        self.mover = 0  # seat acting in name / flip / swap
        self.white = -1
        self.black_star = 0
        self.target = -1  # colour sought by the flip
        self.found_slot = -1  # slot of the found cube, to swap
        self.race_choice = np.full(n, NOT_CHOSEN, dtype=np.int8)
        self.race_next = 0  # race choices made so far
        self.pawns = np.zeros((n, k), dtype=np.int8)
        self.held = np.zeros(n, dtype=np.float64)
        # per seat: row 0 window map, row 1 window permutation, row 2 memory
        self.views = np.full((n, 3, k), -1, dtype=np.int64)
        self.views[:, 1] = game.layout.identity
        self.winners_list: list[int] = []
        self.last_flip = np.full(4, -1, dtype=np.int8)  # seat, slot, colour, found
        self.last_race = np.full(n, NOT_CHOSEN, dtype=np.int8)  # revealed choices
        # per seat: whether the last flip / the last race's reveal happened since its last
        # decision (so lies in its window); a seat's info shows only those
        self.in_window = np.zeros((n, 2), dtype=np.int8)
        # the last decision: seat, action and the phase it was taken in (-1: none yet)
        self.last_seat, self.last_action, self.last_phase = -1, -1, -1

    def clone(self) -> StarMasterPosition:
        """An independent copy, field by field (the same result as the generic
        :meth:`State.clone`, several times faster: search clones constantly): a copy of
        every Python array, each written into in place. The core's score records
        (``_scores_before``, ``_last_win_delta``) are only ever replaced, never written
        into, so the copy shares them; ``winners_list`` likewise."""
        new = object.__new__(type(self))
        d = dict(self.__dict__)  # a plain dict: see State.clone
        # (an array's __copy__ is its cheapest copy: no slice to build)
        d["_layout"] = self._layout.__copy__()
        d["_race_choice"] = self._race_choice.__copy__()
        d["_pawns"] = self._pawns.__copy__()
        d["_held"] = self._held.__copy__()
        d["_views"] = self._views.__copy__()
        d["_last_flip"] = self._last_flip.__copy__()
        d["_last_race"] = self._last_race.__copy__()
        d["_in_window"] = self._in_window.__copy__()
        new.__dict__ = d
        return new

    @property
    def win_map(self) -> np.ndarray:
        """``(n, k)`` view: colour shown at each slot since each seat's last decision."""
        return self.views[:, 0]

    @property
    def win_perm(self) -> np.ndarray:
        """``(n, k)`` view: where the cube now on each slot stood at the seat's last decision."""
        return self.views[:, 1]

    @property
    def memory(self) -> np.ndarray:
        """``(n, k)`` view: remembered colour per slot (-1 unknown)."""
        return self.views[:, 2]

    def _set_pawn(self, seat: int, colour: int, value: int) -> None:
        i = seat * self.game.k + colour
        if self._pawns[i] != value:
            self._pawns[i] = value
            self._held[seat] += 1 if value else -1

    # ---- whose move ---------------------------------------------------------------------
    def _current_player(self) -> int:
        ph = self.phase
        if NAME <= ph <= SWAP:  # name, flip, swap
            return self.mover
        if ph == RACE:
            return (self.roller + self.race_next) % self.game.seats
        if ph == END:
            return TERMINAL
        return CHANCE

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        ph = self.phase
        if ph == ROLL:
            return self.game.dice_outcomes
        if ph == SETUP:
            placed = set(self._layout[: self.setup_index])
            left = [c for c in range(self.game.k) if c not in placed]
            return [(c, 1.0 / len(left)) for c in left]
        if ph == DRAW:
            grabbers = self._grabbers()
            return [(s, 1.0 / len(grabbers)) for s in grabbers]
        return self.game.seed_outcomes

    def _grabbers(self) -> list[int]:
        """The seats that grabbed a slot in the race, from the roller on."""
        choice = self._race_choice
        return [s for s in self.game.orders[self.roller] if choice[s] >= 0]

    # ---- legality -------------------------------------------------------------------------
    def _legal_mask(self) -> np.ndarray:
        ph = self.phase
        masks = self.game.masks
        if ph == FLIP:
            return (masks.flip_or_pass if self._may_pass() else masks.flip).copy()
        if ph == SWAP:
            return masks.swap[self.found_slot].copy()
        if ph == RACE:
            return masks.flip_or_pass.copy()
        k = self.game.k
        return masks.names(self._pawns[self.mover * k : (self.mover + 1) * k].tobytes()).copy()

    def _may_pass(self) -> bool:
        return (
            self.white != STAR
            and not self.game.must_search
            and self._pawns[self.mover * self.game.k + self.target] == 1
        )

    def _is_legal(self, a: int) -> bool:
        ph = self.phase
        ids = self.game.actions
        k = ids.k
        if ph == FLIP:
            return 0 <= a < k or (a == ids.pass_ and self._may_pass())
        if ph == RACE:
            return 0 <= a < k or a == ids.pass_
        if ph == SWAP:
            return k <= a < 2 * k and a - k != self.found_slot
        name0 = ids.name0
        return name0 <= a < name0 + k and not self._pawns[self.mover * k + a - name0]

    # ---- results --------------------------------------------------------------------------
    def _scores(self) -> array:
        return self._held

    def _winners(self) -> list[int]:
        return list(self.winners_list)

    def returns(self, mode: str = "win") -> np.ndarray:
        """As :meth:`State.returns`; alone at the table (solitaire or not), a win is +1 and
        a loss -1 at the end."""
        if self.game.spec.num_players == 1 and mode == "win":
            if not self.is_terminal():
                return np.zeros(1)
            return np.array([1.0 if self.winners_list else -1.0])
        return super().returns(mode)
