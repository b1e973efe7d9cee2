"""Moonwakers parameters and the flat action layout.

Every action of every phase is one integer of a single ``Discrete(num_actions)`` space;
:class:`ActionLayout` names the ranges (``T`` table slots = 7, ``N`` terrain cards,
``K`` face-up COMBINATION slots = 3, seat offsets 0..5 counted clockwise from the actor).
The rules as implemented, with the reason for every house rule, are in ``docs/rules.md``
(section *Moonwakers SEED*).
"""

from __future__ import annotations

from dataclasses import dataclass

from moon_envs.core.game import ConfigError, check_bool, check_choice, check_int
from moon_envs.core.snapshot import quote

MAX_PLAYERS = 6
TABLE_SLOTS = MAX_PLAYERS + 1
COMBO_SLOTS = 3
NUM_ELEMENTS = 6
TARGET_POINTS = {2: 24, 3: 22}  # 4+ players: 20
AVOID_AT = 7  # a d12 roll + modifiers >= 7 avoids an accident
SCAN_MOD, PROTECTION_MOD = -1, 2
MAX_ROUNDS_LIMIT = 500

CHOICES = {
    "setup_hand": ("redraw", "keep"),
    "shortcut_when": ("first", "every"),
    "permutation_when": ("end", "own"),
    "pile": ("unordered", "ordered"),
    "free_card": ("pile", "discard"),
    "claims": ("sealed", "open"),
    "cancelled_shelter": ("roll", "loss"),
    "ionic_storm_draws": ("inert", "act"),
    "game_end": ("automatic", "choice"),
    "response_windows": ("disguised", "holders"),
    "scan_targets": ("terrain", "table"),
    "infrared_storm_replaces": ("all", "two"),
    "action_card_timing": ("fixed",),
}
"""Allowed values of the string parameters (the first is the default)."""


def target_points(num_players: int) -> int:
    """Combination points that end the game: 24 / 22 / 20 for 2 / 3 / 4+ players."""
    return TARGET_POINTS.get(num_players, 20)


def face_up_combos(num_players: int) -> int:
    """Face-up COMBINATION cards: 2 with 2-3 players, 3 with 4+."""
    return 2 if num_players <= 3 else 3


