"""Accidents: SHELTER, DEFECTIVE SHELTER, the d12, losses; and the end of the round.

* An explored ACCIDENT (``accident`` with its ``card``) is avoided by a SHELTER or by a
  d12 + modifiers >= 7; then the accident card is kept in hand. A played SHELTER may be
  cancelled by another seat's DEFECTIVE SHELTER, which the victim may block with a SHIELD;
  a cancelled shelter leaves the die (``cancelled_shelter="roll"``) or the accident hits
  (``"loss"``). Otherwise the player loses a mapped card of their choice or, with none, a
  hand card of their choice; both that card and the accident go under the pile.
* ``end_round``: the free table card is flipped for all to see (it stays face up on the
  table until the next round's cards are laid out, when it goes under the pile; no card
  is drawn in between). An ACCIDENT there hits every player: all choose at once, sealed,
  SHELTER or the die (``respond``); then, clockwise, each SHELTER is played (and may be
  cancelled) and each die is rolled.
"""

from __future__ import annotations

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.config import AVOID_AT
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.state import ROLL_RESPONSE, SHELTER_RESPONSE
from moon_envs.moonwakers.tasks import task


def _accident_legal(s, t) -> list[int]:
    if s.holding(t["seat"], "shelter") >= 0:
        return [A.SHELTER, A.ROLL]
    return [A.ROLL]


@T.decision("accident", _accident_legal)
def accident(s, t, action: int) -> None:
    """Face an explored accident: give a SHELTER or roll the die."""
    if action == A.ROLL:
        s.push(task("roll", seat=t["seat"], why="accident", card=t["card"]))
    else:
        play_shelter(s, t["seat"], t["card"])


def play_shelter(s, seat: int, card: int) -> None:
    s.spend(seat, "shelter")
    s.shelter_ok = True
    s.push(
        *[task("defective", seat=y, victim=seat) for y in s.order_from(seat)[1:]],
        task("shelter_end", seat=seat, card=card),
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
    ok, s.shelter_ok = s.shelter_ok, False
    if ok:
        _avoided(s, t["seat"], t["card"])
    elif s.config.cancelled_shelter == "roll":
        s.push(task("roll", seat=t["seat"], why="accident", card=t["card"]))
    else:
        _hit(s, t["seat"], t["card"])


def _avoided(s, seat: int, card: int) -> None:
    if card >= 0:  # an explored accident avoided is kept in hand
        s.limbo.remove(card)
        s.hand[seat].append(card)


def _hit(s, seat: int, card: int) -> None:
    if card >= 0:
        s.limbo.remove(card)
        s.to_pile(card)
    s.push(task("loss", seat=seat))


def accident_roll(s, t, total: int) -> None:
    """The d12 against an accident (called by the ``roll`` chance node)."""
    if total >= AVOID_AT:
        _avoided(s, t["seat"], t["card"])
    else:
        _hit(s, t["seat"], t["card"])


def _loss_legal(s, t) -> list[int]:
    x = t["seat"]
    if s.mapped[x]:
        return s.mapped_choices(x, x)
    return [s.layout.HAND + c for c in sorted(s.hand[x])]


@T.decision("loss", _loss_legal)
def loss(s, t, action: int) -> None:
    """The loser gives up a card of their choice; it goes under the pile."""
    x = t["seat"]
    hand0 = s.layout.HAND
    if action >= hand0:
        card = action - hand0
        s.hand[x].remove(card)
    else:
        card = s.mapped[x].pop(s.layout.split_mapped(action)[1])
    s.to_pile(card)


# ---- end of round ---------------------------------------------------------------------------


@T.auto("end_round")
def end_round(s, t) -> None:
    hits = []
    for card in s.table:
        if card >= 0:
            s.go_public(card)
            if s.cards.is_kind(card, "accident"):
                hits.append(card)
    order = s.order_from(s.initiative)
    out = []
    for _ in hits:
        out += [
            task("responses_start"),
            *[task("respond", seat=x) for x in order],
            task("responses_reveal"),
        ]
    s.push(*out, task("claims_start"))


@T.auto("responses_start")
def responses_start(s, t) -> None:
    s.responses = [-1] * s.n
    s.responses_public = False


@T.decision("respond", _accident_legal)
def respond(s, t, action: int) -> None:
    """Against the free card's accident: SHELTER or the die, sealed until all chose."""
    s.responses[t["seat"]] = SHELTER_RESPONSE if action == A.SHELTER else ROLL_RESPONSE


@T.auto("responses_reveal")
def responses_reveal(s, t) -> None:
    s.responses_public = True
    s.push(*[task("response_go", seat=x) for x in s.order_from(s.initiative)])


@T.auto("response_go")
def response_go(s, t) -> None:
    x = t["seat"]
    if s.responses[x] == SHELTER_RESPONSE and s.holding(x, "shelter") >= 0:
        play_shelter(s, x, -1)
    else:
        s.push(task("roll", seat=x, why="accident", card=-1))
