"""A game's infos as fixed-shape numbers: the fields each game declares, and the encoding.

The environments' raw ``infos`` are written for people (words, ``None`` until something
happened, reports that appear after the first round). Learners that batch or store infos
(Gymnasium's vector envs, TorchRL, Tianshou) need the same keys, shapes and dtypes at
every step. Each game lists its info fields (:meth:`moon_envs.core.game.Game.info_fields`,
a list of :class:`Field`); :func:`encode_info` turns a raw info into one ``int64`` numpy
array per field. The single-agent Gymnasium view (:mod:`moon_envs.core.wrappers`) and
:mod:`moon_envs.integrations.numeric_infos` both use it.

The encoding of one field:

* a scalar (shape ``()``) or one entry per seat (shape ``(num_players,)``), ``int64``;
* a nested field ``a`` -> ``b`` has the key ``a_b``;
* ``True`` / ``False`` are 1 / 0; a value not there yet (``None``, a report not given yet)
  is the field's ``missing`` value;
* a word is its index in the field's ``codes``;
* a list of seats (``seat_set``) is 0 / 1 per seat;
* a ``tracked`` field (a sentence describing the last move) is the index of the last
  player action the caller applied, -1 before the first.

A raw info field with no :class:`Field` is a ``ValueError`` naming it, so a change to a
game's infos cannot go unnoticed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

_BIG = np.iinfo(np.int64).max


@dataclass(frozen=True)
class Field:
    """One numeric info entry, read from ``path`` of the raw info.

    Attributes:
        path: the keys leading to the raw value (``("last_flip", "seat")``).
        size: ``None`` for a scalar, else the length of a per-seat vector.
        missing: the value (every entry of it) while the raw info has nothing there.
        codes: for a word, the words in index order.
        seat_set: the raw value is a list of seats, shown as 0 / 1 per seat.
        tracked: the raw value is text about the last move; the numeric value is the
            last player action applied (given to :func:`encode_info`).
    """

    path: tuple[str, ...]
    size: int | None = None
    missing: int = -1
    codes: tuple[str, ...] | None = None
    seat_set: bool = False
    tracked: bool = False

    @property
    def key(self) -> str:
        return "_".join(self.path)

    @property
    def space(self) -> spaces.Box:
        shape = () if self.size is None else (self.size,)
        return spaces.Box(-_BIG - 1, _BIG, shape=shape, dtype=np.int64)

    def encode(self, value: Any) -> np.ndarray:
        """The raw ``value`` (``None`` when absent) as this field's array."""
        shape = () if self.size is None else (self.size,)
        if value is None or (self.codes is not None and value == ""):
            return np.full(shape, self.missing, dtype=np.int64)
        if self.codes is not None:
            if value not in self.codes:
                raise ValueError(f"info field {self.key}={value!r}; known values: {self.codes}")
            return np.array(self.codes.index(value), dtype=np.int64)
        if self.seat_set:
            out = np.zeros(shape, dtype=np.int64)
            out[list(value)] = 1
            return out
        out = np.asarray(value, dtype=np.int64)
        if out.shape != shape:
            raise ValueError(f"info field {self.key} has shape {out.shape}; expected {shape}")
        return out


def illegal_action_fields(agents: Sequence[str]) -> list[Field]:
    """The fields of the ``illegal_action`` report of an env with
    ``illegal_action="penalize"``: the offender's seat and its action, -1 until then."""
    return [
        Field(("illegal_action", "agent"), codes=tuple(agents)),
        Field(("illegal_action", "action")),
    ]


def info_space(fields: Sequence[Field]) -> spaces.Dict:
    """The keys, shapes and dtype of the infos :func:`encode_info` makes."""
    return spaces.Dict({f.key: f.space for f in fields})


def encode_info(
    fields: Sequence[Field], info: dict[str, Any], last_action: int = -1, name: str = "the env"
) -> dict[str, np.ndarray]:
    """The raw ``info`` as one ``int64`` array per field; ``last_action`` fills the tracked
    fields. A raw value with no field is a ``ValueError`` naming it and ``name``."""
    known_paths = {f.path[:i] for f in fields for i in range(1, len(f.path) + 1)}
    unknown = [".".join(p) for p in _paths(info) if p not in known_paths]
    if unknown:
        known = sorted(f.key for f in fields)
        raise ValueError(f"info field(s) {unknown} of {name} have no numeric form; known: {known}")
    out = {}
    for f in fields:
        if f.tracked:
            out[f.key] = np.array(last_action, dtype=np.int64)
            continue
        value = info.get(f.path[0])
        for k in f.path[1:]:
            value = None if value is None else value.get(k)
        out[f.key] = f.encode(value)
    return out


def _paths(info: dict[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The paths of the values in a (nested) raw info."""
    out = []
    for k, v in info.items():
        out += _paths(v, (*prefix, k)) if isinstance(v, dict) else [(*prefix, k)]
    return out
