"""Chance nodes of Moonwakers: card draws, d12 rolls and duels; and the set-up.

* ``draw`` takes a uniformly random card of the shuffled pile; with ``pile="ordered"``,
  once it is empty, the cards put under the pile in their order (one outcome each). When
  both are empty the discard pile is shuffled into the pile first; with nothing left the
  draw is skipped. ``dest`` says where the card goes: ``table`` (face down, a slot),
  ``setup`` (a hand, seen by its owner; under ``setup_hand="redraw"`` an accident or a
  storm is shown and redrawn, i.e. never drawn from a shuffled pile), ``ionic`` (a hand,
  explored publicly; see :mod:`moon_envs.moonwakers.reveal`).
* ``combo`` fills a face-up COMBINATION slot from the combination pile.
* ``character`` deals a random character.
* ``roll`` is a d12 (outcome ``0..11`` is a roll of ``1..12``) for an accident or a duel.
  A duel: every contestant rolls d12 + their round modifier; the highest wins; tied
  leaders roll again. The first player is the winner of such a roll-off between all
  seats at set-up (no modifiers yet).
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import repeat

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.tasks import task

D12 = [(i, 1.0 / 12) for i in range(12)]
BAD_SETUP = ("accident", "infrared_storm", "ionic_storm")


def _uniform(items) -> list[tuple[int, float]]:
    items = sorted(items)
    if not items:
        return []
    return list(zip(items, repeat(1.0 / len(items))))


def _bad_setup(s, card: int) -> bool:
    return s.cards.kind_name(card) in BAD_SETUP


def _draw_outcomes(s, t) -> list[tuple[int, float]]:
    if t["dest"] == "table" and s.table[t["slot"]] >= 0:
        return []  # (never in play: a table slot is drawn only when empty)
    if not s.pile and not s.pile_under and s.discard:  # reshuffled into the terrain pile
        for c in s.discard:
            s.shuffle_in(c)
        s.discard.clear()
    pile = s.pile
    if pile:
        if t["dest"] == "setup" and s.config.setup_hand == "redraw" and s.config.pile != "ordered":
            good = [c for c in pile if not _bad_setup(s, c)]
            if good:
                return _uniform(good)
        return list(zip(pile, repeat(1.0 / len(pile))))  # the pile is kept sorted
    if s.pile_under:
        return [(s.pile_under[0], 1.0)]
    return []


@T.chance("draw", _draw_outcomes)
def apply_draw(s, t, card: int) -> None:
    pile = s.pile
    k = bisect_left(pile, card)
    if k < len(pile) and pile[k] == card:
        del pile[k]
        s.tick += 1
        s.drawn[card] = s.tick
    else:
        s.pile_under.remove(card)  # ordered pile: it keeps who knows it and when it was drawn
    dest = t["dest"]
    if dest == "table":
        s.table[t["slot"]] = card
    elif dest == "setup":
        seat = t["seat"]
        if s.config.setup_hand == "redraw" and _bad_setup(s, card) and _good_left(s):
            s.go_public(card)  # shown, put under the pile, and another card drawn
            s.to_pile(card)
            s.push(task("draw", dest="setup", seat=seat))
            return
        s.hand[seat].append(card)
        s.known[card] |= 1 << seat
    else:  # ionic storm: drawn and explored in public
        from moon_envs.moonwakers.reveal import explored_by_storm

        s.go_public(card)
        explored_by_storm(s, t["seat"], card)


def _good_left(s) -> bool:
    return any(not _bad_setup(s, c) for c in s.pile) or any(
        not _bad_setup(s, c) for c in s.pile_under
    )


@T.chance("combo", lambda s, t: _uniform(s.combo_pile) if s.combo_up[t["slot"]] < 0 else [])
def apply_combo(s, t, combo: int) -> None:
    s.combo_pile.remove(combo)
    s.combo_up[t["slot"]] = combo


@T.auto("combo_return")
def combo_return(s, t) -> None:
    """Cards an infrared storm replaced go under the combination pile; a slot the pile
    could not fill is then filled from it."""
    s.combo_pile.extend(s.combo_under)
    s.combo_under.clear()
    s.push(*[task("combo", slot=k) for k, c in enumerate(s.combo_up) if c < 0])


@T.chance("character", lambda s, t: _uniform(set(range(6)) - set(s.character)))
def apply_character(s, t, char: int) -> None:
    s.character[t["seat"]] = char


@T.auto("setup")
def setup(s, t) -> None:
    n = s.n
    s.push(
        *[task("character", seat=i) for i in range(n)],
        *[task("draw", dest="setup", seat=i) for i in range(n)],
        *[task("combo", slot=k) for k in range(len(s.combo_up))],
        *duel(list(range(n)), task("first_won")),
    )


@T.auto("first_won")
def first_won(s, t) -> None:
    """The highest d12 starts (tied leaders rolled again)."""
    s.initiative = t["winner"]
    s.push(task("round_start", first=True))


# ---- d12 rolls and duels -------------------------------------------------------------------


@T.chance("roll", lambda s, t: D12)
def apply_roll(s, t, outcome: int) -> None:
    seat = t["seat"]
    die = outcome + 1
    total = die + s.modifier(seat)
    s.note_roll(seat, die, total)
    if t["why"] == "duel":
        s.duel_rolls[seat] = total
    else:
        from moon_envs.moonwakers.accidents import accident_roll

        accident_roll(s, t, total)


def duel(seats: list[int], then: dict) -> list[dict]:
    """Tasks that roll a duel between ``seats``; ``then`` (an auto task) receives
    ``winner``."""
    return [
        *[task("roll", seat=x, why="duel") for x in seats],
        task("duel_end", seats=list(seats), then=then),
    ]


@T.auto("duel_end")
def duel_end(s, t) -> None:
    seats = t["seats"]
    best = max(s.duel_rolls[x] for x in seats)
    top = [x for x in seats if s.duel_rolls[x] == best]
    for x in seats:
        s.duel_rolls[x] = -1
    if len(top) > 1:  # tied leaders roll again
        s.push(*duel(top, t["then"]))
        return
    s.push({**t["then"], "winner": top[0]})
