"""Moon Harvesters (nestorgames): see :mod:`moon_envs.moon_harvesters.env` for the
documentation page."""

from moon_envs.moon_harvesters.rules import HarvestersConfig, HarvestersGame, HarvestersState
from moon_envs.moon_harvesters.shapes import BUILTIN_SHAPES, Shape, orientations, parse_shape

__all__ = [
    "BUILTIN_SHAPES",
    "HarvestersConfig",
    "HarvestersGame",
    "HarvestersState",
    "Shape",
    "orientations",
    "parse_shape",
]
