"""Per-game hooks for people: narration of moves, a legend, and help for typing moves.

Hooks are looked up by ``GameSpec.name``. A game without an entry gets the generic hooks,
which name moves with ``action_to_string`` (or ``action_to_public_string`` for a seat),
so a new game is playable and watchable by hand as soon as it is registered. A game adds
its own hooks by listing a ``GameHooks`` object here as ``"module:ATTRIBUTE"``; the module
is imported only when that game is played.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from moon_envs.core.game import State

Narrator = Callable[[State, int, State, "int | None"], list[str]]
"""``narrate(before, action, after, observer) -> lines``: ``before`` is the position the
move was chosen in, ``after`` the position right after it (before any chance event);
``observer`` is the seat reading (``None`` for a spectator, who may see everything)."""


def generic_narrate(before: State, action: int, after: State, observer: int | None) -> list[str]:
    """The move's name, as the observer may know it."""
    if observer is None:
        return [before.action_to_string(action)]
    return [before.action_to_public_string(action, observer)]


def generic_legend(state: State, seat: int | None) -> str:
    return (
        "Type a move's number, its name, or enough words of its name to pick one move\n"
        "(e.g. the last word). 'moves' lists the legal moves, 'board' shows the board,\n"
        "'help' shows this text, 'q' quits."
    )


def no_pictures(state: State, seat: int) -> str:
    return ""


def generic_move_name(state: State, action: int) -> str:
    return state.action_to_string(int(action))


def same_text(state: State, text: str) -> str:
    return text


def no_chance_lines(before: State, after: State, observer: int | None) -> list[str]:
    return []


def never_forgets(game: Any) -> bool:
    return False


@dataclass(frozen=True)
class GameHooks:
    """What a game adds for people.

    Attributes:
        narrate: see :data:`Narrator`.
        legend: ``legend(state, seat) -> text`` shown by ``help``.
        pictures: ``pictures(state, seat) -> text`` shown with the legal moves (e.g. the
            orientations of a piece); ``""`` when there is nothing to draw.
        move_name: ``move_name(state, action) -> text``, the name listed among the legal
            moves and matched against what is typed (default ``action_to_string``).
        narrate_chance: ``narrate_chance(before, after, observer) -> lines`` for the chance
            events (dice, draws) that happened between two positions; none by default.
        aliases: ``aliases(state, text) -> text`` rewrites a typed move into the words of
            a move's name (e.g. ``L 3 B2`` -> ``harvester orientation 3 at B2``).
        forgets: ``forgets(game) -> bool``, whether a seat is meant to forget what it was
            shown (Star Master's memory modes ``"none"`` and ``"decay"``): a terminal then
            clears its scrollback at every redraw (:mod:`moon_agents.play.human.screen`).
    """

    narrate: Narrator = generic_narrate
    legend: Callable[[State, int | None], str] = generic_legend
    pictures: Callable[[State, int], str] = no_pictures
    move_name: Callable[[State, int], str] = generic_move_name
    aliases: Callable[[State, str], str] = same_text
    narrate_chance: Callable[[State, State, int | None], list[str]] = no_chance_lines
    forgets: Callable[[Any], bool] = never_forgets


GENERIC = GameHooks()

_BY_GAME: dict[str, str] = {
    "jupiter": "moon_agents.play.human.jupiter:HOOKS",
    "moonstar": "moon_agents.play.human.moonstar:HOOKS",
    "moon_harvesters": "moon_agents.play.human.moon_harvesters:HOOKS",
    "star_master": "moon_agents.play.human.star_master:HOOKS",
    "moonwakers": "moon_agents.play.human.moonwakers:HOOKS",
}


def register_hooks(game_name: str, path: str) -> None:
    """Use the :class:`GameHooks` at ``"module:ATTRIBUTE"`` for ``game_name``."""
    _BY_GAME[game_name] = path


def hooks_for(game_name: str) -> GameHooks:
    """The hooks of ``game_name`` (``GameSpec.name``); the generic ones when it has none."""
    path = _BY_GAME.get(game_name)
    if path is None:
        return GENERIC
    module, attr = path.split(":")
    hooks: Any = getattr(importlib.import_module(module), attr)
    return hooks


def narrate(before: State, action: int, after: State, observer: int | None) -> list[str]:
    """Lines describing ``action`` taken in ``before`` (see :data:`Narrator`)."""
    return hooks_for(before.game.spec.name).narrate(before, action, after, observer)


def narrate_chance(before: State, after: State, observer: int | None) -> list[str]:
    """Lines describing the chance events between ``before`` and ``after``."""
    return hooks_for(before.game.spec.name).narrate_chance(before, after, observer)
