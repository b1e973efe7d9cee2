"""A Moonwakers stalemate: no card can come into play and nobody can pay a COMBINATION card.

With 5-6 players every terrain card can end up mapped or in a hand. Then the pile, the
cards put under it and the discard pile are empty, no card is laid on the table, and
rounds only ask for SCAN / PROTECTION and a claim that must pass. When, on top of that,
nobody can pay any face-up COMBINATION card and nobody holds a LABO (the one card that
could still move a card, and that goes under the pile once played), nothing can change
any more: no card moves, the face-up COMBINATION cards stay (only a purchase or an
infrared storm replaces them), so nobody can ever score again. :func:`stalemated` tests
exactly that, from what is on the table at the end of a round.

The rule book does not say what happens then; the game runs on to ``max_rounds``.
[HOUSE] ``end_when_stalemated=True`` ends it at the end of the first stalemated round
instead (the points, hence the winners and the rewards, are those the round cap would
give). The default, ``False``, keeps the round cap.
"""

from __future__ import annotations

STALEMATE_TEXT = "no terrain card left to draw and nobody can pay a COMBINATION card"
"""Why nobody can act in a stalemate, in words (the text view and the narration)."""


def stalemated(s) -> bool:
    """Whether nobody can ever score again (see the module docstring): no card left to draw
    or on the table, no LABO in any hand, and nobody able to pay a face-up COMBINATION."""
    if s.pile or s.pile_under or s.discard or s.limbo:
        return False
    if any(c >= 0 for c in s.table):
        return False
    if any(s.holding(x, "labo") >= 0 for x in range(s.n)):
        return False
    slots = [k for k, c in enumerate(s.combo_up) if c >= 0]
    for x in range(s.n):
        have = s.packed_resources(x)
        if any(s.can_afford(x, k, have) for k in slots):
            return False
    return True
