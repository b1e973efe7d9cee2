"""The Moonwakers twin's decisions: what each of the 18 decision kinds does with the
action taken (the engine's ``APPLY`` functions, in ``opening``, ``positioning``,
``reveal``, ``accidents`` and ``acquisition`` of :mod:`moon_envs.moonwakers`).

:func:`apply_decision` runs every kind's effect under the condition that the task taken
(already popped) is of that kind, and returns the tasks they push.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.chance import explored
from moon_envs.jax.moonwakers.legal import resources, table_cards
from moon_envs.jax.moonwakers.moves import all_seats, append, at, face_up_combo, go_public, of
from moon_envs.jax.moonwakers.moves import card_words, remove, spend
from moon_envs.jax.moonwakers.moves import to_pile
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.moonwakers.pushes import Pushes, task_row, then_of
from moon_envs.jax.moonwakers.tables import (
    BOUGHT,
    DISCARD,
    HAND,
    MAPPED,
    TABLE,
    TRANSIT,
    MoonwakersTables,
)
from moon_envs.moonwakers.config import ActionLayout as A

Array = jax.Array
ACCIDENT = 1  # ``roll``'s why


def record_look(t: MoonwakersTables, x: MWx, seat: Array, card: Array, candidates: Array,
                cond: Array) -> MWx:  # fmt: skip
    """Where ``cond``: ``seat`` looks at ``card``'s explored face, chosen among
    ``candidates`` (bool ``[N]``); the look is kept while there is room."""
    here = cond & at(t.num_terrain, card)
    x = x._replace(known=jnp.where(here, x.known | (1 << seat), x.known))
    words = card_words(t, candidates)
    free = x.look_order < 0
    slot = at(t.look_size, jnp.argmax(free)) & free & cond  # the first free row, if any
    return x._replace(
        look_seat=jnp.where(slot, seat, x.look_seat),
        look_away=jnp.where(slot, 0, x.look_away),
        look_cards=jnp.where(slot[:, None], words[None, :], x.look_cards),
        look_order=jnp.where(slot, jnp.max(x.look_order) + 1, x.look_order),
        num_looks=x.num_looks + jnp.any(slot).astype(jnp.int32),
    )


def ability_windows(t: MoonwakersTables, x: MWx, user: Array, target: Array | None,
                    cond: Array) -> tuple[MWx, Pushes]:  # fmt: skip
    """Where ``cond``: the CRYOGEN windows of the other seats, clockwise from ``user``,
    then ``target``'s SHIELD window (under ``shield_abilities``)."""
    x = x._replace(ability_blocked=x.ability_blocked & ~cond)
    pushes = Pushes()
    for i in range(1, t.n):
        pushes.add(cond, task_row("cryogen", (user + i) % t.n, user))
    if target is not None and t.config.shield_abilities:
        pushes.add(cond, task_row("target_shield", target, user))
    return x, pushes


def play_shelter(t: MoonwakersTables, x: MWx, seat: Array, card: Array,
                 cond: Array) -> tuple[MWx, Pushes]:  # fmt: skip
    """Where ``cond``: ``seat`` plays a SHELTER against an accident (``card``, or -1 for
    the free card's); every other seat may answer with a DEFECTIVE SHELTER."""
    x = spend(t, x, seat, "shelter", cond)
    x = x._replace(shelter_ok=x.shelter_ok | cond)
    pushes = Pushes()
    for i in range(1, t.n):
        pushes.add(cond, task_row("defective", (seat + i) % t.n, seat))
    pushes.add(cond, task_row("shelter_end", seat, card))
    return x, pushes


def public_resources(t: MoonwakersTables, x: MWx, seat: Array) -> Array:
    """int32 ``[6]``: ``seat``'s elements every seat can count (unseen hand cards left
    out)."""
    elements = jnp.asarray(t.element_of)[:, None] == jnp.arange(6)[None, :]
    mapped = ((x.place == MAPPED) & (x.owner == seat))[:, None] & elements
    seen = (x.place == HAND) & (x.owner == seat) & (x.known == all_seats(t))
    hand = jnp.where(seen[:, None], jnp.asarray(t.gives), 0)
    return jnp.sum(mapped, axis=0) + jnp.sum(hand, axis=0)


def _mapped_card(t: MoonwakersTables, x: MWx, actor: Array, action: Array) -> Array:
    """The card a MAPPED action of ``actor`` names (seat offset, then index)."""
    offset, index = jnp.divmod(action - A.MAPPED, t.num_terrain)
    owner = (actor + offset) % t.n
    hit = (x.place == MAPPED) & (x.owner == owner) & (x.index == index)
    return jnp.argmax(hit).astype(jnp.int32)


