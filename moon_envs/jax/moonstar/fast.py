"""The Moonstar twin's fast ``init``: the generic one's results (of
:class:`~moon_envs.jax.env.JaxEnv`), with less work per call.

:class:`InitTable`: ``init(key)`` of every lane is one of a few positions, one per
  outcome of the first chance event (the first organizer). They are computed once,
  concretely, through the generic path, and ``init`` draws the outcome as the generic
  path does and picks its position: leaves the same in every position are constants,
  the others a chain of ``where`` calls over the few positions (a batched gather costs more
  on the CPU).

Checked against the generic ``init`` in ``tests/jax/test_moonstar_fast_paths.py``. (A
step resolving its one chance event without the ``while_loop`` measured slower than the
loop in the bench harness, so the generic resolution stays.)
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.core.game import CHANCE
from moon_envs.jax.random_words import split_key

Array = jax.Array


class InitTable:
    """The positions ``init`` can return, one per first chance outcome; ``None`` from
    :meth:`build` where a first outcome can be followed by another chance event."""

    def __init__(self, rows: list[Any]) -> None:
        self.treedef = jax.tree.structure(rows[0])
        stacked = [np.stack(parts) for parts in zip(*(jax.tree.leaves(r) for r in rows))]
        # a leaf equal in every row is a constant; the others are gathered by outcome
        self.varying = [bool((s != s[:1]).any()) for s in stacked]
        self.values = [s if v else s[0] for s, v in zip(stacked, self.varying)]

    @staticmethod
    def build(env: Any) -> InitTable | None:
        """Compute the table concretely (also when called inside a trace)."""
        with jax.ensure_compile_time_eval():
            # each piece compiled once: run op by op, the first position alone costs seconds
            x0 = jax.jit(env._initial_x)()
            player, probs = jax.jit(lambda x: (env._player(x), env._chance_probs(x)))(x0)
            if int(player) != CHANCE:
                return None  # a fixed first organizer: no draw to skip
            probs = np.asarray(probs)
            size = int(np.flatnonzero(probs > 0).max()) + 1
            outcomes = jnp.arange(size, dtype=jnp.int32)
            xs = jax.jit(jax.vmap(env._apply_chance_x, in_axes=(None, 0)))(x0, outcomes)
            if bool((jax.jit(jax.vmap(env._player))(xs) == CHANCE).any()):
                return None
            states = jax.tree.map(np.asarray, jax.jit(jax.vmap(lambda x: _fresh(env, x)))(xs))
            rows = [jax.tree.map(lambda a, i=i: a[i], states) for i in range(size)]
            return InitTable(rows)

    def init(self, env: Any, key: Array) -> Any:
        """The generic ``init(key)``: the first outcome drawn as ``_resolve_x`` draws it."""
        x0 = env._initial_x()
        _, sub = split_key(key)
        outcome = env._sample_chance(x0, sub)
        leaves = []
        for v, varying in zip(self.values, self.varying):
            if not varying:
                leaves.append(jnp.asarray(v))
                continue
            picked = jnp.asarray(v[0])
            for i in range(1, len(v)):
                picked = jnp.where(outcome == i, jnp.asarray(v[i]), picked)
            leaves.append(picked)
        return jax.tree.unflatten(self.treedef, leaves)


def _fresh(env: Any, x: Any) -> Any:
    """The state ``init`` wraps around a position ``x`` (seat 0's view at a chance node)."""
    return env._wrap(x, jnp.int32(0), env._zero_rewards(), jnp.int32(0))
