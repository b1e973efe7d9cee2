"""Moon Harvesters rules engine (nestorgames; rules: docs/rules.md).

Phases: ``auction`` (each player still in takes a harvester kind, leaving the auction, or
a crater), ``craters`` (holders place their craters, one per turn, in seat order),
``deposits`` (the first player's opening deposits, and each turn's deposits after a
placement) and ``place`` (place one harvester, collecting the deposits it covers).

Flat action layout (``K`` kinds, ``cells = rows * cols``, see :class:`HarvestersGame`):

====================================  ==================================================
``0 .. K-1``                          auction: take harvester kind ``k``
``K``                                 auction: take a crater
``crater_base + cell``                place a crater on ``cell``
``place_base + slot * cells + cell``  place a harvester in orientation ``slot`` (0..7)
                                      with its bounding box's top-left corner on ``cell``
``deposit_base + cell``               put a deposit on ``cell``
====================================  ==================================================

A player who cannot place a harvester (no piece left or no placement fits) passes
automatically; the game ends when nobody can place. Placements that stop fitting never
fit again (harvesters and craters are only ever added), so each state keeps a "still
fits" flag per placement, cleared through a precomputed cell -> placements index when a
cell is blocked; the placement mask is then a copy of the mover's block of flags.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from moon_envs.core.game import (
    TERMINAL,
    ConfigError,
    Game,
    GameSpec,
    State,
    check_bool,
    check_choice,
    check_int,
)
from moon_envs.core.snapshot import quote
from moon_envs.moon_harvesters.shapes import (
    BASE_SET,
    FULL_SET,
    MAX_ORIENTATIONS,
    Footprints,
    Shape,
    build_footprints,
    parse_shapes,
)
from moon_envs.moon_harvesters.snapshot import validate_state

GRID_BY_PLAYERS = {2: (12, 12), 3: (12, 16), 4: (12, 16)}
"""Default grid (rows, cols) per player count."""

AUCTION, CRATERS, DEPOSITS, PLACE, OVER = "auction", "craters", "deposits", "place", "over"
PHASES = (AUCTION, CRATERS, PLACE, DEPOSITS)
"""Phases a player acts in, in the order of the observation's phase one-hot."""
ALL_PHASES = (*PHASES, OVER)
"""Every value of ``HarvestersState.phase``."""

SHORT_DEPOSIT_RULES = ("fewer", "none")
"""Values of ``deposits_when_short``: what a player does when fewer cells or deposits
remain than the turn asks for."""
TIE_RULES = ("shared", "none")
"""Values of ``ties``: the result when players stay tied after the harvester tie-break."""

COLUMN_LETTERS = "ABCDEFGHIJKLMNOP"


def _as_shape_tuple(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, (list, tuple)):
        raise ConfigError(
            "shapes must be None, a list of shape specs or a comma-separated string, "
            f"got {quote(value)}"
        )
    for i, v in enumerate(value):
        if not isinstance(v, str):
            raise ConfigError(f"shapes[{i}] must be a string, got {quote(v)}")
    return tuple(value)


