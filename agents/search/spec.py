"""The parameters of the MCTS agent, and how they are read from an agent spec string.

An agent spec such as ``"mcts:simulations=400,rollout=greedy,c=1.4,seconds=0.5"`` names
the agent, then ``field=value`` pairs separated by commas:

==============  =========================================================================
field           meaning (default)
==============  =========================================================================
simulations     search iterations per move, ``>= 1`` (200; unlimited when only
                ``seconds`` is given)
seconds         wall-clock budget per move, ``> 0`` (none); with both, the search stops
                at whichever limit comes first
c               UCT exploration constant, ``>= 0`` (1.4)
rollout         rollout policy: ``random`` or any agent name of the game's zoo other
                than ``mcts`` (``random``)
reward          ``win`` (``State.returns("win")``) or ``score`` (scores centred on their
                mean and divided by their spread) (``win``)
==============  =========================================================================

Bad fields or values raise :class:`~moon_envs.core.game.ConfigError` naming the field
and the allowed values.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from moon_envs.core.game import ConfigError

REWARDS = ("win", "score")
DEFAULT_SIMULATIONS = 200


@dataclass(frozen=True)
class MCTSConfig:
    """Validated MCTS parameters (see the module docstring for each field)."""

    simulations: int | None = DEFAULT_SIMULATIONS
    seconds: float | None = None
    c: float = 1.4
    rollout: str = "random"
    reward: str = "win"

    def __post_init__(self) -> None:
        s = self.simulations
        if s is not None and (isinstance(s, bool) or not isinstance(s, int) or s < 1):
            raise ConfigError(f"simulations={s!r} is not allowed; allowed values: integers >= 1")
        t = self.seconds
        if t is not None and (not _is_number(t) or not 0 < t < math.inf):
            raise ConfigError(f"seconds={t!r} is not allowed; allowed values: numbers > 0")
        if self.simulations is None and self.seconds is None:
            raise ConfigError("simulations and seconds are both unset; give at least one budget")
        if not _is_number(self.c) or not 0 <= self.c < math.inf:
            raise ConfigError(f"c={self.c!r} is not allowed; allowed values: numbers >= 0")
        if self.reward not in REWARDS:
            raise ConfigError(
                f"reward={self.reward!r} is not allowed; allowed values: {list(REWARDS)}"
            )
        if not isinstance(self.rollout, str) or not self.rollout:
            raise ConfigError(
                f"rollout={self.rollout!r} is not allowed; allowed values: agent names"
            )


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
                f"mcts parameter {item!r} must read field=value; fields: {field_names()}"
            )
        if key not in field_names():
            raise ConfigError(f"unknown mcts parameter {key!r}; allowed fields: {field_names()}")
        if key in values:
            raise ConfigError(f"mcts parameter {key!r} is given twice")
        values[key] = _convert(key, raw)
    if "seconds" in values and "simulations" not in values:
        values["simulations"] = None  # a time budget alone
    return MCTSConfig(**values)  # type: ignore[arg-type]


def _convert(key: str, raw: str) -> object:
    if key == "simulations":
        try:
            return int(raw)
        except ValueError:
            raise ConfigError(
                f"simulations={raw!r} is not allowed; allowed values: integers >= 1"
            ) from None
    if key in ("seconds", "c"):
        try:
            return float(raw)
        except ValueError:
            rule = "numbers > 0" if key == "seconds" else "numbers >= 0"
            raise ConfigError(f"{key}={raw!r} is not allowed; allowed values: {rule}") from None
    return raw
