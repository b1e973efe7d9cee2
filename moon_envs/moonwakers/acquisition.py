"""Phase 3, acquisition, LABO, and the end of the round and of the game.

* ``claim``: clockwise from the initiative player, each seat with purchases left this
  round claims one face-up COMBINATION it can afford, or passes. Claims are sealed until
  all have claimed (``claims="sealed"``) or seen as made (``"open"``). Before claiming, a
  seat holding LABO may play it: it explores a mapped card of its choice, another
  player's or its own, into its hand, with no accident and no storm (the card is flipped
  for all; no SHIELD answers a LABO).
* ``settle``: slot by slot, a claim still affordable wins the card; two or more claims on
  one card are settled by a d12 duel (modifiers apply, tied leaders re-roll); the losers
  get nothing this turn.
* ``pay``: the winner pays card by card (a masked sequential choice): a mapped card or a
  hand card that gives at least one element still needed; no change for overpaying. Paid
  cards go to the discard pile (public). The slot is refilled. While someone bought and
  ``purchases_per_round`` allows, another claim turn follows.
* ``round_over``: at the end of the round in which a player holds the target points
  (24 / 22 / 20 for 2 / 3 / 4+ players) the game ends (``game_end="automatic"``), or
  each such player, clockwise, may end it or play on (``"choice"``). It also ends when no
  COMBINATION card is left, after ``max_rounds`` rounds (a safety cap) and, with
  ``end_when_stalemated``, once nobody can ever score again
  (:mod:`~moon_envs.moonwakers.stalemate`).
"""

from __future__ import annotations

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.config import ActionLayout as A
from moon_envs.moonwakers.draws import duel
from moon_envs.moonwakers.stalemate import stalemated
from moon_envs.moonwakers.tasks import task


@T.auto("claims_start")
def claims_start(s, t) -> None:
    s.claims = [-2] * s.n
    s.claims_public = s.config.claims == "open"
    s.claim_turns += 1
    limit = s.config.purchases_per_round
    bought = s.bought_round
    s.push(
        *[{"t": "claim", "seat": x} for x in s.order_from(s.initiative) if bought[x] < limit],
        {"t": "claims_reveal", "before": sum(bought)},
    )


def labo_targets(s, seat: int) -> list[int]:
    """LABO actions open to ``seat``: every mapped card of every seat (itself too)."""
    if s.holding(seat, "labo") < 0:
        return []
    out = []
    for off in range(s.n):
        out += s.mapped_choices(seat, (seat + off) % s.n)
    return out


def _claim_legal(s, t) -> list[int]:
    x = t["seat"]
    have = s.packed_resources(x)
    out = [A.PASS]
    for k in range(len(s.combo_up)):
        if s.can_afford(x, k, have):
            out.append(A.CLAIM + k)
    if s.hand[x]:
        out += labo_targets(s, x)
    return out


@T.decision("claim", _claim_legal)
def claim(s, t, action: int) -> None:
    x = t["seat"]
    if action >= A.MAPPED:
        off, i = s.layout.split_mapped(action)
        s.spend(x, "labo")
        card = s.mapped[(x + off) % s.n].pop(i)
        s.hand[x].append(card)
        s.go_public(card)
        s.push(task("claim", seat=x))
        return
    if action == A.PASS:
        s.claims[x] = -1
        return
    slot = action - A.CLAIM
    s.claims[x] = slot
    cost = s.cards.cost_of[s.combo_up[slot]]
    public = s.public_resources(x)
    s.claim_need[x] = [max(0, c - p) for c, p in zip(cost, public)]
    if s.claims_public:
        note_claim(s, x)


def note_claim(s, x: int) -> None:
    """Everyone now knows that ``x`` could pay its claim: its unseen cards held what its
    seen ones lacked."""
    s.floor[x] = [max(a, b) for a, b in zip(s.floor[x], s.claim_need[x])]


@T.auto("claims_reveal")
def claims_reveal(s, t) -> None:
    if not s.claims_public:
        s.claims_public = True
        for x in range(s.n):
            if s.claims[x] >= 0:
                note_claim(s, x)
    order = s.order_from(s.initiative)
    claims = s.claims
    settle = []
    for k in range(len(s.combo_up)):
        seats = [x for x in order if claims[x] == k]
        if seats:
            settle.append(task("settle", slot=k, seats=seats))
    s.push(*settle, task("claims_end", before=t["before"]))


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
    if not s.can_afford(t["seat"], t["slot"]):
        return
    s.pay_need = list(s.cards.cost_of[s.combo_up[t["slot"]]])
    s.push(task("pay", seat=t["seat"], slot=t["slot"]))


def _pay_legal(s, t) -> list[int]:
    x = t["seat"]
    need = s.pay_need
    element_of, gives = s.cards.element_of, s.cards.gives_sparse
    base = s.layout.MAPPED
    out = [base + i for i, c in enumerate(s.mapped[x]) if need[element_of[c]]]
    hand0 = s.layout.HAND
    out += [hand0 + c for c in sorted(s.hand[x]) if any(need[e] for e, _ in gives[c])]
    if not out and any(need):
        raise RuntimeError(
            f"player {x} owes {need} for a COMBINATION card but holds nothing that pays it "
            "(a position the rules cannot reach)"
        )
    return out


@T.decision("pay", _pay_legal)
def pay(s, t, action: int) -> None:
    x = t["seat"]
    hand0 = s.layout.HAND
    need = s.pay_need
    if action >= hand0:
        card = action - hand0
        s.hand[x].remove(card)
        for e, v in s.cards.gives_sparse[card]:
            need[e] = max(0, need[e] - v)
    else:
        card = s.mapped[x].pop(action - A.MAPPED)
        e = s.cards.element_of[card]
        need[e] = max(0, need[e] - 1)
    s.discard.append(card)
    s.go_public(card)
    if any(need):
        s.push(task("pay", seat=x, slot=t["slot"]))
        return
    slot = t["slot"]
    s.buy(x, s.combo_up[slot])
    s.bought_round[x] += 1
    s.combo_up[slot] = -1
    s.push(task("combo", slot=slot))


@T.auto("claims_end")
def claims_end(s, t) -> None:
    more = sum(s.bought_round) > t["before"]
    if more and s.claim_turns < s.config.purchases_per_round and any(c >= 0 for c in s.combo_up):
        s.push(task("claims_start"))
    else:
        round_over(s, t)


@T.auto("round_over")
def round_over(s, t) -> None:
    no_combos = not s.combo_pile and all(c < 0 for c in s.combo_up)
    if no_combos or s.round >= s.config.max_rounds:
        s.tasks.clear()
        return
    if s.config.end_when_stalemated and stalemated(s):
        s.tasks.clear()
        return
    reached = [x for x in s.order_from(s.initiative) if s.points(x) >= s.target]
    if reached and s.config.game_end == "automatic":
        s.tasks.clear()
        return
    s.push(*[task("end_choice", seat=x) for x in reached], task("round_start"))


@T.decision("end_choice", lambda s, t: [A.PASS, A.END])
def end_choice(s, t, action: int) -> None:
    """A player at the target may end the game now or play on."""
    if action == A.END:
        s.tasks.clear()
