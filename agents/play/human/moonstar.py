"""Moonstar for people: where each moon lands and what it scores, end-of-round reports.

A move reads ``moon 3 on star 5, die 2 (face 4), clockwise -> star 9: +10``; the end of
every round is announced from the round report the rules publish in ``State.info()``
(the bid, the total, made or failed, every seat's points gained and lost, side bets and
challenges settled, who is excluded from the next auction). Game 12's menu entries name
their Games. Everything here is public: sealed side bets stay sealed until settled.

Only public attributes of the position are read (``moon_star``, ``dice``, ``round_total``,
``phase``, ``info()``, ``game.decode_move`` and the action blocks); the star a moon lands
on is computed here from its start, the die face and the direction under the round's
movement (the rules' own ``displacement``): see :mod:`moon_agents.play.human.moonstar_moves`.
Typed moves: :mod:`moon_agents.play.human.moonstar_typing`.
"""

from __future__ import annotations

from typing import Any

from moon_agents.play.human.hooks import GameHooks, generic_narrate
from moon_agents.play.human.moonstar_moves import (
    _is_menu,
    _is_move,
    describe_move,
    menu_entry_name,
    move_name,
)
from moon_agents.play.human.moonstar_typing import aliases


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


def legend(state: Any, seat: int | None) -> str:
    return (
        "Moonstar. Dice are named by index and face everywhere: 'die 4 (face 2)' is the die\n"
        "at index 4 of the board's dice line (counted from 0), showing 2.\n"
        "Moves: 'moon 3 die 4 cw' or 'moon 3 with a 2 clockwise' (directions cw, ccw,\n"
        "clockwise, counterclockwise; Game 9 adds 'cw x2', 'ccw half' or 'ccw x2'); each move\n"
        "listed shows where the moon lands and what it scores.\n"
        "Auction: a number is a bid amount ('45' bids 45), or 'pass', 'challenge'.\n"
        "Also 'planet on star 4', 'side bet 0.5 of score on made'; '#12' is move number 12.\n"
        "Type a name or enough words of it; 'moves' lists the legal moves, 'board' the\n"
        "board, 'q' quits."
    )


def pictures(state: Any, seat: int) -> str:
    """A reminder shown with the legal moves of the auction: numbers are bid amounts."""
    if state.phase != "auction":
        return ""
    return "auction: type a bid amount ('45' bids 45), 'pass', or '#N' for move number N"


def narrate_chance(before: Any, after: Any, observer: int | None) -> list[str]:
    """The first organizer's draw and each new roll, named by its faces:
    ``dice rolled: 1 2 2 4 5 6 6``."""
    lines = []
    if before.phase == "first" and after.phase != "first":
        lines.append(f"player_{int(after.organizer)} organizes the first round (drawn by a roll)")
    faces = [int(f) for f in after.dice if f]
    if faces and faces != [int(f) for f in before.dice if f]:
        lines.append("dice rolled: " + " ".join(map(str, faces)))
    return lines


HOOKS = GameHooks(
    narrate=narrate,
    legend=legend,
    pictures=pictures,
    move_name=move_name,
    aliases=aliases,
    narrate_chance=narrate_chance,
)
