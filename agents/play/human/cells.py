"""Typed cells on grid games: which cell a text names, and why a move there is refused.

Jupiter and Moon Harvesters name cells ``A1`` (column letter, row number from 1). When a
person types a move on a cell that holds something (``probe B2`` on another player's
probe), the refusal says what holds it (``B2 is occupied by player_1's probe``) and lists
the legal moves on the cells nearest to it, instead of the generic "names no legal move".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from moon_agents.play.human.parsing import MoveError

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def typed_cell(text: str, prefixes: Sequence[str], rows: int, cols: int) -> int | None:
    """The cell ``text`` names, alone or after one of ``prefixes`` (``"probe"``,
    ``"deposit on"``), case-insensitively: ``"probe b2"`` -> the index of B2 (row-major);
    ``None`` when ``text`` is not of that form or the cell is off the board."""
    heads = "|".join(re.escape(p) for p in sorted(prefixes, key=len, reverse=True))
    m = re.fullmatch(rf"\s*(?:(?:{heads})\s+)?([A-Za-z])(\d+)\s*", text, flags=re.I)
    if m is None:
        return None
    col, row = LETTERS.index(m.group(1).upper()), int(m.group(2)) - 1
    if not (0 <= row < rows and col < cols):
        return None
    return row * cols + col


def cell_name(cell: int, cols: int) -> str:
    r, c = divmod(int(cell), cols)
    return f"{LETTERS[c]}{r + 1}"


def occupied(
    cell: int,
    occupants: Sequence[str],
    names: dict[int, str],
    cell_of: Callable[[int], int | None],
    cols: int,
    nearest: int = 6,
) -> MoveError:
    """The refusal of a move on ``cell``, which ``occupants`` hold (``["player_1's
    probe"]``), with the legal moves (``names``: action -> name) whose cell
    (``cell_of(action)``, ``None`` for a move on no cell) is nearest to it."""
    r, c = divmod(int(cell), cols)

    def distance(action: int) -> tuple[int, int]:
        where = cell_of(action)
        assert where is not None
        rr, cc = divmod(int(where), cols)
        return abs(rr - r) + abs(cc - c), action

    on_cells = sorted((a for a in names if cell_of(a) is not None), key=distance)
    return MoveError(
        f"{cell_name(cell, cols)} is occupied by {' and '.join(occupants)}",
        [f"{a}: {names[a]}" for a in on_cells[:nearest]],
        heading="legal moves on the nearest free cells",
    )