@dataclass(frozen=True)
class HarvestersConfig:
    """Parameters of Moon Harvesters.

    Attributes:
        num_players: 2, 3 or 4.
        shapes: harvester kinds on offer (see :mod:`moon_envs.moon_harvesters.shapes` for
            the format), at least ``num_players`` and at most 8; ``None`` = L and X with 2
            players, L, X, U and P with 3-4 [HOUSE]. A comma-separated string also works.
        rows, cols: grid size; ``None`` = 12x12 with 2 players, 12x16 with 3-4.
        pieces_per_kind: harvesters of each kind (10).
        num_deposits: helium-3 deposits in the supply (80).
        num_craters: craters in the auction (3).
        deposits_per_turn: deposits placed after each harvester (2).
        first_deposits: deposits the first player places before play starts (2).
        craters_block: [HOUSE] a harvester may not cover a crater (default True; the
            rules only forbid covering another harvester).
        craters_block_deposits: [HOUSE] a deposit may not go on a crater (default True:
            deposits go on "unoccupied" cells and a crater occupies its cell).
        deposits_when_short: [HOUSE] when fewer free cells or deposits remain than the
            turn's count: ``"fewer"`` (default) places as many as possible, ``"none"``
            places none (the count is all or nothing).
        ties: [HOUSE] players still tied after the fewer-harvesters tie-break:
            ``"shared"`` (default) all win; ``"none"``: the game has no winner (every
            return 0), the rules' "replay": the next episode is the replay.
    """

    num_players: int = 2
    shapes: tuple[str, ...] | None = None
    rows: int | None = None
    cols: int | None = None
    pieces_per_kind: int = 10
    num_deposits: int = 80
    num_craters: int = 3
    deposits_per_turn: int = 2
    first_deposits: int = 2
    craters_block: bool = True
    craters_block_deposits: bool = True
    deposits_when_short: str = "fewer"
    ties: str = "shared"

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, 4)
        object.__setattr__(self, "shapes", _as_shape_tuple(self.shapes))
        if self.shapes is not None and not self.num_players <= len(self.shapes) <= 8:
            raise ConfigError(
                f"shapes has {len(self.shapes)} kinds; it needs at least num_players="
                f"{self.num_players} (each player takes one) and at most 8"
            )
        for name in ("rows", "cols"):
            if getattr(self, name) is not None:
                check_int(name, getattr(self, name), 3, 16)
        check_int("pieces_per_kind", self.pieces_per_kind, 1, 64)
        check_int("num_deposits", self.num_deposits, 0, 1000)
        check_int("num_craters", self.num_craters, 0, 16)
        check_int("deposits_per_turn", self.deposits_per_turn, 0, 8)
        check_int("first_deposits", self.first_deposits, 0, 16)
        check_bool("craters_block", self.craters_block)
        check_bool("craters_block_deposits", self.craters_block_deposits)
        check_choice("deposits_when_short", self.deposits_when_short, SHORT_DEPOSIT_RULES)
        check_choice("ties", self.ties, TIE_RULES)
        rows, cols = self.grid
        parse_shapes(self.shape_specs, rows, cols)  # validates the shapes

    @property
    def grid(self) -> tuple[int, int]:
        """(rows, cols) in use."""
        drows, dcols = GRID_BY_PLAYERS[self.num_players]
        return (self.rows or drows, self.cols or dcols)

    @property
    def shape_specs(self) -> tuple[str, ...]:
        """The kinds in use (defaults filled in)."""
        if self.shapes is not None:
            return self.shapes
        return BASE_SET if self.num_players == 2 else FULL_SET


