"""Moonstar for people: where each moon lands and what it scores, end-of-round reports.

A move reads ``moon 3 on star 5, die 2 (face 4), clockwise -> star 9: +10``; the end of
every round is announced from the round report the rules publish in ``State.info()``
(the bid, the total, made or failed, every seat's points gained and lost, side bets and
challenges settled, who is excluded from the next auction). Game 12's menu entries name
their Games. Everything here is public: sealed side bets stay sealed until settled.

Only public attributes of the position are read (``moon_star``, ``dice``, ``round_total``,
``phase``, ``info()``, ``game.decode_move`` and the action blocks); the star a moon lands
on is computed here from its start, the die face and the direction.
"""

from __future__ import annotations

from typing import Any

from agents.human.hooks import GameHooks, generic_narrate

DIRECTIONS = {
    "cw": "clockwise",
    "ccw": "counterclockwise",
    "cw x2": "clockwise, twice the die",
    "ccw half": "counterclockwise, half the die",
}
DIRECTION_ORDER = ("cw", "ccw", "cw x2", "ccw half")
NUM_STARS = 12


def displacement(face: int, direction: int) -> int:
    """Signed number of stars a die ``face`` moves a moon in ``direction`` (the order of
    :data:`DIRECTION_ORDER`: clockwise, counterclockwise, twice clockwise, half
    counterclockwise rounded down)."""
    return (face, -face, 2 * face, -(face // 2))[direction]


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
    end = (start + displacement(face, k)) % NUM_STARS
    report = after.info().get("round_report")
    if report is not None and report != before.info().get("round_report"):
        total = int(report.get("achieved", after.round_total))
    else:
        total = int(after.round_total)
    gained = total - int(before.round_total)
    direction = DIRECTIONS.get(DIRECTION_ORDER[k], str(k)) if k < len(DIRECTION_ORDER) else k
    return f"moon {m} on star {start}, die {d} (face {face}), {direction} -> star {end}: +{gained}"


def round_report_lines(report: dict[str, Any], n: int) -> list[str]:
    """The end of a round, in words."""
    changes = report.get("score_changes", [0] * n)
    if report.get("no_bid"):
        o = report["organizer"]
        return [
            f"== round {report.get('round', '?')}: nobody bid; player_{o} (organizer) "
            f"{changes[o]:+d}, the stars are set up again"
        ]
    b = report["bidder"]
    made = "MADE" if report["made"] else "FAILED"
    lines = [
        f"== round {report.get('round', '?')} over: player_{b} bid {report['bid']}, "
        f"scored {report['achieved']}: {made}"
    ]
    best = report.get("best_total")
    if best is not None:
        lines.append(f"   best possible total was {best}")
    challengers = report.get("challengers") or []
    if challengers:
        lines.append("   challenged by " + ", ".join(f"player_{c}" for c in challengers))
    bets = report.get("side_bets") or []
    settled = [f"player_{s} {v:+d}" for s, v in enumerate(bets) if v]
    if settled:
        lines.append("   side bets settled: " + ", ".join(settled))
    lines.append(
        "   points: " + ", ".join(f"player_{s} {int(c):+d}" for s, c in enumerate(changes))
    )
    if not report["made"]:
        lines.append(f"   player_{b} is excluded from the next auction")
    return lines


def narrate(before: Any, action: int, after: Any, observer: int | None) -> list[str]:
    if _is_move(before, action):
        lines = [describe_move(before, action, after)]
    elif _is_menu(before, action):
        lines = [menu_entry_name(before, int(action) - before.game.a_menu)]
    else:
        lines = generic_narrate(before, action, after, observer)
    report = after.info().get("round_report")
    if report and report != before.info().get("round_report"):
        lines += round_report_lines(report, before.game.n)
    if after.phase == "over" and before.phase != "over":
        lines.append("== game over")
    return lines


def move_name(state: Any, action: int) -> str:
    """The name shown in the list of legal moves (moves show where the moon lands)."""
    if _is_move(state, action):
        after = state.clone()
        after.apply_action(int(action))
        return describe_move(state, action, after)
    if _is_menu(state, action):
        return menu_entry_name(state, int(action) - state.game.a_menu)
    return state.action_to_string(int(action))


def legend(state: Any, seat: int | None) -> str:
    return (
        "Moonstar. Moves: 'bid 35', 'pass', 'challenge', 'planet on star 4',\n"
        "'moon 3 die 2 cw' (or 'clockwise' / 'counterclockwise'), 'side bet 0.5 of score on\n"
        "made'. Dice are named by index and face: 'die 2 (face 4)'. Each move shows where\n"
        "the moon lands and what it scores. Type a number, a name, or enough words of it;\n"
        "'moves' lists the legal moves, 'board' the board, 'q' quits."
    )


def narrate_chance(before: Any, after: Any, observer: int | None) -> list[str]:
    """A new roll, named by its faces: ``dice rolled: 1 2 2 4 5 6 6``."""
    faces = [int(f) for f in after.dice if f]
    if faces and faces != [int(f) for f in before.dice if f]:
        return ["dice rolled: " + " ".join(map(str, faces))]
    return []


HOOKS = GameHooks(
    narrate=narrate, legend=legend, move_name=move_name, narrate_chance=narrate_chance
)
