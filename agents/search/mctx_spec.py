"""The options of the mctx search agent and how an ``mctx:`` agent spec is read.

``mctx:PATH[,simulations=N][,considered=M][,samples=K][,gumbel=G][,margin=S]``, ``PATH`` a network
weight file (as ``az:PATH``) or ``trained`` (the game's shipped network):

===========  ==========================================================================
field        meaning (default), allowed values
===========  ==========================================================================
simulations  simulations per searched root (64), integers ``1..4096``
considered   actions sequential halving starts from at the root (16), integers ``1..64``
samples      root determinisations searched as one batch in a hidden-information game
             (8), integers ``1..64``; a perfect-information game searches one root
gumbel       scale of the Gumbel noise on the root's priors (0: the ``considered``
             actions of highest prior, no noise), numbers ``0..10``
margin       the ``env.margin_shaping`` the network's value was trained with (0): the
             search's reward adds ``margin`` times the change of the mover's score
             minus the others' mean score, as the ``jax_ppo`` trainer's reward did
             (Moon Harvesters' shipped network: 1), numbers ``0..10``
===========  ==========================================================================

Bad fields or values raise :class:`~moon_envs.core.game.ConfigError` naming the field
and the allowed values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from moon_envs.core.game import ConfigError
from moon_envs.core.snapshot import quote

RANGES: dict[str, tuple[type, float, float]] = {
    "simulations": (int, 1, 4096),
    "considered": (int, 1, 64),
    "samples": (int, 1, 64),
    "gumbel": (float, 0.0, 10.0),
    "margin": (float, 0.0, 10.0),
}
"""Field -> (type, lowest, highest) allowed value."""


@dataclass(frozen=True)
class MctxOptions:
    """Validated options of :class:`moon_agents.search.mctx_agent.MctxAgent`."""

    simulations: int = 64
    considered: int = 16
    samples: int = 8
    gumbel: float = 0.0
    margin: float = 0.0

    def __post_init__(self) -> None:
        for field, (kind, low, high) in RANGES.items():
            value = getattr(self, field)
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            if kind is int:
                ok = ok and isinstance(value, int)
            if not ok or math.isnan(value) or not low <= value <= high:
                raise ConfigError(
                    f"{field}={quote(value)} is not allowed; allowed values: {_allowed(field)}"
                )


def _allowed(field: str) -> str:
    kind, low, high = RANGES[field]
    return f"integers {low}..{high}" if kind is int else f"numbers {low:g}..{high:g}"


def parse_mctx_spec(spec: str) -> tuple[str, MctxOptions]:
    """``mctx:PATH[,field=value,...]`` -> ``(PATH, options)`` (see the module docstring)."""
    body = spec.partition(":")[2]
    values: dict[str, int | float] = {}
    while "," in body:
        head, _, tail = body.rpartition(",")
        key, eq, raw = (s.strip() for s in tail.partition("="))
        if not eq or (key not in RANGES and Path(body).exists()):
            break
        if key not in RANGES:
            raise ConfigError(
                f"agent spec {quote(spec)}: unknown option {quote(key)}; allowed options: "
                f"{', '.join(RANGES)} (write mctx:PATH,simulations=N)"
            )
        if key in values:
            raise ConfigError(f"agent spec {quote(spec)}: option {quote(key)} is given twice")
        kind = RANGES[key][0]
        try:
            values[key] = kind(raw)
        except ValueError:
            raise ConfigError(
                f"agent spec {quote(spec)}: {key}={quote(raw)} is not allowed; allowed "
                f"values: {_allowed(key)}"
            ) from None
        body = head
    if not body:
        raise ConfigError(
            f"agent spec {quote(spec)}: no network named; write mctx:PATH or mctx:trained"
        )
    try:
        options = MctxOptions(**values)  # type: ignore[arg-type]
    except ConfigError as exc:
        raise ConfigError(f"agent spec {quote(spec)}: {exc}") from None
    return body, options
