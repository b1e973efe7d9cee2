"""Moon Harvesters' validated parameters: :class:`HarvestersConfig` and its allowed values.

Every bad value raises :class:`~moon_envs.core.game.ConfigError` naming the field and the
allowed values. The rules engine that reads the config is :mod:`moon_envs.moon_harvesters.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from moon_envs.core.game import ConfigError, check_bool, check_choice, check_int
from moon_envs.core.snapshot import quote
from moon_envs.moon_harvesters.shapes import BASE_SET, FULL_SET, parse_shapes

GRID_BY_PLAYERS = {2: (12, 12), 3: (12, 16), 4: (12, 16)}
"""Default grid (rows, cols) per player count."""

SHORT_DEPOSIT_RULES = ("fewer", "none")
"""Values of ``deposits_when_short``: what a player does when fewer cells or deposits
remain than the turn asks for."""
TIE_RULES = ("shared", "none")
"""Values of ``ties``: the result when players stay tied after the harvester tie-break."""


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
        rows, cols: grid size, each 3..16; ``None`` = 12x12 with 2 players, 12x16 with 3-4.
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
