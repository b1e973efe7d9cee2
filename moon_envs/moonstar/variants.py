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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from moon_envs.core.game import ConfigError, check_bool, check_choice, check_int
from moon_envs.core.snapshot import quote

NUM_STARS = 12
MAX_MOONS_PER_STAR = 3
MIN_BID, MAX_BID = 2, 70
SCORINGS = ("planets", "squares", "chains")
MOVEMENTS = ("exact", "double_half", "double_double")
COUNT_RULES = ("auto", "equal", "more_moons", "more_dice")
SETUPS = ("organizer", "random")
TIE_RULES = ("shared", "none")
NO_BID_READINGS = ("round_not_played", "organizer_sits_out")
EXCLUSION_AFTER_NO_BID = ("kept", "spent")
BIDDER_BETS = ("made_only", "any")
CHAIN_MEMBERS = ("moved", "all")
AUCTION_ORDERS = ("rotation", "random")
DEFAULT_PLANETS = (5, 5, 10, 10)
MAX_PLANET_VALUE = 50
DEFAULT_TARGETS = {"planets": 200, "squares": 100, "chains": 50}
ROUND_FIELDS = (
    "num_moons",
    "num_dice",
    "count_rule",
    "planets",
    "scoring",
    "favourite_star",
    "movement",
    "challenges",
    "side_bets",
    "move_budget",
)


def _untuple(value: Any, field: str = "value", depth: int = 0) -> Any:
    """Accept lists as well as tuples for tuple fields, recursively (menu entries nest
    them); deeper than 8 levels is an error naming ``field``."""
    if isinstance(value, (list, tuple)):
        if depth >= 8:
            raise ConfigError(f"{field} is nested too deeply; allowed: at most 8 levels")
        value = tuple(_untuple(v, field, depth + 1) for v in value)
    return value


@dataclass(frozen=True)
class RoundRules:
    """The rules of one round (resolved: no ``None`` left).

    Attributes:
        num_moons, num_dice: counts (Games 2–4).
        count_rule: which of Games 1–2 / 3 / 4 the counts follow (``"auto"`` infers it).
        planets: planet values (Game 5); empty for squares and chains scoring.
        scoring: ``"planets"`` (Games 1–6), ``"squares"`` (Game 7), ``"chains"`` (Game 8).
        favourite_star: Game 6, the player of the round places the red planet.
        movement: ``"exact"``, ``"double_half"`` (Game 9: counter-clockwise d or d // 2)
            or ``"double_double"`` (Game 9 read literally: d or 2d both ways).
        challenges: Game 10.
        side_bets: Game 11.
        move_budget: moves allowed to the player of the round (the sand timer), or None.
    """

    num_moons: int = 7
    num_dice: int = 7
    count_rule: str = "auto"
    planets: tuple[int, ...] = DEFAULT_PLANETS
    scoring: str = "planets"
    favourite_star: bool = False
    movement: str = "exact"
    challenges: bool = False
    side_bets: bool = False
    move_budget: int | None = None

    @property
    def num_moves(self) -> int:
        """Moves the player of the round makes: one per moon that gets a die."""
        n = min(self.num_moons, self.num_dice)
        return n if self.move_budget is None else min(n, self.move_budget)

    def validate(self, where: str = "") -> None:
        """Raise ConfigError for a bad value or combination (``where`` prefixes messages)."""
        p = where
        check_int(p + "num_moons", self.num_moons, 7, 15)
        check_int(p + "num_dice", self.num_dice, 7, 11)
        check_choice(p + "count_rule", self.count_rule, COUNT_RULES)
        check_choice(p + "scoring", self.scoring, SCORINGS)
        check_choice(p + "movement", self.movement, MOVEMENTS)
        check_bool(p + "favourite_star", self.favourite_star)
        check_bool(p + "challenges", self.challenges)
        check_bool(p + "side_bets", self.side_bets)
        m, d = self.num_moons, self.num_dice
        rule = self.count_rule
        if rule == "auto":
            rule = "equal" if m == d else ("more_moons" if m > d else "more_dice")
        if rule == "equal":
            if m != d:
                raise ConfigError(
                    f"{p}count_rule='equal' (Games 1-2) needs as many moons as dice; "
                    f"got num_moons={m}, num_dice={d}"
                )
            if not 7 <= m <= 11:
                raise ConfigError(
                    f"{p}num_moons=num_dice={m}: Games 1-2 use 7..11 moons and as many dice"
                )
        elif rule == "more_moons":
            if m <= d:
                raise ConfigError(
                    f"{p}count_rule='more_moons' (Game 3) needs more moons than dice; "
                    f"got num_moons={m}, num_dice={d}"
                )
            if not (8 <= m <= 15 and 7 <= d <= 10):
                raise ConfigError(
                    f"{p}Game 3 (more moons than dice) uses 8..15 moons and 7..10 dice; "
                    f"got num_moons={m}, num_dice={d}"
                )
        else:
            if d <= m:
                raise ConfigError(
                    f"{p}count_rule='more_dice' (Game 4) needs more dice than moons; "
                    f"got num_moons={m}, num_dice={d}"
                )
            if not (8 <= d <= 11 and 7 <= m <= 10):
                raise ConfigError(
                    f"{p}Game 4 (more dice than moons) uses 8..11 dice and 7..10 moons; "
                    f"got num_moons={m}, num_dice={d}"
                )
        if not isinstance(self.planets, tuple):
            raise ConfigError(
                f"{p}planets must be a list of planet values, got {quote(self.planets)}"
            )
        if len(self.planets) > 6:
            raise ConfigError(
                f"{p}planets={quote(list(self.planets))}: Game 5 uses 1..6 planets, not "
                f"{len(self.planets)}"
            )
        for i, v in enumerate(self.planets):
            check_int(f"{p}planets[{i}]", v, 1, MAX_PLANET_VALUE)
        if self.scoring == "planets":
            if not 1 <= len(self.planets) <= 6:
                raise ConfigError(
                    f"{p}planets={quote(list(self.planets))}: Game 5 uses 1..6 planets "
                    f"(planet scoring needs at least one)"
                )
        elif self.planets:
            game = 7 if self.scoring == "squares" else 8
            raise ConfigError(
                f"{p}planets={quote(list(self.planets))} with scoring={self.scoring!r}: "
                f"Game {game} uses no planets (pass planets=[] or leave it unset)"
            )
        if self.favourite_star and self.scoring != "planets":
            raise ConfigError(
                f"{p}favourite_star=True with scoring={self.scoring!r}: the red planet of Game 6 "
                f"goes on a star that holds a planet, and Games 7-8 have none"
            )
        if self.move_budget is not None:
            check_int(p + "move_budget", self.move_budget, 1, min(m, d))
            if self.scoring == "chains":
                raise ConfigError(
                    f"{p}move_budget={self.move_budget} with scoring='chains': Game 8 has no timer"
                )


