"""The Moonwakers twin's chance nodes (:mod:`moon_envs.moonwakers.draws`): a terrain card
drawn from the pile, a COMBINATION card turned face up, a character dealt, a d12 rolled.

Outcome ids are the Python engine's: a card id, a COMBINATION card id, a character
``0..5``, a roll ``0..11`` (a die of 1..12). :func:`outcome_probs` gives their
probabilities at the front task; :func:`reshuffle` is the one change a chance node makes
before it is drawn (an empty pile takes the discard pile back); :func:`apply_chance`
applies an outcome and returns the tasks it pushes.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.moves import KIND_INDEX, all_seats, append, at, go_public, of
from moon_envs.jax.moonwakers.moves import remove, to_pile
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.moonwakers.pushes import Pushes, task_row
from moon_envs.jax.moonwakers.tables import (
    COMBO_PILE,
    COMBO_UNDER,
    COMBO_UP,
    DISCARD,
    HAND,
    LIMBO,
    PILE,
    TABLE,
    TRANSIT,
    UNDER,
    MoonwakersTables,
)
from moon_envs.moonwakers.config import AVOID_AT, PROTECTION_MOD, SCAN_MOD

Array = jax.Array
TABLE_DEST, SETUP_DEST, IONIC_DEST = range(3)
DUEL, ACCIDENT = range(2)
BAD_SETUP = ("accident", "infrared_storm", "ionic_storm")


def num_outcomes(t: MoonwakersTables) -> int:
    return max(t.num_terrain, t.num_combos, 12)


def bad_setup(t: MoonwakersTables) -> Array:
    """bool ``[N]``: the cards a set-up hand redraws (accidents and storms)."""
    kinds = jnp.asarray(t.kind_of)
    return (
        (kinds == KIND_INDEX["accident"])
        | (kinds == KIND_INDEX["infrared_storm"])
        | (kinds == KIND_INDEX["ionic_storm"])
    )


def _is(kind: Array, name: str) -> Array:
    return kind == queue.KIND[name]


def reshuffle(t: MoonwakersTables, x: MWx, cond: Array) -> MWx:
    """Where ``cond`` and the pile and the cards under it are empty: the discard pile is
    shuffled into the pile, card by card in its order (each a tick)."""
    empty = ~jnp.any((x.place == PILE) | (x.place == UNDER))
    discard = cond & empty & (x.place == DISCARD)
    ticks = x.tick + x.index + 1  # the i-th discarded card is shuffled in at tick + i + 1
    public = discard & (x.known == all_seats(t))
    knew = ((x.known[None, :] >> jnp.arange(t.n)[:, None]) & 1 == 1) & discard[None, :]
    return x._replace(
        tick=x.tick + jnp.sum(discard, dtype=jnp.int32),
        gone_pub=jnp.where(public, ticks, x.gone_pub),
        gone=jnp.where(knew, ticks[None, :], x.gone),
        place=jnp.where(discard, PILE, x.place),
        owner=jnp.where(discard, -1, x.owner),
        index=jnp.where(discard, 0, x.index),
        known=jnp.where(discard, 0, x.known),
        drawn=jnp.where(discard, -1, x.drawn),
    )


def outcome_probs(t: MoonwakersTables, x: MWx) -> Array:
    """float32 ``[num_outcomes]``: the front chance task's outcome probabilities (all zero
    when the front task is not a chance node, or is one with nothing to draw)."""
    size = num_outcomes(t)
    row = queue.front(x.queue, x.head)
    kind = jnp.where(x.size > 0, row[0], -1)

    def pad(flags: Array) -> Array:
        return jnp.pad(flags, (0, size - flags.shape[0]))

    # a terrain card: the pile (a set-up hand: its good cards, if any), else the first
    # card put under it; a table slot is only drawn for when empty
    pile = x.place == PILE
    slot_free = ~jnp.any((x.place == TABLE) & (x.owner == row[2]))
    drawing = _is(kind, "draw") & ((row[1] != TABLE_DEST) | slot_free)
    if t.config.setup_hand == "redraw" and t.config.pile != "ordered":
        good = pile & ~bad_setup(t)
        pile = jnp.where((row[1] == SETUP_DEST) & jnp.any(good), good, pile)
    under = (x.place == UNDER) & (x.index == 0)
    cards = jnp.where(jnp.any(x.place == PILE), pile, under) & drawing
    combos = (x.combo_place == COMBO_PILE) & _is(kind, "combo")
    combos = combos & ~jnp.any((x.combo_place == COMBO_UP) & (x.combo_owner == row[1]))
    dealt = jnp.any(x.character[:, None] == jnp.arange(6)[None, :], axis=0)
    characters = ~dealt & _is(kind, "character")
    rolls = jnp.broadcast_to(_is(kind, "roll"), (12,))
    flags = pad(cards) | pad(combos) | pad(characters) | pad(rolls)
    return (flags / jnp.maximum(jnp.sum(flags), 1)).astype(jnp.float32)


def modifier(x: MWx, seat: Array) -> Array:
    """The round's die modifier of ``seat``: SCAN -1, PROTECTION +2."""
    option = of(x.option, seat)
    return jnp.where(option == 0, SCAN_MOD, jnp.where(option == 1, PROTECTION_MOD, 0))


