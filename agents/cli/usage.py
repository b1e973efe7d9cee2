"""What every ``moon-envs`` subcommand shares: :class:`UsageError` and ``--param`` values.

A :class:`UsageError` is a bad command line: :func:`moon_agents.cli.main.main` prints it without a
traceback and exits with status 2. :func:`parse_value` reads one ``--param`` value and
:func:`parse_params` a list of ``KEY=VALUE`` items.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from moon_envs.core.game import ConfigError


class UsageError(Exception):
    """A bad command line; printed without a traceback, exit status 2."""


# ---- helpers ----------------------------------------------------------------------------------


def parse_value(text: str) -> Any:
    """A ``--param`` value: ``3`` -> 3, ``0.5`` -> 0.5, ``true`` -> True, ``none`` -> None,
    ``[3,5,8]`` -> a list, ``{"a": 1}`` -> a mapping (JSON, or YAML's flow style when PyYAML
    is installed, e.g. ``[a, b]``), anything else -> the text itself.

    Lists and mappings are read as config files are: duplicate keys, YAML anchors and
    aliases and nesting deeper than 32 levels are refused with a short message."""
    import json

    from moon_envs.core.snapshot import quote

    max_depth = 32

    def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise ValueError(f"duplicate key {quote(key)}")
            out[key] = value
        return out

    def depth(value: Any) -> int:  # nesting of lists and mappings, without recursion
        deepest, todo = 0, [(value, 0)]
        while todo:
            v, d = todo.pop()
            if isinstance(v, (list, dict)):
                deepest = max(deepest, d + 1)
                todo.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
        return deepest

    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.strip()[:1] in ("[", "{"):
        shown = quote(text)
        try:
            value = json.loads(text, object_pairs_hook=no_duplicate_keys)
        except (json.JSONDecodeError, RecursionError):
            pass
        except ValueError as exc:  # a duplicate key, or a number too long to convert
            raise UsageError(f"--param value {shown}: {quote(str(exc), 200)}") from None
        else:
            if depth(value) > max_depth:
                raise UsageError(f"--param value {shown} is nested deeper than {max_depth} levels")
            return value
        try:  # YAML's flow style, read by the strict loader of config files
            from moon_agents.training.config import load_yaml_text
        except ImportError:
            raise UsageError(
                f"--param value {shown} is not valid JSON (write lists as [3,5,8] and "
                'mappings as {"key": 1})'
            ) from None
        try:
            return load_yaml_text(text, "--param value")
        except ConfigError as exc:
            raise UsageError(f"--param value {shown} is neither JSON nor YAML: {exc}") from None
    return text


def parse_params(items: Sequence[str] | None, env_id: str | None = None) -> dict[str, Any]:
    """``["num_players=3", "planets=[3,5,8]"]`` -> ``{"num_players": 3, "planets": [3, 5, 8]}``.

    With ``env_id``, a parameter whose default is text keeps the text typed: Star Master's
    ``memory=none`` is the mode ``"none"``, not Python's None."""
    text_params = _text_params(env_id) if env_id else set()
    out: dict[str, Any] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--param expects KEY=VALUE, got {item!r}")
        key = key.strip()
        out[key] = value.strip() if key in text_params else parse_value(value)
    return out


def _text_params(env_id: str) -> set[str]:
    """The parameters of ``env_id``'s game config whose default is a string (none for an
    unknown id: the env's own check names the allowed ids)."""
    import dataclasses

    import moon_envs

    try:
        entry = moon_envs.get_entry(env_id)
        config_class = entry.env_class().game_class.config_class
    except Exception:  # an unknown env id is reported where the env is made
        return set()
    out = set()
    for f in dataclasses.fields(config_class):
        default = entry.defaults.get(f.name, f.default)
        if isinstance(default, str):
            out.add(f.name)
    return out
