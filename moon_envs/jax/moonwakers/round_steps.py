"""The Moonwakers twin's automatic steps of the set-up, the opening and the placements:
the engine's ``AUTO`` functions of :mod:`~moon_envs.moonwakers.draws`,
:mod:`~moon_envs.moonwakers.opening` and :mod:`~moon_envs.moonwakers.positioning`
(``setup``, ``first_won``, ``round_start``, ``options_reveal``, ``place_start``,
``reveal_start``, ``dash_do``, ``limbo_to_pile``, ``ability_go``, ``shortcut_won``,
``permute_won``, ``duel_end``, ``combo_return``).

:func:`run_round_steps` runs each under the condition that the task taken (already
popped) is of its kind, and returns the tasks they push.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.moves import KIND_INDEX, all_seats, at, card_words, of, to_pile
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.moonwakers.pushes import Pushes, task_row, then_of
from moon_envs.jax.moonwakers.tables import (
    COMBO_PILE,
    COMBO_UNDER,
    COMBO_UP,
    DISCARD,
    LIMBO,
    MAPPED,
    TABLE,
    TRANSIT,
    UNDER,
    MoonwakersTables,
)
from moon_envs.jax.moonwakers.moves import append
from moon_envs.moonwakers.cards import ABILITIES

Array = jax.Array
TABLE_DEST, SETUP_DEST = 0, 1
DUEL = 0
SCAN = 0
LOOKS_KEPT = 32  # the engine prunes its looks once it holds more
WINNER_COLUMN = {k: 1 + queue.FIELDS[k].index("winner") for k in queue.THEN_KINDS}


def order_from(t: MoonwakersTables, start: Array) -> list[Array]:
    """The seats clockwise from ``start``."""
    return [(start + i) % t.n for i in range(t.n)]


def pack_seats(seats: list[Array], flags: list[Array]) -> Array:
    """The flagged ``seats``, in order, packed as :func:`~.queue.pack_seats` packs them."""
    value, count = jnp.int32(0), jnp.int32(0)
    for seat, flag in zip(seats, flags):
        value = value | jnp.where(flag, seat << (queue.SEAT_BITS * (count + 1)), 0)
        count = count + flag.astype(jnp.int32)
    return value | count


def unpack_seats(t: MoonwakersTables, packed: Array) -> tuple[list[Array], list[Array]]:
    """``(seats, flags)``: the ``n`` places of a packed list, and which are in it."""
    count = packed & 7
    seats = [(packed >> (queue.SEAT_BITS * (i + 1))) & 7 for i in range(t.n)]
    return seats, [count > i for i in range(t.n)]


def duel(t: MoonwakersTables, pushes: Pushes, cond: Array, seats: list[Array],
         flags: list[Array], then: tuple) -> None:  # fmt: skip
    """Where ``cond``: the tasks of a duel between the flagged ``seats``, then ``then``."""
    for seat, flag in zip(seats, flags):
        pushes.add(cond & flag, task_row("roll", seat, DUEL))
    pushes.add(cond, task_row("duel_end", pack_seats(seats, flags), then=then))


def with_winner(then: Array, winner: Array) -> Array:
    """The row of a follow-up task (``then``: its four values) that names ``winner``."""
    row = jnp.concatenate([then, jnp.full(4, -1, jnp.int32)])
    column = jnp.zeros((), jnp.int32)
    for name, col in WINNER_COLUMN.items():
        column = jnp.where(then[0] == queue.KIND[name], col, column)
    return jnp.where(jnp.arange(8) == column, winner, row)


def ability(t: MoonwakersTables, x: MWx, name: str) -> Array:
    """bool ``[n]``: the seats whose character has ability ``name``."""
    table = jnp.asarray(t.ability_of)
    return (x.character >= 0) & (table[jnp.maximum(x.character, 0)] == ABILITIES.index(name))


def live(x: MWx, user: Array) -> Array:
    return ~of(x.frozen, user) & ~x.ability_blocked


def run_round_steps(t: MoonwakersTables, x: MWx, row: Array, cond: Array,
                    kinds: frozenset[str] | None = None) -> tuple[MWx, Pushes]:  # fmt: skip
    """Where ``cond``: the automatic task ``row`` (already popped) runs. With ``kinds``,
    only the steps of those kinds are built (the row must be of one of them)."""
    n = t.n
    kind = row[0]
    pushes = Pushes()

    def is_(name: str) -> Array:
        return queue.of_kind(cond, kind, name, kinds)

    # the set-up: characters, set-up hands, face-up COMBINATION cards, the first player
    setup = is_("setup")
    for i in range(n):
        pushes.add(setup, task_row("character", i))
    for i in range(n):
        pushes.add(setup, task_row("draw", SETUP_DEST, -1, i))
    for k in range(t.face_up):
        pushes.add(setup, task_row("combo", k))
    everyone = [jnp.int32(i) for i in range(n)]
    duel(t, pushes, setup, everyone, [jnp.bool_(True)] * n, then_of("first_won"))
    first = is_("first_won")
    x = x._replace(initiative=jnp.where(first, row[1], x.initiative))
    pushes.add(first, task_row("round_start", 1))
    x, more = _round_start(t, x, row, is_("round_start"))
    pushes.extend(more)
    x, more = _options_reveal(t, x, is_("options_reveal"))
    pushes.extend(more)
    pushes.extend(_place_start(t, x, is_("place_start")))
    reveal = is_("reveal_start")
    for seat in order_from(t, x.initiative):
        pushes.add(reveal, task_row("reveal", seat))
    pushes.add(reveal, task_row("end_round"))
    # DASH: the table card goes to limbo, a new one is drawn, then the old one goes
    slot = row[2]
    on = (x.place == TABLE) & (x.owner == slot)
    dash = is_("dash_do") & live(x, row[1]) & jnp.any(on)
    x = x._replace(place=jnp.where(dash & on, TRANSIT, x.place))
    x = append(x, jnp.argmax(on).astype(jnp.int32), LIMBO, jnp.int32(-1), dash)
    pushes.add(dash, task_row("draw", TABLE_DEST, slot))
    pushes.add(dash, task_row("limbo_to_pile"))
    waiting = (x.place == LIMBO) & (x.index == 0)
    x = to_pile(
        t, x, jnp.argmax(waiting).astype(jnp.int32), is_("limbo_to_pile") & jnp.any(waiting)
    )
    # an ability acts unless frozen or shielded: a duel, or at once
    user, target = row[1], row[2]
    going = is_("ability_go") & live(x, user)
    then = tuple(row[4:8])
    if t.config.ability_duel:
        duel(t, pushes, going, [user, target], [jnp.bool_(True)] * 2, then)
    else:
        pushes.add(going, with_winner(row[4:8], user))
    pushes.add(is_("shortcut_won") & (row[2] == row[1]), task_row("place", row[1]))
    x = _permute_won(t, x, row, is_("permute_won"))
    x, more = _duel_end(t, x, row, is_("duel_end"))
    pushes.extend(more)
    # cards an infrared storm replaced go under the combination pile
    returning = is_("combo_return")
    x = x._replace(
        combo_place=jnp.where(
            returning & (x.combo_place == COMBO_UNDER), COMBO_PILE, x.combo_place
        ),
        combo_index=jnp.where(returning & (x.combo_place == COMBO_UNDER), 0, x.combo_index),
    )
    for k in range(t.face_up):
        empty = ~jnp.any((x.combo_place == COMBO_UP) & (x.combo_owner == k))
        pushes.add(returning & empty, task_row("combo", k))
    return x, pushes


def _round_start(t: MoonwakersTables, x: MWx, row: Array, cond: Array) -> tuple[MWx, Pushes]:
    n = t.n
    x = x._replace(
        initiative=jnp.where(cond & (row[1] != 1), (x.initiative + 1) % n, x.initiative),
        round=x.round + cond.astype(jnp.int32),
    )
    # last round's free card (and any card left) leaves the table, slot by slot
    accident = jnp.asarray(t.kind_of) == KIND_INDEX["accident"]
    for k in range(7):
        on = (x.place == TABLE) & (x.owner == k) & cond
        card = jnp.argmax(on).astype(jnp.int32)
        left = jnp.any(on)
        if t.config.free_card == "discard":
            discarded = left & ~of(accident, card)
            x = x._replace(place=jnp.where(discarded & on, TRANSIT, x.place))
            x = append(x, card, DISCARD, jnp.int32(-1), discarded)
            x = to_pile(t, x, card, left & ~discarded)
        else:
            x = to_pile(t, x, card, left)
    seats = jnp.ones(n, jnp.bool_) & cond
    x = x._replace(
        option=jnp.where(seats, -1, x.option),
        options_public=x.options_public & ~cond,
        position=jnp.where(seats, -1, x.position),
        occupant=jnp.where(cond, -1, x.occupant),
        ability_used=x.ability_used & ~seats,
        frozen=x.frozen & ~seats,
        reveal_choice=jnp.where(seats, -1, x.reveal_choice),
        responses=jnp.where(seats, -1, x.responses),
        responses_public=x.responses_public & ~cond,
        claims=jnp.where(seats, -2, x.claims),
        claims_public=x.claims_public & ~cond,
        bought_round=jnp.where(seats, 0, x.bought_round),
        claim_turns=jnp.where(cond, 0, x.claim_turns),
    )
    x = prune_looks(t, x, cond)
    pushes = Pushes()
    for k in range(n + 1):
        pushes.add(cond, task_row("draw", TABLE_DEST, k))
    for seat in order_from(t, x.initiative):
        pushes.add(cond, task_row("option", seat))
    pushes.add(cond, task_row("options_reveal"))
    return x, pushes


def prune_looks(t: MoonwakersTables, x: MWx, cond: Array) -> MWx:
    """Where ``cond`` and more than 32 are kept: the looks none of whose cards is still
    face down in play are forgotten (``opening.prune_looks``); their rows are freed."""
    hidden = x.known != all_seats(t)
    live_cards = (
        ((x.place == TABLE) & hidden) | (x.place == MAPPED) | (x.place == LIMBO)
        | ((x.place == UNDER) & hidden)
    )  # fmt: skip
    words = card_words(t, live_cards)
    held = x.look_order >= 0
    keep = held & jnp.any((x.look_cards & words[None, :]) != 0, axis=1)
    keep = jnp.where(cond & (x.num_looks > LOOKS_KEPT), keep, held)
    return x._replace(
        look_seat=jnp.where(keep, x.look_seat, -1),
        look_order=jnp.where(keep, x.look_order, -1),
        num_looks=jnp.sum(keep, dtype=jnp.int32),
    )


def _options_reveal(t: MoonwakersTables, x: MWx, cond: Array) -> tuple[MWx, Pushes]:
    x = x._replace(options_public=x.options_public | cond)
    pushes = Pushes()
    order = order_from(t, x.initiative)
    for seat in order:
        pushes.add(cond & (of(x.option, seat) == SCAN), task_row("peek", seat))
    dash = ability(t, x, "dash")
    for seat in order:
        pushes.add(cond & of(dash, seat), task_row("dash", seat))
    pushes.add(cond, task_row("place_start"))
    return x, pushes


def _place_start(t: MoonwakersTables, x: MWx, cond: Array) -> Pushes:
    cfg = t.config
    every, own = cfg.shortcut_when == "every", cfg.permutation_when == "own"
    shortcut, permutation = ability(t, x, "shortcut"), ability(t, x, "permutation")
    order = order_from(t, x.initiative)
    pushes = Pushes()
    for i, y in enumerate(order):
        if i == 0 or every:
            for j in range(1, t.n):
                holder = (y + j) % t.n
                pushes.add(cond & of(shortcut, holder), task_row("shortcut", holder, y))
        pushes.add(cond, task_row("place", y))
        if own:
            pushes.add(cond & of(permutation, y), task_row("permute", y))
    if not own:
        for seat in order:
            pushes.add(cond & of(permutation, seat), task_row("permute", seat))
    for seat in order:
        pushes.add(cond, task_row("reveal", seat))
    pushes.add(cond, task_row("end_round"))
    return pushes


def _permute_won(t: MoonwakersTables, x: MWx, row: Array, cond: Array) -> MWx:
    seat, target, winner = row[1], row[2], row[3]
    a, b = of(x.position, seat), of(x.position, target)
    swap = cond & (winner == seat) & (a >= 0) & (b >= 0)
    slots = jnp.arange(7)
    position = jnp.where(swap & at(t.n, target), a, x.position)
    occupant = jnp.where(swap & (slots == b), seat, x.occupant)
    return x._replace(
        position=jnp.where(swap & at(t.n, seat), b, position),
        occupant=jnp.where(swap & (slots == a), target, occupant),
    )


def _duel_end(t: MoonwakersTables, x: MWx, row: Array, cond: Array) -> tuple[MWx, Pushes]:
    seats, flags = unpack_seats(t, row[1])
    rolls = [of(x.duel_rolls, s) for s in seats]
    best = jnp.max(jnp.stack([jnp.where(f, r, -(1 << 20)) for r, f in zip(rolls, flags)]))
    top = [f & (r == best) for r, f in zip(rolls, flags)]
    count = sum(f.astype(jnp.int32) for f in top)
    contested = jnp.zeros(t.n, jnp.bool_)
    for s, f in zip(seats, flags):
        contested = contested | (f & at(t.n, s))
    x = x._replace(duel_rolls=jnp.where(cond & contested, -1, x.duel_rolls))
    pushes = Pushes()
    again = cond & (count > 1)
    duel(t, pushes, again, seats, top, tuple(row[4:8]))
    winner = jnp.int32(0)
    for s, f in reversed(list(zip(seats, top))):
        winner = jnp.where(f, s, winner)
    pushes.add(cond & (count == 1), with_winner(row[4:8], winner))
    return x, pushes
