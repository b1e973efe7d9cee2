"""The state every JAX twin returns: pgx's ``State`` fields plus the chance flag.

A :class:`State` is a frozen dataclass registered as a JAX pytree, so it passes through
``jax.jit``, ``jax.vmap`` and ``jax.lax`` control flow. Under ``vmap`` every field gains a
leading batch axis.

Fields (pgx's, with the same meaning):

* ``current_player``: int32, the seat to act. At a chance node it is ``-1`` (the Python
  engine's ``CHANCE``); once the game is over it keeps the seat that moved last, so that
  ``rewards[current_player]`` never indexes out of range.
* ``observation``: float32 ``observation_shape``, what ``current_player`` may know, laid
  out exactly as the Python engine's ``observation(player)``. At a chance node it is
  the view of the seat that moved last.
* ``legal_action_mask``: bool ``num_actions``. All ``False`` at a chance node; all
  ``True`` once the game is over (pgx's convention, so that normalising a policy over the
  mask never divides by zero; the Python engine's mask is all zero there).
* ``rewards``: float32 ``num_players``, the reward of the last transition under the env's
  ``reward_mode`` (for ``step``: the action and every chance event it caused, summed).
* ``terminated``, ``truncated``: bool. Twins never truncate (every game ends by itself).
* ``is_chance``: bool, a chance event is pending (only seen through the explicit layer:
  ``init`` and ``step`` always resolve chance).
* ``_step_count``: int32, player actions applied so far (the Python ``move_number``).
* ``_x``: the twin's own arrays (a NamedTuple per game). Read them only in tests.
* ``env_id``: str, the id of the twin that made the state (``env.id``, e.g.
  ``"jupiter_v0"``), as pgx's ``State.env_id``. It is static pytree metadata, not an array
  leaf: ``jax.tree.leaves`` does not see it, ``jit`` treats it as a constant, and
  ``jax.tree.map`` over states of two different twins refuses to mix them.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import jax

Array = jax.Array


@dataclasses.dataclass(frozen=True)
class State:
    """One position (or a batch of positions) of a JAX twin; see the module docstring."""

    current_player: Array
    observation: Array
    legal_action_mask: Array
    rewards: Array
    terminated: Array
    truncated: Array
    is_chance: Array
    _step_count: Array
    _x: Any
    env_id: str = ""

    def replace(self, **changes: Any) -> State:
        """A copy with ``changes`` applied (pgx's and flax's ``replace``)."""
        return dataclasses.replace(self, **changes)


jax.tree_util.register_dataclass(
    State,
    data_fields=[f.name for f in dataclasses.fields(State) if f.name != "env_id"],
    meta_fields=["env_id"],
)
