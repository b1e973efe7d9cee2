"""The Moonstar twin's fast paths: the same results as the generic ones of
:class:`~moon_envs.jax.env.JaxEnv`, with less work per step.

* :func:`resolves_in_one` / :func:`resolve_one`: with the organizer's set-up and the
  auction in rotation, the only chance events are the first organizer (only before the
  first round) and the roll, and neither is ever followed by another chance event; so a
  step resolves at most one chance event, drawn with the same key split as the generic
  ``while_loop`` (``key, sub = split(key)``, the outcome drawn with ``sub``) and applied
  where one is pending: no loop, no second evaluation of the player.
* :class:`InitTable`: ``init(key)`` of every lane is one of a few positions, one per
  outcome of the first chance event (the first organizer; a single position with a fixed
  first organizer). They are computed once, concretely, through the generic path, and
  ``init`` draws the outcome as the generic path does and picks its position: leaves the
  same in every position are constants, the others one gather.

* ``materialized`` (:mod:`~moon_envs.jax.moonstar.arrays`): the twin's position after
  an action and after the chance it causes is computed once, in memory, before the
  mask, the observation, the rewards and the selects of ``step`` read it. Without it
  XLA fuses the transition into each of its readers and computes it again in each; the
  mask's and the observation's parts are materialized the same way.

The first two are checked step by step against the generic paths in ``tests/jax``.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from moon_envs.core.game import CHANCE
from moon_envs.jax.moonstar.arrays import select
from moon_envs.jax.moonstar.tables import MoonstarTables

Array = jax.Array


def resolves_in_one(t: MoonstarTables) -> bool:
    """Whether no chance event is ever followed by another (see the module docstring)."""
    return t.cfg.setup == "organizer" and t.cfg.auction_order == "rotation"


def resolve_one(env: Any, x: Any, key: Array) -> Any:
    """The generic ``_resolve_x`` where at most one chance event is pending."""
    _, sub = jax.random.split(key)
    after = env._apply_chance_x(x, env._sample_chance(x, sub))
    return select(env._player(x) == CHANCE, after, x)


class InitTable:
    """The positions ``init`` can return, one per first chance outcome; ``None`` from
    :meth:`build` where a first outcome can be followed by another chance event."""

    def __init__(self, first_chance: bool, rows: list[Any]) -> None:
        self.first_chance = first_chance
        self.treedef = jax.tree.structure(rows[0])
        stacked = [np.stack(parts) for parts in zip(*(jax.tree.leaves(r) for r in rows))]
        # a leaf equal in every row is a constant; the others are gathered by outcome
        self.varying = [bool((s != s[:1]).any()) for s in stacked]
        self.values = [s if v else s[0] for s, v in zip(stacked, self.varying)]

    @staticmethod
    def build(env: Any) -> InitTable | None:
        """Compute the table concretely (also when called inside a trace)."""
        with jax.ensure_compile_time_eval():
            state = env.initial_state()
            x0 = state._x
            if int(env._player(x0)) != CHANCE:
                return None  # a fixed first organizer: the generic init has no loop to skip
            probs = np.asarray(env._chance_probs(x0))
            size = int(np.flatnonzero(probs > 0).max()) + 1
            outcomes = jnp.arange(size, dtype=jnp.int32)
            xs = jax.jit(jax.vmap(env._apply_chance_x, in_axes=(None, 0)))(x0, outcomes)
            if bool((jax.vmap(env._player)(xs) == CHANCE).any()):
                return None
            states = jax.jit(jax.vmap(lambda x: _fresh(env, x)))(xs)
            rows = [jax.tree.map(lambda a, i=i: np.asarray(a[i]), states) for i in range(size)]
            return InitTable(True, rows)

    def init(self, env: Any, key: Array) -> Any:
        """The generic ``init(key)``: the first outcome drawn as ``_resolve_x`` draws it."""
        if not self.first_chance:
            return jax.tree.unflatten(self.treedef, [jnp.asarray(v) for v in self.values])
        x0 = env.initial_state()._x
        _, sub = jax.random.split(key)
        outcome = jnp.clip(env._sample_chance(x0, sub), 0, len(self.values[0]) - 1)
        leaves = [
            jnp.asarray(v)[outcome] if varying else jnp.asarray(v)
            for v, varying in zip(self.values, self.varying)
        ]
        return jax.tree.unflatten(self.treedef, leaves)


def _fresh(env: Any, x: Any) -> Any:
    """The state ``init`` wraps around a position ``x`` (seat 0's view at a chance node)."""
    return env._wrap(x, jnp.int32(0), env._zero_rewards(), jnp.int32(0))
