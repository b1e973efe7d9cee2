"""``moon-envs ladder``: a game's round-robin ladder, its tables, files and plot.

::

    moon-envs ladder jupiter_v0                       the published ladder, 500 games a pairing
    moon-envs ladder jupiter_v0 --workers 2 --out docs/ladder/jupiter_v0
    moon-envs ladder jupiter_v0 --agent mine=ppo:runs/x/model.zip --drop mcts-200
    moon-envs ladder star_master_v0 --games 50 --only random memory trained

The agents and env parameters come from :data:`moon_agents.evaluation.ladder.lineups.LADDERS`;
``--agent LABEL=SPEC`` adds (or replaces) one, ``--drop LABEL`` removes one and ``--only``
keeps the named ones. Finished pairings are cached in ``OUT/pairings/``, so a second run
with one more agent plays only that agent's pairings (``--fresh`` replays everything).
A bar on stderr counts the games still to play, over every pairing, with an ETA
(``--progress/--no-progress``, :mod:`moon_agents.progress`). ``--opening PLIES`` or
``--opening none`` sets the opening protocol (default ``auto``: 6 random plies on a
chance-free game, none with chance; :mod:`moon_agents.evaluation.openings`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from moon_agents.cli.evaluate import add_opening_flag, opening_arg
from moon_agents.cli.ranges import GAMES, SEEDS, WORKERS, WholeNumber, range_text
from moon_agents.cli.usage import UsageError, parse_params
from moon_agents.progress import CountBar, add_progress_flag


def add_ladder_parser(sub: argparse._SubParsersAction) -> None:
    la = sub.add_parser(
        "ladder", help="round-robin ladder of a game's agents: win rates, Elo, plot"
    )
    la.add_argument("env", help="env id, e.g. jupiter_v0")
    la.add_argument(
        "--games",
        type=WholeNumber("--games", GAMES),
        default=500,
        help=f"games per pairing, {range_text(GAMES)} (default 500)",
    )
    la.add_argument(
        "--seed",
        type=WholeNumber("--seed", SEEDS),
        default=0,
        help=f"game i of a pairing is played with seed SEED + i, {range_text(SEEDS)} (default 0)",
    )
    la.add_argument(
        "--workers",
        type=WholeNumber("--workers", WORKERS),
        default=1,
        help=f"processes playing side by side, {range_text(WORKERS)} (default 1)",
    )
    la.add_argument("--out", help="output folder (default ladders/ENV)")
    la.add_argument("--agent", action="append", metavar="LABEL=SPEC", help="add or replace one")
    la.add_argument("--drop", action="append", metavar="LABEL", help="leave an agent out")
    la.add_argument("--only", nargs="+", metavar="LABEL", help="keep only these agents")
    la.add_argument("--param", action="append", metavar="KEY=VALUE", help="env parameter")
    la.add_argument("--fresh", action="store_true", help="ignore cached pairings")
    add_opening_flag(la)
    add_progress_flag(la)


def ladder_agents(env_id: str, args: argparse.Namespace) -> tuple[dict[str, str], dict]:
    """The ladder's ``label -> spec`` and env parameters after the command's edits; a
    published agent this install cannot run is left out with a note on stderr."""
    from moon_agents.evaluation.ladder.lineups import LADDERS, ladder_plan

    skipped: dict[str, str] = {}
    if env_id in LADDERS or not args.agent:
        plan = ladder_plan(env_id)
        agents, params, skipped = dict(plan.agents), dict(plan.env_params), plan.skipped
        for label, why in skipped.items():
            print(f"note: {label} is left out of the ladder: {why}", file=sys.stderr)
    else:
        agents, params = {}, {}
    for item in args.agent or []:
        label, sep, spec = item.partition("=")
        if not sep or not label or not spec:
            raise UsageError(f"--agent {item!r}: write it as LABEL=SPEC, e.g. mine=ppo:model.zip")
        agents[label] = spec
    for label in args.drop or []:
        if label in skipped:
            continue
        if label not in agents:
            raise UsageError(f"--drop {label!r}: no such agent; allowed: {sorted(agents)}")
        del agents[label]
    if args.only:
        unknown = [label for label in args.only if label not in agents]
        if unknown:
            raise UsageError(f"--only {unknown}: no such agent; allowed: {sorted(agents)}")
        agents = {label: agents[label] for label in args.only}
    params.update(parse_params(args.param, env_id))
    return agents, params


def cmd_ladder(args: argparse.Namespace, out: TextIO) -> int:
    from moon_agents.evaluation.ladder.run import run_ladder

    opening = opening_arg(args.opening)
    agents, params = ladder_agents(args.env, args)
    out_dir = args.out or f"ladders/{args.env}"
    with CountBar(args.progress, f"{args.env} ladder", "game") as progress:
        result = run_ladder(
            args.env,
            agents,
            games=args.games,
            seed=args.seed,
            env_params=params,
            out_dir=out_dir,
            workers=args.workers,
            fresh=args.fresh,
            progress=progress,
            note=lambda line: print(line, file=sys.stderr),
            opening=opening,
        )
    params_text = f" {result.env_params}" if result.env_params else ""
    print(f"{args.env}{params_text}: {result.seating()}.", file=out)
    print(f"{result.protocol()}\n", file=out)
    print(result.markdown(), file=out)
    print(f"\nwrote {out_dir}/{', '.join(result.written)}", file=out)
    for name, why in result.skipped.items():
        print(f"skipped {name}: {why}", file=out)
    return 0
