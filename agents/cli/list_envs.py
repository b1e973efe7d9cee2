"""``moon-envs list``: the registered envs with their summaries, agents and parameters, or
one env's page.

Each env's block ends with its game's parameters, one per line (``name = default:
meaning and allowed values``, wrapped), read from the game's config dataclass as the
env's page does (:mod:`moon_agents.cli.env_page`); the parameters every env takes
(rendering, rewards, illegal actions) follow once, after the last env.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import TextIO

INDENT = 21
"""Column where an env's details start (after its id)."""
WIDTH = 100
"""Width the parameter lines are wrapped to."""


def wrapped(lines: list[str], indent: int) -> list[str]:
    """``lines`` (``"  name = default: text"``) shifted right by ``indent`` and wrapped to
    :data:`WIDTH`, continuation lines indented under the text."""
    out = []
    for line in lines:
        out += textwrap.wrap(
            line.strip(),
            WIDTH,
            initial_indent=" " * (indent + 2),
            subsequent_indent=" " * (indent + 6),
            break_on_hyphens=False,
        )
    return out


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    import moon_envs
    from moon_agents.cli.env_page import adapter_parameter_lines, game_parameter_lines
    from moon_agents.zoo import agent_names

    if args.env:
        from moon_agents.cli.env_page import env_page

        print(env_page(args.env), file=out)
        return 0
    pad = " " * INDENT
    for env_id in moon_envs.list_envs():
        entry = moon_envs.get_entry(env_id)
        try:
            env = moon_envs.make(env_id)
        except ImportError:
            print(f"{env_id:<{INDENT}}{entry.summary}  [not available in this install]", file=out)
            continue
        spec = env.game.spec
        print(f"{env_id:<{INDENT}}{entry.summary}", file=out)
        print(
            f"{pad}game={spec.name} players={spec.num_players} actions={spec.num_actions} "
            f"obs={spec.observation_shape}",
            file=out,
        )
        names = ", ".join(agent_names(spec.name))
        print(f"{pad}agents: {names}, ppo:PATH, az:PATH, rllib:PATH", file=out)
        print(f"{pad}parameters (name = default: meaning, allowed values):", file=out)
        print("\n".join(wrapped(game_parameter_lines(env_id), INDENT)), file=out)
        print(file=out)
    print("Every env also takes (name = default: allowed values):", file=out)
    print("\n".join(wrapped(adapter_parameter_lines(), 0)), file=out)
    print("\nOne env's page and parameters: moon-envs list ENV_ID", file=out)
    return 0
