"""Moonstar's validated configuration: Games 1–12 as switches of one config, and presets.

Two levels of rules:

* :class:`RoundRules` — what may change from one round to the next (Game 12, dealer's
  choice): moon and dice counts (Games 2–4), planets (Game 5), favourite star (Game 6),
  scoring (Games 7 and 8), movement (Game 9), challenges (Game 10), side bets (Game 11)
  and the optional move budget standing in for the sand timer.
* :class:`MoonstarConfig` — the whole game: players, the round rules above (as the
  default round), the dealer's menu, target score, setup mode, round limit.

Every bad value raises :class:`~moon_envs.core.game.ConfigError` naming the field and the
allowed values; every bad combination raises it saying which Game forbids it and why.

:func:`preset` returns the rules of Games 1–12 as a dict; ``MoonstarConfig(game=N)`` (and
``make("moonstar_v1", game=N)``) applies it to every rule left unset.

This module holds :class:`MoonstarConfig` and the game-level allowed values; the round
rules are in :mod:`moon_envs.moonstar.round_rules`, the presets and the dealer's menu in
:mod:`moon_envs.moonstar.presets`; every name is importable from here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from moon_envs.core.game import ConfigError, check_bool, check_choice, check_int
from moon_envs.core.snapshot import quote
from moon_envs.moonstar.presets import (
    GAME1_ROUND_DEFAULTS,
    GAME_TITLES,
    _menu_rules,
    preset,
)
from moon_envs.moonstar.round_rules import (
    COUNT_RULES,
    DEFAULT_PLANETS,
    MAX_PLANET_VALUE,
    MOVEMENTS,
    ROUND_FIELDS,
    SCORINGS,
    RoundRules,
    _untuple,
    round_rules_from,
)

NUM_STARS = 12
MAX_MOONS_PER_STAR = 3
MIN_BID, MAX_BID = 2, 70
SETUPS = ("organizer", "random")
TIE_RULES = ("shared", "none")
NO_BID_READINGS = ("round_not_played", "organizer_sits_out")
EXCLUSION_AFTER_NO_BID = ("kept", "spent")
BIDDER_BETS = ("made_only", "any")
CHAIN_MEMBERS = ("moved", "all")
AUCTION_ORDERS = ("rotation", "random")
DEFAULT_TARGETS = {"planets": 200, "squares": 100, "chains": 50}

__all__ = [  # the config and, for existing imports, the round rules and presets beside it
    "AUCTION_ORDERS",
    "BIDDER_BETS",
    "CHAIN_MEMBERS",
    "COUNT_RULES",
    "DEFAULT_PLANETS",
    "DEFAULT_TARGETS",
    "EXCLUSION_AFTER_NO_BID",
    "GAME1_ROUND_DEFAULTS",
    "GAME_TITLES",
    "MAX_BID",
    "MAX_MOONS_PER_STAR",
    "MAX_PLANET_VALUE",
    "MIN_BID",
    "MOVEMENTS",
    "NO_BID_READINGS",
    "NUM_STARS",
    "ROUND_FIELDS",
    "SCORINGS",
    "SETUPS",
    "TIE_RULES",
    "MoonstarConfig",
    "RoundRules",
    "config_fields",
    "preset",
    "round_rules_from",
]


@dataclass(frozen=True)
class MoonstarConfig:
    """Parameters of Moonstar (all Games 1–12). See the documentation page in ``env.py``.

    Rule fields left at ``None`` take the value of the preset ``game`` (if given), else
    Game 1's; after construction every field holds its resolved value.

    Attributes:
        num_players: 2..8 (default 4).
        game: start from the rule book's Game 1..12 (:func:`preset`); None: Game 1.
        num_moons, num_dice: 7..15 and 7..11 (Games 2–4; default 7 and 7).
        count_rule: ``"auto"`` (infer from the counts), ``"equal"`` (Games 1–2),
            ``"more_moons"`` (Game 3), ``"more_dice"`` (Game 4); a named rule that the
            counts do not follow is an error.
        planets: planet values (Game 5: 1..6 planets, values 1..50). ``None``: two 5s and
            two 10s with planet scoring, none with squares or chains.
        scoring: ``"planets"`` (Game 1), ``"squares"`` (Game 7), ``"chains"`` (Game 8).
        favourite_star: Game 6 (red planet doubles a planet's star).
        movement: ``"exact"``, ``"double_half"`` (Game 9; [HOUSE] counter-clockwise d or
            d // 2, the seed's worked halves) or ``"double_double"`` (the seed's words read
            literally: d or 2d both ways).
        challenges: Game 10.
        side_bets: Game 11.
        bet_fractions: the side-bet stakes as fractions of the bettor's score, rounded down
            (default 0, ¼, ½, 1; 0 means no bet; must start with 0).
        move_budget: the sand timer as a number of moves, 1..min(moons, dice) (None: no
            timer; not with Game 8's chains).
        dealer_menu: Game 12. Empty: every round uses the rules above. Otherwise the
            organizer picks one entry per round; an entry is a game number 1..11 (that
            Game's round rules) or a mapping of round rules (over the rules above).
        target: winning score; ``None``: 200 (planets), 100 (squares), 50 (chains).
        setup: ``"organizer"`` (the organizer places planets then moons, as actions) or
            ``"random"`` (uniform chance placement).
        first_organizer: ``"roll"`` (four-dice roll, a chance node) or a seat number.
        max_rounds: the game also ends after this many rounds (highest score wins).
        solver_info: solve each round exactly when the auction ends, to report the best
            total and the regret in ``info`` (False saves the solver's time).
        round_optimum: append two numbers to the observation: the best total the round's
            moons and dice allow (the exact solver's, from public information) / 70,
            clipped at 1, and a flag 1, while the dice are rolled and play has not begun
            (auction, favourite star, side bets); 0 and 0 otherwise. Default False.
        ties: [HOUSE] ``"shared"`` (equal top scores share the win) or ``"none"`` (a tie
            at the top is nobody's win: every return is 0).
        no_bid_reading: [HOUSE] the seed's "il ne joue pas ce tour" after a round nobody
            bids on: ``"round_not_played"`` (the unbid round is void; the organizer sets
            up anew and every eligible player bids again) or ``"organizer_sits_out"``
            (the organizer may not bid in the new round).
        exclusion_after_no_bid: [HOUSE] a player excluded after a failed bid, when the
            round they sit out is one nobody bids on: ``"kept"`` (the void round does not
            count; they also sit out the next one) or ``"spent"``.
        excluded_organizer_bonus: [HOUSE] whether an excluded organizer takes the +20 of
            a round nobody bids on.
        excluded_side_bets: [HOUSE] whether an excluded player may place Game 11 side
            bets (the seed bars them from the round: default False).
        challenge_fail_bonus: [HOUSE] Game 10, points each player who neither bid nor
            challenged gains when a challenged bid fails (default 10, as for an
            unchallenged failure).
        bidder_bets: [HOUSE] Game 11, ``"made_only"`` (the bidder may only back their
            own bid) or ``"any"``.
        chain_members: [HOUSE] Game 8, which moons make a chain: ``"moved"`` (only the
            moons moved onto the star in a row) or ``"all"`` (the unmoved moons standing
            on the landing star count too: a moon landing on a star holding two unmoved
            moons scores 3).
        auction_order: [HOUSE] who speaks next in the auction: ``"rotation"`` (round
            the table from the organizer's left) or ``"random"`` (chance draws each
            speaker among the seats that have not passed since the last bid: the rule
            book's "no bidding order").
    """

    num_players: int = 4
    game: int | None = None
    num_moons: int | None = None
    num_dice: int | None = None
    count_rule: str | None = None
    planets: tuple[int, ...] | None = None
    scoring: str | None = None
    favourite_star: bool | None = None
    movement: str | None = None
    challenges: bool | None = None
    side_bets: bool | None = None
    bet_fractions: tuple[float, ...] = (0.0, 0.25, 0.5, 1.0)
    move_budget: int | None = None
    dealer_menu: tuple[Any, ...] | None = None
    target: int | None = None
    setup: str = "organizer"
    first_organizer: Any = "roll"
    max_rounds: int = 100
    solver_info: bool = True
    round_optimum: bool = False
    ties: str = "shared"
    no_bid_reading: str = "round_not_played"
    exclusion_after_no_bid: str = "kept"
    excluded_organizer_bonus: bool = True
    excluded_side_bets: bool = False
    challenge_fail_bonus: int = 10
    bidder_bets: str = "made_only"
    chain_members: str = "moved"
    auction_order: str = "rotation"

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        check_int("num_players", self.num_players, 2, 8)
        if self.game is not None:
            check_int("game", self.game, 1, 12)
        # unset (None) rule fields take the preset's value, else Game 1's
        base_params = preset(self.game) if self.game is not None else {}
        for name, default in GAME1_ROUND_DEFAULTS.items():
            if getattr(self, name) is None and name != "planets":
                set_(self, name, base_params.get(name, default))
        if self.planets is None and "planets" in base_params:
            set_(self, "planets", base_params["planets"])
        if self.dealer_menu is None:
            set_(self, "dealer_menu", base_params.get("dealer_menu", ()))
        planets = _untuple(self.planets, "planets")
        set_(self, "planets", planets)
        set_(self, "bet_fractions", _fractions(self.bet_fractions))
        check_choice("setup", self.setup, SETUPS)
        if self.first_organizer != "roll":
            check_int("first_organizer", self.first_organizer, 0, self.num_players - 1)
        check_int("max_rounds", self.max_rounds, 1, 10_000)
        check_bool("solver_info", self.solver_info)
        check_bool("round_optimum", self.round_optimum)
        check_choice("ties", self.ties, TIE_RULES)
        check_choice("no_bid_reading", self.no_bid_reading, NO_BID_READINGS)
        check_choice("exclusion_after_no_bid", self.exclusion_after_no_bid, EXCLUSION_AFTER_NO_BID)
        check_bool("excluded_organizer_bonus", self.excluded_organizer_bonus)
        check_bool("excluded_side_bets", self.excluded_side_bets)
        check_int("challenge_fail_bonus", self.challenge_fail_bonus, 0, 100)
        check_choice("bidder_bets", self.bidder_bets, BIDDER_BETS)
        check_choice("chain_members", self.chain_members, CHAIN_MEMBERS)
        check_choice("auction_order", self.auction_order, AUCTION_ORDERS)
        base = round_rules_from({f: getattr(self, f) for f in ROUND_FIELDS})
        base.validate()
        set_(self, "planets", base.planets)
        menu = _untuple(self.dealer_menu, "dealer_menu")
        if not isinstance(menu, tuple):
            raise ConfigError(
                f"dealer_menu must be a list of game numbers or mappings, got {quote(menu)}"
            )
        if len(menu) > 16:
            raise ConfigError(f"dealer_menu has {len(menu)} entries; allowed: at most 16")
        set_(self, "dealer_menu", _menu_rules(menu, base)[0])
        if self.target is None:
            set_(self, "target", DEFAULT_TARGETS[self.scoring])
        check_int("target", self.target, 1, 10_000)

    @property
    def round_rules(self) -> tuple[RoundRules, ...]:
        """The round rule sets: the dealer's menu, or the one set of every round."""
        base = round_rules_from({f: getattr(self, f) for f in ROUND_FIELDS})
        rounds = _menu_rules(self.dealer_menu, base)[1]
        return rounds if rounds else (base,)


def _fractions(value: Any) -> tuple[float, ...]:
    """The validated side-bet stakes: 0.0, then up to 7 distinct fractions in (0, 1]."""
    fr = _untuple(value, "bet_fractions")
    if not isinstance(fr, tuple) or not fr:
        raise ConfigError(f"bet_fractions must be a non-empty list of fractions, got {quote(fr)}")
    if len(fr) > 8:
        raise ConfigError(f"bet_fractions has {len(fr)} entries; allowed: at most 8")
    for i, x in enumerate(fr):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0.0 <= x <= 1.0:
            raise ConfigError(f"bet_fractions[{i}]={quote(x)} must be a number in 0..1")
    fr = tuple(float(x) for x in fr)
    if fr[0] != 0.0 or 0.0 in fr[1:] or len(set(fr)) != len(fr):
        raise ConfigError(
            f"bet_fractions={quote(list(fr))}: must start with 0.0 and then list distinct "
            f"fractions in (0, 1]"
        )
    return fr


def config_fields() -> list[str]:
    """Names of the user-facing config fields."""
    return [f.name for f in fields(MoonstarConfig) if f.init]
