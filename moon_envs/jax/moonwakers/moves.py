"""The Moonwakers twin's card movements: the list edits of the Python engine's state
helpers (``to_pile``, ``shuffle_in``, ``spend``, a draw, a card appended to or removed
from a hand, the mapped cards, the discard pile, limbo or the cards put under the pile),
each on the per-card arrays of :class:`~moon_envs.jax.moonwakers.position.MWx`.

Every function takes a condition and changes the position only where it holds, so that
the queue's steps can all run, each under its own condition, in one pass under ``vmap``.
A card id is a traced scalar; reading a card's fields is a masked sum over the card set.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.moonwakers.position import MWx
from moon_envs.moonwakers.cards import EXPLORED_KINDS
from moon_envs.jax.moonwakers.tables import COMBO_UP, HAND, PILE, UNDER, MoonwakersTables

Array = jax.Array
KIND_INDEX = {k: i for i, k in enumerate(EXPLORED_KINDS)}
"""Explored kind name -> its index in the card tables' ``kind_of``."""


def of(values: Array, i: Array) -> Array:
    """``values[i]`` along the first axis, as a masked sum (0 out of range)."""
    hot = jnp.arange(values.shape[0]) == i
    hot = hot.reshape(hot.shape + (1,) * (values.ndim - 1))
    return jnp.sum(jnp.where(hot, values, 0), axis=0).astype(values.dtype)


def at(size: int, i: Array) -> Array:
    """bool ``[size]``: true at ``i``."""
    return jnp.arange(size) == i


def card_words(t: MoonwakersTables, cards: Array) -> Array:
    """uint32 ``[..., W]``: the set of cards ``cards`` (bool ``[..., N]``) as bit words,
    one bit per card (card ``c`` is bit ``c % 32`` of word ``c // 32``)."""
    shift = (jnp.arange(t.num_terrain) % 32).astype(jnp.uint32)
    bits = cards.astype(jnp.uint32) << shift
    pad = [(0, 0)] * (cards.ndim - 1) + [(0, 32 * t.words - t.num_terrain)]
    padded = jnp.pad(bits, pad).reshape((*cards.shape[:-1], t.words, 32))
    return jnp.sum(padded, axis=-1, dtype=jnp.uint32)  # distinct bits: the sum is the OR


def word_cards(t: MoonwakersTables, words: Array) -> Array:
    """bool ``[..., N]``: the cards of the bit words ``words`` (``[..., W]``)."""
    bits = (words[..., :, None] >> jnp.arange(32, dtype=jnp.uint32)) & 1
    return bits.reshape((*words.shape[:-1], 32 * t.words))[..., : t.num_terrain] == 1


def all_seats(t: MoonwakersTables) -> int:
    return (1 << t.n) - 1


def face_up_combo(t: MoonwakersTables, x: MWx, slot: Array) -> tuple[Array, Array]:
    """``(present, combo)``: whether face-up ``slot`` holds a COMBINATION card, and which."""
    on = (x.combo_place == COMBO_UP) & (x.combo_owner == slot)
    return jnp.any(on), jnp.sum(jnp.where(on, jnp.arange(t.num_combos), 0))


def remove(x: MWx, card: Array, cond: Array) -> MWx:
    """Where ``cond``: ``card`` leaves its list (the cards after it move up one); its own
    fields are left for the caller to set."""
    place, owner, index = of(x.place, card), of(x.owner, card), of(x.index, card)
    after = (x.place == place) & (x.owner == owner) & (x.index > index)
    return x._replace(index=jnp.where(cond & after, x.index - 1, x.index))


def append(x: MWx, card: Array, place: int | Array, owner: Array, cond: Array) -> MWx:
    """Where ``cond``: ``card`` (already out of its list) goes to the end of the list
    ``(place, owner)``."""
    count = jnp.sum((x.place == place) & (x.owner == owner))
    here = cond & at(x.place.shape[0], card)
    return x._replace(
        place=jnp.where(here, place, x.place),
        owner=jnp.where(here, owner, x.owner),
        index=jnp.where(here, count, x.index),
    )


def move(x: MWx, card: Array, place: int | Array, owner: Array, cond: Array) -> MWx:
    """Where ``cond``: ``card`` leaves its list for the end of ``(place, owner)``."""
    return append(remove(x, card, cond), card, place, owner, cond)


def shuffle_in(t: MoonwakersTables, x: MWx, card: Array, cond: Array) -> MWx:
    """Where ``cond``: ``card`` (already out of its list) is shuffled into the pile; the
    seats that knew it remember when (``MoonwakersState.shuffle_in``)."""
    tick = x.tick + cond.astype(jnp.int32)
    here = cond & at(x.place.shape[0], card)
    known = of(x.known, card)
    public = here & (known == all_seats(t))
    knew = ((known >> jnp.arange(t.n)) & 1 == 1)[:, None] & here[None, :]
    return x._replace(
        tick=tick,
        gone_pub=jnp.where(public, tick, x.gone_pub),
        gone=jnp.where(knew, tick, x.gone),
        place=jnp.where(here, PILE, x.place),
        owner=jnp.where(here, -1, x.owner),
        index=jnp.where(here, 0, x.index),
        known=jnp.where(here, 0, x.known),
        drawn=jnp.where(here, -1, x.drawn),
    )


def to_pile(t: MoonwakersTables, x: MWx, card: Array, cond: Array) -> MWx:
    """Where ``cond``: ``card`` leaves its list for under the pile: shuffled in
    (``pile="unordered"``) or at the bottom (``"ordered"``)."""
    x = remove(x, card, cond)
    if t.config.pile == "ordered":
        return append(x, card, UNDER, jnp.int32(-1), cond)
    return shuffle_in(t, x, card, cond)


def go_public(t: MoonwakersTables, x: MWx, card: Array, cond: Array) -> MWx:
    """Where ``cond``: every seat sees ``card``'s explored face."""
    here = cond & at(x.place.shape[0], card)
    return x._replace(known=jnp.where(here, all_seats(t), x.known))


def holding(t: MoonwakersTables, x: MWx, seat: Array, kind: str) -> Array:
    """The oldest card of explored ``kind`` in ``seat``'s hand, or -1."""
    mine = (x.place == HAND) & (x.owner == seat) & (jnp.asarray(t.kind_of) == KIND_INDEX[kind])
    oldest = jnp.min(jnp.where(mine, x.index, 1 << 20))
    first = mine & (x.index == oldest)
    return jnp.where(jnp.any(mine), jnp.argmax(first).astype(jnp.int32), -1)


def spend(t: MoonwakersTables, x: MWx, seat: Array, kind: str, cond: Array) -> MWx:
    """Where ``cond``: ``seat`` plays its oldest card of ``kind``, shown to all; it goes
    under the pile."""
    card = holding(t, x, seat, kind)
    x = go_public(t, x, card, cond)
    return to_pile(t, x, card, cond)
