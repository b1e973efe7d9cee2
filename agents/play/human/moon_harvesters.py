"""Moon Harvesters for people: placements by kind, orientation and anchor, with pictures.

A placement is listed as ``harvester L orientation 3 at B2 covering B2 C2 B3 B4 B5``;
type ``L 3 B2`` (kind, orientation, anchor: the top-left corner of the orientation's
picture), ``3 B2``, or the covered cells in any order (``B2 B3 B4 B5 C2``). Deposits
and craters are typed by cell name (``B12``). While placing, the seat's kind is drawn
in every orientation it may take. A refused move says what is in the way:
``'L 3 B2': orientation 3 with its anchor on B2 does not fit here: C2 is occupied by
player_1's harvester``, ``B4 is occupied by a deposit``.
"""

from __future__ import annotations

import re
from typing import Any

from moon_agents.play.human.cells import occupied, typed_cell
from moon_agents.play.human.hooks import GameHooks, generic_narrate
from moon_agents.play.human.parsing import MoveError


def _placement(state: Any, action: int) -> tuple[int, int, int] | None:
    """``(kind, slot, anchor)`` of a placement action, else ``None``."""
    g = state.game
    a = int(action)
    if not g.place_base <= a < g.deposit_base:
        return None
    slot, anchor = divmod(a - g.place_base, g.num_cells)
    return int(state.kind_of[state.current_player()]), slot, anchor


def covered_cells(state: Any, action: int) -> list[str]:
    """Names of the cells a placement action covers."""
    kind, slot, anchor = _placement(state, action)  # type: ignore[misc]
    g = state.game
    cells = g.fp.cells[kind][slot * g.num_cells + anchor]
    return [g.cell_name(int(c)) for c in cells]


def move_name(state: Any, action: int) -> str:
    place = _placement(state, action)
    if place is None:
        return state.action_to_string(int(action))
    kind, slot, anchor = place
    g = state.game
    cells = " ".join(covered_cells(state, action))
    return (
        f"harvester {g.kinds[kind].name} orientation {slot} at {g.cell_name(anchor)} "
        f"covering {cells}"
    )


def narrate(before: Any, action: int, after: Any, observer: int | None) -> list[str]:
    """A placement with the deposits it collects (covered deposits leave the board)."""
    if _placement(before, action) is not None:
        seat = before.current_player()
        gain = int(after.collected[seat] - before.collected[seat])
        return [f"{move_name(before, action)}: collects {gain} deposit{'' if gain == 1 else 's'}"]
    return generic_narrate(before, action, after, observer)


def orientation_pictures(state: Any, seat: int) -> str:
    """The seat's kind in each orientation, side by side, ``#`` filled and ``+`` the
    anchor when it is filled (``o`` when the anchor corner is empty)."""
    g = state.game
    if state.phase != "place" or state.kind_of[seat] < 0:
        return ""
    shape = g.kinds[int(state.kind_of[seat])]
    blocks = []
    for slot in range(len(shape.orientations)):
        rows = [list(r) for r in shape.pattern(slot).split("/")]
        rows[0][0] = "+" if rows[0][0] == "#" else "o"
        width = max(len(r) for r in rows)
        blocks.append([f"{slot}".ljust(width)] + ["".join(r).ljust(width) for r in rows])
    height = max(len(b) for b in blocks)
    lines = [f"your harvester {shape.name}, orientations (+/o = anchor corner):"]
    for i in range(height):
        lines.append(
            "  " + "   ".join((b[i] if i < len(b) else " " * len(b[0])) for b in blocks).rstrip()
        )
    return "\n".join(lines)


def aliases(state: Any, text: str) -> str:
    """``[KIND] ORIENTATION ANCHOR`` or the covered cells in any order -> the placement's
    name; other text unchanged."""
    if state.phase != "place":
        _refuse_occupied(state, text)
        return text
    m = re.fullmatch(r"(?:(\w+)\s+)?(\d+)\s+([A-Za-z]\d+)", text.strip())
    if m:
        return _by_orientation(state, text.strip(), m.group(1), int(m.group(2)), m.group(3))
    typed = {w.upper() for w in text.replace(",", " ").split()}
    if len(typed) < 2:
        return text
    legal = [int(a) for a in state.legal_actions_mask().nonzero()[0]]
    for a in legal:
        if _placement(state, a) is not None and set(covered_cells(state, a)) == typed:
            return move_name(state, a)
    return text


