"""``moon-envs bench``: random-play speed of the envs beside PettingZoo's connect_four_v3;
with ``--jax``, of the batched JAX twins beside pgx's connect_four."""

from __future__ import annotations

import argparse
from typing import TextIO

from moon_agents.cli.usage import UsageError


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from moon_agents.benchmarks.speed import run_bench

    if args.seconds <= 0:
        raise UsageError(f"--seconds {args.seconds}: allowed: a positive number")
    if args.jax:
        from moon_agents.benchmarks.jax_speed import parse_batches, run_jax_bench

        try:
            batches = parse_batches(args.batches)
        except ValueError as err:
            raise UsageError(str(err)) from None
        run_jax_bench(
            args.envs or None, batches, args.seconds, args.seed, lambda s: print(s, file=out)
        )
        return 0
    run_bench(
        args.envs or None, seconds=args.seconds, seed=args.seed, out=lambda s: print(s, file=out)
    )
    return 0
