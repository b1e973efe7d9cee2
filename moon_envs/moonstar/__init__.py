"""Moonstar (Alex Randolph): see :mod:`moon_envs.moonstar.env` for the documentation page."""

from moon_envs.moonstar.rules import MoonstarGame, MoonstarState
from moon_envs.moonstar.variants import MoonstarConfig, RoundRules, preset

__all__ = ["MoonstarConfig", "MoonstarGame", "MoonstarState", "RoundRules", "preset"]
