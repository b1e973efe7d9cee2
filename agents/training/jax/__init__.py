"""Trainers on the JAX twins: ``alphazero`` (Gumbel MuZero self-play with mctx) and
``jax_ppo`` (PPO on batched twins); configs in :mod:`.config`, the run loop in
:mod:`.run`, the network in :mod:`.network`. Needs ``pip install "moon-envs[jax]"``."""
