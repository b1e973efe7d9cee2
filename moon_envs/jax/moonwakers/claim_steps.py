"""The Moonwakers twin's automatic steps of the end of a round: the engine's ``AUTO``
functions of :mod:`~moon_envs.moonwakers.accidents` and
:mod:`~moon_envs.moonwakers.acquisition` (``end_round``, ``responses_start``,
``responses_reveal``, ``response_go``, ``shelter_end``, ``claims_start``,
``claims_reveal``, ``settle``, ``duel_won``, ``pay_start``, ``claims_end``,
``round_over``).

:func:`run_claim_steps` runs each under the condition that the task taken (already
popped) is of its kind, and returns the tasks they push.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.chance import accident_result
from moon_envs.jax.moonwakers.decisions import play_shelter
from moon_envs.jax.moonwakers.legal import holds, resources
from moon_envs.jax.moonwakers.moves import KIND_INDEX, face_up_combo, go_public, of
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.moonwakers.pushes import Pushes, task_row, then_of
from moon_envs.jax.moonwakers.round_steps import duel, order_from, pack_seats
from moon_envs.jax.moonwakers.round_steps import unpack_seats
from moon_envs.jax.moonwakers.tables import (
    COMBO_PILE,
    COMBO_UP,
    DISCARD,
    LIMBO,
    PILE,
    TABLE,
    UNDER,
    MoonwakersTables,
)

Array = jax.Array
ACCIDENT_ROLL = 1  # ``roll``'s why
SHELTER_RESPONSE = 1


def can_afford(t: MoonwakersTables, x: MWx, seat: Array, slot: Array) -> Array:
    """Whether ``seat`` can pay the COMBINATION card in face-up ``slot``."""
    present, combo = face_up_combo(t, x, slot)
    return present & jnp.all(resources(t, x, seat) >= jnp.asarray(t.cost)[combo])


def stalemated(t: MoonwakersTables, x: MWx) -> Array:
    """Whether nobody can ever score again (:mod:`~moon_envs.moonwakers.stalemate`)."""
    moving = (x.place == PILE) | (x.place == UNDER) | (x.place == DISCARD)
    moving = moving | (x.place == LIMBO) | (x.place == TABLE)
    labo = jnp.any(jnp.stack([holds(t, x, s, "labo") for s in range(t.n)]))
    affordable = jnp.stack(
        [can_afford(t, x, jnp.int32(s), jnp.int32(k)) for s in range(t.n) for k in range(t.face_up)]
    )
    return ~jnp.any(moving) & ~labo & ~jnp.any(affordable)


def run_claim_steps(t: MoonwakersTables, x: MWx, row: Array, cond: Array,
                    kinds: frozenset[str] | None = None) -> tuple[MWx, Pushes]:  # fmt: skip
    """Where ``cond``: the automatic task ``row`` (already popped) runs (with ``kinds``:
    only the steps of those kinds are built)."""
    kind = row[0]
    pushes = Pushes()

    def is_(name: str) -> Array:
        return queue.of_kind(cond, kind, name, kinds)

    order = order_from(t, x.initiative)
    # the end of the round: the free card is flipped; each accident there hits everyone
    ending = is_("end_round")
    accident = jnp.asarray(t.kind_of) == KIND_INDEX["accident"]
    for k in range(7):
        on = (x.place == TABLE) & (x.owner == k)
        card = jnp.argmax(on).astype(jnp.int32)
        x = go_public(t, x, card, ending & jnp.any(on))
        hit = ending & jnp.any(on & accident)
        pushes.add(hit, task_row("responses_start"))
        for seat in order:
            pushes.add(hit, task_row("respond", seat))
        pushes.add(hit, task_row("responses_reveal"))
    pushes.add(ending, task_row("claims_start"))
    starting = is_("responses_start")
    revealing = is_("responses_reveal")
    x = x._replace(
        responses=jnp.where(starting, -1, x.responses),
        responses_public=(x.responses_public & ~starting) | revealing,
    )
    for seat in order:
        pushes.add(revealing, task_row("response_go", seat))
    seat = row[1]
    going = is_("response_go")
    shelter = going & (of(x.responses, seat) == SHELTER_RESPONSE) & holds(t, x, seat, "shelter")
    x, more = play_shelter(t, x, seat, jnp.int32(-1), shelter)
    pushes.extend(more)
    pushes.add(going & ~shelter, task_row("roll", seat, ACCIDENT_ROLL, -1))
    # a SHELTER played: it holds, or the die, or the hit
    ending_shelter = is_("shelter_end")
    ok = x.shelter_ok
    x = x._replace(shelter_ok=x.shelter_ok & ~ending_shelter)
    card = row[2]
    if t.config.cancelled_shelter == "roll":
        x, more = accident_result(t, x, seat, card, jnp.bool_(True), ending_shelter & ok)
        pushes.extend(more)
        pushes.add(ending_shelter & ~ok, task_row("roll", seat, ACCIDENT_ROLL, card))
    else:
        x, more = accident_result(t, x, seat, card, ok, ending_shelter)
        pushes.extend(more)
    x, more = _claims(t, x, row, order, is_)
    pushes.extend(more)
    return x, pushes


def _claims(t: MoonwakersTables, x: MWx, row: Array, order: list[Array],
            is_) -> tuple[MWx, Pushes]:  # fmt: skip
    pushes = Pushes()
    # a claim turn
    starting = is_("claims_start")
    limit = t.config.purchases_per_round
    x = x._replace(
        claims=jnp.where(starting, -2, x.claims),
        claims_public=jnp.where(starting, t.config.claims == "open", x.claims_public),
        claim_turns=x.claim_turns + starting.astype(jnp.int32),
    )
    for seat in order:
        pushes.add(starting & (of(x.bought_round, seat) < limit), task_row("claim", seat))
    pushes.add(starting, task_row("claims_reveal", jnp.sum(x.bought_round)))
    # the claims are shown, then settled slot by slot
    revealing = is_("claims_reveal")
    noting = revealing & ~x.claims_public
    claimed = (x.claims >= 0) & noting
    x = x._replace(
        claims_public=x.claims_public | revealing,
        floor=jnp.where(claimed[:, None], jnp.maximum(x.floor, x.claim_need), x.floor),
    )
    for k in range(t.face_up):
        flags = [of(x.claims, s) == k for s in order]
        packed = pack_seats(order, flags)
        pushes.add(revealing & jnp.any(jnp.stack(flags)), task_row("settle", k, packed))
    pushes.add(revealing, task_row("claims_end", row[1]))
    # a settlement: the one claimant who can still pay, or a duel between several
    settling = is_("settle")
    slot = row[1]
    seats, flags = unpack_seats(t, row[2])
    able = [f & can_afford(t, x, s, slot) for s, f in zip(seats, flags)]
    count = sum(a.astype(jnp.int32) for a in able)
    lone = jnp.int32(0)
    for s, a in reversed(list(zip(seats, able))):
        lone = jnp.where(a, s, lone)
    pushes.add(settling & (count == 1), task_row("pay_start", lone, slot))
    duel(t, pushes, settling & (count > 1), seats, able, then_of("duel_won", slot))
    pushes.add(is_("duel_won"), task_row("pay_start", row[2], row[1]))
    # a payment starts if the winner can still pay
    paying = is_("pay_start") & can_afford(t, x, row[1], row[2])
    _, combo = face_up_combo(t, x, row[2])
    x = x._replace(pay_need=jnp.where(paying, jnp.asarray(t.cost)[combo], x.pay_need))
    pushes.add(paying, task_row("pay", row[1], row[2]))
    # another claim turn, or the end of the round
    closing = is_("claims_end")
    more = jnp.sum(x.bought_round) > row[1]
    any_up = jnp.any(x.combo_place == COMBO_UP)
    again = closing & more & (x.claim_turns < t.config.purchases_per_round) & any_up
    pushes.add(again, task_row("claims_start"))
    x, more_pushes = _round_over(t, x, order, (closing & ~again) | is_("round_over"))
    pushes.extend(more_pushes)
    return x, pushes


def _round_over(t: MoonwakersTables, x: MWx, order: list[Array],
                cond: Array) -> tuple[MWx, Pushes]:  # fmt: skip
    no_combos = ~jnp.any((x.combo_place == COMBO_PILE) | (x.combo_place == COMBO_UP))
    over = no_combos | (x.round >= t.max_rounds)
    if t.config.end_when_stalemated:
        over = over | stalemated(t, x)
    reached = [of(x.score, s) >= t.target for s in order]
    if t.config.game_end == "automatic":
        over = over | jnp.any(jnp.stack(reached))
    ends = cond & over
    x = x._replace(size=jnp.where(ends, 0, x.size))
    pushes = Pushes()
    going_on = cond & ~over
    for s, r in zip(order, reached):
        pushes.add(going_on & r, task_row("end_choice", s))
    pushes.add(going_on, task_row("round_start", 0))
    return x, pushes
