"""Chance nodes of Moonwakers: card draws, d12 rolls and duels; and the set-up.

* ``draw`` takes a uniformly random card of the terrain pile (the discard pile is shuffled
  into it first when it is empty; with both empty the draw is skipped). ``dest`` says
  where it goes: ``table`` (face down, a slot), ``setup`` (a hand, seen by its owner;
  accidents and storms are redrawn, i.e. never drawn), ``ionic`` (a hand, explored
  publicly; see :mod:`moon_envs.moonwakers.reveal`).
* ``combo`` fills a face-up COMBINATION slot from the combination pile.
* ``character`` deals a random character; ``first`` picks the first player (the highest
  d12 of a roll-off with re-rolled ties picks every seat with probability 1/n).
* ``roll`` is a d12 (outcome ``0..11`` is a roll of ``1..12``) for an accident or a duel.
  A duel: every contestant rolls d12 + their round modifier; the highest wins; tied
  leaders roll again.
"""

from __future__ import annotations

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.tasks import task

D12 = [(i, 1.0 / 12) for i in range(12)]


def _uniform(items) -> list[tuple[int, float]]:
    items = sorted(items)
    return [(c, 1.0 / len(items)) for c in items] if items else []


def _draw_outcomes(s, t) -> list[tuple[int, float]]:
    if not s.pile and s.discard:  # the discard pile is reshuffled into the terrain pile
        for c in s.discard:
            s.to_pile(c)
        s.discard.clear()
    if t["dest"] == "setup":
        bad = ("accident", "infrared_storm", "ionic_storm")
        return _uniform(c for c in s.pile if s.cards.kind_name(c) not in bad)
    return _uniform(s.pile)


@T.chance("draw", _draw_outcomes)
def apply_draw(s, t, card: int) -> None:
    s.pile.remove(card)
    dest = t["dest"]
    if dest == "table":
        s.table[t["slot"]] = card
        s.known[card] = 0
    elif dest == "setup":
        s.hand[t["seat"]].append(card)
        s.known[card] = 1 << t["seat"]
    else:  # ionic storm: drawn and explored in public
        from moon_envs.moonwakers.reveal import explored_by_storm

        s.known[card] = s.all_seats
        explored_by_storm(s, t["seat"], card)


@T.chance("combo", lambda s, t: _uniform(s.combo_pile))
def apply_combo(s, t, combo: int) -> None:
    s.combo_pile.remove(combo)
    s.combo_up[t["slot"]] = combo


@T.auto("combo_return")
def combo_return(s, t) -> None:
    """Cards an infrared storm replaced go under the combination pile."""
    s.combo_pile.extend(s.combo_under)
    s.combo_under.clear()


@T.chance("character", lambda s, t: _uniform(set(range(6)) - set(s.character)))
def apply_character(s, t, char: int) -> None:
    s.character[t["seat"]] = char


@T.chance("first", lambda s, t: _uniform(range(s.n)))
def apply_first(s, t, seat: int) -> None:
    s.initiative = seat


@T.auto("setup")
def setup(s, t) -> None:
    n = s.n
    s.push(
        *[task("character", seat=i) for i in range(n)],
        *[task("draw", dest="setup", seat=i) for i in range(n)],
        *[task("combo", slot=k) for k in range(len(s.combo_up))],
        task("first"),
        task("round_start", first=True),
    )


# ---- d12 rolls and duels -------------------------------------------------------------------


@T.chance("roll", lambda s, t: D12)
def apply_roll(s, t, outcome: int) -> None:
    seat = t["seat"]
    die = outcome + 1
    total = die + s.modifier(seat)
    s.last_rolls.append([seat, die, total])
    if t["why"] == "duel":
        s.duel_rolls[seat] = total
    else:
        from moon_envs.moonwakers.reveal import accident_roll

        accident_roll(s, t, total)


def duel(seats: list[int], then: dict) -> list[dict]:
    """Tasks that roll a duel between ``seats``; ``then`` (an auto task) receives
    ``winner``."""
    return [
        *[task("roll", seat=x, why="duel") for x in seats],
        task("duel_end", seats=seats, then=then),
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
