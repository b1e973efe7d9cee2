"""Tasks that a step of the Moonwakers twin puts at the front of its queue.

A step of the queue runs every task kind's handler, each under the condition that the
front task is of its kind; each handler lists the tasks it would push as candidate rows,
each with a flag (the handler's condition and, for instance, "this seat holds the
ability"). :class:`Pushes` gathers them in order; :func:`push` keeps the flagged rows, in
their order, and puts them at the front of the queue (the engine's ``push``).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from moon_envs.jax.moonwakers import queue
from moon_envs.jax.moonwakers.position import MWx
from moon_envs.jax.moonwakers.tables import QUEUE_WIDTH

Array = jax.Array
NONE4 = (-1, -1, -1, -1)


def task_row(kind: str, *fields: int | Array, then: Array | tuple = NONE4) -> Array:
    """int32 ``[8]``: a task of ``kind`` with up to three ``fields`` (in the order of
    :data:`~moon_envs.jax.moonwakers.queue.FIELDS`) and a follow-up (four values: a kind
    and its fields)."""
    values = [queue.KIND[kind], *fields] + [-1] * (3 - len(fields))
    return jnp.stack([jnp.asarray(v, jnp.int32) for v in (*values, *then)])


def then_of(kind: str, *fields: int | Array) -> tuple:
    """The four values of a follow-up task (no ``winner`` yet)."""
    values = [queue.KIND[kind], *fields] + [-1] * (3 - len(fields))
    return tuple(jnp.asarray(v, jnp.int32) for v in values)


class Pushes:
    """Candidate rows, in order, each with its flag."""

    def __init__(self) -> None:
        self.rows: list[Array] = []
        self.flags: list[Array] = []

    def add(self, cond: Array, row: Array) -> None:
        self.rows.append(row)
        self.flags.append(jnp.asarray(cond, jnp.bool_))

    def extend(self, other: Pushes) -> None:
        self.rows += other.rows
        self.flags += other.flags


def push(x: MWx, pushes: Pushes) -> MWx:
    """The flagged rows of ``pushes`` at the front of ``x``'s queue, in their order."""
    if not pushes.rows:
        return x
    rows = jnp.stack(pushes.rows)
    flags = jnp.stack(pushes.flags)
    count = jnp.sum(flags, dtype=jnp.int32)
    capacity = x.queue.shape[0]
    place = jnp.where(flags, jnp.cumsum(flags) - 1, capacity)  # each kept row's place
    kept = jnp.full((capacity + 1, QUEUE_WIDTH), -1, jnp.int32).at[place].set(rows)[:-1]
    start = (x.head - count) % capacity
    offset = (jnp.arange(capacity) - start) % capacity
    new = offset < count
    picked = kept[jnp.clip(offset, 0, capacity - 1)]
    return x._replace(
        queue=jnp.where(new[:, None], picked, x.queue), head=start, size=x.size + count
    )
