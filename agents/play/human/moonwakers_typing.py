"""Moonwakers cards typed the way the game prints them.

A move on a card is listed as ``pay with hand card Ice Field:C/C2`` or ``pay with
player_1's mapped card #0 (Ice Field:C/C2)``, while the narration and the ``last:`` line
name the card by its faces: ``player_0 pays with Ice Field:C / C2``. So a card may be
typed by its terrain face, with or without its explored face, after the move's verb or
alone::

    pay with Ice Field:C       pay with Ice Field:C / C2       lose Volcano:H
    Ice Field:C                (when the decision is about cards)

Case and the spaces around ``:`` and ``/`` do not matter. Two cards printed the same way
(same faces, both in hand or both mapped by one seat) are the same move for the person,
and the first is taken; cards that differ (a hand card and a mapped card, say) are listed
to choose from.
"""

from __future__ import annotations

import re
from typing import Any

from moon_agents.play.human.parsing import MoveError

_CARD = re.compile(
    r"(?P<verb>.+?) (?:hand card (?P<hand>.+)"
    r"|player_\d+'s mapped card #\d+ \((?P<mapped>.+)\))"
)


def _plain(text: str) -> str:
    """Lower case, single spaces, none around ``:`` and ``/``."""
    text = re.sub(r"\s*([:/])\s*", r"\1", text.lower())
    return " ".join(text.split())


def card_forms(name: str) -> set[str]:
    """The typed forms of a move on a card (``pay with Ice Field:C``, ``Ice Field:C/C2``,
    ...); none when ``name`` is not a move on a card."""
    m = _CARD.fullmatch(name)
    if m is None:
        return set()
    card = m.group("hand") or m.group("mapped")
    terrain = card.split("/", 1)[0]
    verb = m.group("verb")
    return {_plain(f) for f in (terrain, card, f"{verb} {terrain}", f"{verb} {card}")}


def aliases(state: Any, text: str) -> str:
    """``pay with Ice Field:C`` -> ``#N``, the legal move on that card (see the module
    docstring); other text unchanged. :class:`MoveError` when cards that differ fit."""
    typed = _plain(text)
    legal = [int(a) for a in state.legal_actions_mask().nonzero()[0]]
    fits: dict[str, int] = {}  # the name, mapped cards not numbered -> its first action
    for a in legal:
        name = state.action_to_string(a)
        if typed in card_forms(name):
            fits.setdefault(re.sub(r"#\d+", "#", name), a)
    if not fits:
        return text
    if len(fits) == 1:
        return f"#{next(iter(fits.values()))}"
    shown = [f"{a}: {state.action_to_string(a)}" for a in fits.values()]
    raise MoveError(
        f"{text.strip()!r} fits {len(fits)} cards; type the move's number or its full name",
        shown,
        heading="moves it fits",
    )
