"""The JAX twin of Moonwakers SEED (``moonwakers_v1``): ``moon_envs.jax.make("moonwakers_v1",
num_players=N, ...)`` builds :class:`MoonwakersTwin`; see
:mod:`moon_envs.jax.moonwakers.twin`.

Modules: ``tables`` (the static facts of a parameter set and card file), ``position``
(the position), ``queue`` and ``pushes`` (the task queue as a ring buffer of int32 rows),
``moves`` (card movements), ``chance``, ``decisions``, ``round_steps`` and
``claim_steps`` (the tasks' steps), ``legal``, ``observe``, ``advance`` (running the
queue to the next decision), ``determinise`` (``resample``) and ``python_state`` (the
conversion of Python positions).
"""

from moon_envs.jax.moonwakers.twin import MoonwakersTwin

__all__ = ["MoonwakersTwin"]