def apply_decision(t: MoonwakersTables, x: MWx, row: Array, a: Array,
                   cond: Array) -> tuple[MWx, Pushes]:  # fmt: skip
    """Where ``cond``: the decision ``row`` (already popped) takes action ``a``."""
    n = t.n
    kind = row[0]
    seat = row[1]
    pushes = Pushes()

    def is_(name: str) -> Array:
        return cond & (kind == queue.KIND[name])

    me = at(n, seat)
    # SCAN / PROTECTION
    x = x._replace(option=jnp.where(is_("option") & me, jnp.where(a == A.OPT_SCAN, 0, 1), x.option))
    # the opening SCAN
    _, card_on = table_cards(x)
    on_table = x.place == TABLE
    peeked = of(card_on, a - A.PEEK)
    x = record_look(t, x, seat, peeked, on_table, is_("peek"))
    # DASH, SHORTCUT, PERMUTATION: the windows, then the ability
    dashing = is_("dash") & (a != A.PASS)
    shortcut = is_("shortcut") & (a != A.PASS)
    permuting = is_("permute") & (a != A.PASS)
    x = x._replace(ability_used=x.ability_used | (me & (dashing | shortcut | permuting)))
    x, more = ability_windows(t, x, seat, None, dashing)
    pushes.extend(more)
    pushes.add(dashing, task_row("dash_do", seat, a - A.DASH))
    target = row[2]  # the SHORTCUT's target
    x, more = ability_windows(t, x, seat, target, shortcut)
    pushes.extend(more)
    pushes.add(shortcut, task_row("ability_go", seat, target, then=then_of("shortcut_won", seat)))
    other = (seat + a - A.PERMUTE + 1) % n
    x, more = ability_windows(t, x, seat, other, permuting)
    pushes.extend(more)
    then = then_of("permute_won", seat, other)
    pushes.add(permuting, task_row("ability_go", seat, other, then=then))
    # a placement, or a SCAN card first
    placing = is_("place")
    scan_mapped = placing & (a >= A.MAPPED)
    scan_table = placing & (a >= A.SCAN_CARD) & (a < A.MAPPED)
    looked = jnp.where(scan_mapped, _mapped_card(t, x, seat, a), of(card_on, a - A.SCAN_CARD))
    x = spend(t, x, seat, "scan", scan_mapped | scan_table)
    candidates = jnp.where(scan_mapped, x.place == MAPPED, x.place == TABLE)
    x = record_look(t, x, seat, looked, candidates, scan_mapped | scan_table)
    pushes.add(scan_mapped | scan_table, task_row("place", seat))
    places = placing & ~scan_mapped & ~scan_table
    slot = a - A.PLACE
    x = x._replace(
        position=jnp.where(places & me, slot, x.position),
        occupant=jnp.where(places & at(7, slot), seat, x.occupant),
    )
    # the reveal: MAP or EXPLORE the card under one's character
    revealing = is_("reveal")
    revealed = of(card_on, of(x.position, seat))
    here = at(t.num_terrain, revealed)
    mapping = revealing & (a == A.MAP)
    exploring = revealing & (a == A.EXPLORE)
    x = x._replace(
        reveal_choice=jnp.where(revealing & me, jnp.where(mapping, 0, 1), x.reveal_choice),
        place=jnp.where(revealing & here, TRANSIT, x.place),
    )
    x = append(x, revealed, MAPPED, seat, mapping)
    x = go_public(t, x, revealed, exploring)
    x, more = explored(t, x, seat, revealed, True, exploring)
    pushes.extend(more)
    # accidents: a SHELTER or the die; the sealed response to the free card's accident
    facing = is_("accident")
    pushes.add(facing & (a == A.ROLL), task_row("roll", seat, ACCIDENT, row[2]))
    x, more = play_shelter(t, x, seat, row[2], facing & (a == A.SHELTER))
    pushes.extend(more)
    responding = is_("respond") & me
    x = x._replace(responses=jnp.where(responding, jnp.where(a == A.SHELTER, 1, 0), x.responses))
    # response windows: CRYOGEN, SHIELD, DEFECTIVE SHELTER
    cryogen = is_("cryogen") & (a == A.CRYOGEN)
    x = spend(t, x, seat, "cryogen", cryogen)
    user = row[2]
    x = x._replace(frozen=x.frozen | (cryogen & at(n, user)))
    pushes.add(cryogen, task_row("shield_cryogen", user))
    unfreezes = is_("shield_cryogen") & (a == A.SHIELD)
    blocks = is_("target_shield") & (a == A.SHIELD)
    defective = is_("defective") & (a == A.DEFECTIVE)
    shields = is_("shield_defective") & (a == A.SHIELD)
    x = spend(t, x, seat, "shield", unfreezes | blocks | shields)
    x = spend(t, x, seat, "defective_shelter", defective)
    x = x._replace(
        frozen=x.frozen & ~(unfreezes & me),
        ability_blocked=x.ability_blocked | blocks,
        shelter_ok=(x.shelter_ok & ~defective) | shields,
    )
    pushes.add(defective, task_row("shield_defective", row[2]))
    # a loss: the chosen card goes under the pile
    losing = is_("loss")
    lost = jnp.where(a >= t.hand_base, a - t.hand_base, _mapped_card(t, x, seat, a))
    x = to_pile(t, x, lost, losing)
    # a claim, or LABO first
    x, more = _claim(t, x, seat, a, is_("claim"))
    pushes.extend(more)
    # a payment, card by card
    x, more = _pay(t, x, seat, row[2], a, is_("pay"))
    pushes.extend(more)
    # the end of the game, by choice
    ends = is_("end_choice") & (a == A.END)
    x = x._replace(size=jnp.where(ends, 0, x.size))
    return x, pushes


