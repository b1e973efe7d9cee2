"""The ``moon-envs`` command.

::

    moon-envs list                                   envs, summaries, agents, parameters
    moon-envs list moonstar_v1                       an env's page and every parameter
    moon-envs play jupiter_v0 --agents random greedy [--seed 0]   one agent per seat: 2 players
    moon-envs play jupiter_v0 --agents greedy --human 0        you play seat 0
    moon-envs play moonstar_v1 --agents oracle heuristic random --html replay.html --gif g.gif
                                                     (--force replaces existing files)
    moon-envs train configs/jupiter_ppo.yaml [--out runs] [--timesteps 5000] [--seed 1]
    moon-envs train --resume runs/jupiter_ppo_seed0 [--timesteps 600000]
    moon-envs eval jupiter_v0 --agents greedy ppo:runs/x/model.zip --games 200 --out ev
    moon-envs bench [jupiter_v0 ...] [--seconds 1] [--repeats 3] [--json bench.json]
    moon-envs bench --jax [jupiter_v0 ...] [--seconds 3] [--batches 1,64,1024]
    moon-envs ladder jupiter_v0 [--games 500] [--workers 2] [--out docs/ladder/jupiter_v0]
    moon-envs configs                                the shipped configs (train one by name)
    moon-envs exploit jupiter_v0 --agent trained [--decisions 524288] [--games 200]
                                                     a best response's win rate against it
    moon-envs configs jupiter_ppo [--to my.yaml] [--force]     copy one out to edit

``--agents`` names one agent per seat in ``play`` and ``eval``: their number is the player
count (``--param num_players=N`` must agree). Trained agents bring the env parameters they
were trained with (a note on stderr says which were set).

Bad input (unknown env id, agent, parameter or config field, a number out of its range,
:mod:`moon_agents.cli.ranges`) prints one clear message and exits with status 2. ``play``
without ``--seed`` draws a fresh seed and prints it on stderr. ``list``, ``play`` and
``bench`` do not need torch.

This module builds the parser and dispatches; each subcommand is a module of
:mod:`moon_agents.cli`, whose names are importable from here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from moon_agents.cli.bench import add_bench_parser, cmd_bench
from moon_agents.cli.configs import add_configs_parser, cmd_configs
from moon_agents.cli.evaluate import add_opening_flag, cmd_eval
from moon_agents.cli.exploit import add_exploit_parser, cmd_exploit
from moon_agents.cli.ladder import add_ladder_parser, cmd_ladder
from moon_agents.cli.list_envs import cmd_list
from moon_agents.cli.play import cmd_play
from moon_agents.cli import ranges
from moon_agents.cli.ranges import WholeNumber
from moon_agents.cli.train import add_resume_flag, cmd_train
from moon_agents.cli.usage import UsageError, parse_params, parse_value
from moon_agents.progress import add_progress_flag
from moon_envs.core.game import ConfigError

__all__ = [  # the entry point and, for existing imports, the subcommands and helpers
    "UsageError",
    "build_parser",
    "cmd_bench",
    "cmd_eval",
    "cmd_exploit",
    "cmd_ladder",
    "cmd_list",
    "cmd_play",
    "cmd_train",
    "main",
    "parse_params",
    "parse_value",
]

# ---- parser -------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # usage errors: status 2, no traceback
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="moon-envs", description="moon-envs: space-themed board games for multi-agent RL"
    )
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    ls = sub.add_parser("list", help="environments, their summaries and agents")
    ls.add_argument(
        "env", nargs="?", help="an env id: print its page and every parameter with its default"
    )
    ls.add_argument("--params", action="store_true", help="(parameters are always listed)")

    pl = sub.add_parser("play", help="play one game between agents (or against them)")
    pl.add_argument("env", help="env id, e.g. jupiter_v0")
    pl.add_argument(
        "--agents",
        nargs="+",
        metavar="SPEC",
        help="random, greedy, mcts:..., ppo:PATH, az:PATH, mctx:PATH, rllib:PATH, ...: one per "
        "seat, in "
        "seat order (skipping --human's); their number is the player count (default: random "
        "in every seat)",
    )
    pl.add_argument(
        "--seed",
        type=WholeNumber("--seed", ranges.SEEDS),
        help=f"seeds the dice, the deals and the agents, {ranges.range_text(ranges.SEEDS)} "
        "(default: a fresh seed each game, printed on stderr so that the game can be replayed)",
    )
    pl.add_argument(
        "--param", action="append", metavar="KEY=VALUE", help="env parameter (repeatable)"
    )
    pl.add_argument(
        "--human", type=int, metavar="SEAT", help="you play this seat from the terminal"
    )
    pl.add_argument(
        "--render", choices=["ansi", "none"], default="ansi", help="print the board after each move"
    )
    shown = pl.add_mutually_exclusive_group()
    shown.add_argument(
        "--log",
        action="store_true",
        help="print every line once, as a log, even on a terminal (the default when the output "
        "is piped or redirected)",
    )
    shown.add_argument(
        "--tty",
        action="store_true",
        help="draw each board over the previous one, as on a terminal, even when the output is "
        "not one",
    )
    pl.add_argument(
        "--width",
        type=int,
        metavar="COLS",
        help=f"wrap lines at this many columns, {ranges.range_text(ranges.WIDTHS)} (default: the "
        "terminal's width; a piped log is not wrapped)",
    )
    pl.add_argument(
        "--gif", metavar="PATH", help="write an animated GIF of the game to PATH.gif (Pillow)"
    )
    pl.add_argument(
        "--gif-ms",
        type=int,
        metavar="MS",
        help="with --gif: each frame's time, 20..10000 ms (default: 700 for a short game, "
        "less for a long one, down to 150)",
    )
    pl.add_argument(
        "--html", metavar="PATH", help="write a self-contained HTML replay (SVG board per step)"
    )
    pl.add_argument(
        "--force", action="store_true", help="replace an existing file at --gif or --html"
    )

    tr = sub.add_parser("train", help="train MaskablePPO by self-play from a YAML config")
    tr.add_argument(
        "config",
        nargs="?",
        help="YAML config file, or a shipped config's name (moon-envs configs); with "
        "--resume, optional (default: the run folder's config.yaml)",
    )
    tr.add_argument("--out", help="parent folder of the run folder (overrides output.dir)")
    tr.add_argument(
        "--timesteps",
        type=WholeNumber("--timesteps", ranges.TIMESTEPS),
        help=f"overrides budget.total_timesteps, {ranges.range_text(ranges.TIMESTEPS)}",
    )
    tr.add_argument(
        "--seed",
        type=WholeNumber("--seed", ranges.SEEDS),
        help=f"overrides seed, {ranges.range_text(ranges.SEEDS)}",
    )
    tr.add_argument(
        "--eval-games",
        type=WholeNumber("--eval-games", ranges.EVAL_GAMES),
        help="overrides eval.games, the games per evaluation opponent: a few make a quick "
        f"trial run, {ranges.range_text(ranges.EVAL_GAMES)}",
    )
    add_progress_flag(tr, "output.progress_bar, on a terminal only")
    add_resume_flag(tr)

    ev = sub.add_parser("eval", help="tournament between agents: win rates, 95%% CIs, Elo")
    ev.add_argument("env")
    ev.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="SPEC",
        help="one agent per seat: their number is the player count; every game seats them "
        "in another order",
    )
    ev.add_argument(
        "--games",
        type=WholeNumber("--games", ranges.GAMES),
        default=100,
        help=f"games to play, {ranges.range_text(ranges.GAMES)} (default 100)",
    )
    ev.add_argument(
        "--seed",
        type=WholeNumber("--seed", ranges.SEEDS),
        default=0,
        help=f"game g is played with seed SEED + g, {ranges.range_text(ranges.SEEDS)} (default 0)",
    )
    ev.add_argument("--param", action="append", metavar="KEY=VALUE")
    ev.add_argument("--out", help="folder for results.csv/json, games.csv, table.md, win_rates.png")
    add_progress_flag(ev)
    add_opening_flag(ev)

    add_bench_parser(sub)
    add_ladder_parser(sub)
    add_configs_parser(sub)
    add_exploit_parser(sub)
    return p


def main(
    argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    out = stdout or sys.stdout
    inp = stdin or sys.stdin
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        "list": lambda a: cmd_list(a, out),
        "play": lambda a: cmd_play(a, out, inp),
        "train": lambda a: cmd_train(a, out),
        "eval": lambda a: cmd_eval(a, out),
        "bench": lambda a: cmd_bench(a, out),
        "ladder": lambda a: cmd_ladder(a, out),
        "configs": lambda a: cmd_configs(a, out),
        "exploit": lambda a: cmd_exploit(a, out),
    }
    try:
        args = build_parser().parse_args(argv)
        return commands[args.command](args)
    except (UsageError, ConfigError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:
        print(
            f"error: {exc} (an optional dependency or game module is missing; "
            f'training and ppo: agents need pip install "moon-envs[train]")',
            file=sys.stderr,
        )
        return 2
    except SystemExit as exc:  # --help
        return int(exc.code or 0)
    except BrokenPipeError:  # output piped into e.g. `head`
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
