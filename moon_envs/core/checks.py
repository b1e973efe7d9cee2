"""Checks of parameters and actions, shared by every game's config and the core.

Each raises :class:`ConfigError` (parameters) or :class:`IllegalActionError` (actions)
naming the field and what is allowed, quoting the bad value briefly.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from moon_envs.core.errors import ConfigError, IllegalActionError
from moon_envs.core.snapshot import quote


def config_from_kwargs(config_cls: type, kwargs: Mapping[str, Any]) -> Any:
    """Build a frozen config dataclass, rejecting unknown keys with the list of valid ones."""
    names = [f.name for f in dataclasses.fields(config_cls)]
    unknown = sorted(set(kwargs) - set(names))
    if unknown:
        raise ConfigError(
            f"unknown parameter(s) {quote(unknown, 200)} for {config_cls.__name__}; "
            f"valid parameters: {names}"
        )
    return config_cls(**kwargs)


_RECORDERS: list[dict[str, str]] = []


@contextmanager
def recording_allowed_values() -> Iterator[dict[str, str]]:
    """Within this block, every :func:`check_choice`, :func:`check_int` and
    :func:`check_bool` records ``{field: allowed values}`` in the dict it yields (the first
    check of a field wins): ``moon-envs list ENV`` reads a game's allowed values from its
    config's own checks, so the page cannot drift from what the code enforces."""
    found: dict[str, str] = {}
    _RECORDERS.append(found)
    try:
        yield found
    finally:
        _RECORDERS.pop()


def _record(field: str, allowed: str) -> None:
    if _RECORDERS:
        _RECORDERS[-1].setdefault(field, allowed)


def check_choice(field: str, value: Any, allowed: Sequence[Any]) -> None:
    """Raise :class:`ConfigError` unless ``value`` is one of ``allowed``."""
    if _RECORDERS:
        _record(field, "one of " + ", ".join(repr(a) for a in allowed))
    if value not in allowed:
        raise ConfigError(f"{field}={quote(value)} is not allowed; allowed values: {list(allowed)}")


def check_int(field: str, value: Any, low: int | None = None, high: int | None = None) -> None:
    """Raise :class:`ConfigError` unless ``value`` is an int in ``[low, high]``."""
    if _RECORDERS:
        _record(
            field, f"an integer {'-inf' if low is None else low}..{'inf' if high is None else high}"
        )
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise ConfigError(f"{field} must be an integer, got {quote(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else low
        hi = "inf" if high is None else high
        raise ConfigError(f"{field}={quote(value)} is out of range; allowed: {lo}..{hi}")


def action_index(action: Any, num_actions: int) -> int:
    """``action`` as a plain int, or :class:`IllegalActionError` if it is not an integer.

    Accepted: ints, numpy integer scalars, 0-d integer arrays and integral finite floats
    (``3.0``). Refused: bools, non-integral or non-finite floats, strings, arrays of other
    shapes and any other object.
    """
    if type(action) is int:
        return action
    value = action
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (bool, np.bool_)):
        pass
    elif isinstance(value, (float, np.floating)):
        if math.isfinite(value) and value == math.floor(value):
            return int(value)
    elif isinstance(value, (int, np.integer)):
        return int(value)
    raise IllegalActionError(
        f"action must be an integer in 0..{num_actions - 1}, got {type(action).__name__} "
        f"{quote(action)}"
    )


def check_bool(field: str, value: Any) -> None:
    """Raise :class:`ConfigError` unless ``value`` is a bool."""
    _record(field, "True or False")
    if not isinstance(value, (bool, np.bool_)):
        raise ConfigError(f"{field} must be True or False, got {quote(value)}")


# ---- positions rebuilt from snapshots (the games' ``validate_state``) ------------------


def check_array(field: str, value: Any, shape: tuple[int, ...], dtype: str) -> np.ndarray:
    """Raise :class:`ConfigError` unless ``value`` is a numpy array of that shape and dtype."""
    if not isinstance(value, np.ndarray):
        raise ConfigError(f"{field} must be a numpy array of shape {shape}, got {type(value)}")
    if value.shape != shape or value.dtype != np.dtype(dtype):
        raise ConfigError(
            f"{field} must have shape {shape} and dtype {dtype}, "
            f"got shape {value.shape} and dtype {value.dtype}"
        )
    return value


def check_position_fields(state: Any) -> None:
    """Raise :class:`ConfigError` unless ``state`` has exactly the fields of a new position
    of its game (caches, named ``_c_...``, aside)."""
    game_class = type(state)._game_class()
    if not isinstance(state.game, game_class):
        raise ConfigError(
            f"game must be a {game_class.__name__}, got {type(state.game).__name__} "
            f"('game' is not a position field)"
        )
    fresh = state.game.new_initial_state()
    expected = {k for k in vars(fresh) if k != "game" and not k.startswith("_c_")}
    present = {k for k in vars(state) if k != "game" and not k.startswith("_c_")}
    if present - expected:
        raise ConfigError(
            f"unknown field(s) {sorted(present - expected)}; allowed fields: {sorted(expected)}"
        )
    if expected - present:
        raise ConfigError(f"missing field(s) {sorted(expected - present)}")


def check_range(field: str, value: np.ndarray, low: int, high: int | None = None) -> None:
    """Raise :class:`ConfigError` unless every entry of ``value`` is in ``[low, high]``."""
    bad = value < low if high is None else (value < low) | (value > high)
    if bad.any():
        where = int(np.flatnonzero(bad.ravel())[0])
        allowed = f"{low}..{'inf' if high is None else high}"
        raise ConfigError(
            f"{field}[{where}]={quote(value.ravel()[where].item())} is out of range; "
            f"allowed: {allowed}"
        )


def read_file_capped(path: Any, limit: int, field: str, expected: str = "a file") -> bytes:
    """The bytes of the regular file ``path``, reading at most ``limit + 1`` bytes whatever
    the file system reports; a :class:`ConfigError` naming ``field`` and what the path is
    for a folder, a FIFO or device (never opened: reading one could block or never end),
    a missing path, or a file larger than ``limit`` bytes."""
    shown = quote(str(path), 120)
    try:
        p = Path(path)
        if p.is_dir():
            raise ConfigError(f"{field}={shown} is a folder; expected {expected}")
        if p.exists() and not p.is_file():
            raise ConfigError(
                f"{field}={shown} is not a regular file (a FIFO, socket or device); "
                f"expected {expected}"
            )
        if not p.exists():
            raise ConfigError(f"{field}={shown} does not exist; expected {expected}")
        with open(p, "rb") as f:
            raw = f.read(limit + 1)
    except ConfigError:
        raise
    except (OSError, ValueError) as err:  # no permission, a name too long, a NUL byte...
        raise ConfigError(f"{field}={shown} cannot be read: {type(err).__name__}") from None
    if len(raw) > limit:
        raise ConfigError(f"{field}={shown}: the file is larger than {limit:,} bytes")
    return raw
