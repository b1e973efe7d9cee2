"""The JSON snapshot format of positions and environments, read as untrusted input.

:meth:`State.to_dict` / :meth:`State.from_dict` and ``env.get_state()`` /
``env.set_state()`` exchange plain JSON data: ints, floats, bools, strings, ``None``, lists
and mappings with string keys, plus four tagged mappings for what JSON lacks:
``{"__ndarray__": nested list, "dtype": name, "shape": [...]}``, ``{"__tuple__": [...]}``,
``{"__set__": [...]}`` and ``{"__items__": [[key, value], ...]}`` (mappings whose keys are
not strings).

Snapshots may come from files or other programs, so decoding checks everything before
anything is built: only JSON values (finite numbers: no NaN or infinity, which strict JSON
lacks; ints within 64 bits), at most :data:`MAX_VALUES` values, strings of at most
:data:`MAX_STRING` characters and :data:`MAX_DEPTH` levels of nesting, arrays only of
the numeric dtypes in :data:`ARRAY_DTYPES` whose data matches their declared shape. Every
problem is a :class:`ConfigError` naming the field; quoted values are cut to
:data:`MAX_QUOTE` characters.
"""

from __future__ import annotations

import math
import reprlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from moon_envs.core.errors import ConfigError

MAX_VALUES = 1_000_000
"""Most values (list items, mapping entries, array elements) one snapshot may hold."""
MAX_DEPTH = 32
"""Deepest nesting of lists and mappings in a snapshot."""
MAX_STRING = 10_000
"""Longest string in a snapshot (move names, text fields, info values)."""
MAX_INFO_VALUES = 10_000
"""Most values the ``infos`` of an env snapshot may hold, all agents together (the games
give at most a few hundred)."""
MIN_INT, MAX_INT = -(2**63), 2**64
"""Snapshot ints lie in ``MIN_INT <= n < MAX_INT`` (int64 and uint64), as array values do."""
MAX_QUOTE = 80
"""Longest quoted value in an error message (longer ones are cut with ``...``)."""
ARRAY_DTYPES = frozenset(
    ["bool", "float16", "float32", "float64"]
    + [f"{s}int{b}" for s in ("", "u") for b in (8, 16, 32, 64)]
)
"""dtypes an encoded array may declare."""
_TAGS = ("__ndarray__", "__tuple__", "__set__", "__items__")


class _ShortRepr(reprlib.Repr):
    """``repr`` that stops early: a few items of each container, a few levels, short
    strings and numbers, so quoting a huge value (a long list, a YAML alias bomb, an
    integer of thousands of digits) costs little."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.maxlevel = 4
        self.maxtuple = self.maxlist = self.maxarray = self.maxdeque = 12
        self.maxdict = self.maxset = self.maxfrozenset = 8
        self.maxstring = self.maxother = limit
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 4000:  # beyond Python's limit for int -> str
            return f"<int of {x.bit_length()} bits>"
        return super().repr_int(x, level)


def quote(value: Any, limit: int = MAX_QUOTE) -> str:
    """``repr(value)``, cut to ``limit`` characters, for error messages (containers show
    their first items only; the cost does not grow with the value's size)."""
    try:
        text = _ShortRepr(limit).repr(value)
    except Exception:  # a hostile __repr__ must not replace the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---- encoding ---------------------------------------------------------------------------------


def encode(v: Any) -> Any:
    """A position field (numpy arrays and scalars, tuples, sets, mappings...) as JSON data."""
    if isinstance(v, np.ndarray):
        return {"__ndarray__": v.tolist(), "dtype": str(v.dtype), "shape": list(v.shape)}
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, tuple):
        return {"__tuple__": [encode(x) for x in v]}
    if isinstance(v, (set, frozenset)):
        return {"__set__": sorted(encode(x) for x in v)}
    if isinstance(v, list):
        return [encode(x) for x in v]
    if isinstance(v, dict):
        if not all(isinstance(k, str) for k in v):
            return {"__items__": [[encode(k), encode(x)] for k, x in v.items()]}
        return {k: encode(x) for k, x in v.items()}
    return v


# ---- checked decoding -------------------------------------------------------------------------


def decode(
    v: Any, field: str = "value", max_values: int = MAX_VALUES, what: str = "the snapshot"
) -> Any:
    """Inverse of :func:`encode`, checking that ``v`` is snapshot data (see the module doc)
    of at most ``max_values`` values (``what`` names the whole in the message).

    Raises :class:`ConfigError` naming the offending ``field`` (a dotted path).
    """
    return _Decoder(max_values, what).decode(v, field, 0)


def _child(field: str, key: str) -> str:
    return f"{field}.{key}" if key.isidentifier() else f"{field}[{quote(key, 40)}]"


