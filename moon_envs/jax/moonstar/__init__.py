"""The JAX twin of Moonstar, Games 1-12 (``moonstar_v1``): ``moon_envs.jax.make("moonstar_v1",
game=N, ...)`` builds :class:`MoonstarTwin`; see :mod:`moon_envs.jax.moonstar.twin`.

Modules: ``tables`` (the static numbers of a parameter set), ``arrays`` (the position),
``rules`` (player, mask, chance), ``transitions`` and ``moves`` (the events),
``observe`` (the observation) and ``optimum`` (the round's exact best total, for
``round_optimum=True``).
"""

from moon_envs.jax.moonstar.twin import MoonstarTwin

__all__ = ["MoonstarTwin"]
