"""Moonstar's rule book presets: Games 1–12 as parameters, and Game 12's dealer's menu.

:func:`preset` returns the rules of Game ``N`` as ``make`` keywords (``MoonstarConfig(game=N)``
applies them to every rule left unset); ``GAME1_ROUND_DEFAULTS`` are the round rules of
Game 1 and ``GAME_TITLES`` name each Game. ``_menu_rules`` validates a dealer's menu
(game numbers or mappings of round rules) into its round rule sets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from moon_envs.core.game import ConfigError, check_int
from moon_envs.core.snapshot import quote
from moon_envs.moonstar.round_rules import ROUND_FIELDS, RoundRules, _untuple, round_rules_from


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
