"""The Moonwakers twin, in progress: its fixed-shape position
(:mod:`~moon_envs.jax.moonwakers.position`), the static tables of a parameter set
(:mod:`~moon_envs.jax.moonwakers.tables`), the task queue as a ring buffer of int32 rows
(:mod:`~moon_envs.jax.moonwakers.queue`), the conversion of Python positions
(:mod:`~moon_envs.jax.moonwakers.python_state`) and the observation
(:mod:`~moon_envs.jax.moonwakers.observe`).

The rules (the legal masks, the tasks' steps and the chance layer) are not written yet,
so ``moon_envs.jax.make`` does not list ``moonwakers_v1``.
"""
