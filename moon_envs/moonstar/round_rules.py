"""Moonstar's rules of one round: :class:`RoundRules`, their allowed values and resolution.

What may change from one round to the next (Game 12, dealer's choice): moon and dice
counts (Games 2–4), planets (Game 5), favourite star (Game 6), scoring (Games 7 and 8),
movement (Game 9), challenges (Game 10), side bets (Game 11) and the optional move budget
standing in for the sand timer. :func:`round_rules_from` resolves round-level parameters
over a base; :meth:`RoundRules.validate` raises :class:`~moon_envs.core.game.ConfigError`
for a bad value or a combination a Game forbids. The whole game's config is
:class:`~moon_envs.moonstar.variants.MoonstarConfig`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from moon_envs.core.game import ConfigError, check_bool, check_choice, check_int
from moon_envs.core.snapshot import quote

SCORINGS = ("planets", "squares", "chains")
MOVEMENTS = ("exact", "double_half", "double_double")
COUNT_RULES = ("auto", "equal", "more_moons", "more_dice")
DEFAULT_PLANETS = (5, 5, 10, 10)
MAX_PLANET_VALUE = 50
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
