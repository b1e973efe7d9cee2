"""Moonstar's moves in words: where a moon lands and what it scores, menu entries.

``moon 3 on star 5, die 2 (face 4), clockwise -> star 9: +10``. Shared by the narration
(:mod:`moon_agents.play.human.moonstar`) and the typed-move parser
(:mod:`moon_agents.play.human.moonstar_typing`), which names the nearest legal moves.
"""

from __future__ import annotations

from typing import Any

from moon_envs.moonstar.constants import direction_name
from moon_envs.moonstar.solver import displacement
from moon_envs.moonstar.variants import NUM_STARS

DIRECTIONS = {
    "cw": "clockwise",
    "ccw": "counterclockwise",
    "cw x2": "clockwise, twice the die",
    "ccw half": "counterclockwise, half the die",
    "ccw x2": "counterclockwise, twice the die",
}


def direction_words(state: Any, direction: int) -> str:
    """Direction ``direction`` of the round's movement in words (``clockwise``)."""
    short = direction_name(direction, state.rules.movement)
    return DIRECTIONS.get(short, short)


def _is_move(state: Any, action: int) -> bool:
    g = state.game
    return g.a_move <= int(action) < g.spec.num_actions


def _is_menu(state: Any, action: int) -> bool:
    g = state.game
    return g.a_menu <= int(action) < g.a_bet


def menu_entry_name(state: Any, index: int) -> str:
    """``"rules: menu entry 2 = Game 7"``, or the entry's rule settings when not a Game."""
    entry = state.game.config.dealer_menu[index]
    if isinstance(entry, int):
        return f"rules: menu entry {index} = Game {entry}"
    if isinstance(entry, dict):
        what = ", ".join(f"{k}={v}" for k, v in entry.items())
    else:  # a resolved mapping stored as pairs
        what = ", ".join(f"{k}={v}" for k, v in dict(entry).items())
    return f"rules: menu entry {index} = {what}"


def describe_move(before: Any, action: int, after: Any) -> str:
    """``moon 3 on star 5, die 2 (face 4), clockwise -> star 9: +10``."""
    m, d, k = before.game.decode_move(int(action))
    start = int(before.moon_star[m])
    face = int(before.dice[d])
    # the round may have ended with this move and the board been cleared: compute the star
    end = (start + displacement(face, k, before.rules.movement)) % NUM_STARS
    report = after.info().get("round_report")
    if report is not None and report != before.info().get("round_report"):
        total = int(report.get("achieved", after.round_total))
    else:
        total = int(after.round_total)
    gained = total - int(before.round_total)
    direction = direction_words(before, k)
    return f"moon {m} on star {start}, die {d} (face {face}), {direction} -> star {end}: +{gained}"


def move_name(state: Any, action: int) -> str:
    """The name shown in the list of legal moves (moves show where the moon lands)."""
    if _is_move(state, action):
        after = state.clone()
        after.apply_action(int(action))
        return describe_move(state, action, after)
    if _is_menu(state, action):
        return menu_entry_name(state, int(action) - state.game.a_menu)
    return state.action_to_string(int(action))