def _by_orientation(state: Any, typed: str, kind: str | None, slot: int, anchor: str) -> str:
    """``[KIND] ORIENTATION ANCHOR`` -> the placement's name, or a :class:`MoveError`
    saying why it is not a legal placement (another kind, no such orientation or cell,
    or it does not fit there) with the placements nearest to it."""
    g = state.game
    k = int(state.kind_of[state.current_player()])
    shape = g.kinds[k]
    if kind is not None and kind.upper() != shape.name.upper():
        if not any(kind.upper() == other.name.upper() for other in g.kinds):
            return typed  # not a kind at all: left to the generic parser
        raise MoveError(f"{typed!r}: your harvester is {shape.name}, not {kind.upper()}")
    count = len(shape.orientations)
    if slot >= count:
        raise MoveError(f"{typed!r}: your harvester {shape.name} has orientations 0..{count - 1}")
    names = [g.cell_name(c) for c in range(g.num_cells)]
    if anchor.upper() not in names:
        raise MoveError(f"{typed!r}: no cell {anchor.upper()} on this board (A1..{names[-1]})")
    cell = names.index(anchor.upper())
    action = g.place_base + slot * g.num_cells + cell
    legal = [int(a) for a in state.legal_actions_mask().nonzero()[0]]
    if action in legal:
        return move_name(state, action)
    places = {a: p for a in legal if (p := _placement(state, a)) is not None}
    same = [a for a, p in places.items() if p[1] == slot] or list(places)
    near = sorted(same, key=lambda a: abs(places[a][2] - cell))[:6]
    raise MoveError(
        f"{typed!r}: orientation {slot} with its anchor on {anchor.upper()} does not fit "
        f"here: {_why_not(state, shape.orientations[slot], cell)}",
        [f"{a}: {move_name(state, a)}" for a in near],
        heading="placements that fit",
    )


def holders(state: Any, cell: int, crater_blocks: bool = True) -> list[str]:
    """What occupies ``cell``: ``["player_1's harvester"]``, ``["a crater", "a deposit"]``
    (a crater only when ``crater_blocks``)."""
    owner = int(state.owner[cell])
    found = [f"player_{owner}'s harvester"] if owner >= 0 else []
    if state.crater[cell] and crater_blocks:
        found.append("a crater")
    if state.deposit[cell]:
        found.append("a deposit")
    return found


def _why_not(state: Any, cells: tuple[tuple[int, int], ...], anchor: int) -> str:
    """Why an orientation's ``cells`` with their top-left corner on ``anchor`` do not fit:
    ``C2 and C3 are occupied by player_1's harvester, it would leave the board (A1..F6)``."""
    g = state.game
    r0, c0 = divmod(anchor, g.cols)
    by_holder: dict[str, list[str]] = {}  # what is in the way -> the cells it holds
    for r, c in cells:
        if r0 + r >= g.rows or c0 + c >= g.cols:
            continue
        cell = (r0 + r) * g.cols + c0 + c
        blocking = [h for h in holders(state, cell, g.config.craters_block) if h != "a deposit"]
        if blocking:
            by_holder.setdefault(" and ".join(blocking), []).append(g.cell_name(cell))
    reasons = []
    for holder, names in by_holder.items():
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        reasons.append(f"{listed} {'is' if len(names) == 1 else 'are'} occupied by {holder}")
    if any(r0 + r >= g.rows or c0 + c >= g.cols for r, c in cells):
        last = g.cell_name(g.num_cells - 1)
        reasons.append(f"it would leave the board (A1..{last})")
    return ", ".join(reasons) or "no such placement"


def _refuse_occupied(state: Any, text: str) -> None:
    """A crater or deposit typed on a cell that holds something (``deposit on C4``,
    ``C4``) is refused naming what: ``C4 is occupied by player_1's harvester``."""
    g = state.game
    if state.phase == "deposits":
        base, crater_blocks = g.deposit_base, g.config.craters_block_deposits
    elif state.phase == "craters":
        base, crater_blocks = g.crater_base, True
    else:
        return
    cell = typed_cell(text, ("deposit on", "deposit", "crater on", "crater"), g.rows, g.cols)
    legal = [int(a) for a in state.legal_actions_mask().nonzero()[0]]
    if cell is None or base + cell in legal:
        return
    found = holders(state, cell, crater_blocks)
    if state.phase == "craters":
        found = [h for h in found if h == "a crater"]
    if found:
        names = {a: state.action_to_string(a) for a in legal}
        on_cell = {a: a - base for a in legal if base <= a < base + g.num_cells}
        raise occupied(cell, found, names, on_cell.get, g.cols)


def legend(state: Any, seat: int | None) -> str:
    """``help``: the goal, a turn, how to type moves (at most 15 lines)."""
    g = state.game
    due = g.config.deposits_per_turn
    return (
        "Moon Harvesters. Goal: collect the most deposits (a tie: fewer pieces placed).\n"
        "First an auction: each player takes a harvester kind (theirs for the game) or a\n"
        "crater; the craters taken go on the board, then the opening deposits.\n"
        "Your turn: place one of your harvesters inside the grid (turned or mirrored at\n"
        "will), not over a harvester or a crater; it collects the deposits it covers.\n"
        f"Then put {due} deposits on free cells. The game ends when nobody can place.\n"
        f"Board: columns A..{g.cell_name(g.num_cells - 1)[0]}, rows 1..{g.rows}; "
        "a..d = harvesters, O crater, * deposit.\n"
        "Type 'take harvester kind L', 'take a crater', 'crater on C4', 'deposit on B4'\n"
        "(or 'B4'); a placement as kind, orientation and anchor, 'L 3 B2' (the anchor is\n"
        "the top-left corner of the orientation's picture) or its cells 'B2 B3 B4 B5 C2'.\n"
        "'moves' lists the legal moves, 'board' shows the board, 'q' quits."
    )


HOOKS = GameHooks(
    narrate=narrate,
    legend=legend,
    pictures=orientation_pictures,
    move_name=move_name,
    aliases=aliases,
)
