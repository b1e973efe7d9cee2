"""Moonwakers SEED (Gaman Games): the rules engine and the ``moonwakers_v1`` environment."""