def explored(
    t: MoonwakersTables, x: MWx, seat: Array, card: Array, storms_act: Array | bool, cond: Array
) -> tuple[MWx, Pushes]:
    """Where ``cond``: ``seat`` explored ``card`` (already public and out of its list): an
    accident waits in limbo to be faced; any other card goes to the hand, where a storm
    acts when ``storms_act`` (:func:`~moon_envs.moonwakers.reveal.explored`)."""
    kind = of(jnp.asarray(t.kind_of), card)
    accident = kind == KIND_INDEX["accident"]
    x = append(x, card, LIMBO, jnp.int32(-1), cond & accident)
    x = append(x, card, HAND, seat, cond & ~accident)
    pushes = Pushes()
    pushes.add(cond & accident, task_row("accident", seat, card))
    acting = cond & ~accident & storms_act
    infrared = acting & (kind == KIND_INDEX["infrared_storm"])
    slots = range(t.face_up)
    if t.config.infrared_storm_replaces == "two":
        slots = range(min(2, t.face_up))
    replaced = jnp.zeros_like(x.combo_place, jnp.bool_)
    for k in slots:
        replaced = replaced | ((x.combo_place == COMBO_UP) & (x.combo_owner == k))
    replaced = replaced & infrared
    under = jnp.sum(x.combo_place == COMBO_UNDER)
    # the replaced cards go under the combination pile in slot order
    before = replaced[None, :] & (x.combo_owner[None, :] < x.combo_owner[:, None])
    order = jnp.sum(before, axis=1)
    x = x._replace(
        combo_place=jnp.where(replaced, COMBO_UNDER, x.combo_place),
        combo_index=jnp.where(replaced, under + order, x.combo_index),
        combo_owner=jnp.where(replaced, -1, x.combo_owner),
    )
    for k in slots:
        pushes.add(infrared, task_row("combo", k))
    pushes.add(infrared, task_row("combo_return"))
    ionic = acting & (kind == KIND_INDEX["ionic_storm"])
    for i in range(t.n):
        pushes.add(ionic, task_row("draw", IONIC_DEST, -1, (seat + i) % t.n))
    return x, pushes


