"""``moon-envs list ENV``: an environment's page and every parameter with its default and
allowed values (read from the game's config dataclass and its documented attributes)."""

from __future__ import annotations

import dataclasses
import inspect
import re

ADAPTER_PARAMS = {
    "render_mode": ("None", '"ansi", "human", "rgb_array" or None'),
    "render_seat": (
        "None",
        "None (the spectator's view) or a seat 0..N-1 / agent name: render() shows only "
        "what that seat may know",
    ),
    "reward_mode": (
        '"win"',
        '"win" (terminal +1 shared by the winners, -1 by the others) or "score"',
    ),
    "illegal_action": ('"raise"', '"raise" (IllegalActionError) or "penalize" (-1, game over)'),
}


def attribute_docs(cls: type) -> dict[str, str]:
    """``{name: description}`` from the ``Attributes:`` section of ``cls``'s docstring."""
    doc = inspect.getdoc(cls) or ""
    out: dict[str, str] = {}
    in_attrs = False
    current: list[str] = []
    for line in doc.splitlines():
        if line.strip() == "Attributes:":
            in_attrs = True
            continue
        if not in_attrs:
            continue
        m = re.match(r"^    (\w+(?:, \w+)*)(?: \([^)]*\))?: ?(.*)$", line)
        if m:
            current = m.group(1).split(", ")
            for name in current:
                out[name] = m.group(2).strip()
        elif line.startswith("        ") and current:
            for name in current:
                out[name] += " " + line.strip()
        elif line.strip() and not line.startswith(" "):
            break  # the next section
    return out


def parameter_lines(env_id: str) -> list[str]:
    """One line per parameter: ``name = default: allowed values / meaning``; the game's
    parameters, then those every env takes (:func:`adapter_parameter_lines`)."""
    return game_parameter_lines(env_id) + adapter_parameter_lines()


def adapter_parameter_lines() -> list[str]:
    """The parameters every env takes (rendering, rewards, illegal actions), one a line."""
    items = ADAPTER_PARAMS.items()
    return [f"  {name} = {default}: {allowed}" for name, (default, allowed) in items]


def game_parameter_lines(env_id: str) -> list[str]:
    """One line per parameter of ``env_id``'s game, read from its config dataclass."""
    import moon_envs
    from moon_envs.core.checks import recording_allowed_values

    entry = moon_envs.get_entry(env_id)
    config_class = entry.env_class().game_class.config_class
    docs = attribute_docs(config_class)
    with recording_allowed_values() as allowed:  # what the config's own checks accept
        config_class(**{k: v for k, v in entry.defaults.items() if k not in ADAPTER_PARAMS})
    lines = []
    for f in dataclasses.fields(config_class):
        if f.default is not dataclasses.MISSING:
            default = repr(entry.defaults.get(f.name, f.default))
        elif f.default_factory is not dataclasses.MISSING:
            default = repr(entry.defaults.get(f.name, f.default_factory()))
        else:
            default = "(required)"
        text = docs.get(f.name, f"({f.type})")
        if f.name in allowed:
            text += f" Allowed: {allowed[f.name]}."
        lines.append(f"  {f.name} = {default}: {text}")
    return lines


def env_page(env_id: str) -> str:
    """The documentation page of ``env_id`` followed by its parameter list."""
    import moon_envs

    entry = moon_envs.get_entry(env_id)
    head = f"{env_id}: {entry.summary}\n{'=' * (len(env_id) + 2 + len(entry.summary))}\n"
    params = "\n".join(parameter_lines(env_id))
    return f"{head}\n{entry.doc}\n\nParameters (name = default: allowed values)\n{params}\n"
