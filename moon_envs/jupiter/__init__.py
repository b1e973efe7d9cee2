"""Jupiter (Reiner Knizia): see :mod:`moon_envs.jupiter.env` for the documentation page."""

from moon_envs.jupiter.rules import JupiterConfig, JupiterGame, JupiterState

__all__ = ["JupiterConfig", "JupiterGame", "JupiterState"]
