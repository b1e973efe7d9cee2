"""``moon-envs list``: the registered envs with their summaries and agents, or one env's page."""

from __future__ import annotations

import argparse
from typing import TextIO


def cmd_list(args: argparse.Namespace, out: TextIO) -> int:
    import moon_envs
    from moon_agents.zoo import agent_names

    if args.env:
        from moon_agents.cli.env_page import env_page

        print(env_page(args.env), file=out)
        return 0
    for env_id in moon_envs.list_envs():
        entry = moon_envs.get_entry(env_id)
        try:
            env = moon_envs.make(env_id)
        except ImportError:
            print(f"{env_id:<20} {entry.summary}  [not available in this install]", file=out)
            continue
        spec = env.game.spec
        print(f"{env_id:<20} {entry.summary}", file=out)
        print(
            f"{'':<20} game={spec.name} players={spec.num_players} actions={spec.num_actions} "
            f"obs={spec.observation_shape}",
            file=out,
        )
        names = ", ".join(agent_names(spec.name))
        print(f"{'':<20} agents: {names}, ppo:PATH, az:PATH, rllib:PATH", file=out)
        if args.params:
            print(f"{'':<20} params: {', '.join(moon_envs.valid_params(env_id))}", file=out)
    return 0
