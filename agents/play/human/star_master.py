"""Star Master for people: the dice, every flip (hit or miss), swaps, and races told as a
seat may know them.

A flip reads ``flips slot 3: red, found: gains red`` or ``flips slot 3: orange, a miss``;
a roll ``turn 4: player_1 rolls white red, black star: a race for red``; a race choice
is ``makes a sealed race choice`` for every other seat until all have chosen, then the
choices are revealed (``race: player_0 grabs slot 3, player_1 abstains``) with the
winner's flip. Everything told is public at the table; nothing here reads a colour the
observer is not shown, except the flips everyone sees. In the list of legal moves a slot
is named with the colour the seat's own view shows there (``flip slot 3 (shown: red)``).
"""

from __future__ import annotations

from typing import Any

from moon_agents.play.human.hooks import GameHooks
from moon_envs.star_master.config import COLOUR_NAMES, STAR
from moon_envs.star_master.rules import DRAW, FLIP, NAME, RACE, SWAP
from moon_envs.star_master.text import action_name, dice_text, race_text, seat_board


def _flip_result(before: Any, after: Any, seat: int) -> str:
    """``slot 3: red, found: gains red`` for the flip that led from ``before`` to ``after``."""
    _, slot, colour, found = after.last_flip.tolist()
    name = COLOUR_NAMES[colour]
    text = f"slot {slot}: {name}"
    if found:
        text += ", found"
        if after.pawns[seat, colour] > before.pawns[seat, colour]:
            text += f": gains {name}"
        else:
            text += " (already held)"
    else:
        text += ", a miss"
        lost = [
            COLOUR_NAMES[c]
            for c in range(after.game.k)
            if before.pawns[seat, c] > after.pawns[seat, c]
        ]
        if lost:
            text += f": loses {', '.join(lost)}"
    return text


def _ending(before: Any, after: Any) -> list[str]:
    if not after.is_terminal() or before.is_terminal():
        return []
    won = after.winners()
    if not won:
        return [f"== game over at the turn cap ({after.turn} turns): nobody wins"]
    held = int(after.held[won[0]])
    who = ", ".join(f"player_{w}" for w in won)
    return [f"== game over: {who} wins with {held} colours"]


def _race_lines(before: Any, action: int, after: Any, observer: int | None) -> list[str]:
    seat = before.current_player()
    own = action_name(before, action)
    if after.phase == RACE:  # still sealed for the others
        if observer is None or observer == seat:
            return [f"{own} (sealed)"]
        return ["makes a sealed race choice"]
    lines = [own, "race: " + race_text(after)]
    grabbers = [s for s, c in enumerate(after.last_race.tolist()) if c >= 0]
    if not grabbers:
        lines.append("nobody grabbed: the dice pass on")
    elif after.phase == DRAW:
        who = ", ".join(f"player_{s}" for s in grabbers)
        lines.append(f"{who} grabbed: a draw picks the fastest hand")
    else:
        winner = int(after.last_flip[0])
        lines.append(f"player_{winner} wins the race: {_flip_result(before, after, winner)}")
    return lines


def narrate(before: Any, action: int, after: Any, observer: int | None) -> list[str]:
    """What the move shows the observer (every Star Master move is public but a sealed
    race choice)."""
    a = int(action)
    phase = before.phase
    seat = before.current_player()
    ids = before.game.actions
    if phase == RACE:
        lines = _race_lines(before, a, after, observer)
    elif phase == NAME:
        lines = [f"names {COLOUR_NAMES[a - ids.name0]}"]
    elif phase == SWAP:
        lines = [f"swaps slot {before.found_slot} with slot {a - ids.swap0}"]
    elif phase == FLIP and a == ids.pass_:
        lines = [f"passes (holds {COLOUR_NAMES[before.target]})"]
    elif phase == FLIP:
        lines = [f"flips {_flip_result(before, after, seat)}"]
    else:
        lines = [action_name(before, a)]
    return lines + _ending(before, after)


def _roll_line(state: Any) -> str:
    dice = dice_text(state)
    roller = f"player_{state.roller}"
    if state.white == STAR:
        meaning = f"{roller} names a colour they lack, then flips"
    elif state.black_star:
        meaning = f"a race for {COLOUR_NAMES[state.white]}: every seat grabs a slot or abstains"
    else:
        meaning = f"{roller} looks for {COLOUR_NAMES[state.white]}"
    return f"turn {state.turn}: {roller} rolls {dice}: {meaning}"


def narrate_chance(before: Any, after: Any, observer: int | None) -> list[str]:
    """The race's draw and the new roll between ``before`` (right after a move) and
    ``after`` (the next decision)."""
    lines = []
    if before.phase == DRAW:
        winner = int(after.last_flip[0])
        lines.append(
            f"the draw gives the race to player_{winner}: {_flip_result(before, after, winner)}"
        )
        lines += _ending(before, after)
    if after.turn > before.turn and after.white >= 0:
        lines.append(_roll_line(after))
    return lines


def move_name(state: Any, action: int) -> str:
    """The move's name, with the colour the mover's own view shows at the slot."""
    a = int(action)
    name = action_name(state, a)
    seat = state.current_player()
    if seat < 0:
        return name
    board = seat_board(state, seat)
    ids = state.game.actions
    k = ids.k
    slot = a if a < k else a - ids.swap0 if ids.swap0 <= a < ids.swap0 + k else -1
    if slot >= 0 and board[slot] >= 0:
        return f"{name} (shown: {COLOUR_NAMES[int(board[slot])]})"
    if ids.name0 <= a < ids.name0 + k:
        where = [s for s in range(k) if board[s] == a - ids.name0]
        if where:
            return f"{name} (shown at slot {where[0]})"
    return name


def _slot_rows(k: int) -> str:
    """``"three rows: 0 1 2 / 3 4 5 / 6 7 8"`` for ``k`` slots, three a row."""
    rows = [" ".join(str(s) for s in range(r, min(r + 3, k))) for r in range(0, k, 3)]
    count = {2: "two", 3: "three"}[len(rows)]
    return f"{count} rows: {' / '.join(rows)}"


def legend(state: Any, seat: int | None) -> str:
    """``help``: the goal, a turn, how to type moves (at most 15 lines)."""
    k = state.game.k
    return (
        "Star Master. Goal: be the first to hold 6 colours (a pawn of each of 6 colours).\n"
        "A turn: the roller rolls the dice. A colour: flip a slot to find that colour's\n"
        "cube (found: take its pawn, then swap the cube with another slot; missed: the\n"
        "cube goes back), or pass if you hold the colour. A star on the white die: name\n"
        "a colour you lack, then flip. A star on the black die: a race, every seat grabs\n"
        "a slot or abstains (sealed), and the fastest grabber flips.\n"
        f"Slots are numbered 0-{k - 1} ({_slot_rows(k)}); '?' marks a slot\n"
        "your view does not show: remember what you saw!\n"
        "Type 'flip 3'; 'grab 3' or 'abstain' in a race; 'swap 5' after a find;\n"
        "'name red' (or 'red') on a star; 'pass' (or 'pas') when you hold the colour.\n"
        "'moves' lists the legal moves, 'board' shows your view, 'q' quits."
    )


def forgets(game: Any) -> bool:
    """A seat forgets the layout unless ``memory="perfect"``: its first view shows the whole
    layout, later views only what its memory and window keep."""
    return game.config.memory != "perfect"


HOOKS = GameHooks(
    narrate=narrate,
    legend=legend,
    move_name=move_name,
    narrate_chance=narrate_chance,
    forgets=forgets,
)