def round_rules_from(params: Mapping[str, Any], base: RoundRules | None = None) -> RoundRules:
    """Resolve round-level params (``planets=None`` -> the scoring's default) over ``base``."""
    unknown = [k for k in params if k not in ROUND_FIELDS]
    if unknown:
        raise ConfigError(f"unknown round rule(s) {quote(unknown)}; valid: {list(ROUND_FIELDS)}")
    kw = dict(params)
    scoring = kw.get("scoring", base.scoring if base else "planets")
    if "planets" in kw:
        planets = _untuple(kw["planets"], "planets")
        if planets is None:
            planets = DEFAULT_PLANETS if scoring == "planets" else ()
        kw["planets"] = planets
    elif base is None or (scoring != base.scoring):
        kw["planets"] = DEFAULT_PLANETS if scoring == "planets" else ()
    rr = replace(base, **kw) if base is not None else RoundRules(**kw)
    return rr


def _game_round_params(game: int) -> dict[str, Any]:
    """The round-level params of Game ``game`` (1..11)."""
    return {
        1: {},
        2: {"num_moons": 9, "num_dice": 9, "count_rule": "equal"},
        3: {"num_moons": 10, "num_dice": 8, "count_rule": "more_moons"},
        4: {"num_moons": 8, "num_dice": 10, "count_rule": "more_dice"},
        5: {"planets": (3, 5, 8, 10, 15, 20)},
        6: {"favourite_star": True},
        7: {"scoring": "squares"},
        8: {"scoring": "chains"},
        9: {"movement": "double_half"},
        10: {"challenges": True},
        11: {"side_bets": True},
    }[game]


GAME1_ROUND_DEFAULTS = {
    "num_moons": 7,
    "num_dice": 7,
    "count_rule": "auto",
    "planets": None,
    "scoring": "planets",
    "favourite_star": False,
    "movement": "exact",
    "challenges": False,
    "side_bets": False,
}

GAME_TITLES = {
    1: "the basic game",
    2: "more moons and dice (9 and 9)",
    3: "more moons than dice (10 moons, 8 dice)",
    4: "more dice than moons (8 moons, 10 dice)",
    5: "different planets (3, 5, 8, 10, 15, 20)",
    6: "favourite star (red planet doubles)",
    7: "no planets, squares scoring, target 100",
    8: "no planets, chain scoring, target 50",
    9: "more movement (double clockwise, half counter-clockwise)",
    10: "challenges",
    11: "side bets",
    12: "dealer's choice among Games 1-11",
}


def preset(game: int) -> dict[str, Any]:
    """Parameters of Game ``game`` (1..12) of the rule book, as ``make`` keywords."""
    check_int("game", game, 1, 12)
    if game == 12:
        return {"dealer_menu": tuple(range(1, 12))}
    return dict(_game_round_params(game))


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
        move_budget: the sand timer as a number of moves (None: no timer).
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


def _menu_rules(menu: tuple, base: RoundRules) -> tuple[tuple, tuple[RoundRules, ...]]:
    """Validate the dealer's menu: (normalised hashable menu, its round rule sets)."""
    rounds = []
    norm_menu: list[Any] = []
    for i, entry in enumerate(menu):
        where = f"dealer_menu[{i}]."
        if isinstance(entry, (int,)) and not isinstance(entry, bool):
            check_int(f"dealer_menu[{i}]", entry, 1, 11)
            rr = round_rules_from(_game_round_params(entry), base=RoundRules())
            norm_menu.append(int(entry))
        else:
            if isinstance(entry, tuple):  # the hashable form below: (rule, value) pairs
                try:
                    entry = dict(entry)
                except (TypeError, ValueError):
                    entry = tuple(entry)
            if not isinstance(entry, Mapping):
                raise ConfigError(
                    f"dealer_menu[{i}]={quote(entry)}: an entry is a game number 1..11 or a "
                    f"mapping of round rules {list(ROUND_FIELDS)}"
                )
            entry = {k: _untuple(v, f"dealer_menu[{i}]") for k, v in entry.items()}
            rr = round_rules_from(entry, base=base)
            norm_menu.append(tuple(sorted(entry.items())))
        rr.validate(where)
        rounds.append(rr)
    return tuple(norm_menu), tuple(rounds)


def config_fields() -> list[str]:
    """Names of the user-facing config fields."""
    return [f.name for f in fields(MoonstarConfig) if f.init]
