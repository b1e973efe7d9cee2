"""The reveal (MAP or EXPLORE), accidents, storms, and the end of the round.

* ``reveal``: clockwise from the initiative player, each placed character's owner MAPs
  (the card goes in front of them, terrain face up; nothing happens) or EXPLOREs (the
  card is flipped for all; it goes to the hand and its explored face counts).
* An explored ACCIDENT (``accident`` with ``card``) is avoided by a SHELTER or by a d12 +
  modifiers >= 7; then the accident card is kept in hand. A played SHELTER may be
  cancelled by another seat's DEFECTIVE SHELTER, which the victim may block with a SHIELD;
  a cancelled shelter leaves the die roll [HOUSE]. Otherwise the player loses a mapped
  card of their choice (by element, the oldest of it) or, with none, a hand card of their
  choice; both that card and the accident go under the pile.
* Infrared STORM: the face-up COMBINATION cards are replaced by the next ones (the old
  ones go under the combination pile). Ionic STORM: every player, clockwise from the
  explorer, draws the top terrain card and explores it (an accident drawn so is resolved;
  a storm drawn so only goes to the hand [HOUSE]). A storm card stays in the explorer's
  hand (it holds no element).
* ``end_round``: every free table card is flipped; an ACCIDENT there hits every player
  (``accident`` without a card: each avoids it by SHELTER or roll, or loses a card); then
  it goes under the pile, as does any other free card [HOUSE].
"""

from __future__ import annotations

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.config import AVOID_AT
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.tasks import task


@T.auto("reveal_start")
def reveal_start(s, t) -> None:
    order = [x for x in s.order_from(s.initiative) if s.position[x] >= 0]
    s.push(*[task("reveal", seat=x) for x in order], task("end_round"))


@T.decision("reveal", lambda s, t: [A.MAP, A.EXPLORE])
def reveal(s, t, action: int) -> None:
    x = t["seat"]
    slot = s.position[x]
    card = s.table[slot]
    s.table[slot] = -1
    if action == A.MAP:
        s.reveal_choice[x] = 0
        s.mapped[x].append(card)
        return
    s.reveal_choice[x] = 1
    s.known[card] = s.all_seats
    kind = s.cards.kind_name(card)
    if kind == "accident":
        s.limbo.append(card)
        s.push(task("accident", seat=x, card=card))
        return
    s.hand[x].append(card)
    if kind == "infrared_storm":
        s.combo_under.extend(c for c in s.combo_up if c >= 0)
        s.combo_up = [-1] * len(s.combo_up)
        s.push(*[task("combo", slot=k) for k in range(len(s.combo_up))], task("combo_return"))
    elif kind == "ionic_storm":
        s.push(*[task("draw", dest="ionic", seat=y) for y in s.order_from(x)])


def explored_by_storm(s, seat: int, card: int) -> None:
    """A card an ionic storm made ``seat`` draw and explore (already public)."""
    if s.cards.is_kind(card, "accident"):
        s.limbo.append(card)
        s.push(task("accident", seat=seat, card=card))
    else:
        s.hand[seat].append(card)


# ---- accidents ---------------------------------------------------------------------------------


def _accident_legal(s, t) -> list[int]:
    if s.holding(t["seat"], "shelter") >= 0:
        return [A.SHELTER, A.ROLL]
    return [A.ROLL]


@T.decision("accident", _accident_legal)
def accident(s, t, action: int) -> None:
    """Face an accident: give a SHELTER or roll the die."""
    if action == A.ROLL:
        s.push(task("roll", seat=t["seat"], why="accident", card=t["card"]))
        return
    s.spend(t["seat"], "shelter")
    s.shelter_ok = True
    others = s.order_from(t["seat"])[1:]
    s.push(
        *[task("defective", seat=y, victim=t["seat"]) for y in others],
        task("shelter_end", seat=t["seat"], card=t["card"]),
    )


def _defective_legal(s, t) -> list[int]:
    if not s.shelter_ok:
        return []
    return s.window(t["seat"], "defective_shelter", A.DEFECTIVE)


@T.decision("defective", _defective_legal)
def defective(s, t, action: int) -> None:
    if action == A.DEFECTIVE:
        s.spend(t["seat"], "defective_shelter")
        s.shelter_ok = False
        s.push(task("shield_defective", seat=t["victim"]))


def _shield_defective_legal(s, t) -> list[int]:
    if s.shelter_ok:
        return []
    return s.window(t["seat"], "shield", A.SHIELD)


@T.decision("shield_defective", _shield_defective_legal)
def shield_defective(s, t, action: int) -> None:
    if action == A.SHIELD:
        s.spend(t["seat"], "shield")
        s.shelter_ok = True


@T.auto("shelter_end")
def shelter_end(s, t) -> None:
    if s.shelter_ok:
        _avoided(s, t["seat"], t["card"])
    else:
        s.push(task("roll", seat=t["seat"], why="accident", card=t["card"]))
    s.shelter_ok = False


def _avoided(s, seat: int, card: int) -> None:
    if card >= 0:  # an explored accident avoided is kept in hand
        s.limbo.remove(card)
        s.hand[seat].append(card)


def accident_roll(s, t, total: int) -> None:
    """The d12 against an accident (called by the ``roll`` chance node)."""
    seat, card = t["seat"], t["card"]
    if total >= AVOID_AT:
        _avoided(s, seat, card)
        return
    if card >= 0:
        s.limbo.remove(card)
        s.to_pile(card)
    s.push(task("loss", seat=seat))


def _loss_legal(s, t) -> list[int]:
    x = t["seat"]
    if s.mapped[x]:
        elements = {int(s.cards.terrain_element[c]) for c in s.mapped[x]}
        return [A.LOSE_MAPPED + e for e in sorted(elements)]
    return [A.HAND + c for c in sorted(s.hand[x])]


@T.decision("loss", _loss_legal)
def loss(s, t, action: int) -> None:
    """The loser gives up a card of their choice; it goes under the pile."""
    x = t["seat"]
    if action >= A.HAND:
        card = action - A.HAND
        s.hand[x].remove(card)
    else:
        card = mapped_of(s, x, action - A.LOSE_MAPPED)
        s.mapped[x].remove(card)
    s.to_pile(card)


def mapped_of(s, seat: int, element: int) -> int:
    """The oldest mapped card of ``seat`` whose terrain face shows ``element``."""
    for c in s.mapped[seat]:
        if s.cards.terrain_element[c] == element:
            return c
    raise ValueError(f"seat {seat} has no mapped card of element {element}")


# ---- end of round ---------------------------------------------------------------------------


@T.auto("end_round")
def end_round(s, t) -> None:
    hits = 0
    for k, card in enumerate(s.table):
        if card < 0:
            continue
        s.table[k] = -1
        if s.cards.is_kind(card, "accident"):
            hits += 1
        s.to_pile(card)
    order = s.order_from(s.initiative)
    s.push(
        *[task("accident", seat=x, card=-1) for _ in range(hits) for x in order],
        task("claims_start"),
    )
