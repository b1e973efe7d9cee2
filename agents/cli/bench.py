"""``moon-envs bench``: the speed of the envs beside peers measured in the same run (AEC
random play beside PettingZoo's connect_four_v3; rules engine, clone() and MCTS beside
OpenSpiel; see docs/benchmarks.md); with ``--jax``, of the batched JAX twins beside pgx's
connect_four."""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from moon_agents.cli.usage import UsageError

DEFAULT_SECONDS = 1.0  # per measurement
DEFAULT_JAX_SECONDS = 3.0
DEFAULT_REPEATS = 3


def add_bench_parser(sub: Any) -> None:
    """The ``bench`` subcommand's arguments."""
    be = sub.add_parser(
        "bench", help="speed of every env beside connect_four_v3 and OpenSpiel (medians)"
    )
    be.add_argument("envs", nargs="*", metavar="ENV", help="env ids (default: all)")
    be.add_argument(
        "--seconds",
        type=float,
        default=None,
        help=f"seconds per measurement ({DEFAULT_SECONDS:g}; with --jax, per env and batch: "
        f"{DEFAULT_JAX_SECONDS:g})",
    )
    be.add_argument(
        "--repeats",
        type=int,
        default=None,
        metavar="K",
        help=f"runs, each measuring every env and peer once; medians shown ({DEFAULT_REPEATS})",
    )
    be.add_argument("--json", metavar="PATH", help="also write the figures to this file")
    be.add_argument("--seed", type=int, default=0)
    be.add_argument(
        "--jax", action="store_true", help="the JAX twins beside pgx connect_four, batched"
    )
    be.add_argument("--batches", default="1,64,1024", help="with --jax: comma-separated sizes")


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from moon_agents.benchmarks.speed import run_bench

    if args.seconds is not None and not args.seconds > 0:
        raise UsageError(f"--seconds {args.seconds}: allowed: a positive number")
    if args.jax:
        for flag, value in (("--repeats", args.repeats), ("--json", args.json)):
            if value is not None:
                raise UsageError(f"{flag} is not available with --jax")
        from moon_agents.benchmarks.jax_speed import parse_batches, run_jax_bench

        try:
            batches = parse_batches(args.batches)
        except ValueError as err:
            raise UsageError(str(err)) from None
        seconds = args.seconds if args.seconds is not None else DEFAULT_JAX_SECONDS
        run_jax_bench(args.envs or None, batches, seconds, args.seed, lambda s: print(s, file=out))
        return 0
    from moon_agents.benchmarks.bench_report import check_json_path, tty_progress

    repeats = args.repeats if args.repeats is not None else DEFAULT_REPEATS
    if repeats < 1:
        raise UsageError(f"--repeats {repeats}: allowed: a whole number >= 1")
    if args.json is not None:
        try:
            check_json_path(args.json)
        except ValueError as err:
            raise UsageError(str(err)) from None
    run_bench(
        args.envs or None,
        seconds=args.seconds if args.seconds is not None else DEFAULT_SECONDS,
        seed=args.seed,
        out=lambda s: print(s, file=out, flush=True),
        repeats=repeats,
        progress=tty_progress(sys.stderr),
        json_path=args.json,
    )
    return 0
