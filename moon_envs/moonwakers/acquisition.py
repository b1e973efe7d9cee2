"""Phase 3, acquisition, LABO, and the end of the round and of the game.

* ``claim`` [HOUSE]: clockwise from the initiative player, each seat claims one face-up
  COMBINATION it can afford, or passes. Claims are sealed until all have claimed. Before
  claiming, a seat holding LABO may play it: it explores another player's (or its own)
  mapped card into its hand, with no accident (the card is flipped for all).
* ``settle``: slot by slot, a claim still affordable wins the card; two or more claims on
  one card are settled by a d12 duel (modifiers apply, tied leaders re-roll); the losers
  get nothing this round.
* ``pay``: the winner pays card by card (a masked sequential choice): a mapped card (by
  element, the oldest) or a hand card that gives at least one element still needed; no
  change for overpaying. Paid cards go to the discard pile (public). The slot is refilled.
* ``round_over``: the game ends when a player holds the target points (24 / 22 / 20 for
  2 / 3 / 4+ players), after ``max_rounds`` rounds [HOUSE], or when no COMBINATION card
  is left; otherwise the next round starts.
"""

from __future__ import annotations

import numpy as np

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.config import NUM_ELEMENTS
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.draws import duel
from moon_envs.moonwakers.reveal import mapped_of
from moon_envs.moonwakers.tasks import task


@T.auto("claims_start")
def claims_start(s, t) -> None:
    s.claims = [-2] * s.n
    s.push(*[task("claim", seat=x) for x in s.order_from(s.initiative)], task("claims_reveal"))


def labo_targets(s, seat: int) -> list[int]:
    """LABO actions open to ``seat``: (seat offset, element) of every mapped card."""
    if s.holding(seat, "labo") < 0:
        return []
    n = s.n
    out = []
    for off in range(n):
        elements = {int(s.cards.terrain_element[c]) for c in s.mapped[(seat + off) % n]}
        out += [A.LABO + off * NUM_ELEMENTS + e for e in sorted(elements)]
    return out


def _claim_legal(s, t) -> list[int]:
    x = t["seat"]
    have = s.resources(x)
    out = [A.PASS, *[A.CLAIM + k for k in range(len(s.combo_up)) if s.can_afford(x, k, have)]]
    return out + labo_targets(s, x)


@T.decision("claim", _claim_legal)
def claim(s, t, action: int) -> None:
    x = t["seat"]
    if action >= A.LABO:
        off, element = divmod(action - A.LABO, NUM_ELEMENTS)
        owner = (x + off) % s.n
        s.spend(x, "labo")
        card = mapped_of(s, owner, element)
        s.mapped[owner].remove(card)
        s.hand[x].append(card)
        s.known[card] = s.all_seats
        s.push(task("claim", seat=x))
        return
    s.claims[x] = -1 if action == A.PASS else action - A.CLAIM


@T.auto("claims_reveal")
def claims_reveal(s, t) -> None:
    s.claims_public = True
    order = s.order_from(s.initiative)
    s.push(
        *[
            task("settle", slot=k, seats=[x for x in order if s.claims[x] == k])
            for k in range(len(s.combo_up))
        ],
        task("round_over"),
    )


@T.auto("settle")
def settle(s, t) -> None:
    seats = [x for x in t["seats"] if s.can_afford(x, t["slot"])]
    if len(seats) == 1:
        s.push(task("pay_start", seat=seats[0], slot=t["slot"]))
    elif len(seats) > 1:
        s.push(*duel(seats, task("duel_won", slot=t["slot"])))


@T.auto("duel_won")
def duel_won(s, t) -> None:
    s.push(task("pay_start", seat=t["winner"], slot=t["slot"]))


@T.auto("pay_start")
def pay_start(s, t) -> None:
    s.pay_need = [int(v) for v in s.cards.combo_cost[s.combo_up[t["slot"]]]]
    s.push(task("pay", seat=t["seat"], slot=t["slot"]))


def _pay_legal(s, t) -> list[int]:
    x = t["seat"]
    need = s.pay_need
    element_of, gives = s.cards.element_of, s.cards.gives
    out = sorted({A.PAY_MAPPED + element_of[c] for c in s.mapped[x] if need[element_of[c]]})
    out += [A.HAND + c for c in sorted(s.hand[x]) if any(g and v for g, v in zip(gives[c], need))]
    return out


@T.decision("pay", _pay_legal)
def pay(s, t, action: int) -> None:
    x = t["seat"]
    if action >= A.HAND:
        card = action - A.HAND
        s.hand[x].remove(card)
        gives = s.cards.explored_elements[card]
    else:
        element = action - A.PAY_MAPPED
        card = mapped_of(s, x, element)
        s.mapped[x].remove(card)
        gives = np.eye(NUM_ELEMENTS, dtype=np.int64)[element]
    s.discard.append(card)
    s.known[card] = s.all_seats
    s.pay_need = [max(0, int(a) - int(b)) for a, b in zip(s.pay_need, gives)]
    if any(s.pay_need):
        s.push(task("pay", seat=x, slot=t["slot"]))
        return
    slot = t["slot"]
    s.bought[x].append(s.combo_up[slot])
    s.combo_up[slot] = -1
    s.push(task("combo", slot=slot))


@T.auto("round_over")
def round_over(s, t) -> None:
    reached = any(s.points(x) >= s.target for x in range(s.n))
    no_combos = not s.combo_pile and all(c < 0 for c in s.combo_up)
    if reached or no_combos or s.round >= s.game.config.max_rounds:
        s.tasks.clear()
        return
    s.push(task("round_start"))
