"""``moon-envs eval``: a tournament between agents, its table, and the files it writes."""

from __future__ import annotations

import argparse
from typing import TextIO

from moon_agents.cli.usage import UsageError, parse_params


def cmd_eval(args: argparse.Namespace, out: TextIO) -> int:
    from moon_agents.evaluation.tournament import tournament

    if len(args.agents) < 2:
        raise UsageError("eval needs at least two agents: --agents A B [...]")
    if args.games < 1:
        raise UsageError(f"--games {args.games}: allowed: 1 or more")
    result = tournament(
        args.env,
        args.agents,
        args.games,
        seed=args.seed,
        env_params=parse_params(args.param),
        progress=not args.no_progress,
    )
    print(result.table(), file=out)
    if args.out:
        path = result.save(args.out)
        print(
            f"\nwrote {path}/results.csv, results.json, games.csv, table.md, win_rates.png",
            file=out,
        )
    return 0