def apply_front_chance(
    t: MoonwakersTables,
    x: MWx,
    row: Array,
    outcome: Array,
    cond: Array,
    kinds: frozenset[str] | None = None,
) -> tuple[MWx, Pushes]:
    """Where ``cond``: the chance task ``row`` (already popped) takes ``outcome`` (with
    ``kinds``: only the chance kinds among them are built)."""
    kind = row[0]
    pushes = Pushes()

    def is_(name: str) -> Array:
        return queue.of_kind(cond, kind, name, kinds)

    # ---- a terrain card is drawn ----
    drawing = is_("draw")
    card = outcome
    in_pile = of(x.place, card) == PILE
    tick = x.tick + (drawing & in_pile).astype(jnp.int32)
    here = at(t.num_terrain, card)
    x = x._replace(tick=tick, drawn=jnp.where(drawing & in_pile & here, tick, x.drawn))
    x = remove(x, card, drawing)  # from the cards under the pile (the pile is a set)
    dest = row[1]
    to_table = drawing & (dest == TABLE_DEST)
    x = x._replace(
        place=jnp.where(to_table & here, TABLE, x.place),
        owner=jnp.where(to_table & here, row[2], x.owner),
        index=jnp.where(to_table & here, 0, x.index),
    )
    seat = row[3]
    setup = drawing & (dest == SETUP_DEST)
    redraw = jnp.bool_(False)
    if t.config.setup_hand == "redraw":
        good = ~bad_setup(t) & ((x.place == PILE) | (x.place == UNDER)) & ~here
        redraw = setup & of(bad_setup(t), card) & jnp.any(good)
        x = go_public(t, x, card, redraw)
        x = x._replace(place=jnp.where(redraw & here, TRANSIT, x.place))  # off every list
        x = to_pile(t, x, card, redraw)
        pushes.add(redraw, task_row("draw", SETUP_DEST, -1, seat))
    kept = setup & ~redraw
    x = x._replace(place=jnp.where(kept & here, TRANSIT, x.place))
    x = append(x, card, HAND, seat, kept)
    x = x._replace(known=jnp.where(kept & here, x.known | (1 << seat), x.known))
    ionic = drawing & (dest == IONIC_DEST)
    x = go_public(t, x, card, ionic)
    x = x._replace(place=jnp.where(ionic & here, TRANSIT, x.place))
    x, more = explored(t, x, seat, card, t.config.ionic_storm_draws == "act", ionic)
    pushes.extend(more)
    # ---- a COMBINATION card is turned face up ----
    turning = is_("combo")
    combo = at(t.num_combos, outcome) & turning
    x = x._replace(
        combo_place=jnp.where(combo, COMBO_UP, x.combo_place),
        combo_owner=jnp.where(combo, row[1], x.combo_owner),
        combo_index=jnp.where(combo, 0, x.combo_index),
    )
    # ---- a character is dealt ----
    dealing = is_("character")
    x = x._replace(
        character=jnp.where(dealing & at(t.n, row[1]), outcome, x.character),
    )
    # ---- a d12 ----
    rolling = is_("roll")
    seat = row[1]
    total = outcome + 1 + modifier(x, seat)
    duel = rolling & (row[2] == DUEL)
    x = x._replace(duel_rolls=jnp.where(duel & at(t.n, seat), total, x.duel_rolls))
    accident = rolling & (row[2] == ACCIDENT)
    x, more = accident_result(t, x, seat, row[3], accident & (total >= AVOID_AT), accident)
    pushes.extend(more)
    return x, pushes


def accident_result(
    t: MoonwakersTables, x: MWx, seat: Array, card: Array, avoided: Array, cond: Array
) -> tuple[MWx, Pushes]:
    """Where ``cond``: an accident is avoided (the explored accident card, if any, goes
    from limbo to the hand) or hits (the card goes under the pile, and ``seat`` loses a
    card)."""
    has_card = card >= 0
    x = remove(x, card, cond & avoided & has_card)
    leaving = cond & avoided & has_card & at(t.num_terrain, card)
    x = x._replace(place=jnp.where(leaving, TRANSIT, x.place))
    x = append(x, card, HAND, seat, cond & avoided & has_card)
    hit = cond & ~avoided
    x = to_pile(t, x, card, hit & has_card)
    pushes = Pushes()
    pushes.add(hit, task_row("loss", seat))
    return x, pushes
