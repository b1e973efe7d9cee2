"""The Moonwakers twin's legal actions: the mask of the decision at the front of the task
queue, as the Python engine's ``LEGAL`` functions give it (``phases`` of
:mod:`moon_envs.moonwakers`), for each of the 18 decision kinds.

:func:`legal_mask` computes every kind's actions and keeps those of the front task's
kind; an empty mask means the task does not apply any more (the engine skips it). A
window that tells the table something (``response_windows="holders"``) changes what the
seats know when it opens; that change is the queue's to make, not the mask's: here the
position is read only.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.moves import KIND_INDEX, face_up_combo, of
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.moonwakers.tables import DISCARD, HAND, MAPPED, PILE, TABLE, UNDER
from moon_envs.jax.moonwakers.tables import MoonwakersTables
from moon_envs.moonwakers.config import MAX_PLAYERS, TABLE_SLOTS
from moon_envs.moonwakers.config import ActionLayout as A

Array = jax.Array


def hand_of(x: MWx, seat: Array) -> Array:
    """bool ``[N]``: the cards in ``seat``'s hand."""
    return (x.place == HAND) & (x.owner == seat)


def holds(t: MoonwakersTables, x: MWx, seat: Array, kind: str) -> Array:
    """Whether ``seat`` holds a card of explored ``kind``."""
    return jnp.any(hand_of(x, seat) & (jnp.asarray(t.kind_of) == KIND_INDEX[kind]))


def table_cards(x: MWx) -> tuple[Array, Array]:
    """``(present [7], card [7])``: whether each table slot holds a card, and which."""
    on = (x.place == TABLE)[None, :] & (x.owner[None, :] == jnp.arange(TABLE_SLOTS)[:, None])
    card = jnp.sum(jnp.where(on, jnp.arange(x.place.shape[0])[None, :], 0), axis=1)
    return jnp.any(on, axis=1), card


def window(t: MoonwakersTables, x: MWx, seat: Array, kind: str) -> tuple[Array, Array]:
    """``(may_pass, may_play)`` of a response window for an action card of ``kind``
    (:meth:`~moon_envs.moonwakers.state.MoonwakersState.window`)."""
    held = holds(t, x, seat, kind)
    if t.config.response_windows == "holders":
        return held, held
    full = (1 << t.n) - 1
    unseen = jnp.any(hand_of(x, seat) & (x.known != full))
    return held | unseen, held


def _mapped_actions(t: MoonwakersTables, x: MWx, actor: Array, cards: Array) -> Array:
    """bool ``[n * N]``: the MAPPED actions of ``actor`` naming each mapped card in
    ``cards`` (a bool ``[N]``): seat offset from the actor, then the card's index."""
    nt = t.num_terrain
    offset = (x.owner - actor) % t.n
    at = jnp.where(cards & (x.place == MAPPED), offset * nt + x.index, t.n * nt)
    return jnp.zeros(t.n * nt + 1, jnp.bool_).at[at].set(True)[:-1]


def legal_mask(t: MoonwakersTables, x: MWx) -> Array:
    """bool ``[num_actions]``: the legal actions of the decision at the front of the
    queue (all False at a chance node, at an automatic step and once the game is over)."""
    fixed, named, hand_block, seat = _legal_parts(t, x)
    unused = jnp.zeros((MAX_PLAYERS - t.n) * t.num_terrain, jnp.bool_)  # offsets past n
    return jnp.concatenate([fixed, _mapped_actions(t, x, seat, named), unused, hand_block])


def has_choice(t: MoonwakersTables, x: MWx) -> Array:
    """Whether the front decision has a legal action: ``any(legal_mask(t, x))`` without
    laying the mask out (the queue asks it at every decision it meets)."""
    fixed, named, hand_block, _ = _legal_parts(t, x)
    return jnp.any(fixed) | jnp.any(named & (x.place == MAPPED)) | jnp.any(hand_block)


