"""Strict reading of YAML config files: no anchors, aliases or duplicate keys, bounded depth.

:func:`read_yaml` reads a config file (UTF-8, at most :data:`MAX_CONFIG_BYTES` bytes, one
mapping); :func:`load_yaml_text` reads any YAML text, e.g. a ``--param`` value, with
:class:`StrictYamlLoader`. Every problem is a short
:class:`~moon_envs.core.game.ConfigError` naming the source.

:func:`read_config_yaml` reads a config file as :func:`read_yaml` does but returns its
duplicate keys, each with its dotted field, instead of stopping at the first: the config
loader reports them in one message with the fields the schema refuses.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from moon_agents.training.sections import _cut
from moon_envs.core.checks import read_file_capped
from moon_envs.core.game import ConfigError

MAX_CONFIG_BYTES = 1 << 20
"""Largest config file :func:`load_config` reads."""
MAX_YAML_DEPTH = 32
"""Deepest nesting of mappings and lists in a config file."""


def read_yaml(p: Path) -> dict[str, Any]:
    """The mapping in the YAML file ``p``, read with :class:`StrictYamlLoader`."""
    data, duplicates = read_config_yaml(p)
    if duplicates:
        field, why = duplicates[0]
        raise ConfigError(f"{p}: {field}: {why}")
    return data


def read_config_yaml(p: Path) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The mapping in the YAML file ``p`` (a repeated key keeps its last value), and
    ``(dotted field, what is wrong)`` for each repeated key."""
    raw = read_file_capped(p, MAX_CONFIG_BYTES, "config file", "a YAML config file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{p}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    duplicates: list[tuple[str, str]] = []
    data = load_yaml_text(text, str(p), duplicates)
    if data is None or data == {}:
        raise ConfigError(
            f"{p}: the config is empty; a config is a YAML mapping that names at least "
            "env.id, the environment to train on (e.g. env: {id: jupiter_v0}); see configs/"
        )
    if not isinstance(data, dict):
        raise ConfigError(f"{p}: the top level must be a mapping, got {type(data).__name__}")
    return data, duplicates


def load_yaml_text(
    text: str, source: str = "value", duplicates: list[tuple[str, str]] | None = None
) -> Any:
    """The data of the YAML document ``text``, read with :class:`StrictYamlLoader` (no
    anchors or aliases, no duplicate keys, at most :data:`MAX_YAML_DEPTH` levels).

    Every problem, including values PyYAML cannot convert (an integer of thousands of
    digits), is a short :class:`ConfigError` naming ``source``. Given a ``duplicates``
    list, a repeated key is appended to it as ``(dotted field, what is wrong)`` and keeps
    its last value, instead of being an error.
    """
    loader = StrictYamlLoader(text)  # a safe loader: no Python tags
    loader.name = source  # error marks name the source
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if duplicates is not None:
            duplicates += repeated_keys(node)
            loader.allow_duplicates = True
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise ConfigError(f"{source}: not valid YAML: {_cut(str(exc), 400)}") from None
    except (ValueError, RecursionError, OverflowError) as exc:
        raise ConfigError(
            f"{source}: a value cannot be read ({type(exc).__name__}: {_cut(str(exc), 200)})"
        ) from None
    finally:
        loader.dispose()


def repeated_keys(node: yaml.Node, path: str = "") -> list[tuple[str, str]]:
    """``(dotted field, what is wrong)`` for every key repeated in a mapping of ``node``."""
    found: list[tuple[str, str]] = []
    if isinstance(node, yaml.MappingNode):
        first: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            field = f"{path}.{key}" if path else str(key)
            line = key_node.start_mark.line + 1
            if key in first:
                found.append(
                    (
                        _cut(field, 200),
                        f"duplicate key {_cut(repr(key))} at line {line} (first at line "
                        f"{first[key]}); a key may appear once in a mapping",
                    )
                )
            elif key is not None:
                first[key] = line
            found += repeated_keys(value_node, field)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            found += repeated_keys(item, f"{path}.{i}" if path else str(i))
    return found


class StrictYamlLoader(yaml.SafeLoader):
    """PyYAML's safe loader that also refuses duplicate keys, anchors and aliases (so no
    alias bomb can expand) and nesting deeper than :data:`MAX_YAML_DEPTH`, and that reads
    ``3e-4`` as a float, as YAML 1.2 does (PyYAML alone reads it as a string)."""

    _depth = 0
    allow_duplicates = False  # load_yaml_text collects them instead (repeated_keys)

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise yaml.composer.ComposerError(
                None, None, "anchors and aliases (&name, *name) are not allowed", event.start_mark
            )
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH + 1:
                raise yaml.composer.ComposerError(
                    None, None, f"nested deeper than {MAX_YAML_DEPTH} levels", event.start_mark
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if self.allow_duplicates:
            return super().construct_mapping(node, deep=deep)
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                duplicate = key in seen
            except TypeError:  # an unhashable key: the base class reports it
                break
            if duplicate:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {_cut(repr(key))}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


StrictYamlLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"),
)
