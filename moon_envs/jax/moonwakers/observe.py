"""The Moonwakers twin's observation of one seat: the Python engine's
:func:`~moon_envs.moonwakers.observation.build_observation`, entry for entry, from an
:class:`~moon_envs.jax.moonwakers.position.MWx` (the layout is documented there).

Card counts are sums over the card set under masks (whose cards, seen by whom), so the
observation is the same few elementwise passes and reductions for any position.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.legal import resources, table_cards
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.moonwakers.tables import (
    COMBO_UP,
    DISCARD,
    HAND,
    MAPPED,
    PILE,
    MoonwakersTables,
)
from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.cards import EXPLORED_KINDS
from moon_envs.moonwakers.config import COMBO_SLOTS, MAX_PLAYERS, TABLE_SLOTS

Array = jax.Array
F32 = jnp.float32

_DECISION_SLOT = np.asarray(
    [T.DECISION_KINDS.index(k) if k in T.DECISION_KINDS else len(T.DECISION_KINDS)
     for k in queue.KINDS], np.int32,
)  # fmt: skip
"""Per task kind, its entry in the observation's one-hot of the decision to take."""
_SUBJECT_FIELD = np.zeros(len(queue.KINDS), np.int32)  # 0: no subject, else a column
for _kind, _key in {"cryogen": "user", "target_shield": "user", "defective": "victim",
                    "shortcut": "target"}.items():  # fmt: skip
    _SUBJECT_FIELD[queue.KIND[_kind]] = 1 + queue.FIELDS[_kind].index(_key)
_PAY = queue.KIND["pay"]


def scaled(value: Array, div: int) -> Array:
    """``min(1, value / div)`` for a count ``value >= 0``, as float32, from a table computed
    as the Python engine computes it (in double precision, then rounded): XLA divides by
    a constant as a product with its reciprocal, which differs in the last bit."""
    table = np.asarray([min(1.0, v / div) for v in range(div + 1)], np.float32)
    return jnp.asarray(table)[jnp.clip(value, 0, div)]


def one_hot(value: Array, size: int) -> Array:
    """float32 ``[size]``: 1 at ``value`` (nothing when it is out of range)."""
    return (jnp.arange(size) == value).astype(F32)


def observe(t: MoonwakersTables, x: MWx, p: Array) -> Array:
    """float32 ``[obs_size]``: what seat ``p`` sees of the position ``x``."""
    n, nt = t.n, t.num_terrain
    bit = jnp.left_shift(1, p)
    seen = (x.known & bit) != 0  # [N] cards whose explored face p knows
    front = queue.front(x.queue, x.head)
    kind = jnp.where(x.size > 0, front[0], -1)
    # ---- global ----
    slot = jnp.where(kind >= 0, jnp.asarray(_DECISION_SLOT)[jnp.maximum(kind, 0)], -1)
    decision = one_hot(jnp.where(kind >= 0, slot, len(T.DECISION_KINDS)), len(T.DECISION_KINDS) + 1)
    paying = (kind == _PAY) & (front[1] == p)
    counts = jnp.stack([
        scaled(x.round, t.max_rounds),
        scaled(jnp.sum(x.place == PILE), nt),
        scaled(jnp.sum(x.place == DISCARD), nt),
    ])  # fmt: skip
    flags = jnp.stack([x.options_public, x.claims_public, x.responses_public]).astype(F32)
    need = jnp.where(paying, scaled(x.pay_need, 6), F32(0.0))
    field = jnp.where(kind >= 0, jnp.asarray(_SUBJECT_FIELD)[jnp.maximum(kind, 0)], 0)
    subject = jnp.where(field > 0, jnp.sum(jnp.where(jnp.arange(4) == field, front[:4], 0)), -1)
    head = jnp.concatenate([decision, counts, flags, need])
    # ---- seats, the observer first ----
    seats = (p + jnp.arange(n)) % n
    seats_block = jax.vmap(lambda s: _seat_block(t, x, p, s, seen, subject))(seats)
    pad = jnp.zeros((MAX_PLAYERS - n) * t.seat_features, F32)
    # ---- table and COMBINATION slots ----
    table = _table_block(t, x, p, seen)
    combos = _combo_block(t, x, p)
    return jnp.concatenate([head, seats_block.ravel(), pad, table, combos])


