"""Moonwakers SEED (Gaman Games): the rules engine and the ``moonwakers_v0`` environment."""