def _claim(t: MoonwakersTables, x: MWx, seat: Array, a: Array,
           cond: Array) -> tuple[MWx, Pushes]:  # fmt: skip
    me = at(t.n, seat)
    labo = cond & (a >= A.MAPPED)
    card = _mapped_card(t, x, seat, a)
    x = spend(t, x, seat, "labo", labo)
    x = remove(x, card, labo)
    x = x._replace(place=jnp.where(labo & at(t.num_terrain, card), TRANSIT, x.place))
    x = append(x, card, HAND, seat, labo)
    x = go_public(t, x, card, labo)
    pushes = Pushes()
    pushes.add(labo, task_row("claim", seat))
    passes = cond & (a == A.PASS)
    claims = cond & ~labo & ~passes
    slot = a - A.CLAIM
    _, combo = face_up_combo(t, x, slot)
    need = jnp.maximum(0, jnp.asarray(t.cost)[combo] - public_resources(t, x, seat))
    x = x._replace(
        claims=jnp.where(me & passes, -1, jnp.where(me & claims, slot, x.claims)),
        claim_need=jnp.where((me & claims)[:, None], need[None, :], x.claim_need),
    )
    noted = claims & x.claims_public
    return x._replace(
        floor=jnp.where((me & noted)[:, None], jnp.maximum(x.floor, need[None, :]), x.floor)
    ), pushes


def _pay(t: MoonwakersTables, x: MWx, seat: Array, slot: Array, a: Array,
         cond: Array) -> tuple[MWx, Pushes]:  # fmt: skip
    from_hand = a >= t.hand_base
    card = jnp.where(from_hand, a - t.hand_base, _mapped_card(t, x, seat, a))
    gives = jnp.where(
        from_hand,
        jnp.asarray(t.gives)[card],
        (jnp.arange(6) == jnp.asarray(t.element_of)[card]).astype(jnp.int32),
    )
    need = jnp.where(cond, jnp.maximum(0, x.pay_need - gives), x.pay_need)
    x = remove(x, card, cond)
    x = x._replace(place=jnp.where(cond & at(t.num_terrain, card), TRANSIT, x.place))
    x = append(x, card, DISCARD, jnp.int32(-1), cond)
    x = go_public(t, x, card, cond)
    x = x._replace(pay_need=need)
    pushes = Pushes()
    owing = cond & jnp.any(need > 0)
    pushes.add(owing, task_row("pay", seat, slot))
    buys = cond & ~owing
    _, combo = face_up_combo(t, x, slot)
    bought = jnp.sum((x.combo_place == BOUGHT) & (x.combo_owner == seat))
    hot = at(t.num_combos, combo) & buys
    me = at(t.n, seat) & buys
    x = x._replace(
        combo_place=jnp.where(hot, BOUGHT, x.combo_place),
        combo_owner=jnp.where(hot, seat, x.combo_owner),
        combo_index=jnp.where(hot, bought, x.combo_index),
        score=x.score + jnp.where(me, jnp.asarray(t.points)[combo], 0),
        bought_round=x.bought_round + me.astype(jnp.int32),
    )
    pushes.add(buys, task_row("combo", slot))
    return x, pushes


__all__ = ["apply_decision", "resources"]
