"""``moon-envs bench``: the speed of the envs beside peers measured in the same run (AEC
random play beside PettingZoo's connect_four_v3; rules engine, clone() and MCTS beside
OpenSpiel; see docs/benchmarks.md); with ``--jax``, of the batched JAX twins beside pgx's
connect_four, random play and mctx search (``--jax-part``). A bar on stderr counts the
measurements, with an ETA (``--progress/--no-progress``, :mod:`moon_agents.progress`)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from moon_agents.cli.ranges import (
    BATCHES,
    MAX_SECONDS,
    REPEATS,
    SEARCH_BATCHES,
    SEARCH_SIMULATIONS,
    SEEDS,
    PositiveNumber,
    range_text,
    WholeNumber,
)
from moon_agents.cli.usage import UsageError
from moon_agents.progress import CountBar, add_progress_flag

# The bench --jax defaults, written here so that --help needs no JAX import; a test checks
# they match moon_agents.benchmarks.jax_speed and jax_search_speed.
DEFAULT_SECONDS = 1.0  # per measurement
DEFAULT_JAX_SECONDS = 3.0
DEFAULT_REPEATS = 3
DEFAULT_JAX_REPEATS = 1
JAX_PARTS = ("play", "search", "all")
DEFAULT_SEARCH_BATCH = 256
DEFAULT_SEARCH_SIMULATIONS = 32
JAX_ONLY = ("--jax-part", "--search-batch", "--simulations")


def add_bench_parser(sub: Any) -> None:
    """The ``bench`` subcommand's arguments."""
    be = sub.add_parser(
        "bench", help="speed of every env beside connect_four_v3 and OpenSpiel (medians)"
    )
    be.add_argument("envs", nargs="*", metavar="ENV", help="env ids (default: all)")
    be.add_argument(
        "--seconds",
        type=PositiveNumber("--seconds", MAX_SECONDS),
        default=None,
        help=f"seconds per measurement, more than 0, at most {MAX_SECONDS:g} ({DEFAULT_SECONDS:g}; "
        f"with --jax, per engine and table: {DEFAULT_JAX_SECONDS:g})",
    )
    be.add_argument(
        "--repeats",
        type=WholeNumber("--repeats", REPEATS),
        default=None,
        metavar="K",
        help=f"runs, each measuring every env and peer once; medians shown, {range_text(REPEATS)} "
        f"({DEFAULT_REPEATS}; with --jax, {DEFAULT_JAX_REPEATS})",
    )
    be.add_argument(
        "--json", metavar="PATH", help="also write the figures (every run) to this file"
    )
    be.add_argument(
        "--seed",
        type=WholeNumber("--seed", SEEDS),
        default=0,
        help=f"seeds the play, the positions and the searches, {range_text(SEEDS)} (default 0)",
    )
    be.add_argument(
        "--jax", action="store_true", help="the JAX twins beside pgx connect_four, batched"
    )
    be.add_argument(
        "--batches",
        default="1,64,1024",
        help=f"with --jax: comma-separated sizes, each {range_text(BATCHES)} (default 1,64,1024)",
    )
    be.add_argument(
        "--jax-part",
        choices=JAX_PARTS,
        default=None,
        help="with --jax: random play (and the Python envs), mctx search or both (default all)",
    )
    be.add_argument(
        "--search-batch",
        type=WholeNumber("--search-batch", SEARCH_BATCHES),
        default=None,
        metavar="N",
        help=f"with --jax: positions per mctx search, {range_text(SEARCH_BATCHES)} "
        f"(default {DEFAULT_SEARCH_BATCH})",
    )
    be.add_argument(
        "--simulations",
        type=WholeNumber("--simulations", SEARCH_SIMULATIONS),
        default=None,
        metavar="N",
        help=f"with --jax: simulations per mctx search, {range_text(SEARCH_SIMULATIONS)} "
        f"(default {DEFAULT_SEARCH_SIMULATIONS})",
    )
    add_progress_flag(be)


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from moon_agents.benchmarks.bench_report import check_json_path

    if args.json is not None:
        try:
            check_json_path(args.json)
        except ValueError as err:
            raise UsageError(str(err)) from None
    if args.jax:
        return _jax_bench(args, out)
    for flag in JAX_ONLY:
        if getattr(args, flag[2:].replace("-", "_")) is not None:
            raise UsageError(f"{flag} needs --jax")
    from moon_agents.benchmarks.speed import run_bench

    repeats = args.repeats if args.repeats is not None else DEFAULT_REPEATS
    with CountBar(args.progress, "bench", "measurement") as progress:
        run_bench(
            args.envs or None,
            seconds=args.seconds if args.seconds is not None else DEFAULT_SECONDS,
            seed=args.seed,
            out=progress.above(lambda s: print(s, file=out, flush=True)),
            repeats=repeats,
            progress=progress,
            json_path=args.json,
        )
    return 0


def _jax_bench(args: argparse.Namespace, out: TextIO) -> int:
    """``bench --jax``: the twins beside pgx connect_four (random play, search, or both),
    every engine compiled first, then ``--repeats`` runs; medians shown."""
    from moon_agents.benchmarks.jax_speed import parse_batches, run_jax_bench

    try:
        batches = parse_batches(args.batches)
    except ValueError as err:
        raise UsageError(str(err)) from None
    if max(batches) > BATCHES[1]:
        raise UsageError(
            f"--batches {args.batches!r}: {max(batches)} is out of range; allowed: each "
            f"{range_text(BATCHES)}"
        )
    seconds = args.seconds if args.seconds is not None else DEFAULT_JAX_SECONDS
    with CountBar(args.progress, "bench --jax", "step") as progress:
        run_jax_bench(
            args.envs or None,
            batches,
            seconds,
            args.seed,
            progress.above(lambda s: print(s, file=out, flush=True)),
            progress=progress,
            repeats=args.repeats if args.repeats is not None else DEFAULT_JAX_REPEATS,
            part=args.jax_part or "all",
            search_batch=args.search_batch,
            simulations=args.simulations,
            json_path=args.json,
        )
    return 0