class HarvestersGame(Game):
    """Moon Harvesters' immutable rules and precomputed placement tables.

    Attributes:
        rows, cols, num_cells: the grid; ``cell = row * cols + col``.
        kinds: the harvester :class:`~moon_envs.moon_harvesters.shapes.Shape` s, in order.
        fp: the :class:`~moon_envs.moon_harvesters.shapes.Footprints` tables.
        per_kind: placements per kind (``8 * cells``).
        crater_base, place_base, deposit_base: offsets of the action blocks.
    """

    config_class = HarvestersConfig

    def __init__(self, config: HarvestersConfig | None = None, **params: Any) -> None:
        super().__init__(config, **params)
        cfg = self.config
        self.rows, self.cols = cfg.grid
        self.num_cells = self.rows * self.cols
        self.kinds: tuple[Shape, ...] = parse_shapes(cfg.shape_specs, self.rows, self.cols)
        self.num_kinds = len(self.kinds)
        self.fp: Footprints = build_footprints(self.kinds, self.rows, self.cols)
        self.per_kind = self.fp.per_kind
        k, c = self.num_kinds, self.num_cells
        self.crater_base = k + 1
        self.place_base = self.crater_base + c
        self.deposit_base = self.place_base + self.per_kind
        n = cfg.num_players
        self._seat_order = [(np.arange(n) + p) % n for p in range(n)]
        self._plane_buf = np.empty((n, c), dtype=bool)
        self._layout_observation()

    def _layout_observation(self) -> None:
        """Offsets of the observation fields and, per observer, the permutation that turns
        the seat-0 (absolute) vector every state maintains into that observer's view."""
        n, c, k = self.config.num_players, self.num_cells, self.num_kinds
        self.off_left = (n + 2) * c
        self.off_supply = self.off_left + n
        self.off_collected = self.off_supply + 1
        self.off_phase = self.off_collected + n
        self.off_kind = self.off_phase + len(PHASES)
        self.off_offer = self.off_kind + n * k
        self.off_pool = self.off_offer + k
        self.off_held = self.off_pool + 1
        self.off_due = self.off_held + n
        self.obs_perm = []
        for order in self._seat_order:
            parts = [np.arange(c) + s * c for s in order]
            parts.append(np.arange(n * c, (n + 2) * c))
            parts.append(self.off_left + order)
            parts.append([self.off_supply])
            parts.append(self.off_collected + order)
            parts.append(self.off_phase + np.arange(len(PHASES)))
            parts.extend(self.off_kind + s * k + np.arange(k) for s in order)
            parts.append(self.off_offer + np.arange(k))
            parts.append([self.off_pool])
            parts.append(self.off_held + order)
            parts.append([self.off_due])
            perm = np.concatenate(parts).astype(np.intp)
            assert perm.shape == self.spec.observation_shape
            self.obs_perm.append(perm)
        self.phase_onehot = {
            p: np.eye(len(PHASES), dtype=np.float32)[i] for i, p in enumerate(PHASES)
        }
        self.phase_onehot[OVER] = np.zeros(len(PHASES), dtype=np.float32)
        self._eye_kind = np.eye(k + 1, dtype=np.float32)[:, :k]

    def _make_spec(self) -> GameSpec:
        cfg = self.config
        rows, cols = cfg.grid
        cells = rows * cols
        k = len(cfg.shape_specs)
        n = cfg.num_players
        return GameSpec(
            name="moon_harvesters",
            num_players=n,
            num_actions=k + 1 + cells + MAX_ORIENTATIONS * cells + cells,
            observation_shape=(observation_length(n, k, cells),),
            max_game_length=n + 2 * cfg.num_craters + n * cfg.pieces_per_kind + cfg.num_deposits,
            has_chance=False,
            hidden_information=False,
            observation_low=0.0,
            observation_high=1.0,
        )

    # ---- action ids ---------------------------------------------------------------------------
    def kind_action(self, kind: int) -> int:
        return kind

    @property
    def crater_take_action(self) -> int:
        return self.num_kinds

    def crater_action(self, cell: int) -> int:
        return self.crater_base + cell

    def place_action(self, slot: int, cell: int) -> int:
        return self.place_base + slot * self.num_cells + cell

    def deposit_action(self, cell: int) -> int:
        return self.deposit_base + cell

    def placement_cells(self, kind: int, placement: int) -> np.ndarray:
        """Cells covered by placement ``slot * cells + anchor`` of ``kind``."""
        return self.fp.cells[kind][placement]

    def cell_name(self, cell: int) -> str:
        r, c = divmod(int(cell), self.cols)
        return f"{COLUMN_LETTERS[c]}{r + 1}"


def observation_length(n: int, k: int, cells: int) -> int:
    """Length of the observation vector (see the env's documentation page)."""
    return (n + 2) * cells + n + 1 + n + len(PHASES) + n * k + k + 1 + n + 1