class _Decoder:
    def __init__(self, max_values: int, what: str) -> None:
        self.left = max_values
        self.max_values = max_values
        self.what = what

    def spend(self, n: int, field: str) -> None:
        self.left -= n
        if self.left < 0:
            raise ConfigError(
                f"{field}: {self.what} is too large; allowed: at most {self.max_values:,} values"
            )

    def decode(self, v: Any, field: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise ConfigError(f"{field}: nested too deeply; allowed: at most {MAX_DEPTH} levels")
        self.spend(1, field)
        if v is None or isinstance(v, bool):
            return v
        if isinstance(v, int):
            check_snapshot_int(field, v)
            return v
        if isinstance(v, float):
            if not math.isfinite(v):
                raise ConfigError(f"{field}={v} is not allowed; snapshot numbers are finite")
            return float(v)
        if isinstance(v, str):
            if len(v) > MAX_STRING:
                raise ConfigError(
                    f"{field}: a string of {len(v):,} characters; allowed: at most {MAX_STRING:,}"
                )
            self.spend(len(v) // 64, field)
            return v
        if isinstance(v, list):
            return [self.decode(x, f"{field}[{i}]", depth + 1) for i, x in enumerate(v)]
        if isinstance(v, Mapping):
            return self.decode_mapping(v, field, depth)
        raise ConfigError(
            f"{field}: {type(v).__name__} {quote(v)} is not snapshot data; allowed: null, "
            "bool, int, float, str, list and mappings with str keys"
        )

    def decode_mapping(self, v: Mapping, field: str, depth: int) -> Any:
        tag = next((t for t in _TAGS if t in v), None)
        if tag is None:
            bad = [k for k in v if not isinstance(k, str)]
            if bad:
                raise ConfigError(f"{field}: mapping key {quote(bad[0])} is not a str")
            return {k: self.decode(x, _child(field, k), depth + 1) for k, x in v.items()}
        if tag == "__ndarray__":
            return self.decode_array(v, field)
        if set(v) != {tag}:
            raise ConfigError(f"{field}: a {tag} mapping has no other keys, got {quote(list(v))}")
        items = v[tag]
        if not isinstance(items, list):
            raise ConfigError(f"{field}.{tag} must be a list, got {type(items).__name__}")
        decoded = self.decode(items, f"{field}.{tag}", depth + 1)
        try:
            if tag == "__tuple__":
                return tuple(decoded)
            if tag == "__set__":
                members = set(decoded)
                sorted(members)  # encode() lists a set sorted
                return members
            if not all(isinstance(p, list) and len(p) == 2 for p in decoded):
                raise ConfigError(f"{field}.__items__ must hold [key, value] pairs")
            return {k: x for k, x in decoded}
        except TypeError:  # unhashable set members or keys; set members that do not sort
            raise ConfigError(
                f"{field}.{tag}: members and keys must be hashable, set members of one kind "
                f"(numbers, strings or tuples of them), got {quote(decoded)}"
            ) from None

    def decode_array(self, v: Mapping, field: str) -> np.ndarray:
        if set(v) != {"__ndarray__", "dtype", "shape"}:
            raise ConfigError(
                f"{field}: an encoded array has exactly the keys __ndarray__, dtype and shape, "
                f"got {quote(list(v))}"
            )
        dtype, shape, data = v["dtype"], v["shape"], v["__ndarray__"]
        if not isinstance(dtype, str) or dtype not in ARRAY_DTYPES:
            raise ConfigError(
                f"{field}.dtype={quote(dtype)} is not allowed; allowed: {sorted(ARRAY_DTYPES)}"
            )
        if (
            not isinstance(shape, list)
            or len(shape) > MAX_DEPTH
            or not all(type(n) is int and n >= 0 for n in shape)
        ):
            raise ConfigError(
                f"{field}.shape={quote(shape)} must be a list of at most {MAX_DEPTH} "
                "non-negative ints"
            )
        size = math.prod(shape)
        self.spend(size, field)
        _check_nested_numbers(data, shape, field)  # before numpy builds anything from it
        try:
            raw = np.array(data)
        except (ValueError, TypeError):
            raise ConfigError(f"{field}.__ndarray__ is not a rectangular list of numbers") from None
        if raw.size != size:
            raise ConfigError(
                f"{field}: {raw.size} values do not fill the declared shape {tuple(shape)}"
            )
        target = np.dtype(dtype)
        allowed_kinds = {"b": "b", "i": "biu", "u": "biu", "f": "biuf"}[target.kind]
        if size and raw.dtype.kind not in allowed_kinds:
            raise ConfigError(f"{field}: values of kind {raw.dtype} cannot be stored as {dtype}")
        if raw.dtype.kind == "f" and not np.isfinite(raw).all():
            raise ConfigError(f"{field}: non-finite values (nan, inf) are not allowed")
        with np.errstate(over="ignore", invalid="ignore"):  # out of range: refused below
            arr = raw.astype(target).reshape(shape)
        if target.kind == "f" and not np.isfinite(arr).all():  # e.g. 1e300 as float16
            raise ConfigError(f"{field}: values out of range for {dtype}")
        if target.kind in "iu" and size and not np.array_equal(arr, raw.reshape(shape)):
            raise ConfigError(f"{field}: values out of range for {dtype}")
        return arr


def check_snapshot_int(field: str, value: int) -> None:
    """Raise :class:`ConfigError` unless the int ``value`` lies within 64 bits
    (:data:`MIN_INT` .. :data:`MAX_INT` - 1); a larger one is named by its size."""
    if not MIN_INT <= value < MAX_INT:
        raise ConfigError(
            f"{field}: {quote(value)} is out of range; allowed: ints in {MIN_INT}..{MAX_INT - 1}"
        )


def check_text(field: str, value: Any, allowed: Sequence[str]) -> str:
    """``value`` if it is a str among ``allowed``, else a :class:`ConfigError` naming
    ``field``; checked as a str first, so that an array or another object given for a
    name is refused rather than compared element by element."""
    if not isinstance(value, str) or value not in allowed:
        raise ConfigError(f"{field}={quote(value)} is not allowed; allowed: {list(allowed)}")
    return value


def _check_nested_numbers(data: Any, shape: list[int], field: str) -> None:
    """``data`` must be nested lists of exactly ``shape`` holding only numbers (bools, ints
    within 64 bits, floats). Checked by one walk over what was given, so that a string,
    a huge integer or a ragged list is refused before numpy sizes an array after it (one
    2 MB string among the numbers made ``np.array`` build a 2 MB-per-element array)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if depth == len(shape):
            if type(item) in (bool, float) or (type(item) is int and -(2**63) <= item < 2**64):
                continue
            what = f"a string of {len(item):,} characters" if isinstance(item, str) else kind(item)
            raise ConfigError(
                f"{field}.__ndarray__ holds {what}; allowed: numbers only (within 64 bits)"
            )
        if not isinstance(item, list) or len(item) != shape[depth]:
            raise ConfigError(
                f"{field}.__ndarray__ is not a rectangular list of numbers of shape {tuple(shape)}"
            )
        stack.extend((x, depth + 1) for x in item)


# ---- comparing with a template ----------------------------------------------------------------


def kind(v: Any) -> str:
    """The snapshot kind of a decoded value: ``int``, ``float``, ``bool``, ``str``, ``None``,
    ``list``, ``tuple``, ``set``, ``dict`` or ``ndarray[dtype, ndim]``."""
    if isinstance(v, np.ndarray):
        return f"ndarray[{v.dtype}, ndim={v.ndim}]"
    if v is None:
        return "None"
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, (int, np.integer)):
        return "int"
    if isinstance(v, (float, np.floating)):
        return "float"
    if isinstance(v, (set, frozenset)):
        return "set"
    return type(v).__name__


def check_like(field: str, template: Any, value: Any) -> None:
    """Raise :class:`ConfigError` unless ``value`` has the kind of ``template`` (any kind
    where the template is ``None``; an int where a float is expected)."""
    if template is None:
        return
    want, got = kind(template), kind(value)
    if want == got or (want == "float" and got == "int"):
        return
    raise ConfigError(f"{field} must be {want}, got {got} {quote(value)}")


def check_fields(where: str, expected: Mapping[str, Any], given: Any) -> None:
    """Raise :class:`ConfigError` unless ``given`` is a mapping with exactly the keys of
    ``expected`` (naming the unknown or missing ones)."""
    if not isinstance(given, Mapping):
        raise ConfigError(f"{where} must be a mapping, got {type(given).__name__}")
    unknown = [k for k in given if k not in expected]
    if unknown:
        raise ConfigError(
            f"{where}: unknown field {quote(unknown[0], 40)}; allowed fields: {sorted(expected)}"
        )
    missing = [k for k in expected if k not in given]
    if missing:
        raise ConfigError(f"{where}: missing field(s) {sorted(missing)}")


def check_same_config(expected: Mapping[str, Any], given: Any) -> None:
    """Raise :class:`ConfigError` naming the first parameter where the snapshot's encoded
    game config ``given`` differs from this game's ``expected`` one."""
    check_fields("snapshot config", expected, given)
    for name, value in expected.items():
        try:
            same = bool(given[name] == value)
        except Exception:  # e.g. an array compared with a list: not the same parameter
            same = False
        if not same:
            raise ConfigError(
                f"the snapshot was taken with {name}={quote(given[name])}, but this game has "
                f"{name}={quote(value)}; make an env with the snapshot's parameters"
            )
