"""The range of every numeric flag of ``moon-envs``, checked as the command line is read.

=====================  ===============================  ==========================================
flag                   allowed                          commands
=====================  ===============================  ==========================================
``--seed``             ``0..2147483647``                play, eval, ladder, bench, train, exploit
``--games``            ``1..1000000``                   eval, exploit (games), ladder (per pairing)
``--workers``          ``1..256``                       ladder
``--repeats``          ``1..1000``                      bench
``--seconds``          more than 0, at most ``3600``    bench
``--batches``          each ``1..1048576``              bench --jax
``--search-batch``     ``1..4096``                      bench --jax (search)
``--simulations``      ``1..1024``                      bench --jax (search)
``--timesteps``        ``1..10000000000``               train (the config's own range)
``--eval-games``       ``1..100000``                    train (the config's own range)
``--decisions``        ``8192..100000000``              exploit (one rollout .. 100 M)
``--width``            ``20..1000``                     play
``--gif-ms``           ``20..10000``                    play
``--human``            a seat of the game: ``0..N-1``   play
=====================  ===============================  ==========================================

Agent specs bound their own numbers (``mcts:simulations=N``: ``1..10**9``,
:mod:`moon_agents.search.spec`; ``az:PATH,simulations=N``: ``1..100000``,
:mod:`moon_agents.net_agent`; ``mctx:PATH,simulations=N``: ``1..4096``,
:mod:`moon_agents.search.mctx_spec`). The seed range is the one training configs allow, so a seed
from ``play`` or ``eval`` is also a valid ``train --seed``.

:class:`WholeNumber` and :class:`PositiveNumber` are argparse ``type=`` readers that
refuse a value out of range with a :class:`~moon_agents.cli.usage.UsageError` naming the
flag and the range (``--games 0: out of range; allowed: 1..1000000``).
"""

from __future__ import annotations

import math
from moon_agents.cli.usage import UsageError

SEEDS = (0, 2**31 - 1)
GAMES = (1, 1_000_000)
WORKERS = (1, 256)
REPEATS = (1, 1000)
MAX_SECONDS = 3600.0
BATCHES = (1, 2**20)
SEARCH_BATCHES = (1, 4096)  # moon_agents.benchmarks.jax_search_speed.SEARCH_BATCHES
SEARCH_SIMULATIONS = (1, 1024)  # moon_agents.benchmarks.jax_search_speed.SIMULATIONS
TIMESTEPS = (1, 10**10)  # budget.total_timesteps's range
EVAL_GAMES = (1, 100_000)  # eval.games's range
WIDTHS = (20, 1000)
DECISIONS = (8_192, 100_000_000)  # moon_agents.training.jax.exploit.DECISIONS


def range_text(bounds: tuple[int, int]) -> str:
    """``(1, 100)`` -> ``"1..100"``."""
    return f"{bounds[0]}..{bounds[1]}"


class WholeNumber:
    """An argparse ``type=`` for ``flag``: a whole number within ``bounds`` (inclusive);
    ``allowed`` is the range as the error and the help text write it."""

    def __init__(self, flag: str, bounds: tuple[int, int]) -> None:
        self.flag, self.bounds = flag, bounds
        self.allowed = range_text(bounds)

    def __call__(self, text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise UsageError(
                f"{self.flag} {text!r}: not a whole number; allowed: {self.allowed}"
            ) from None
        if not self.bounds[0] <= value <= self.bounds[1]:
            raise UsageError(f"{self.flag} {value}: out of range; allowed: {self.allowed}")
        return value


class PositiveNumber:
    """An argparse ``type=`` for ``flag``: a number more than 0 and at most ``most``."""

    def __init__(self, flag: str, most: float) -> None:
        self.flag, self.most = flag, most
        self.allowed = f"more than 0, at most {most:g}"

    def __call__(self, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise UsageError(
                f"{self.flag} {text!r}: not a number; allowed: {self.allowed}"
            ) from None
        if not (math.isfinite(value) and 0 < value <= self.most):
            raise UsageError(f"{self.flag} {text}: out of range; allowed: {self.allowed}")
        return value