def _seat_block(
    t: MoonwakersTables, x: MWx, p: Array, s: Array, seen: Array, subject: Array
) -> Array:
    """float32 ``[47]``: seat ``s`` as ``p`` sees it (see the Python module's layout)."""
    n = t.n
    row = jnp.arange(n) == s

    def of(values: Array) -> Array:
        return jnp.sum(jnp.where(row, values, 0))

    character = of(x.character)
    ability = jnp.where(character >= 0, jnp.asarray(t.ability_of)[jnp.maximum(character, 0)], -1)
    own = s == p
    option = of(x.option)
    option = jnp.where(x.options_public | own, option, -1)
    mapped = (x.place == MAPPED) & (x.owner == s)
    hand = (x.place == HAND) & (x.owner == s)
    elements = jnp.asarray(t.element_of)[:, None] == jnp.arange(6)[None, :]
    mapped_counts = jnp.sum(mapped[:, None] & elements, axis=0)
    hand_seen = hand & seen
    hand_elements = jnp.sum(jnp.where(hand_seen[:, None], jnp.asarray(t.gives), 0), axis=0)
    actions = jnp.asarray(t.action_slot)[:, None] == jnp.arange(6)[None, :]
    hand_actions = jnp.sum(hand_seen[:, None] & actions, axis=0)
    claims = jnp.where(x.claims_public | own, of(x.claims), -2)
    responses = jnp.where(x.responses_public | own, of(x.responses), -1)
    bought = jnp.sum((x.combo_place == 2) & (x.combo_owner == s))
    parts = [
        jnp.ones(1, F32),
        one_hot(ability, 3),
        one_hot(option, 2),
        scaled(of(x.score), t.target)[None],
        scaled(bought, 8)[None],
        scaled(mapped_counts, 6),
        scaled(jnp.sum(hand), 12)[None],
        scaled(hand_elements, 6),
        scaled(hand_actions, 2),
        scaled(jnp.sum(hand & ~seen), 6)[None],
        jnp.stack([of(x.ability_used), of(x.frozen), s == x.initiative]).astype(F32),
        one_hot(of(x.position), TABLE_SLOTS),
        one_hot(of(x.reveal_choice), 2),
        one_hot(claims + 1, 4),
        one_hot(responses, 2),
        (s == subject).astype(F32)[None],
    ]
    return jnp.concatenate(parts)


def _table_block(t: MoonwakersTables, x: MWx, p: Array, seen: Array) -> Array:
    """float32 ``[7 * table_features]``: each table slot's card as ``p`` sees it."""
    n, nb, nk = t.n, t.num_biomes, len(EXPLORED_KINDS)
    present, card = table_cards(x)
    face = seen[card]
    occupant = jnp.where(x.occupant >= 0, (x.occupant - p) % n, -1)
    kind = jnp.asarray(t.kind_of)[card]
    gives = jnp.asarray(t.gives)[card]
    rows = jnp.concatenate(
        [
            present[:, None].astype(F32),
            (occupant[:, None] == jnp.arange(MAX_PLAYERS)[None, :]).astype(F32),
            (jnp.asarray(t.element_of)[card][:, None] == jnp.arange(6)[None, :]).astype(F32),
            (jnp.asarray(t.biome_of)[card][:, None] == jnp.arange(nb)[None, :]).astype(F32),
            ((kind[:, None] == jnp.arange(nk)[None, :]) & face[:, None]).astype(F32),
            jnp.where(face[:, None], scaled(gives, 3), F32(0.0)),
        ],
        axis=1,
    )
    return jnp.where(present[:, None], rows, F32(0.0)).ravel()


def _combo_block(t: MoonwakersTables, x: MWx, p: Array) -> Array:
    """float32 ``[3 * 9]``: each face-up COMBINATION slot, and whether ``p`` can pay it."""
    slots = jnp.arange(COMBO_SLOTS)
    up = (x.combo_place == COMBO_UP)[None, :] & (x.combo_owner[None, :] == slots[:, None])
    present = jnp.any(up, axis=1)
    combo = jnp.sum(jnp.where(up, jnp.arange(t.num_combos)[None, :], 0), axis=1)
    cost = jnp.asarray(t.cost)[combo]  # [3, 6]
    have = resources(t, x, p)
    rows = jnp.concatenate(
        [
            present[:, None].astype(F32),
            scaled(cost, 6),
            scaled(jnp.asarray(t.points)[combo], 10)[:, None],
            jnp.all(have[None, :] >= cost, axis=1)[:, None].astype(F32),
        ],
        axis=1,
    )
    return jnp.where(present[:, None], rows, F32(0.0)).ravel()
