"""The leaves of a snapshot and the fixed mutations of each, for
:mod:`moon_agents.benchmarks.snapshot_mutations`.

A snapshot (``env.get_state()``) is a tree of mappings, lists and scalars; encoded arrays
(``{"__ndarray__": ..., "dtype": ..., "shape": ...}``) count as one leaf. :func:`leaves`
lists the paths to every leaf, :func:`mutations` the fixed mutations of one and
:func:`transplants` the values the same field holds in other snapshots; :func:`put`
builds the mutated snapshot, sharing what it does not change.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

PER_AGENT = ("rewards", "cumulative_rewards", "terminations", "truncations", "infos")
"""Fields of an env snapshot holding one entry per agent."""


def _picks(keys: list, max_items: int | None) -> list:
    if max_items is None or len(keys) <= max_items:
        return keys
    return [*keys[: max_items - 1], keys[-1]]


def leaves(tree: Any, max_items: int | None = None, path: tuple = ()) -> Iterator[tuple]:
    """Paths to every leaf of a snapshot: scalars, mappings and lists (tagged tuples, sets
    and item lists included; each also walked into) and encoded arrays (not walked into).
    With ``max_items``, a list longer than that, and a per-agent field of more agents, is
    walked into at its first ``max_items - 1`` entries and its last."""
    if isinstance(tree, dict):
        if path or "__ndarray__" in tree:
            yield path
        if "__ndarray__" in tree:
            return
        keys = list(tree)
        if len(path) == 1 and path[0] in PER_AGENT:
            keys = _picks(keys, max_items)
        for key in keys:
            yield from leaves(tree[key], max_items, (*path, key))
    elif isinstance(tree, list):
        yield path
        for i in _picks(list(range(len(tree))), max_items):
            yield from leaves(tree[i], max_items, (*path, i))
    else:
        yield path


def get(tree: Any, path: tuple) -> Any:
    for key in path:
        tree = tree[key]
    return tree


def put(tree: Any, path: tuple, value: Any) -> Any:
    """``tree`` with ``value`` at ``path``: the containers along the path are copied, the
    rest is shared (``set_state`` never changes what it is given)."""
    if not path:
        return value
    out = copy.copy(tree)
    out[path[0]] = put(tree[path[0]], path[1:], value)
    return out


def _int_mutations(v: int) -> list[tuple[str, Any]]:
    out = [("+1", v + 1), ("-1", v - 1), ("2**63", 2**63), ("negative", -abs(v) - 1)]
    out += [("zero", 0)] if v else []
    return [*out, ("as str", str(v)), ("as float", v + 0.5), ("as null", None)]


def _float_mutations(v: float) -> list[tuple[str, Any]]:
    return [
        ("nan", math.nan),
        ("inf", math.inf),
        ("1e300", 1e300),
        ("+1", v + 1.0),
        ("negated", -v - 1.0),
        ("as str", str(v)),
        ("as null", None),
    ]


def _list_mutations(v: list) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if v:
        out += [("drop last", v[:-1]), ("append duplicate", [*v, v[-1]]), ("empty", [])]
    else:
        out += [("append 0", [0]), ("append str", ["x"])]
    if len(v) > 1 and v != v[::-1]:
        out.append(("reversed", v[::-1]))
    return [*out, ("as int", 0)]


def _array_mutations(v: dict) -> list[tuple[str, Any]]:
    data = np.array(v["__ndarray__"], dtype=v["dtype"]).reshape(v["shape"])
    flat = data.reshape(-1)
    out: list[tuple[str, Any]] = [("as int", 0), ("as list", flat.tolist())]
    if flat.size:
        for where, i in sorted({("first", 0), ("middle", flat.size // 2), ("last", flat.size - 1)}):
            changed: list[tuple[str, Any]]
            if data.dtype == bool:
                changed = [("flipped", not flat[i]), ("2", 2)]
            elif data.dtype.kind == "f":
                changed = [("nan", math.nan), ("inf", math.inf), ("1e300", 1e300)]
                changed += [("+1", float(flat[i]) + 1), ("negated", -float(flat[i]) - 1)]
            else:
                changed = [("+1", int(flat[i]) + 1), ("-1", int(flat[i]) - 1)]
                changed += [("2**63", 2**63), ("negative", -abs(int(flat[i])) - 1)]
            for name, x in changed:
                values = flat.tolist()
                values[i] = x
                nested = np.array(values, dtype=object).reshape(data.shape).tolist()
                out.append((f"{where} element {name}", {**v, "__ndarray__": nested}))
        short = flat[:-1].tolist()
        out.append(("drop last element", {**v, "__ndarray__": short, "shape": [len(short)]}))
    other = "float64" if data.dtype.kind != "f" else "int64"
    as_other = data.astype(other).tolist() if data.dtype.kind != "f" else data.tolist()
    out.append((f"as {other}", {**v, "__ndarray__": as_other, "dtype": other}))
    return out


MIXED_SET = ("as mixed set", {"__set__": [0, "x"]})
"""Tried on every leaf: a set whose members cannot be ordered (a snapshot lists them sorted)."""


def mutations(value: Any) -> list[tuple[str, Any]]:
    """The fixed mutations of one leaf: ``(name, new value)`` pairs."""
    return [*_mutations(value), MIXED_SET]


def _mutations(value: Any) -> list[tuple[str, Any]]:
    if isinstance(value, dict) and "__ndarray__" in value:
        return _array_mutations(value)
    if isinstance(value, dict):
        out = [("add field", {**value, "extra": 0}), ("as list", []), ("as int", 0)]
        out.append(("add a mixed set", {**value, "extra": MIXED_SET[1]}))
        return [*out, ("drop a field", dict(list(value.items())[1:]))] if value else out
    if isinstance(value, bool):
        return [("flipped", not value), ("as int", int(value)), ("as str", str(value).lower())]
    if isinstance(value, int):
        return _int_mutations(value)
    if isinstance(value, float):
        return _float_mutations(value)
    if isinstance(value, str):
        return [("other str", value + "x"), ("empty str", ""), ("as int", 0), ("as null", None)]
    if value is None:
        return [("as int", 0), ("as str", "x"), ("as list", []), ("as bool", False)]
    return _list_mutations(value)


def transplants(path: tuple, value: Any, others: Sequence[Any], limit: int = 2) -> list:
    """Up to ``limit`` distinct values the field holds in ``others`` (other snapshots of
    the case), as ``("transplant", value)`` mutations."""
    out: list[tuple[str, Any]] = []
    for snap in others:
        try:
            x = get(snap, path)
        except (KeyError, IndexError, TypeError):
            continue
        if x != value and all(x != y for _, y in out):
            out.append(("transplant", x))
            if len(out) == limit:
                break
    return out
