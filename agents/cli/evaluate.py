"""``moon-envs eval``: a tournament between agents, its table, and the files it writes.

``--agents`` names one agent per seat, as in ``moon-envs play``: their number is the
player count (``--param num_players=N`` must then agree), and every game seats them in
another order (all orders in turn). The output starts with the env, its parameters, the
player count and how the agents sat; trained agents' parameters are set with a note on
stderr (:mod:`moon_agents.seating`). A bar on stderr counts the games, with an ETA
(``--progress/--no-progress``, :mod:`moon_agents.progress`). ``--out`` is checked before
the first game: an existing file there is refused (a folder path is needed).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from moon_agents.cli.usage import UsageError, parse_params


def cmd_eval(args: argparse.Namespace, out: TextIO) -> int:
    from moon_agents.evaluation.tournament import tournament
    from moon_agents.seating import allowed_player_counts, counts_text

    params = parse_params(args.param, args.env)
    if len(args.agents) < 2:
        allowed = [n for n in allowed_player_counts(args.env, params) if n >= 2]
        raise UsageError(
            f"eval needs at least two agents, one per seat: --agents A B [...] ({args.env} "
            f"seats {counts_text(allowed)} players)"
        )
    if args.out is not None:  # before the games: a bad folder fails at once
        from moon_agents.paths import check_folder_path

        check_folder_path("--out", args.out)
    result = tournament(
        args.env,
        args.agents,
        args.games,
        seed=args.seed,
        env_params=params,
        progress=args.progress,
        note=lambda line: print(line, file=sys.stderr),
    )
    print(result.report(), file=out)
    if args.out:
        try:
            path = result.save(args.out)
        except OSError as exc:
            where = exc.filename or args.out
            raise UsageError(f"--out: cannot write {where}: {exc.strerror or exc}") from None
        print(
            f"\nwrote {path}/results.csv, results.json, games.csv, table.md, win_rates.png",
            file=out,
        )
    return 0
