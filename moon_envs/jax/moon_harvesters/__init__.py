"""The JAX twin of Moon Harvesters (``moon_harvesters_v0``).

:class:`~moon_envs.jax.moon_harvesters.twin.MoonHarvestersTwin` (the rules, in ``twin``)
reads its static tables from ``tables`` and computes where harvesters fit on row
bitboards in ``board``. Build it with ``moon_envs.jax.make("moon_harvesters_v0", ...)``.
"""

from moon_envs.jax.moon_harvesters.twin import HarvestersX, MoonHarvestersTwin

__all__ = ["HarvestersX", "MoonHarvestersTwin"]
