"""Words for a Star Master position: action names, the last move, and the text views.

The spectator's view (``player=None``) shows the true layout; a seat's view shows only what
that seat is shown (its memory and its window of recent events, see ``env.py``) and the
last flip and race only while its info does. No view shows a sealed race choice before
every seat has chosen: only how many have chosen.
"""

from __future__ import annotations

import numpy as np

from moon_envs.star_master.config import COLOUR_NAMES, STAR
from moon_envs.star_master.phases import DRAW, FLIP, NAME, PHASE_NAMES, RACE, SWAP
from moon_envs.star_master.position import StarMasterPosition


def colour_name(c: int) -> str:
    """``"red"``... for a colour, ``"?"`` for unknown (-1)."""
    return COLOUR_NAMES[c] if c >= 0 else "?"


def action_name(state: StarMasterPosition, a: int) -> str:
    """Name of action ``a`` in ``state``'s phase (``"flip slot 3"``, ``"grab slot 3"``...)."""
    race = state.phase == RACE
    ids = state.game.actions
    k = ids.k
    if 0 <= a < k:
        return f"{'grab' if race else 'flip'} slot {a}"
    if ids.swap0 <= a < ids.swap0 + k:
        return f"swap with slot {a - ids.swap0}"
    if ids.name0 <= a < ids.name0 + k:
        return f"name {COLOUR_NAMES[a - ids.name0]}"
    if a == ids.pass_:
        return "abstain" if race else "pass"
    raise ValueError(f"action {a} is out of range; allowed: 0..{ids.pass_}")


def seat_board(state: StarMasterPosition, player: int | None) -> np.ndarray:
    """The colour per slot as ``player`` is shown it (-1 unknown): its memory, else its
    window; the true layout for the spectator (``None``)."""
    if player is None:
        return state.layout
    memory = state.memory[player]
    return np.where(memory >= 0, memory, state.win_map[player])


def dice_text(state: StarMasterPosition) -> str:
    """``"white red, black star"`` (empty between turns)."""
    if state.white < 0:
        return ""
    white = "star" if state.white == STAR else COLOUR_NAMES[state.white]
    if state.game.config.children:
        return f"white {white}"
    return f"white {white}, black {'star' if state.black_star else 'blank'}"


def _shows(state: StarMasterPosition, player: int | None) -> tuple[bool, bool]:
    """Whether ``player`` is shown the last flip and the last race (its info's rule)."""
    if player is None:
        return True, True
    flip, race = state.in_window[player].tolist()
    return bool(flip), bool(race)


def flip_text(state: StarMasterPosition) -> str:
    """The last flip: ``"slot 3: red, found"`` (or ``"a miss"``)."""
    _, slot, colour, found = state.last_flip.tolist()
    return f"slot {slot}: {COLOUR_NAMES[colour]}, {'found' if found else 'a miss'}"


def race_text(state: StarMasterPosition) -> str:
    """The last race's revealed choices: ``"player_0 grabs slot 3, player_1 abstains"``."""
    return ", ".join(
        f"player_{s} grabs slot {c}" if c >= 0 else f"player_{s} abstains"
        for s, c in enumerate(state.last_race.tolist())
    )


def last_move_text(state: StarMasterPosition, player: int | None = None) -> str:
    """The last decision as ``player`` may know it (``"p0 flips slot 3: red, found"``,
    ``"p1 chose, sealed"`` for a race choice before every seat has chosen)."""
    seat, a, phase = state.last_seat, state.last_action, state.last_phase
    if seat < 0:
        return "new game"
    flip_shown, race_shown = _shows(state, player)
    who = f"p{seat}"
    ids = state.game.actions
    if phase == NAME:
        return f"{who} names {COLOUR_NAMES[a - ids.name0]}"
    if phase == SWAP:
        return f"{who} swaps slots {state.last_flip[1]} and {a - ids.swap0}"
    if phase == FLIP:
        if a == ids.pass_:
            return f"{who} passes"
        if flip_shown:
            return f"{who} flips {flip_text(state)}"
        return f"{who} flips slot {a}"
    if phase == RACE:
        if state.phase == RACE:
            return f"{who} chose, sealed"
        if not race_shown:
            return "race over"
        grabbers = [s for s, c in enumerate(state.last_race.tolist()) if c >= 0]
        if not grabbers:
            return "race: nobody grabs"
        if state.phase == DRAW:
            return "race: a draw among " + ", ".join(f"p{s}" for s in grabbers)
        winner = int(state.last_flip[0])
        if flip_shown and winner in grabbers and state.last_race[winner] == state.last_flip[1]:
            return f"race won by p{winner}: {flip_text(state)}"
        return "race over"
    return "new game"


def text_view(state: StarMasterPosition, player: int | None) -> str:
    n = state.game.num_players
    title = (
        "Star Master (spectator)" if player is None else f"Star Master, as seen by player_{player}"
    )
    board = seat_board(state, player)
    lines = [
        f"{title}: turn {state.turn}/{state.game.config.turn_cap}, roller player_{state.roller}"
    ]
    lines.append("slots: " + " ".join(f"{s}:{colour_name(int(c))}" for s, c in enumerate(board)))
    if state.white >= 0:
        lines.append(f"dice: {dice_text(state)}")
    lines.append(f"phase: {PHASE_NAMES[state.phase]}")
    if state.target >= 0:
        lines.append(f"sought colour: {COLOUR_NAMES[state.target]}")
    if state.phase == RACE:
        lines.append(f"race: {state.race_next} of {n} have chosen (sealed)")
    flip_shown, race_shown = _shows(state, player)
    if flip_shown and state.last_flip[0] >= 0:
        lines.append(f"last flip: player_{state.last_flip[0]} flipped {flip_text(state)}")
    if race_shown and state.last_race[0] != -2:
        lines.append(f"last race: {race_text(state)}")
    for p in range(n):
        held = [COLOUR_NAMES[c] for c in np.flatnonzero(state.pawns[p])]
        lines.append(f"player_{p}: {len(held)} colours {', '.join(held) or '-'}")
    if state.is_terminal():
        won = state.winners()
        lines.append("winner: " + (", ".join(f"player_{w}" for w in won) if won else "nobody"))
    return "\n".join(lines)
