"""The Moonwakers twin's queue runner: a decision or a chance outcome applied, then the
queue advanced to the next decision, chance node or the end
(``MoonwakersState._apply`` and ``advance``).

Each pass of :func:`advance` looks at the front task. A decision or a chance node with
something to choose stops the run; one with nothing is skipped. An automatic step is
taken off and run, and the tasks it pushes go to the front. Looking at a decision or a
chance node may change the position first, as in the engine: a response window under
``response_windows="holders"`` tells the table what the seat holds
(:func:`window_effects`), and a draw from an empty pile takes the discard pile back
(:func:`~moon_envs.jax.moonwakers.chance.reshuffle`). Both are idempotent, so a lane
that has stopped is left as it is by further passes.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.jax.random_words import random_words, split_key

from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.chance import apply_front_chance, outcome_probs, reshuffle
from moon_envs.jax.moonwakers.claim_steps import run_claim_steps
from moon_envs.jax.moonwakers.decisions import apply_decision
from moon_envs.jax.moonwakers.legal import has_choice
from moon_envs.jax.moonwakers.moves import KIND_INDEX, all_seats, of
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.moonwakers.pushes import push
from moon_envs.jax.moonwakers.round_steps import live, run_round_steps
from moon_envs.jax.moonwakers.tables import HAND, TABLE, MoonwakersTables
from moon_envs.moonwakers import tasks as T

Array = jax.Array
_STEP_KIND = np.asarray([T.STEP[k][0] for k in queue.KINDS], np.int32)  # per kind
AUTO_STEP, CHANCE_STEP, DECISION_STEP = T.AUTO_STEP, T.CHANCE_STEP, T.DECISION_STEP
_WINDOWS = {
    "cryogen": "cryogen",
    "shield_cryogen": "shield",
    "target_shield": "shield",
    "defective": "defective_shelter",
    "shield_defective": "shield",
}


def step_kind(x: MWx) -> tuple[Array, Array]:
    """``(row, what)``: the front task's row and whether it is an automatic step, a
    chance node or a decision (``-1`` once the game is over)."""
    row = queue.front(x.queue, x.head)
    what = jnp.where(x.size > 0, jnp.asarray(_STEP_KIND)[jnp.clip(row[0], 0)], -1)
    return row, what


def window_effects(t: MoonwakersTables, x: MWx, row: Array, cond: Array) -> MWx:
    """Where ``cond`` and the front task is an open response window, under
    ``response_windows="holders"``: a seat holding the card that has shown none of its
    kind shows its unseen cards of that kind; a seat without it, holding unseen cards,
    tells the table they are not of that kind
    (:meth:`~moon_envs.moonwakers.state.MoonwakersState.window`)."""
    if t.config.response_windows != "holders":
        return x
    kind, seat, other = row[0], row[1], row[2]
    open_ = {
        "cryogen": ~of(x.frozen, other),
        "shield_cryogen": of(x.frozen, seat),
        "target_shield": live(x, other),
        "defective": x.shelter_ok,
        "shield_defective": ~x.shelter_ok,
    }
    hand = (x.place == HAND) & (x.owner == seat)
    unseen = hand & (x.known != all_seats(t))
    for name, card_kind in _WINDOWS.items():
        here = cond & (kind == queue.KIND[name]) & open_[name]
        of_kind = hand & (jnp.asarray(t.kind_of) == KIND_INDEX[card_kind])
        held = jnp.any(of_kind)
        shows = here & held & jnp.all(~of_kind | unseen)
        x = x._replace(known=jnp.where(shows & of_kind & unseen, all_seats(t), x.known))
        tells = here & ~held & jnp.any(unseen)
        bit = 1 << KIND_INDEX[card_kind]
        x = x._replace(
            not_kinds=jnp.where(tells & (jnp.arange(t.n) == seat), x.not_kinds | bit, x.not_kinds)
        )
    return x


def _pass(
    t: MoonwakersTables,
    x: MWx,
    key: Array | None = None,
    kinds: frozenset[str] | None = None,
) -> tuple[MWx, Array, Array | None]:
    """One pass of the runner: ``(position, stopped, key)``. With a ``key``, a chance node
    with outcomes does not stop the run: its outcome is drawn from the key's next split
    (:func:`uniform_pick`: every chance node of the game is uniform over its possible
    outcomes) and applied in the same pass. With ``kinds`` (automatic and chance kinds
    only), the pass builds only their steps: it is the full pass wherever the front task
    is of one of them."""
    row, what = step_kind(x)
    chance = what == CHANCE_STEP
    if kinds is None:
        decision = what == DECISION_STEP
        x = window_effects(t, x, row, decision)
    else:
        decision = jnp.bool_(False)
    draw = chance & (row[0] == queue.KIND["draw"])
    slot_taken = jnp.any((x.place == TABLE) & (x.owner == row[2])) & (row[1] == 0)
    x = reshuffle(t, x, draw & ~slot_taken)
    possible = outcome_probs(t, x) > 0
    if kinds is None:
        chosen = jnp.where(decision, has_choice(t, x), jnp.any(possible))
    else:
        chosen = jnp.any(possible)
    drawn = chance & chosen & (key is not None)
    stopped = (what < 0) | ((decision | chance) & chosen & ~drawn)
    head, size = queue.pop(x.head, x.size, t.queue_size)
    x = x._replace(head=jnp.where(stopped, x.head, head), size=jnp.where(stopped, x.size, size))
    auto = ~stopped & (what == AUTO_STEP)
    x, pushes = run_round_steps(t, x, row, auto, kinds)
    x, more = run_claim_steps(t, x, row, auto, kinds)
    pushes.extend(more)
    if key is not None:
        next_key, sub = split_key(key)
        outcome = uniform_pick(possible, random_words(sub, 1)[0])
        x, more = apply_front_chance(t, x, row, outcome, drawn, kinds)
        pushes.extend(more)
        key = jnp.where(drawn, next_key, key)
    return push(x, pushes), stopped, key


def uniform_pick(flags: Array, word: Array) -> Array:
    """The ``k``-th true entry of ``flags``, ``k = floor(word * count / 2**32)`` for a
    uniform uint32 ``word`` (multiply-high: a bias below ``count / 2**32``)."""
    count = jnp.sum(flags, dtype=jnp.uint32)
    k = ((word >> 16) * count + (((word & 0xFFFF) * count) >> 16)) >> 16
    rank = jnp.cumsum(flags) - 1
    return jnp.argmax(flags & (rank == k.astype(rank.dtype))).astype(jnp.int32)


def advance(t: MoonwakersTables, x: MWx) -> MWx:
    """Run the queue until a decision, a chance node with outcomes, or the end."""

    def body(carry: tuple[MWx, Array]) -> tuple[MWx, Array]:
        return _pass(t, carry[0])[:2]

    return jax.lax.while_loop(lambda c: ~c[1], body, (x, jnp.bool_(False)))[0]


def resolve(t: MoonwakersTables, x: MWx, key: Array) -> MWx:
    """Run the queue until a decision or the end, drawing every chance outcome on the
    way with ``key``: the same outcomes, in the same order, as ``JaxEnv._resolve_x``'s
    loop of :func:`apply_chance` over draws from successive splits of ``key`` (with the
    twin's ``_sample_chance``), in one loop of passes."""
    return _resolve_from(t, x, jnp.bool_(False), key)


def _resolve_from(t: MoonwakersTables, x: MWx, stopped: Array, key: Array) -> MWx:
    def body(carry: tuple[MWx, Array, Array]) -> tuple[MWx, Array, Array]:
        return _pass(t, carry[0], carry[2])

    return jax.lax.while_loop(lambda c: ~c[1], body, (x, stopped, key))[0]


SETUP_KINDS = frozenset(
    {"setup", "character", "draw", "combo", "combo_return", "roll", "duel_end",
     "first_won", "round_start"}
)  # fmt: skip
"""The automatic and chance kinds of a game's set-up, up to its first decision."""
_SETUP = np.isin(np.asarray(queue.KINDS), sorted(SETUP_KINDS))


def resolve_setup(t: MoonwakersTables, x: MWx, key: Array) -> MWx:
    """:func:`resolve` from a new game's position, with the same outcomes: passes that
    build only the set-up's steps (:data:`SETUP_KINDS`) while the front task is one of
    them, then full passes. The set-up is most of ``init``'s passes, and a set-up pass
    costs a fraction of a full one."""

    def setting_up(carry: tuple[MWx, Array, Array]) -> Array:
        x = carry[0]
        front = queue.front(x.queue, x.head)[0]
        return ~carry[1] & (x.size > 0) & jnp.asarray(_SETUP)[jnp.clip(front, 0)]

    def body(carry: tuple[MWx, Array, Array]) -> tuple[MWx, Array, Array]:
        return _pass(t, carry[0], carry[2], SETUP_KINDS)

    x, stopped, key = jax.lax.while_loop(setting_up, body, (x, jnp.bool_(False), key))
    return _resolve_from(t, x, stopped, key)


def apply_action(t: MoonwakersTables, x: MWx, action: Array) -> MWx:
    """The front decision takes ``action`` (legal); then the queue runs on."""
    row = queue.front(x.queue, x.head)
    head, size = queue.pop(x.head, x.size, t.queue_size)
    x, pushes = apply_decision(t, x._replace(head=head, size=size), row, action, jnp.bool_(True))
    return advance(t, push(x, pushes))


def apply_chance(t: MoonwakersTables, x: MWx, outcome: Array) -> MWx:
    """The front chance node takes ``outcome`` (possible); then the queue runs on."""
    row = queue.front(x.queue, x.head)
    head, size = queue.pop(x.head, x.size, t.queue_size)
    x, pushes = apply_front_chance(
        t, x._replace(head=head, size=size), row, outcome, jnp.bool_(True)
    )
    return advance(t, push(x, pushes))
