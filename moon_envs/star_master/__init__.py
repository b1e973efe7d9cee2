"""Star Master (François Allaire): find the hidden colours, 1-6 players; ``star_master_v0``."""

from moon_envs.star_master.config import StarMasterConfig
from moon_envs.star_master.rules import StarMasterGame, StarMasterState

__all__ = ["StarMasterConfig", "StarMasterGame", "StarMasterState"]
