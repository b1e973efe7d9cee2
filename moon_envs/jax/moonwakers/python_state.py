"""The Moonwakers twin's position as the Python engine's state, and back.

:func:`position_of` gives the :class:`~moon_envs.jax.moonwakers.position.MWx` of a
Python ``MoonwakersState``; :func:`python_state_of` the Python state of one concrete
position. Both keep every field the rules, the observations and the determinisation
read: where every card is and in which order, what each seat knows and when it saw each
card go, the private looks, the round's choices (sealed or not) and the task queue.

The Python engine's records for the text view are not part of the twin's position:
``python_state_of`` leaves ``last`` and ``last_rolls`` empty. ``combo_pile`` comes back
sorted (the engine draws from it as a set). A position that does not fit the twin's
fixed shapes (a longer task queue or more private looks than the twin holds, see
:mod:`~moon_envs.jax.moonwakers.tables`) is refused by name.
"""

from __future__ import annotations

import weakref
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.core.game import ConfigError
from moon_envs.jax.env import JaxEnv
from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.moonwakers.tables import (
    BOUGHT,
    COMBO_PILE,
    COMBO_UNDER,
    COMBO_UP,
    DISCARD,
    HAND,
    LIMBO,
    MAPPED,
    PILE,
    TABLE,
    UNDER,
    MoonwakersTables,
)
from moon_envs.jax.state import State

_SEAT_INTS = (
    "character", "option", "position", "reveal_choice", "responses", "claims",
    "bought_round", "duel_rolls", "score", "not_kinds",
)  # fmt: skip
_SEAT_FLAGS = ("ability_used", "frozen")
_COUNTERS = ("round", "initiative", "claim_turns", "tick")
_FLAGS = ("options_public", "claims_public", "responses_public", "ability_blocked", "shelter_ok")


_WRAP: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # env -> jitted state of x
_WRAP_MANY: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # the same, batched


def to_python(env: JaxEnv, state: State) -> Any:
    """The Python state of one Moonwakers twin position (``moon_envs.jax.python_states``)."""
    x = jax.tree.map(np.asarray, state._x)
    if bool(state.terminated) and int(x.size) > 0:
        raise ConfigError(
            "state was ended by bad input (an illegal action or outcome), which the Python "
            "engine has no position for; allowed: a state reached by legal play"
        )
    py = python_state_of(env.game, env.tables, x)
    py.move_number = int(state._step_count)
    return py


def from_python(env: JaxEnv, py_state: Any) -> State:
    """The twin state of one Moonwakers Python position; its observation is the view of
    the seat to move (seat 0 at a chance node or once the game is over)."""
    x = position_of(env.tables, py_state)
    if env not in _WRAP:  # one compile per twin, not one per call
        _WRAP[env] = jax.jit(lambda x, seat, steps: env._wrap(x, seat, env._zero_rewards(), steps))
    seat = jnp.int32(max(py_state.current_player(), 0))
    return _WRAP[env](x, seat, jnp.int32(py_state.move_number))


def from_python_many(env: JaxEnv, py_states: list[Any]) -> State:
    """The twin states of several Python positions, batched on a leading axis in the
    list's order: the positions are built in numpy and their observations computed in one
    compiled call (a search's determinisations convert without a call per position)."""
    xs = [position_of(env.tables, py) for py in py_states]
    x = jax.tree.map(lambda *leaves: np.stack(leaves), *xs)
    seats = np.asarray([max(py.current_player(), 0) for py in py_states], np.int32)
    steps = np.asarray([py.move_number for py in py_states], np.int32)
    if env not in _WRAP_MANY:
        _WRAP_MANY[env] = jax.jit(
            jax.vmap(lambda x, seat, steps: env._wrap(x, seat, env._zero_rewards(), steps))
        )
    return _WRAP_MANY[env](x, seats, steps)


def _check_fits(t: MoonwakersTables, py: Any) -> None:
    if len(py.tasks) > t.queue_size:
        raise ConfigError(
            f"py_state.tasks holds {len(py.tasks)} tasks; the twin's queue holds at most "
            f"{t.queue_size} with {t.n} players"
        )
    if len(py.looks) > t.look_size:
        raise ConfigError(
            f"py_state.looks holds {len(py.looks)} looks; the twin keeps at most {t.look_size}"
        )


