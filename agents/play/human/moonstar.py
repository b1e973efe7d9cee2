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
    """``help``: the goal, a round, how to type moves (at most 15 lines)."""
    target = state.game.config.target
    return (
        f"Moonstar. Goal: {target} points first (checked at the end of each round).\n"
        "A round: the organizer sets up the planets and moons and the dice are rolled.\n"
        "Auction: bid the total you promise to score with these dice, or pass. The high\n"
        "bidder moves every moon by one die's value; each moon scores by the star it ends\n"
        "on (a 10-planet 10, a 5-planet 5, else 1, unless the Game says otherwise).\n"
        "Made: the bidder gains the bid. Failed: every other player gains 10 and the\n"
        "bidder sits out the next auction.\n"
        "Dice are named by index and face: 'die 4 (face 2)' is die 4 of the dice line.\n"
        "Auction: '45' bids 45, 'pass' (or 'pas'), 'challenge'.\n"
        "Moves: 'moon 3 die 4 cw' or 'moon 3 with a 2 clockwise' (cw, ccw; Game 9 adds\n"
        "'cw x2', 'ccw half'); each listed move shows where the moon lands and scores.\n"
        "Also 'planet on star 4', 'side bet 0.5 of score on made'; '#12' is move 12.\n"
        "'moves' lists the legal moves, 'board' shows the board, 'q' quits."
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
