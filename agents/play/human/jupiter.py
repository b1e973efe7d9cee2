"""Jupiter for people: what each probe and die scores, who starts and what each roll shows.

Moves read ``probe B2: +7 (the 3 on B1, the 4 on C2)`` and ``puts the 5 on C3: player_0 +5
(probe A3), player_1 +5 (probe C1)``; chance is told as it happens: ``player_1 goes
first (drawn at random)``, ``the die shows 5``. With black moons a 3 or 4 counts
negative and a score never drops below 0, so gains are read from the scores themselves.
Jupiter has no hidden information: every seat and a spectator read the same lines.
A probe or die typed on a taken cell is refused naming what holds it (``B2 is occupied
by player_1's probe``).
"""

from __future__ import annotations

from typing import Any

from moon_agents.play.human.cells import occupied, typed_cell
from moon_agents.play.human.hooks import GameHooks


def _seat(state: Any) -> int:
    return int(state.player)


def _dice_in_line(state: Any, cell: int) -> list[str]:
    g = state.game
    return [
        f"the {int(state.die[c])} on {g.cell_name(int(c))}"
        for c in g.line_cells[cell]
        if state.die[c]
    ]


def _probes_in_line(state: Any, cell: int) -> dict[int, list[str]]:
    g = state.game
    out: dict[int, list[str]] = {}
    for c in g.line_cells[cell]:
        seat = int(state.owner[c])
        if seat >= 0:
            out.setdefault(seat, []).append(g.cell_name(int(c)))
    return out


def narrate(before: Any, action: int, after: Any, observer: int | None) -> list[str]:
    g = before.game
    cells = g.num_cells
    a = int(action)
    p = _seat(before)
    if a == g.roll_action:
        left = int(after.dice_left)
        return [f"takes a die to roll ({left} left)"]
    if a < cells:
        gain = int(after.points[p] - before.points[p])
        dice = _dice_in_line(before, a)
        why = f" ({', '.join(dice)})" if dice else " (no die in its row or column)"
        return [f"probe {g.cell_name(a)}: {gain:+d}{why}"]
    cell = a - cells
    face = int(before.rolled)
    probes = _probes_in_line(before, cell)
    gains = [
        f"player_{s} {int(after.points[s] - before.points[s]):+d} "
        f"(probe{'s' if len(where) > 1 else ''} {' '.join(where)})"
        for s, where in sorted(probes.items())
    ]
    value = int(g.face_value[face])
    sign = f" (a black moon: {value})" if value < 0 else ""
    scored = ", ".join(gains) if gains else "no probe in its row or column"
    return [f"puts the {face}{sign} on {g.cell_name(cell)}: {scored}"]


def narrate_chance(before: Any, after: Any, observer: int | None) -> list[str]:
    """The first player's draw and each roll."""
    lines = []
    if before.stage == "start" and after.stage != "start":
        lines.append(f"player_{_seat(after)} goes first (drawn at random)")
    if before.stage == "rolling" and after.stage != "rolling" and after.rolled:
        face = int(after.rolled)
        value = int(after.game.face_value[face])
        note = f" (a black moon: it counts {value})" if value < 0 else ""
        lines.append(f"the die shows {face}{note}")
    return lines


def legend(state: Any, seat: int | None) -> str:
    """``help``: the goal, a turn, how to type moves (at most 15 lines)."""
    g = state.game
    last = f"{'ABCDEF'[g.cols - 1]}{g.rows}"
    black = (
        "\nBlack moons: a 3 or a 4 counts negative; a score never drops below 0."
        if g.config.black_moons
        else ""
    )
    return (
        "Jupiter. Goal: the highest score when every cell is filled.\n"
        "Your turn, one of two: place a probe on an empty cell (it scores the dice now in\n"
        "its row and column), or take a die, roll it and put it on an empty cell (every\n"
        f"probe in its row and column scores the face).{black}\n"
        f"Board: columns A..{'ABCDEF'[g.cols - 1]}, rows 1..{g.rows} (A1 top left, {last} "
        "bottom right);\n"
        "a..d = player_0..3's probes, digits = dice.\n"
        "Type 'B2' or 'probe B2' (a probe), 'roll' (take a die), then 'C3' (its cell).\n"
        "'moves' lists the legal moves, 'board' shows the board, 'q' quits."
    )


def aliases(state: Any, text: str) -> str:
    """A probe or die typed on a cell that holds one (``probe B2``, ``die on B2``, ``B2``)
    is refused naming what holds it: ``B2 is occupied by player_1's probe``; other text is
    left to the generic parser."""
    g = state.game
    cell = typed_cell(text, ("probe", "die on", "die"), g.rows, g.cols)
    if cell is None:
        return text
    occupants = []
    if int(state.owner[cell]) >= 0:
        occupants.append(f"player_{int(state.owner[cell])}'s probe")
    if int(state.die[cell]):
        occupants.append(f"a die showing {int(state.die[cell])}")
    if not occupants:
        return text
    legal = [int(a) for a in state.legal_actions_mask().nonzero()[0]]
    names = {a: state.action_to_string(a) for a in legal}

    def cell_of(a: int) -> int | None:
        return a % g.num_cells if a != g.roll_action else None

    raise occupied(cell, occupants, names, cell_of, g.cols)


HOOKS = GameHooks(narrate=narrate, legend=legend, narrate_chance=narrate_chance, aliases=aliases)
