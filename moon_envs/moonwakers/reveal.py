"""The reveal (MAP or EXPLORE) and the storms.

* ``reveal``: clockwise from the initiative player, each placed character's owner MAPs
  (the card goes in front of them, terrain face up; nothing happens) or EXPLOREs (the
  card is flipped for all; it goes to the hand and its explored face counts). An
  explored ACCIDENT is faced at once (:mod:`moon_envs.moonwakers.accidents`).
* Infrared STORM: the face-up COMBINATION cards are replaced by the next ones; the old
  ones go under the combination pile, and a slot the pile could not fill is then filled
  from it. Ionic STORM: every player, clockwise from the explorer, draws the top terrain
  card and explores it (an accident drawn so is faced; a storm drawn so stays in the hand
  and does nothing, ``ionic_storm_draws="inert"``, or acts, ``"act"``). A storm card stays
  in the explorer's hand (it holds no element).
"""

from __future__ import annotations

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.tasks import task


@T.auto("reveal_start")
def reveal_start(s, t) -> None:
    """Each placed seat reveals, clockwise from the initiative player, then the round
    ends (``place_start`` queues the same steps itself)."""
    s.push(*[task("reveal", seat=x) for x in s.order_from(s.initiative)], task("end_round"))


def _reveal_legal(s, t) -> list[int]:
    slot = s.position[t["seat"]]
    if slot < 0 or s.table[slot] < 0:
        return []
    return [A.MAP, A.EXPLORE]


@T.decision("reveal", _reveal_legal)
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
    s.go_public(card)
    explored(s, x, card, storms_act=True)


def explored(s, seat: int, card: int, storms_act: bool) -> None:
    """``seat`` explored ``card`` (already public): it goes to the hand, or an accident
    is faced, or a storm acts (when ``storms_act``)."""
    kind = s.cards.kind_name(card)
    if kind == "accident":
        s.limbo.append(card)
        s.push(task("accident", seat=seat, card=card))
        return
    s.hand[seat].append(card)
    if not storms_act:
        return
    if kind == "infrared_storm":
        slots = range(len(s.combo_up))
        if s.config.infrared_storm_replaces == "two":  # [HOUSE] the first two slots
            slots = range(min(2, len(s.combo_up)))
        s.combo_under.extend(s.combo_up[k] for k in slots if s.combo_up[k] >= 0)
        s.combo_up = [-1 if k in slots else c for k, c in enumerate(s.combo_up)]
        s.push(*[task("combo", slot=k) for k in slots], task("combo_return"))
    elif kind == "ionic_storm":
        s.push(*[task("draw", dest="ionic", seat=y) for y in s.order_from(seat)])


def explored_by_storm(s, seat: int, card: int) -> None:
    """A card an ionic storm made ``seat`` draw and explore (already public)."""
    explored(s, seat, card, storms_act=s.config.ionic_storm_draws == "act")
