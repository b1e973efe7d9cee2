"""``moon-envs eval``: a tournament between agents, its table, and the files it writes.

``--agents`` names one agent per seat, as in ``moon-envs play``: their number is the
player count (``--param num_players=N`` must then agree), and every game seats them in
another order (all orders in turn). The output starts with the env, its parameters, the
player count and how the agents sat; trained agents' parameters are set with a note on
stderr (:mod:`moon_agents.seating`). A bar on stderr counts the games, with an ETA
(``--progress/--no-progress``, :mod:`moon_agents.progress`). ``--out`` is checked before
the first game: it must be a new or empty folder, or one an earlier ``eval`` wrote, so that
no file of the user's is overwritten (:func:`moon_agents.paths.claim_output_folder`).

``--opening PLIES`` or ``--opening none`` sets the opening protocol
(:mod:`moon_agents.evaluation.openings`; default ``auto``: 6 random plies on a chance-free
game, none on a game with chance). The table counts distinct games and gives each agent's
win rate as first and as second mover.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from moon_agents.cli.usage import UsageError, parse_params


def add_opening_flag(parser: argparse.ArgumentParser) -> None:
    """``--opening PLIES|none|auto`` on ``eval`` and ``ladder``."""
    parser.add_argument(
        "--opening",
        default="auto",
        metavar="PLIES",
        help="random opening plies drawn from the legal moves, the same for both seat orders "
        "(0-40), or none; default auto: 6 on chance-free games, none with chance",
    )


def opening_arg(text: str) -> str | int:
    """The ``--opening`` value, checked: ``auto``, ``none`` or a number of plies."""
    from moon_agents.evaluation.openings import MAX_PLIES, resolve_opening
    from moon_envs.core.game import ConfigError

    try:
        resolve_opening(text, has_chance=False)
    except ConfigError:
        raise UsageError(
            f"--opening {text!r}: allowed: none, auto or a number of plies 0..{MAX_PLIES}"
        ) from None
    return text


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
        from moon_agents.paths import claim_output_folder

        claim_output_folder("--out", args.out, "eval")
    result = tournament(
        args.env,
        args.agents,
        args.games,
        seed=args.seed,
        env_params=params,
        progress=args.progress,
        note=lambda line: print(line, file=sys.stderr),
        opening=opening_arg(getattr(args, "opening", "auto")),
    )
    print(result.report(), file=out)
    if args.out:
        try:
            path = result.save(args.out)
        except OSError as exc:
            where = exc.filename or args.out
            raise UsageError(f"--out: cannot write {where}: {exc.strerror or exc}") from None
        print(f"\nwrote {path}/{', '.join(result.written)}", file=out)
        for name, why in result.skipped.items():
            print(f"skipped {name}: {why}", file=out)
    return 0
