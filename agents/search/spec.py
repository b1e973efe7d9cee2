"""The parameters of the MCTS agent, and how they are read from an agent spec string.

An agent spec such as ``"mcts:simulations=400,rollout=greedy,c=1.4,seconds=0.5"`` names
the agent, then ``field=value`` pairs separated by commas:

==============  =========================================================================
field           meaning (default)
==============  =========================================================================
simulations     search iterations per move, ``1..10**9`` (200; unlimited when only
                ``seconds`` is given)
seconds         wall-clock budget per move, ``> 0`` (none); with both, the search stops
                at whichever limit comes first
c               UCT exploration constant, ``>= 0`` (1.4)
rollout         rollout policy: ``random`` or any agent name of the game's zoo other
                than ``mcts`` (``random``)
reward          ``win`` (``State.returns("win")``) or ``score`` (scores centred on their
                mean and divided by their spread) (``win``)
widening        progressive widening, ``0 < w <= 1``: a node visited N times has at
                most ``ceil(N ** w)`` children (at least one); none: plain UCT, every
                move tried once before any twice (none)
horizon         a rollout stops after this many player moves, ``1..10**9`` (or at the
                end, if sooner), and is valued by each seat's score gain since the
                searched position, centred on the seats' mean gain (``reward`` is then
                not used); UCT divides values by the largest gain seen; none: rollouts
                play to the end (none)
==============  =========================================================================

Bad fields or values raise :class:`~moon_envs.core.game.ConfigError` naming the field
and the allowed values.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

REWARDS = ("win", "score")
MAX_COUNT = 10**9  # the largest simulations or horizon accepted
DEFAULT_SIMULATIONS = 200


@dataclass(frozen=True)
class MCTSConfig:
    """Validated MCTS parameters (see the module docstring for each field)."""

    simulations: int | None = DEFAULT_SIMULATIONS
    seconds: float | None = None
    c: float = 1.4
    rollout: str = "random"
    reward: str = "win"
    horizon: int | None = None
    widening: float | None = None

    def __post_init__(self) -> None:
        s = self.simulations
        if s is not None and not _is_count(s):
            raise ConfigError(f"simulations={quote(s)} is not allowed; allowed values: {COUNTS}")
        t = self.seconds
        if t is not None and (not _is_number(t) or not 0 < t < math.inf):
            raise ConfigError(f"seconds={quote(t)} is not allowed; allowed values: numbers > 0")
        if self.simulations is None and self.seconds is None:
            raise ConfigError("simulations and seconds are both unset; give at least one budget")
        if not _is_number(self.c) or not 0 <= self.c < math.inf:
            raise ConfigError(f"c={quote(self.c)} is not allowed; allowed values: numbers >= 0")
        if self.reward not in REWARDS:
            raise ConfigError(
                f"reward={quote(self.reward)} is not allowed; allowed values: {list(REWARDS)}"
            )
        h = self.horizon
        if h is not None and not _is_count(h):
            raise ConfigError(f"horizon={quote(h)} is not allowed; allowed values: {COUNTS}")
        w = self.widening
        if w is not None and (not _is_number(w) or not 0 < w <= 1):
            raise ConfigError(f"widening={quote(w)} is not allowed; allowed values: 0 < w <= 1")
        if not isinstance(self.rollout, str) or not self.rollout:
            raise ConfigError(
                f"rollout={quote(self.rollout)} is not allowed; allowed values: agent names"
            )


COUNTS = f"integers 1..{MAX_COUNT:,}"


def _is_count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= MAX_COUNT


def _is_number(x: object) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and not math.isnan(x)


def field_names() -> list[str]:
    return [f.name for f in dataclasses.fields(MCTSConfig)]


def parse_params(text: str) -> MCTSConfig:
    """Read ``"simulations=400,rollout=greedy"`` (the part after ``mcts:``) into a config."""
    values: dict[str, object] = {}
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        key, sep, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not sep or not raw:
            raise ConfigError(
                f"mcts parameter {quote(item)} must read field=value; fields: {field_names()}"
            )
        if key not in field_names():
            raise ConfigError(
                f"unknown mcts parameter {quote(key)}; allowed fields: {field_names()}"
            )
        if key in values:
            raise ConfigError(f"mcts parameter {quote(key)} is given twice")
        values[key] = _convert(key, raw)
    if "seconds" in values and "simulations" not in values:
        values["simulations"] = None  # a time budget alone
    return MCTSConfig(**values)  # type: ignore[arg-type]


def _convert(key: str, raw: str) -> object:
    if key in ("simulations", "horizon"):
        try:
            return int(raw)
        except ValueError:
            raise ConfigError(
                f"{key}={quote(raw)} is not allowed; allowed values: {COUNTS}"
            ) from None
    if key in ("seconds", "c", "widening"):
        try:
            return float(raw)
        except ValueError:
            rule = {"seconds": "numbers > 0", "c": "numbers >= 0"}.get(key, "0 < w <= 1")
            message = f"{key}={quote(raw)} is not allowed; allowed values: {rule}"
            raise ConfigError(message) from None
    return raw