def position_of(t: MoonwakersTables, py: Any) -> MWx:
    """The twin position of the Python state ``py`` (of the twin's config), in numpy
    arrays: a jitted function takes them as they are, and a search's determinisations
    stack without a device array per field."""
    _check_fits(t, py)
    nt, nc = t.num_terrain, t.num_combos
    place, owner, index = np.zeros(nt, np.int32), np.full(nt, -1, np.int32), np.zeros(nt, np.int32)

    def put(cards: list[int], code: int, who: int = -1, ordered: bool = True) -> None:
        for i, c in enumerate(cards):
            place[c], owner[c], index[c] = code, who, i if ordered else 0

    put(py.pile, PILE, ordered=False)
    put(py.pile_under, UNDER)
    put(py.discard, DISCARD)
    put(py.limbo, LIMBO)
    for k, c in enumerate(py.table):
        if c >= 0:
            put([c], TABLE, k)
    for x in range(t.n):
        put(py.hand[x], HAND, x)
        put(py.mapped[x], MAPPED, x)
    combo_place = np.zeros(nc, np.int32)
    combo_owner, combo_index = np.full(nc, -1, np.int32), np.zeros(nc, np.int32)
    for c in py.combo_pile:
        combo_place[c] = COMBO_PILE
    for k, c in enumerate(py.combo_up):
        if c >= 0:
            combo_place[c], combo_owner[c] = COMBO_UP, k
    for i, c in enumerate(py.combo_under):
        combo_place[c], combo_index[c] = COMBO_UNDER, i
    for x in range(t.n):
        for i, c in enumerate(py.bought[x]):
            combo_place[c], combo_owner[c], combo_index[c] = BOUGHT, x, i
    look_seat = np.full(t.look_size, -1, np.int32)
    look_away = np.zeros(t.look_size, np.int32)
    look_cards = np.zeros((t.look_size, t.words), np.uint32)
    look_order = np.full(t.look_size, -1, np.int32)
    for i, (seat, away, candidates) in enumerate(py.looks):
        look_seat[i], look_away[i], look_order[i] = seat, away, i
        for c in candidates:
            look_cards[i, c // 32] |= np.uint32(1 << (c % 32))
    rows, head, size = queue.encode(py.tasks, t.queue_size)
    i32 = np.int32
    fields = dict(
        place=place,
        owner=owner,
        index=index,
        combo_place=combo_place,
        combo_owner=combo_owner,
        combo_index=combo_index,
        known=np.asarray(py.known, i32),
        drawn=np.asarray(py.drawn, i32),
        gone=np.asarray(py.gone, i32).reshape(t.n, nt),
        gone_pub=np.asarray(py.gone_pub, i32),
        look_seat=look_seat,
        look_away=look_away,
        look_cards=look_cards,
        look_order=look_order,
        num_looks=i32(len(py.looks)),
        **{name: np.asarray(getattr(py, name), i32) for name in _SEAT_INTS},
        **{name: np.asarray(getattr(py, name), np.bool_) for name in _SEAT_FLAGS},
        claim_need=np.asarray(py.claim_need, i32).reshape(t.n, 6),
        floor=np.asarray(py.floor, i32).reshape(t.n, 6),
        pay_need=np.asarray(py.pay_need, i32),
        occupant=np.asarray(py.occupant, i32),
        **{name: i32(getattr(py, name)) for name in _COUNTERS},
        **{name: np.bool_(getattr(py, name)) for name in _FLAGS},
        queue=rows,
        head=i32(head),
        size=i32(size),
    )
    return MWx(**{k: np.asarray(v) for k, v in fields.items()})


def _ordered(x: Any, code: int, who: int = -1, sort_by_index: bool = True) -> list[int]:
    cards = np.flatnonzero((x.place == code) & ((x.owner == who) | (who < 0)))
    if sort_by_index:
        cards = cards[np.argsort(x.index[cards], kind="stable")]
    return [int(c) for c in cards]


def python_state_of(game: Any, t: MoonwakersTables, x: MWx) -> Any:
    """The Python state of one concrete twin position ``x`` (not batched)."""
    x = MWx(*(np.asarray(leaf) for leaf in x))
    py = game.new_initial_state()
    n = t.n
    py.pile = _ordered(x, PILE, sort_by_index=False)
    py.pile_under = _ordered(x, UNDER)
    py.discard = _ordered(x, DISCARD)
    py.limbo = _ordered(x, LIMBO)
    py.table = [-1] * len(py.table)
    for c in np.flatnonzero(x.place == TABLE):
        py.table[int(x.owner[c])] = int(c)
    py.hand = [_ordered(x, HAND, s) for s in range(n)]
    py.mapped = [_ordered(x, MAPPED, s) for s in range(n)]
    combos = np.arange(t.num_combos)
    py.combo_pile = [int(c) for c in combos[x.combo_place == COMBO_PILE]]
    py.combo_up = [-1] * t.face_up
    for c in combos[x.combo_place == COMBO_UP]:
        py.combo_up[int(x.combo_owner[c])] = int(c)

    def combos_in(code: int, who: int = -1) -> list[int]:
        picked = combos[(x.combo_place == code) & ((x.combo_owner == who) | (who < 0))]
        return [int(c) for c in picked[np.argsort(x.combo_index[picked], kind="stable")]]

    py.combo_under = combos_in(COMBO_UNDER)
    py.bought = [combos_in(BOUGHT, s) for s in range(n)]
    py.known = [int(v) for v in x.known]
    py.drawn = [int(v) for v in x.drawn]
    py.gone = [[int(v) for v in row] for row in x.gone]
    py.gone_pub = [int(v) for v in x.gone_pub]
    py.looks = [
        [int(x.look_seat[i]), int(x.look_away[i]), _cards_of(x.look_cards[i])]
        for i in sorted(np.flatnonzero(x.look_order >= 0), key=lambda i: x.look_order[i])
    ]
    for name in _SEAT_INTS:
        setattr(py, name, [int(v) for v in getattr(x, name)])
    for name in _SEAT_FLAGS:
        setattr(py, name, [bool(v) for v in getattr(x, name)])
    py.claim_need = [[int(v) for v in row] for row in x.claim_need]
    py.floor = [[int(v) for v in row] for row in x.floor]
    py.pay_need = [int(v) for v in x.pay_need]
    py.occupant = [int(v) for v in x.occupant]
    for name in _COUNTERS:
        setattr(py, name, int(getattr(x, name)))
    for name in _FLAGS:
        setattr(py, name, bool(getattr(x, name)))
    py.last_rolls = []
    py.last = [-1, -1, "", -1]
    py.tasks = queue.decode(x.queue, int(x.head), int(x.size))
    py.forget_memos()  # the front task's legal actions or chance outcomes, recomputed
    return py


def _cards_of(words: np.ndarray) -> list[int]:
    return [32 * w + b for w in range(words.shape[0]) for b in range(32) if words[w] >> b & 1]
