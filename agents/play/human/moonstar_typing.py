"""Moonstar moves as people type them, mapped straight to the legal move they mean.

Moon moves (the play phase), in the words of the legend::

    moon 3 die 4 cw            die 4 = the die at index 4 of the board's dice line (from 0)
    moon 3 with die 4 (face 2) ccw
    moon 3 face 2 clockwise    a die showing 2 (any unused one: equal faces move alike)
    moon 3 with a 2 cw x2      Game 9: cw x2 (or twice, double), ccw half, ccw x2

Directions: ``cw``/``clockwise``, ``ccw``/``counterclockwise``/``anticlockwise``, and with
Game 9's movements ``x2`` or ``half`` after them, as the round's movement allows.

The auction: a bare number is a bid amount (``45`` bids 45, like ``bid 45``), never a
move number; ``#N`` is move number ``N`` everywhere. A bid or move that is not legal is
refused with the reason and the nearest legal moves; other text is left to the generic
parser (:mod:`moon_agents.play.human.parsing`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from moon_agents.play.human.moonstar_moves import move_name
from moon_agents.play.human.parsing import MoveError, words
from moon_envs.moonstar.constants import direction_name
from moon_envs.moonstar.solver import num_directions
from moon_envs.moonstar.variants import MAX_BID, MIN_BID

MODIFIERS = {"x2": "x2", "2x": "x2", "twice": "x2", "double": "x2", "half": "half"}


def _legal(state: Any) -> list[int]:
    return [int(a) for a in np.flatnonzero(state.legal_actions_mask())]


def _named(state: Any, actions: list[int], limit: int = 6) -> list[str]:
    return [f"{a}: {move_name(state, a)}" for a in actions[:limit]]


def _direction(state: Any, tokens: list[str]) -> int:
    """The direction index ``tokens`` (``["cw"]``, ``["ccw", "half"]``) name this round."""
    movement = state.rules.movement
    allowed = [direction_name(k, movement) for k in range(num_directions(movement))]
    typed = " ".join([tokens[0], *(MODIFIERS.get(t, t) for t in tokens[1:])])
    if typed not in allowed:
        raise MoveError(
            f"{' '.join(tokens)!r} is not a direction this round (movement {movement}); "
            f"allowed: {', '.join(allowed)}"
        )
    return allowed.index(typed)


def _split_move(tokens: list[str]) -> tuple[int, str, int, int | None, list[str]] | None:
    """``moon M [with] (die D [face F] | [a|face] F) DIR...`` -> (M, "die"|"face", D or F,
    the face given beside a die or None, direction words); None when it is not that form."""
    if len(tokens) < 4 or tokens[0] != "moon" or not tokens[1].isdigit():
        return None
    moon, rest = int(tokens[1]), tokens[2:]
    if rest[:1] == ["with"]:
        rest = rest[1:]
    if len(rest) >= 3 and rest[0] == "die" and rest[1].isdigit():
        face = None
        if len(rest) >= 4 and rest[2] == "face" and rest[3].isdigit():
            face, rest = int(rest[3]), rest[:2] + rest[4:]
        by, value, direction = "die", int(rest[1]), rest[2:]
    elif len(rest) >= 3 and rest[0] in ("a", "face") and rest[1].isdigit():
        by, value, face, direction = "face", int(rest[1]), None, rest[2:]
    else:
        return None
    if not direction or direction[0] not in ("cw", "ccw"):
        return None
    return moon, by, value, face, direction


def moon_move(state: Any, text: str) -> int | None:
    """The legal move action ``text`` names in the play phase; None when ``text`` is not
    a moon move; :class:`MoveError` with the reason when it names an illegal one."""
    parts = _split_move(words(text))
    if parts is None:
        return None
    moon, by, value, face_given, direction_words = parts
    g = state.game
    k = _direction(state, direction_words)
    dice = [int(f) for f in state.dice[: g.max_dice]]
    moves = [a for a in _legal(state) if a >= g.a_move]

    def near(wanted_face: int | None = None) -> list[str]:
        """Legal moves of this moon first, then those with the face asked for, then any."""
        of_moon = [a for a in moves if g.decode_move(a)[0] == moon]
        of_face = [a for a in moves if dice[g.decode_move(a)[1]] == wanted_face]
        ranked = list(dict.fromkeys([*of_moon, *of_face, *moves]))
        return _named(state, ranked)

    on_board = [m for m in range(g.max_moons) if state.moon_star[m] >= 0]
    if moon not in on_board:
        raise MoveError(f"there is no moon {moon}; moons on the board: {on_board}", near(value))
    if state.moon_moved[moon]:
        raise MoveError(f"moon {moon} has already moved this round", near(value))
    unused = [f for d, f in enumerate(dice) if f and not state.die_used[d]]
    if by == "die":
        if not 0 <= value < len(dice) or not dice[value]:
            shown = ", ".join(f"die {d} (face {f})" for d, f in enumerate(dice) if f)
            raise MoveError(f"there is no die {value}; the dice: {shown}", near())
        if state.die_used[value]:
            raise MoveError(f"die {value} (face {dice[value]}) is already used", near())
        face = dice[value]
        if face_given is not None and face_given != face:
            raise MoveError(f"die {value} shows {face}, not {face_given}", near(face_given))
    else:
        face = value
        if face not in unused:
            raise MoveError(
                f"no unused die shows {face}; unused faces: {sorted(set(unused))}", near()
            )
    fits = [
        a
        for a in moves
        if (lambda m, d, kk: m == moon and kk == k and dice[d] == face)(*g.decode_move(a))
    ]
    if fits:
        return fits[0]  # dice of one face move alike: the rules offer the first unused one
    raise MoveError(f"{text.strip()!r} is not a legal move here", near(face))


def bid(state: Any, text: str) -> int | None:
    """In the auction, ``45`` or ``bid 45`` -> the bid's action; None for other text;
    :class:`MoveError` when that bid is not allowed."""
    tokens = words(text)
    if tokens[:1] == ["bid"]:
        tokens = tokens[1:]
    if len(tokens) != 1 or not tokens[0].isdigit():
        return None
    amount = int(tokens[0])
    legal = set(_legal(state))
    bids = [b for b in range(MIN_BID, MAX_BID + 1) if state.game.bid_action(b) in legal]
    if MIN_BID <= amount <= MAX_BID and amount in bids:
        return state.game.bid_action(amount)
    if not bids:
        why = "you may not bid now"
    elif MIN_BID <= amount <= MAX_BID:
        why = f"a bid must be above the high bid {state.high_bid}" if state.high_bid else ""
    else:
        why = f"bids go from {MIN_BID} to {MAX_BID}"
    allowed = f"legal bids: {bids[0]}..{bids[-1]}" if bids else "'pass'"
    raise MoveError(
        f"a bid of {amount} is not allowed ({'; '.join(x for x in (why, allowed) if x)}); "
        "in the auction a number is a bid amount, '#N' is move number N"
    )


def aliases(state: Any, text: str) -> str:
    """Typed Moonstar text -> the name of the legal move it means (``#N``); other text
    unchanged (see the module docstring)."""
    if state.phase == "play":
        action = moon_move(state, text)
    elif state.phase == "auction":
        action = bid(state, text)
    else:
        action = None
    return text if action is None else f"#{action}"
