"""Small array helpers of the Jupiter twin (:mod:`moon_envs.jax.jupiter`), written for
XLA on the CPU under ``vmap``: masked sums over the few seats instead of gathers, and a
fusion boundary that keeps a value from being recomputed in each of its readers."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp

Array = jax.Array


def computed_once(tree: Any) -> Any:
    """``tree`` unchanged, each array computed once into memory before its readers.

    XLA on the CPU fuses elementwise work into every consumer, repeating it per element:
    the new position would be recomputed for each of the observation's elements. It drops
    ``optimization_barrier`` before fusing, but never fuses a reduction into its
    consumers: so each leaf passes through the maximum of itself and its dtype's least
    value (booleans as int8), which is the leaf, bit for bit."""

    def once(leaf: Array) -> Array:
        value = leaf.astype(jnp.int8) if leaf.dtype == jnp.bool_ else leaf
        if jnp.issubdtype(value.dtype, jnp.floating):
            least = jnp.full_like(value, -jnp.inf)
        else:
            least = jnp.full_like(value, jnp.iinfo(value.dtype).min)
        out = jnp.max(jnp.stack([value, least]), axis=0)
        return out.astype(jnp.bool_) if leaf.dtype == jnp.bool_ else out

    return jax.tree.map(once, tree)


def seats_from(player: Array, n: int) -> Array:
    """int32 ``[n]``: the seats in turn order from ``player`` (``player`` first)."""
    return (player + jnp.arange(n, dtype=jnp.int32)) % n


def rotate(values: Array, seats: Array) -> Array:
    """``values[seats]`` as masked sums over the few seats (no gather)."""
    n = values.shape[0]
    match = seats[:, None] == jnp.arange(n)[None, :]
    return jnp.sum(jnp.where(match, values[None, :], 0), axis=1)


def pick(values: Array, seat: Array) -> Array:
    """``values[seat]`` as a masked sum (cheaper than a gather under ``vmap`` on the CPU)."""
    return jnp.sum(jnp.where(jnp.arange(values.shape[0]) == seat, values, 0))


__all__ = ["computed_once", "pick", "rotate", "seats_from"]