@dataclass(frozen=True)
class MoonwakersConfig:
    """Moonwakers SEED parameters (every house rule of docs/rules.md is one of them).

    Attributes:
        num_players: 2..6.
        cards: path of a card file (``None``: the package's ``data/cards.json``).
        max_rounds: [HOUSE] safety cap: the game also ends after this many rounds
            (1..500, default 100; it never ended a game of 2-4 heuristic players in the
            measurements of docs/moonwakers.md, and ends the stalemates 5-6 can reach).
        end_when_stalemated: [HOUSE] end the game at the end of a round after which nobody
            can ever score again (no terrain card left to draw, none on the table, no LABO
            in any hand, nobody able to pay a face-up COMBINATION card: see
            :mod:`~moon_envs.moonwakers.stalemate`) (``True``), or play on to
            ``max_rounds`` (``False``, the default). The points, hence the winners, are
            the same either way.
        setup_hand: [HOUSE] a set-up card that is an ACCIDENT or a STORM is ``"redraw"``
            (default) or ``"keep"``: kept in hand as a card with no element.
        ability_duel: [HOUSE] a SHORTCUT or PERMUTATION is a d12 duel against its target
            (``True``) or simply succeeds unless frozen or shielded (``False``).
        shortcut_when: [HOUSE] SHORTCUT is offered before the first placement, against
            the initiative player (``"first"``), or before every other seat's placement,
            against that seat (``"every"``).
        permutation_when: [HOUSE] PERMUTATION is offered once all characters are placed
            (``"end"``) or right after the user's own placement (``"own"``).
        shield_abilities: [HOUSE] the target of a SHORTCUT or PERMUTATION may cancel it
            with a SHIELD (``True``), or SHIELD only answers attack cards (``False``).
        pile: [HOUSE] ``"unordered"``: a card put under the pile is shuffled in, a draw
            takes a uniformly random card; ``"ordered"``: cards put under the pile come
            back in that order once the shuffled part is drawn.
        free_card: [HOUSE] the free table card that is not an ACCIDENT goes under the
            terrain ``"pile"`` (default) or onto the ``"discard"`` pile.
        claims: [HOUSE] claims on COMBINATION cards are ``"sealed"`` until all have
            claimed, or ``"open"`` (each claim is seen as it is made).
        purchases_per_round: [HOUSE] COMBINATION cards one seat may acquire per round
            (1..3, default 1): after the claims are settled, another claim turn follows
            while someone bought and purchases remain.
        cancelled_shelter: [HOUSE] a SHELTER cancelled by a DEFECTIVE SHELTER leaves the
            die ``"roll"`` (default), or the accident hits at once (``"loss"``).
        ionic_storm_draws: [HOUSE] a STORM drawn by an ionic storm stays in hand and does
            nothing (``"inert"``), or acts as if explored (``"act"``).
        game_end: [HOUSE] the game ends at the end of the round in which someone reaches
            the target (``"automatic"``), or each such player may end it or play on
            (``"choice"``).
        response_windows: [HOUSE] CRYOGEN, SHIELD and DEFECTIVE SHELTER windows are also
            offered, with PASS alone, to a seat holding a card the others have not seen
            (``"disguised"``), or only to seats holding the card (``"holders"``; being
            asked then tells the table what the unseen card is).
        scan_targets: a SCAN action card looks at any face-down ``"terrain"`` card, table
            or mapped (default, the rule book's reading), or at a ``"table"`` card only.
        infrared_storm_replaces: [HOUSE] an infrared STORM replaces ``"all"`` the face-up
            COMBINATION cards (default; 2 with 2-3 players, 3 with 4+), or only ``"two"``
            of them, the first two slots, at 4+ players (the book's "the 2 cards").
        action_card_timing: [HOUSE] the book allows LABO, SCAN, CRYOGEN and DEFECTIVE
            SHELTER "during the round"; each is offered at one fixed moment (``"fixed"``,
            the only value): LABO before each of the seat's claims, a SCAN card at its
            placement, CRYOGEN just before an ability acts, DEFECTIVE SHELTER right after
            another seat's SHELTER. docs/rules.md gives the reason and what it leaves out.
    """

    num_players: int = 2
    cards: str | None = None
    max_rounds: int = 100
    end_when_stalemated: bool = False
    setup_hand: str = "redraw"
    ability_duel: bool = True
    shortcut_when: str = "first"
    permutation_when: str = "end"
    shield_abilities: bool = True
    pile: str = "unordered"
    free_card: str = "pile"
    claims: str = "sealed"
    purchases_per_round: int = 1
    cancelled_shelter: str = "roll"
    ionic_storm_draws: str = "inert"
    game_end: str = "automatic"
    response_windows: str = "disguised"
    scan_targets: str = "terrain"
    infrared_storm_replaces: str = "all"
    action_card_timing: str = "fixed"

    def __post_init__(self) -> None:
        check_int("num_players", self.num_players, 2, MAX_PLAYERS)
        check_int("max_rounds", self.max_rounds, 1, MAX_ROUNDS_LIMIT)
        check_int("purchases_per_round", self.purchases_per_round, 1, 3)
        check_bool("ability_duel", self.ability_duel)
        check_bool("shield_abilities", self.shield_abilities)
        check_bool("end_when_stalemated", self.end_when_stalemated)
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str):
                raise ConfigError(
                    f"{name} must be a string; allowed values: {list(allowed)}, got {quote(value)}"
                )
            check_choice(name, value, allowed)
        if self.cards is not None and not isinstance(self.cards, str):
            raise ConfigError(f"cards must be a path string or None, got {quote(self.cards)}")


class ActionLayout:
    """Offsets of the action ranges for a card set of ``num_terrain`` cards.

    ``MAPPED + offset * N + i`` names the ``i``-th oldest mapped card of the seat
    ``offset`` places to the actor's left (0: the actor). Its meaning follows the
    decision: play a SCAN card on it (placement), LABO it (claim), lose it (loss), pay
    with it (payment). ``HAND + id`` names one of the actor's own hand cards.
    """

    PASS = 0  # decline (an ability, a response card, a claim, the end of the game)
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
    CLAIM = EXPLORE + 1  # + combo slot
    END = CLAIM + COMBO_SLOTS  # end the game now (game_end="choice")
    MAPPED = END + 1  # + seat offset * N + index in that seat's mapped cards

    def __init__(self, num_terrain: int) -> None:
        self.num_terrain = num_terrain
        self.HAND = self.MAPPED + MAX_PLAYERS * num_terrain  # + card id: one's own hand card
        self.num_actions = self.HAND + num_terrain

    def mapped(self, offset: int, index: int) -> int:
        return self.MAPPED + offset * self.num_terrain + index

    def split_mapped(self, action: int) -> tuple[int, int]:
        """``(seat offset, index)`` of a MAPPED action."""
        return divmod(action - self.MAPPED, self.num_terrain)