def _legal_parts(t: MoonwakersTables, x: MWx) -> tuple[Array, Array, Array, Array]:
    """The legal actions in parts: the fixed actions (``[48]``), the mapped cards a
    MAPPED action may name, the hand cards a HAND action may name (bool ``[N]`` each), and
    the deciding seat."""
    n = t.n
    row = queue.front(x.queue, x.head)
    kind = jnp.where(x.size > 0, row[0], -1)
    seat = jnp.clip(row[1], 0, n - 1)  # every decision's first field is its seat
    other = jnp.clip(row[2], 0, n - 1)  # the user, the victim or the target, if any

    def is_(name: str) -> Array:
        return kind == queue.KIND[name]

    mask = jnp.zeros(A.MAPPED, jnp.bool_)  # the fixed actions; the card blocks follow
    ids = jnp.arange(A.MAPPED)

    def allow(cond: Array, action: int | Array) -> None:
        nonlocal mask
        mask = mask | (cond & (ids == action))

    present, card = table_cards(x)
    occupant = x.occupant
    free = present & (occupant < 0)
    position = of(x.position, seat)
    used, frozen = of(x.ability_used, seat), of(x.frozen, seat)
    hand = hand_of(x, seat)
    known_by_seat = (x.known >> seat) & 1 == 1
    mapped_mine = (x.place == MAPPED) & (x.owner == seat)
    # SCAN / PROTECTION, MAP / EXPLORE, SHORTCUT, the end of the game
    for name, actions in (
        ("option", (A.OPT_SCAN, A.OPT_PROTECTION)),
        ("reveal", (A.MAP, A.EXPLORE)),
        ("end_choice", (A.PASS, A.END)),
    ):
        for action in actions:
            allow(is_(name), action)
    slot = jnp.clip(position, 0, TABLE_SLOTS - 1)
    revealing = is_("reveal") & (position >= 0) & of(present, slot)
    mask = jnp.where(is_("reveal"), mask & revealing, mask)
    # the opening SCAN and DASH
    for k in range(TABLE_SLOTS):
        allow(is_("peek") & present[k], A.PEEK + k)
    cards_left = jnp.any((x.place == PILE) | (x.place == UNDER) | (x.place == DISCARD))
    dashing = is_("dash") & ~used & ~frozen & cards_left
    allow(dashing, A.PASS)
    for k in range(TABLE_SLOTS):
        allow(dashing & present[k], A.DASH + k)
    # SHORTCUT offers (``target`` is the seat it acts against)
    target_position = of(x.position, other)
    any_placed = jnp.any(x.position >= 0)
    shortcutting = is_("shortcut") & ~used & ~frozen & (position < 0) & (target_position < 0)
    if t.config.shortcut_when == "first":
        shortcutting = shortcutting & ~any_placed
    shortcutting = shortcutting & jnp.any(free)
    allow(shortcutting, A.PASS)
    allow(shortcutting, A.SHORTCUT)
    # placement, with a SCAN action card instead
    placing = is_("place") & (position < 0) & jnp.any(free)
    for k in range(TABLE_SLOTS):
        allow(placing & free[k], A.PLACE + k)
    scanning = placing & holds(t, x, seat, "scan")
    for k in range(TABLE_SLOTS):
        unseen = ~of(known_by_seat, card[k])
        allow(scanning & present[k] & unseen, A.SCAN_CARD + k)
    named = jnp.zeros(t.num_terrain, jnp.bool_)  # the mapped cards a MAPPED action may name
    if t.config.scan_targets == "terrain":
        named = named | (scanning & ~known_by_seat)
    # PERMUTATION
    placed_other = jnp.stack([of(x.position, (seat + off) % n) >= 0 for off in range(1, n)])
    permuting = is_("permute") & ~used & ~frozen & (position >= 0) & jnp.any(placed_other)
    allow(permuting, A.PASS)
    for i, off in enumerate(range(1, n)):
        allow(permuting & placed_other[i], A.PERMUTE + off - 1)
    # accidents: SHELTER or the die
    facing = is_("accident") | is_("respond")
    allow(facing, A.ROLL)
    allow(facing & holds(t, x, seat, "shelter"), A.SHELTER)
    # response windows
    user_frozen = of(x.frozen, other)
    live = ~user_frozen & ~x.ability_blocked
    for name, card_kind, action, open_ in (
        ("cryogen", "cryogen", A.CRYOGEN, ~user_frozen),
        ("shield_cryogen", "shield", A.SHIELD, frozen),
        ("target_shield", "shield", A.SHIELD, live),
        ("defective", "defective_shelter", A.DEFECTIVE, x.shelter_ok),
        ("shield_defective", "shield", A.SHIELD, ~x.shelter_ok),
    ):
        may_pass, may_play = window(t, x, seat, card_kind)
        allow(is_(name) & open_ & may_pass, A.PASS)
        allow(is_(name) & open_ & may_play, action)
    # a loss: a mapped card, or with none a hand card
    losing = is_("loss")
    has_mapped = jnp.any(mapped_mine)
    named = named | (losing & has_mapped & mapped_mine)
    hand_block = losing & ~has_mapped & hand
    # a claim, with LABO before it
    claiming = is_("claim")
    allow(claiming, A.PASS)
    have = resources(t, x, seat)
    for k in range(t.face_up):
        present_k, combo = face_up_combo(t, x, k)
        cost = jnp.asarray(t.cost)[combo]
        allow(claiming & present_k & jnp.all(have >= cost), A.CLAIM + k)
    labo = claiming & jnp.any(hand) & holds(t, x, seat, "labo")
    named = named | labo
    # a payment, card by card
    paying = is_("pay")
    need = x.pay_need > 0
    element_needed = jnp.any(
        (jnp.asarray(t.element_of)[:, None] == jnp.arange(6)[None, :]) & need[None, :], axis=1
    )
    gives_needed = jnp.any((jnp.asarray(t.gives) > 0) & need[None, :], axis=1)
    named = named | (paying & mapped_mine & element_needed)
    hand_block = hand_block | (paying & hand & gives_needed)
    return mask, named, hand_block, seat


def resources(t: MoonwakersTables, x: MWx, seat: Array) -> Array:
    """int32 ``[6]``: ``seat``'s elements: its mapped cards' terrain faces and its hand
    cards' explored faces."""
    elements = jnp.asarray(t.element_of)[:, None] == jnp.arange(6)[None, :]
    mapped = ((x.place == MAPPED) & (x.owner == seat))[:, None] & elements
    hand = jnp.where(hand_of(x, seat)[:, None], jnp.asarray(t.gives), 0)
    return jnp.sum(mapped, axis=0) + jnp.sum(hand, axis=0)
