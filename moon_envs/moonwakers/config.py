"""Moonwakers parameters and the flat action layout.

Every action of every phase is one integer of a single ``Discrete(num_actions)`` space;
:class:`ActionLayout` names the ranges (``T`` table slots = 7, ``N`` terrain cards,
``K`` face-up COMBINATION slots = 3, ``E`` = 6 elements, seat offsets 0..5 counted
clockwise from the actor).
"""

from __future__ import annotations

from dataclasses import dataclass

from moon_envs.core.game import check_int

MAX_PLAYERS = 6
TABLE_SLOTS = MAX_PLAYERS + 1
COMBO_SLOTS = 3
NUM_ELEMENTS = 6
TARGET_POINTS = {2: 24, 3: 22}  # 4+ players: 20
AVOID_AT = 7  # a d12 roll + modifiers >= 7 avoids an accident
SCAN_MOD, PROTECTION_MOD = -1, 2


def target_points(num_players: int) -> int:
    """Combination points that end the game: 24 / 22 / 20 for 2 / 3 / 4+ players."""
    return TARGET_POINTS.get(num_players, 20)


def face_up_combos(num_players: int) -> int:
    """Face-up COMBINATION cards: 2 with 2-3 players, 3 with 4+."""
    return 2 if num_players <= 3 else 3


@dataclass(frozen=True)
class MoonwakersConfig:
    """Moonwakers SEED parameters.

    Attributes:
        num_players: 2..6.
        cards: path of a card file (``None``: the package's ``data/cards.json``).
        max_rounds: [HOUSE] the game also ends after this many rounds (1..200), so that
            every game ends; most points wins.
    """

    num_players: int = 2
    cards: str | None = None
    max_rounds: int = 30

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, MAX_PLAYERS)
        check_int("max_rounds", self.max_rounds, 1, 200)
        if self.cards is not None and not isinstance(self.cards, str):
            from moon_envs.core.game import ConfigError

            raise ConfigError(f"cards must be a path string or None, got {self.cards!r}")


class ActionLayout:
    """Offsets of the action ranges for a card set of ``num_terrain`` cards."""

    PASS = 0  # decline (an ability, a response card, a claim)
    OPT_SCAN = 1
    OPT_PROTECTION = 2
    PEEK = 3  # + slot: the opening SCAN looks under a table card
    DASH = PEEK + TABLE_SLOTS  # + slot: DASH replaces this table card
    PLACE = DASH + TABLE_SLOTS  # + slot: put the character under this card
    SCAN_CARD = PLACE + TABLE_SLOTS  # + slot: play a SCAN action card on this table card
    SHORTCUT = SCAN_CARD + TABLE_SLOTS
    PERMUTE = SHORTCUT + 1  # + seat offset 1..5 (index offset - 1)
    CRYOGEN = PERMUTE + MAX_PLAYERS - 1
    SHIELD = CRYOGEN + 1
    DEFECTIVE = SHIELD + 1
    SHELTER = DEFECTIVE + 1
    ROLL = SHELTER + 1
    MAP = ROLL + 1
    EXPLORE = MAP + 1
    LOSE_MAPPED = EXPLORE + 1  # + element: lose your oldest mapped card of that element
    PAY_MAPPED = LOSE_MAPPED + NUM_ELEMENTS  # + element: pay your oldest mapped card of it
    CLAIM = PAY_MAPPED + NUM_ELEMENTS  # + combo slot
    LABO = CLAIM + COMBO_SLOTS  # + seat offset * 6 + element
    HAND = LABO + MAX_PLAYERS * NUM_ELEMENTS  # + card id: lose / pay this hand card

    def __init__(self, num_terrain: int) -> None:
        self.num_terrain = num_terrain
        self.num_actions = self.HAND + num_terrain
