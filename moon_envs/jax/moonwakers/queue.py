"""The Moonwakers twin's task queue: the Python engine's queue of task mappings
(:mod:`moon_envs.moonwakers.tasks`) as a ring buffer of int32 rows.

A task is one row of :data:`~moon_envs.jax.moonwakers.tables.QUEUE_WIDTH` int32 fields:

* ``0``: the kind, an index into :data:`KINDS` (the engine's 47 kinds, sorted by name);
* ``1..3``: the task's own fields, in the order :data:`FIELDS` lists them (-1 where a
  field is absent: a duel's follow-up that has no ``winner`` yet);
* ``4..7``: the follow-up task (``then``) of a duel or an ability: its kind and its
  fields (kind -1 when there is none).

A field's value is its integer, except: a list of seats (a duel's contestants, a
settlement's claimants, in their order) is packed by :func:`pack_seats`; ``draw``'s
``dest`` and ``roll``'s ``why`` are indices into :data:`DESTS` and :data:`WHYS`;
``round_start``'s optional ``first`` is 1 when set, else 0.

The queue lives in ``MWx.queue`` (``[Q, QUEUE_WIDTH]``) with ``head`` (the row of the
front task) and ``size``: the ``i``-th task from the front is row ``(head + i) % Q``.
:func:`encode` and :func:`decode` convert the Python queue; the JAX helpers read and pop
the front task, and :func:`~moon_envs.jax.moonwakers.pushes.push` puts tasks at the front,
neither moving the others.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.moonwakers import tasks as T
from moon_envs.moonwakers.validation import SCHEMA, THEN_KINDS  # noqa: F401 (re-exported)
from moon_envs.jax.moonwakers.tables import QUEUE_WIDTH

Array = jax.Array

KINDS: tuple[str, ...] = tuple(sorted(T.STEP))
"""Every task kind, sorted by name: a task's kind field is its index here."""
KIND = {k: i for i, k in enumerate(KINDS)}
DESTS = ("table", "setup", "ionic")
"""``draw``'s destinations, as the ``dest`` field holds them."""
WHYS = ("duel", "accident")
"""``roll``'s reasons, as the ``why`` field holds them."""

FIELDS: dict[str, tuple[str, ...]] = {
    **{kind: tuple(k for k in schema if k != "then") for kind, schema in SCHEMA.items()},
    "draw": ("dest", "slot", "seat"),
    "roll": ("seat", "why", "card"),
}
"""Per kind, the fields held in columns 1..3 (``then`` goes to columns 4..7)."""
assert set(FIELDS) == set(KINDS) and all(len(f) <= 3 for f in FIELDS.values())
SEAT_LISTS = ("seats",)
SEAT_BITS = 3


def pack_seats(seats: list[int]) -> int:
    """An ordered list of at most six seats as one int: the count in the low
    :data:`SEAT_BITS` bits, then each seat in :data:`SEAT_BITS` bits, in order."""
    value = len(seats)
    for i, seat in enumerate(seats):
        value |= seat << (SEAT_BITS * (i + 1))
    return value


def unpack_seats(value: int) -> list[int]:
    count = value & 7
    return [(value >> (SEAT_BITS * (i + 1))) & 7 for i in range(count)]


def _encode_fields(task: dict) -> list[int]:
    kind = task["t"]
    out = [KIND[kind]]
    for key in FIELDS[kind]:
        if key not in task:
            out.append(-1 if key != "first" else 0)
            continue
        value = task[key]
        if key == "seats":
            value = pack_seats(value)
        elif key == "dest":
            value = DESTS.index(value)
        elif key == "why":
            value = WHYS.index(value)
        out.append(int(value))
    return out + [-1] * (4 - len(out))


def encode_task(task: dict) -> list[int]:
    """One Python task mapping as a queue row (its memo of legal actions or chance
    outcomes is left out: the twin computes them)."""
    then = task.get("then")
    return _encode_fields(task) + (_encode_fields(then) if then is not None else [-1] * 4)


def _decode_fields(row: list[int]) -> dict:
    kind = KINDS[row[0]]
    task: dict[str, Any] = {"t": kind}
    for key, value in zip(FIELDS[kind], row[1:4]):
        if key == "seats":
            task[key] = unpack_seats(value)
        elif key == "dest":
            task[key] = DESTS[value]
        elif key == "why":
            task[key] = WHYS[value]
        elif key == "first":
            if value == 1:
                task[key] = True
        elif value >= 0 or key == "card":
            task[key] = int(value)
    if kind == "draw":  # a table draw names a slot, a hand draw a seat
        task.pop("seat" if task["dest"] == "table" else "slot", None)
    if kind == "roll" and task["why"] == "duel":
        task.pop("card", None)
    return task


def decode_task(row: list[int]) -> dict:
    """The Python task mapping of one queue row."""
    task = _decode_fields(row[:4])
    if row[4] >= 0:
        task["then"] = _decode_fields(row[4:8])
    return task


def encode(tasks: list[dict], capacity: int) -> tuple[np.ndarray, int, int]:
    """``(queue, head, size)`` of a Python task list, front task in row 0."""
    queue = np.full((capacity, QUEUE_WIDTH), -1, np.int32)
    for i, task in enumerate(tasks):
        queue[i] = encode_task(task)
    return queue, 0, len(tasks)


def decode(queue: np.ndarray, head: int, size: int) -> list[dict]:
    """The Python task list of a queue, front first."""
    capacity = queue.shape[0]
    return [decode_task([int(v) for v in queue[(head + i) % capacity]]) for i in range(size)]


# ---- JAX helpers ---------------------------------------------------------------------------


def front(queue: Array, head: Array) -> Array:
    """int32 ``[QUEUE_WIDTH]``: the front task's row (meaningless on an empty queue)."""
    rows = jnp.arange(queue.shape[0]) == head
    return jnp.sum(jnp.where(rows[:, None], queue, 0), axis=0)


def front_kind(queue: Array, head: Array, size: Array) -> Array:
    """The front task's kind, or -1 when the queue is empty (the game is over)."""
    return jnp.where(size > 0, front(queue, head)[0], -1)


def pop(head: Array, size: Array, capacity: int) -> tuple[Array, Array]:
    """``(head, size)`` once the front task is taken off."""
    return (head + 1) % capacity, size - 1


def of_kind(cond: Array, kind: Array, name: str, kinds: frozenset[str] | None) -> Array:
    """``cond`` where the task kind ``kind`` is ``name``; a constant false when ``kinds``
    leaves ``name`` out, so that the compiler drops that kind's step."""
    if kinds is not None and name not in kinds:
        return jnp.bool_(False)
    return cond & (kind == KIND[name])
