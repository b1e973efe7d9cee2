"""Typed moves: a number, a move's name, or a few words of it; nearest moves on a miss.

Every game names its moves with ``State.action_to_string``. A person may type the action
number (``12``, or ``#12`` where a game reads bare numbers otherwise, as Moonstar's
auction reads bid amounts), the whole name (``probe B2``, ``bid 35``, ``pass``) or just
enough words of it to pick one legal move: its first words, its last words (``B2``) or
some of its words in order (``side bet 0.5 made``), tried in that order. Words are
compared case-insensitively, and a few synonyms are understood (``clockwise`` = ``cw``,
and the French rule books' ``pas`` / ``passe`` = ``pass``).
When nothing matches, the error lists the legal moves whose names are nearest to what
was typed. A game's ``aliases`` hook may first rewrite what was typed (see
:mod:`moon_agents.play.human.hooks`).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

SYNONYMS = {
    "clockwise": "cw",
    "counterclockwise": "ccw",
    "counter-clockwise": "ccw",
    "anticlockwise": "ccw",
    "anti-clockwise": "ccw",
    "pas": "pass",  # the French rule books' word ("je passe")
    "passe": "pass",
}


class MoveError(ValueError):
    """Typed text that names no single legal move; ``suggestions`` are the nearest ones."""

    def __init__(
        self, message: str, suggestions: Sequence[str] = (), heading: str = "nearest legal moves"
    ) -> None:
        super().__init__(message)
        self.suggestions = list(suggestions)
        self.heading = heading


def words(text: str) -> list[str]:
    """The lower-case words of ``text``, brackets and commas dropped, synonyms mapped."""
    cleaned = text.lower().replace(",", " ").replace("(", " ").replace(")", " ")
    return [SYNONYMS.get(w, w) for w in cleaned.split()]


def parse_move(text: str, names: dict[int, str], nearest: int = 6) -> int:
    """The legal action ``text`` names, given ``names`` (legal action -> its name).

    Raises :class:`MoveError` naming the problem and the nearest legal moves.
    """
    typed = text.strip()
    if not typed:
        raise MoveError("empty move")
    if typed.lstrip("-").isdigit() or (typed[:1] == "#" and typed[1:].isdigit()):
        action = int(typed.lstrip("#"))
        if action in names:
            return action
        raise MoveError(
            f"{action} is not a legal move number here",
            _nearest_numbers(action, names, nearest),
        )
    want = words(typed)
    n = len(want)
    tiers = (
        lambda w: w == want,  # the whole name
        lambda w: w[:n] == want,  # its first words
        lambda w: w[-n:] == want,  # its last words (``B2`` for ``probe B2``)
        lambda w: _contains_in_order(w, want),  # some of its words, in order
    )
    for fits in tiers:
        found = [a for a, name in names.items() if fits(words(name))]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            shown = [f"{a}: {names[a]}" for a in found[:nearest]]
            if len(found) > nearest:
                shown.append(f"... and {len(found) - nearest} more ('moves' lists them all)")
            raise MoveError(
                f"{typed!r} fits {len(found)} legal moves; be more precise",
                shown,
                heading="moves it fits",
            )
    by_name = {name.lower(): a for a, name in names.items()}
    close = difflib.get_close_matches(typed.lower(), list(by_name), n=nearest, cutoff=0.0)
    raise MoveError(
        f"{typed!r} names no legal move", [f"{by_name[c]}: {names[by_name[c]]}" for c in close]
    )


def _contains_in_order(name_words: list[str], want: list[str]) -> bool:
    """Whether every typed word appears among the name's words, in the same order."""
    it = iter(name_words)
    return all(any(w == x for x in it) for w in want)


def _nearest_numbers(action: int, names: dict[int, str], k: int) -> list[str]:
    near = sorted(names, key=lambda a: (abs(a - action), a))[:k]
    return [f"{a}: {names[a]}" for a in sorted(near)]