class HarvestersState(State):
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

    game: HarvestersGame

    def __init__(self, game: HarvestersGame) -> None:
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

    def _observation(self, player: int) -> np.ndarray:
        # ``feat`` is the seat-0 view, kept up to date by each action; a gather reorders it
        return self.feat[self.game.obs_perm[player]]

    def _build_observation(self, player: int) -> np.ndarray:
        """The observation built from scratch (the reference ``feat`` must always equal)."""
        g = self.game
        cfg = g.config
        n, c, k = cfg.num_players, g.num_cells, g.num_kinds
        out = np.empty(g.spec.observation_shape[0], dtype=np.float32)
        order = g._seat_order[player]
        # planes: own harvesters, opponents in seat order after me, craters, deposits
        np.equal(self.owner[None, :], order[:, None], out=g._plane_buf)
        out[: n * c] = g._plane_buf.ravel()
        out[n * c : (n + 1) * c] = self.crater
        out[(n + 1) * c : (n + 2) * c] = self.deposit
        i = (n + 2) * c
        out[i : i + n] = 1.0 - self.placed[order] / cfg.pieces_per_kind
        i += n
        out[i] = self.supply / max(1, cfg.num_deposits)
        out[i + 1 : i + 1 + n] = self.collected[order] / max(1, cfg.num_deposits)
        i += 1 + n
        out[i : i + len(PHASES)] = 0.0
        if self.phase in PHASES:
            out[i + PHASES.index(self.phase)] = 1.0
        i += len(PHASES)
        kinds = self.kind_of[order]
        out[i : i + n * k] = g._eye_kind[np.where(kinds >= 0, kinds, k)].ravel()
        i += n * k
        out[i : i + k] = self.on_offer
        i += k
        out[i] = self.crater_pool / max(1, cfg.num_craters)
        out[i + 1 : i + 1 + n] = self.craters_held[order] / max(1, cfg.num_craters)
        out[i + 1 + n] = self.deposits_due / max(1, cfg.deposits_per_turn, cfg.first_deposits)
        return out

    # ---- text --------------------------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        g = self.game
        a = int(action)
        if 0 <= a < g.num_kinds:
            return f"take harvester kind {g.kinds[a].name}"
        if a == g.num_kinds:
            return "take a crater"
        if g.crater_base <= a < g.place_base:
            return f"crater on {g.cell_name(a - g.crater_base)}"
        if g.place_base <= a < g.deposit_base:
            slot, anchor = divmod(a - g.place_base, g.num_cells)
            return f"harvester orientation {slot} at {g.cell_name(anchor)}"
        if g.deposit_base <= a < g.spec.num_actions:
            return f"deposit on {g.cell_name(a - g.deposit_base)}"
        raise ValueError(f"action {a} is out of range 0..{g.spec.num_actions - 1}")

    def __str__(self) -> str:
        g = self.game
        lines = ["    " + " ".join(COLUMN_LETTERS[c] for c in range(g.cols))]
        for r in range(g.rows):
            row = []
            for c in range(g.cols):
                cell = r * g.cols + c
                if self.owner[cell] >= 0:
                    row.append("abcd"[self.owner[cell]])
                elif self.crater[cell]:
                    row.append("@" if self.deposit[cell] else "O")
                elif self.deposit[cell]:
                    row.append("*")
                else:
                    row.append(".")
            lines.append(f"{r + 1:>3} " + " ".join(row))
        legend = "harvesters a..d = player_0..3; O crater; * deposit"
        if not g.config.craters_block_deposits:
            legend += "; @ deposit on a crater"
        lines.append(legend)
        for s in range(g.config.num_players):
            mark = "*" if self._current_player() == s else " "
            k = int(self.kind_of[s])
            kind = g.kinds[k].name if k >= 0 else "-"
            lines.append(
                f"{mark} player_{s} ({'abcd'[s]}) kind {kind}: {int(self.collected[s]):>2} "
                f"deposits, {int(self.placed[s])}/{g.config.pieces_per_kind} placed"
                + (
                    f", {int(self.craters_held[s])} crater(s) to place"
                    if self.craters_held[s]
                    else ""
                )
            )
        status = f"phase: {self.phase}; supply: {self.supply}"
        if self.phase == AUCTION:
            offer = [g.kinds[k].name for k in np.flatnonzero(self.on_offer)]
            status += f"; on offer: {offer} and {self.crater_pool} crater(s)"
        if self.phase == DEPOSITS:
            status += f"; deposits to place: {self.deposits_due}"
        if self.phase == OVER:
            winners = self._winners()
            if winners:
                status += f"; game over, winner(s): {', '.join(f'player_{w}' for w in winners)}"
            else:
                status += "; game over, tied: no winner"
        lines.append(status)
        if self.last_action:
            lines.append(f"last: {self.last_action}")
        return "\n".join(lines)


HarvestersGame.state_class = HarvestersState
